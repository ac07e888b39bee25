import type { Geometry as GjGeometry } from 'geojson';
import type { StacAsset } from '../../api/records';
import { checkVectorGeoJson } from './geojson';
import { isObj } from '../../api/shape';

/** The fields of an archive STAC item the builder reads (the STAC panel sends the whole item). */
export interface StacItemRef {
  id: string;
  collection: string;
  geometry?: unknown;
  properties?: Record<string, unknown>;
  assets?: Record<string, StacAsset>;
}

/** "Use as insight input" from the STAC panel: the item and the URL the service reads it at. */
export interface StacItemInput {
  item: StacItemRef;
  stacUrl: string;
}

function isHttpUrl(v: string): boolean {
  try {
    const u = new URL(v);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * Reads the argument of `eoImagery.newInsightInput`. No argument (the palette), or one that is
 * not `{stacItem, ...}` (a menu passing its own context), is `undefined`: the command asks as
 * usual. A `{stacItem, stacUrl}` that is malformed is refused with the reason.
 */
export function parseStacItemInput(arg: unknown): { ok: true; value: StacItemInput | undefined } | { ok: false; reason: string } {
  if (!isObj(arg) || !('stacItem' in arg)) return { ok: true, value: undefined };
  const { stacItem: item, stacUrl } = arg;
  if (!isObj(item) || typeof item.id !== 'string' || item.id === '' || typeof item.collection !== 'string' || item.collection === '') {
    return { ok: false, reason: 'the STAC item has no id or collection' };
  }
  if (typeof stacUrl !== 'string' || !isHttpUrl(stacUrl)) {
    return { ok: false, reason: `the STAC item ${item.id} has no http(s) STAC URL to reference` };
  }
  return {
    ok: true,
    value: {
      item: {
        id: item.id,
        collection: item.collection,
        geometry: item.geometry,
        properties: isObj(item.properties) ? item.properties : undefined,
        assets: isObj(item.assets) ? (item.assets as Record<string, StacAsset>) : undefined,
      },
      stacUrl,
    },
  };
}

function bandNames(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  const out: string[] = [];
  for (const b of list) {
    if (!isObj(b)) continue;
    if (typeof b.name === 'string') out.push(b.name);
    if (typeof b.common_name === 'string') out.push(b.common_name);
  }
  return out;
}

/**
 * The band names (and common names) the item declares through the `eo` extension or STAC 1.1
 * `bands`, on the item or its assets. Empty when it declares none: then nothing can be checked
 * here, and the service judges the bands when the insight runs.
 */
export function stacItemBands(item: Pick<StacItemRef, 'properties' | 'assets'>): string[] {
  const names = [...bandNames(item.properties?.['eo:bands']), ...bandNames(item.properties?.bands)];
  for (const a of Object.values(item.assets ?? {})) names.push(...bandNames(a['eo:bands']), ...bandNames(a.bands));
  return [...new Set(names)];
}

/** The item's footprint as GeoJSON geometries, or the reason it has none usable. */
export function stacItemFootprint(item: Pick<StacItemRef, 'id' | 'geometry'>): { ok: true; geometries: GjGeometry[] } | { ok: false; reason: string } {
  if (item.geometry === undefined || item.geometry === null) return { ok: false, reason: `STAC item ${item.id} has no geometry` };
  const check = checkVectorGeoJson(item.geometry);
  return check.ok ? check : { ok: false, reason: `STAC item ${item.id}: ${check.reason}` };
}
