/**
 * Bounding boxes in WGS84 `[west, south, east, north]`. A box whose west is larger than its east
 * crosses the antimeridian (STAC / GeoJSON convention), so every test here handles that case.
 */
import type { Geometry, Position } from '../api/records';

export type BBox = [number, number, number, number];

/** Splits an antimeridian-crossing box into two ordinary ones (west <= east each). */
export function splitBbox(b: BBox): BBox[] {
  const [w, s, e, n] = b;
  return w > e
    ? [
        [w, s, 180, n],
        [-180, s, e, n],
      ]
    : [b];
}

export function bboxesIntersect(a: BBox, b: BBox): boolean {
  for (const p of splitBbox(a)) {
    for (const q of splitBbox(b)) {
      if (p[0] <= q[2] && q[0] <= p[2] && p[1] <= q[3] && q[1] <= p[3]) return true;
    }
  }
  return false;
}

/** True when `inner` lies wholly inside `outer`. */
export function bboxContains(outer: BBox, inner: BBox): boolean {
  const outs = splitBbox(outer);
  return splitBbox(inner).every((q) => outs.some((p) => p[0] <= q[0] && q[2] <= p[2] && p[1] <= q[1] && q[3] <= p[3]));
}

export function isValidBbox(b: unknown): b is BBox {
  if (!Array.isArray(b) || b.length !== 4) return false;
  if (!b.every((v) => typeof v === 'number' && Number.isFinite(v))) return false;
  const [w, s, e, n] = b as number[];
  return w >= -180 && w <= 180 && e >= -180 && e <= 180 && s >= -90 && n <= 90 && s <= n;
}

export function normalizeLon(lon: number): number {
  const x = ((((lon + 180) % 360) + 360) % 360) - 180;
  return x === -180 && lon > 0 ? 180 : x;
}

/**
 * Makes a ring's longitudes continuous: an edge that jumps by more than 180 degrees is read as
 * crossing the antimeridian, so later positions are shifted by 360. Area, centroid and
 * intersection are computed on the unwrapped ring.
 */
export function unwrapRing(ring: Position[]): Position[] {
  const out: Position[] = [];
  let shift = 0;
  let prev: number | undefined;
  for (const p of ring) {
    if (prev !== undefined) {
      const d = p[0] - prev;
      if (d > 180) shift -= 360;
      else if (d < -180) shift += 360;
    }
    prev = p[0];
    out.push([p[0] + shift, p[1]]);
  }
  return out;
}

function ringsOf(g: Geometry): Position[][] {
  switch (g.type) {
    case 'Point':
      return [[g.coordinates]];
    case 'LineString':
      return [g.coordinates];
    case 'Polygon':
      return g.coordinates;
    case 'MultiPolygon':
      return g.coordinates.flat();
  }
}

/**
 * The bounding box of a geometry. Rings are unwrapped first, so a polygon over the antimeridian
 * gets west > east; a MultiPolygon split at the antimeridian (parts touching +180 and -180)
 * does too.
 */
export function geometryBbox(g: Geometry): BBox {
  const lons: number[] = [];
  let s = Infinity;
  let n = -Infinity;
  for (const ring of ringsOf(g)) {
    for (const p of unwrapRing(ring)) {
      lons.push(p[0]);
      if (p[1] < s) s = p[1];
      if (p[1] > n) n = p[1];
    }
  }
  let w = Math.min(...lons);
  let e = Math.max(...lons);
  if (g.type === 'MultiPolygon' && w <= -180 + 1e-9 && e >= 180 - 1e-9) {
    // Parts split at the antimeridian: the box is the complement of the widest empty gap.
    const sorted = [...new Set(lons)].sort((a, b) => a - b);
    let gap = 0;
    for (let i = 1; i < sorted.length; i++) {
      if (sorted[i] - sorted[i - 1] > gap) {
        gap = sorted[i] - sorted[i - 1];
        e = sorted[i - 1];
        w = sorted[i];
      }
    }
    if (gap === 0) {
      w = -180;
      e = 180;
    }
  }
  if (e - w >= 360) return [-180, s, 180, n];
  const r9 = (x: number): number => Math.round(x * 1e9) / 1e9;
  return [r9(normalizeLon(w)), s, r9(normalizeLon(e)), n];
}

export function bboxPolygon(b: BBox): Geometry {
  const [w, s, e, n] = b;
  const east = w > e ? e + 360 : e;
  return {
    type: 'Polygon',
    coordinates: [
      [
        [w, s],
        [east, s],
        [east, n],
        [w, n],
        [w, s],
      ],
    ],
  };
}
