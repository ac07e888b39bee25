/** Geodesic area and centroid of polygons, correct for rings that cross the antimeridian. */
import type { MultiPolygon, Polygon, Position } from '../api/records';
import { normalizeLon, unwrapRing } from './bbox';

/**
 * The sphere turf's `area` uses (@turf/helpers' earthRadius, the mean radius in metres), and
 * its formula (the spherical excess of each ring, after Chamberlain and Duquette, "Some
 * algorithms for polygons on a sphere", JPL 2007). Written here because @turf/area and the two
 * turf packages it pulls in were 12.7 KB of the map's first paint for these lines; a unit test
 * holds the result to @turf/area's over random polygons.
 */
const EARTH_RADIUS = 6371008.8;
const FACTOR = (EARTH_RADIUS * EARTH_RADIUS) / 2;
const RAD = Math.PI / 180;

function ringArea(ring: Position[]): number {
  const n = ring.length - 1;
  if (n <= 2) return 0;
  let total = 0;
  for (let i = 0; i < n; i++) {
    const lower = ring[i];
    const middle = ring[i + 1 === n ? 0 : i + 1];
    const upper = ring[i + 2 >= n ? (i + 2) % n : i + 2];
    total += (upper[0] * RAD - lower[0] * RAD) * Math.sin(middle[1] * RAD);
  }
  return total * FACTOR;
}

function polygonArea(rings: Position[][]): number {
  if (!rings.length) return 0;
  let total = Math.abs(ringArea(rings[0]));
  for (let i = 1; i < rings.length; i++) total -= Math.abs(ringArea(rings[i]));
  return total;
}

function unwrapPolygon(rings: Position[][]): Position[][] {
  return rings.map((r) => unwrapRing(r));
}

/** Area in square metres on the sphere, with rings unwrapped across the antimeridian. */
export function geodesicArea(g: Polygon | MultiPolygon): number {
  if (g.type === 'Polygon') return polygonArea(unwrapPolygon(g.coordinates));
  return g.coordinates.reduce((sum, p) => sum + polygonArea(unwrapPolygon(p)), 0);
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
export function ringSelfIntersects(ring: Position[]): boolean {
  return ringSelfIntersection(ring) === 'crosses';
}

/**
 * Whether two non-adjacent edges of the ring cross (a bow-tie): `'crosses'` or `'none'`, or
 * `'too-intricate'` when finding out would compare more than `maxPairs` pairs of edges.
 * A sweep over the edges sorted by their west end compares only edges whose longitudes
 * overlap: a few per edge for a real outline (n log n), every pair only for a ring whose
 * edges all span the same longitudes, which `maxPairs` bounds.
 */
export function ringSelfIntersection(ringIn: Position[], maxPairs = Infinity): 'none' | 'crosses' | 'too-intricate' {
  const ring = unwrapRing(ringIn);
  const n = ring.length - 1;
  if (n < 4) return 'none';
  const west = new Float64Array(n);
  const east = new Float64Array(n);
  const south = new Float64Array(n);
  const north = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const [ax, ay] = ring[i];
    const [bx, by] = ring[i + 1];
    west[i] = Math.min(ax, bx);
    east[i] = Math.max(ax, bx);
    south[i] = Math.min(ay, by);
    north[i] = Math.max(ay, by);
  }
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => west[a] - west[b]);
  const active: number[] = [];
  let pairs = 0;
  for (const i of order) {
    let kept = 0;
    for (let k = 0; k < active.length; k++) {
      const j = active[k];
      if (east[j] < west[i]) continue; // ends west of every edge still to come
      active[kept++] = j;
      const gap = Math.abs(i - j);
      if (gap === 1 || gap === n - 1) continue; // neighbours share a vertex
      if (++pairs > maxPairs) return 'too-intricate';
      if (north[i] < south[j] || north[j] < south[i]) continue;
      const [a, b] = i < j ? [i, j] : [j, i];
      if (segmentsCross(ring[a], ring[a + 1], ring[b], ring[b + 1])) return 'crosses';
    }
    active.length = kept;
    active.push(i);
  }
  return 'none';
}
