/**
 * An AOI's outline as the map's search area: the closed outer ring of its polygon (of its
 * largest part when it has several, e.g. split at the antimeridian, with the other parts moved
 * next to it so the ring stays whole). Pure: no `vscode`.
 */
import type { SearchParams } from '../../panels/protocol';
import { unwrapRing, type Ring } from '../../geo/antimeridian';

const isPos = (p: unknown): p is [number, number] => Array.isArray(p) && typeof p[0] === 'number' && typeof p[1] === 'number';
const isRing = (r: unknown): r is Ring => Array.isArray(r) && r.length >= 4 && r.every(isPos);

export function searchRingOf(geometry: unknown): Ring | undefined {
  const g = geometry as { type?: unknown; coordinates?: unknown; geometry?: unknown } | null;
  if (!g || typeof g !== 'object') return undefined;
  if (g.type === 'Feature') return searchRingOf(g.geometry);
  // A ring that jumps across the dateline (179.9 → -179.9) is unwrapped into continuous longitudes.
  if (g.type === 'Polygon' && Array.isArray(g.coordinates) && isRing(g.coordinates[0])) return close(unwrapRing(g.coordinates[0]));
  if (g.type === 'MultiPolygon' && Array.isArray(g.coordinates)) {
    const rings = g.coordinates.map((p: unknown) => (Array.isArray(p) ? p[0] : undefined)).filter(isRing);
    if (!rings.length) return undefined;
    if (rings.length === 1) return close(unwrapRing(rings[0]));
    // Parts on both sides of the dateline: one ring around all of them, in continuous longitudes.
    const all = rings.flat();
    const east = all.some(([x]) => x > 90);
    const west = all.some(([x]) => x < -90);
    const lons = all.map(([x]) => (east && west && x < 0 ? x + 360 : x));
    const lats = all.map(([, y]) => y);
    const [w, e, s, n] = [Math.min(...lons), Math.max(...lons), Math.min(...lats), Math.max(...lats)];
    return [
      [w, s],
      [e, s],
      [e, n],
      [w, n],
      [w, s],
    ];
  }
  return undefined;
}

function close(r: Ring): Ring {
  const [a, b] = [r[0], r[r.length - 1]];
  return a[0] === b[0] && a[1] === b[1] ? r : [...r, [a[0], a[1]]];
}

/** The search to run over `ring`: the map's last filters when there were any, else all dates and collections. */
export function searchOver(ring: Ring, shape: 'rectangle' | 'polygon', last: SearchParams | undefined): SearchParams {
  const base: SearchParams = last ?? { kind: 'archive', ring, shape, collections: [], satellites: [], from: '', to: '', sort: 'datetime-desc', limit: 50 };
  return { ...base, ring, shape };
}
