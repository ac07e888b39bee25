/** Geodesic area and centroid of polygons, correct for rings that cross the antimeridian. */
import type { MultiPolygon, Polygon, Position } from '../api/records';
import { normalizeLon, unwrapRing } from './bbox';
import { lazy } from '../lazy';

// On first use (src/lazy.ts); the map webview bundles only this turf module.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const turfArea = lazy(() => (require('@turf/area') as typeof import('@turf/area')).area);

function unwrapPolygon(rings: Position[][]): Position[][] {
  return rings.map((r) => unwrapRing(r));
}

/** Area in square metres on the WGS84 sphere (turf's geodesic formula). */
export function geodesicArea(g: Polygon | MultiPolygon): number {
  if (g.type === 'Polygon') return turfArea()({ type: 'Polygon', coordinates: unwrapPolygon(g.coordinates) });
  return turfArea()({ type: 'MultiPolygon', coordinates: g.coordinates.map(unwrapPolygon) });
}

/** Area-weighted planar centroid of the exterior ring, as `[lon, lat]` with lon in -180..180. */
export function polygonCentroid(g: Polygon): [number, number] {
  const ring = unwrapRing(g.coordinates[0]);
  let a = 0;
  let cx = 0;
  let cy = 0;
  for (let i = 0; i < ring.length - 1; i++) {
    const [x0, y0] = ring[i];
    const [x1, y1] = ring[i + 1];
    const f = x0 * y1 - x1 * y0;
    a += f;
    cx += (x0 + x1) * f;
    cy += (y0 + y1) * f;
  }
  if (Math.abs(a) < 1e-12) {
    const n = Math.max(1, ring.length - 1);
    const sx = ring.slice(0, n).reduce((s, p) => s + p[0], 0);
    const sy = ring.slice(0, n).reduce((s, p) => s + p[1], 0);
    return [round6(normalizeLon(sx / n)), round6(sy / n)];
  }
  return [round6(normalizeLon(cx / (3 * a))), round6(cy / (3 * a))];
}

function round6(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

function segmentsCross(a: Position, b: Position, c: Position, d: Position): boolean {
  const o = (p: Position, q: Position, r: Position): number => Math.sign((q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]));
  const o1 = o(a, b, c);
  const o2 = o(a, b, d);
  const o3 = o(c, d, a);
  const o4 = o(c, d, b);
  return o1 !== o2 && o3 !== o4 && o1 !== 0 && o2 !== 0 && o3 !== 0 && o4 !== 0;
}

/** True when two non-adjacent edges of the ring cross (a bow-tie). */
export function ringSelfIntersects(ringIn: Position[]): boolean {
  const ring = unwrapRing(ringIn);
  const n = ring.length - 1;
  for (let i = 0; i < n; i++) {
    for (let j = i + 2; j < n; j++) {
      if (i === 0 && j === n - 1) continue;
      if (segmentsCross(ring[i], ring[i + 1], ring[j], ring[j + 1])) return true;
    }
  }
  return false;
}
