/**
 * The geometry of an order item: a FeatureCollection of Polygon features (docs/service-interface.md). Taken
 * from a GeoJSON file open in the editor, an AOI, or archive item footprints. Anything else is
 * refused here, before a request is sent, with the reason and the offending feature's index so
 * the person can find it in the file. Pure: no `vscode`.
 */
import type { Feature, FeatureCollection, Geometry, Polygon } from '../api/records';
import { validatePolygon } from '../geo/aoiGeometry';
import { isObj } from '../api/shape';

export type OrderGeometryResult = { ok: true; collection: FeatureCollection<Polygon> } | { ok: false; reason: string; featureIndex?: number };

export function orderGeometryFromText(text: string): OrderGeometryResult {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    // Recovers into a refusal with the reason: a file that is not JSON is the person's to fix.
    return { ok: false, reason: `The file is not valid JSON (${e instanceof Error ? e.message : String(e)}).` };
  }
  return orderGeometryFromGeoJson(json);
}

export function orderGeometryFromGeoJson(json: unknown): OrderGeometryResult {
  if (!isObj(json)) return { ok: false, reason: 'The GeoJSON is not an object.' };
  if (json.type !== 'FeatureCollection') {
    const kind = typeof json.type === 'string' ? `a ${json.type}` : 'not typed';
    return { ok: false, reason: `The GeoJSON is ${kind}; a tasking order needs a FeatureCollection of Polygon features.` };
  }
  if (!Array.isArray(json.features)) return { ok: false, reason: 'The FeatureCollection has no "features" array.' };
  if (json.features.length === 0) return { ok: false, reason: 'The FeatureCollection has no features.' };
  const features: Feature<Polygon>[] = [];
  for (let i = 0; i < json.features.length; i++) {
    const f: unknown = json.features[i];
    const at = `Feature ${i}`;
    if (!isObj(f) || f.type !== 'Feature') {
      return { ok: false, featureIndex: i, reason: `${at} is not a GeoJSON Feature.` };
    }
    if (!isObj(f.geometry)) return { ok: false, featureIndex: i, reason: `${at} has no geometry.` };
    if (f.geometry.type !== 'Polygon') {
      return { ok: false, featureIndex: i, reason: `${at} is a ${String(f.geometry.type)}; only Polygon features can be ordered.` };
    }
    const checked = validatePolygon(f.geometry as { coordinates?: unknown });
    if (!checked.ok) return { ok: false, featureIndex: i, reason: `${at}: ${checked.reason}` };
    const properties = isObj(f.properties) ? f.properties : {};
    features.push({ type: 'Feature', geometry: checked.polygon, properties });
  }
  return { ok: true, collection: { type: 'FeatureCollection', features } };
}

/** One Polygon as the collection an order item carries (an AOI's geometry). */
export function collectionOfPolygon(polygon: Polygon, properties: Record<string, unknown> = {}): FeatureCollection<Polygon> {
  return { type: 'FeatureCollection', features: [{ type: 'Feature', geometry: polygon, properties }] };
}

/**
 * Archive item footprints as Polygon features: a MultiPolygon footprint (an item split at the
 * antimeridian) becomes one feature per part. Footprints that are not areas are skipped.
 */
export function collectionOfFootprints(items: readonly { id: string; geometry: Geometry }[]): FeatureCollection<Polygon> {
  const features: Feature<Polygon>[] = [];
  for (const item of items) {
    const g = item.geometry;
    if (g.type === 'Polygon') features.push({ type: 'Feature', geometry: g, properties: { item_id: item.id } });
    else if (g.type === 'MultiPolygon') {
      for (const coordinates of g.coordinates) {
        features.push({ type: 'Feature', geometry: { type: 'Polygon', coordinates }, properties: { item_id: item.id } });
      }
    }
  }
  return { type: 'FeatureCollection', features };
}
