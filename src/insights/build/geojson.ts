import { turfIntersects } from '../../geo/intersects';
import type { Geometry as GjGeometry } from 'geojson';
import type { Polygon } from '../../api/records';
import { isObj } from '../../api/shape';

const GEOMETRY_TYPES = new Set(['Point', 'MultiPoint', 'LineString', 'MultiLineString', 'Polygon', 'MultiPolygon', 'GeometryCollection']);

export type GeoJsonCheck = { ok: true; geometries: GjGeometry[] } | { ok: false; reason: string };

function checkGeometry(g: unknown, where: string): GjGeometry | string {
  if (!isObj(g)) return `${where} is not a geometry object`;
  if (typeof g.type !== 'string' || !GEOMETRY_TYPES.has(g.type)) {
    return `${where} has geometry type ${JSON.stringify(g.type)}, not a GeoJSON geometry type`;
  }
  if (g.type === 'GeometryCollection') {
    if (!Array.isArray(g.geometries)) return `${where} is a GeometryCollection without "geometries"`;
  } else if (!Array.isArray(g.coordinates) || g.coordinates.length === 0) {
    return `${where} has no coordinates`;
  }
  return g as unknown as GjGeometry;
}

/** Accepts a Geometry, a Feature or a FeatureCollection with at least one geometry. */
export function checkVectorGeoJson(doc: unknown): GeoJsonCheck {
  if (!isObj(doc)) return { ok: false, reason: 'the file does not hold a GeoJSON object' };
  const found: GjGeometry[] = [];
  if (doc.type === 'FeatureCollection') {
    if (!Array.isArray(doc.features)) return { ok: false, reason: 'the FeatureCollection has no "features" array' };
    for (const [i, f] of doc.features.entries()) {
      if (!isObj(f) || f.type !== 'Feature') return { ok: false, reason: `features[${i}] is not a Feature` };
      if (f.geometry === null) continue;
      const g = checkGeometry(f.geometry, `features[${i}]`);
      if (typeof g === 'string') return { ok: false, reason: g };
      found.push(g);
    }
  } else if (doc.type === 'Feature') {
    const g = checkGeometry(doc.geometry, 'the Feature');
    if (typeof g === 'string') return { ok: false, reason: g };
    found.push(g);
  } else {
    const g = checkGeometry(doc, 'the document');
    if (typeof g === 'string') return { ok: false, reason: g };
    found.push(g);
  }
  if (found.length === 0) return { ok: false, reason: 'the GeoJSON holds no geometry' };
  return { ok: true, geometries: found };
}

/** True when any of the geometries touches the AOI. */
export function touchesAoi(geometries: readonly GjGeometry[], aoi: Polygon): boolean {
  return geometries.some((g) => turfIntersects()(g, aoi as GjGeometry));
}
