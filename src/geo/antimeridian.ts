/**
 * Shapes that cross the antimeridian (±180° longitude).
 *
 * GeoJSON keeps longitudes in [-180, 180], so a footprint over Fiji jumps from 179 to -179
 * between two vertices; drawn naively in Web Mercator that edge becomes a band across the
 * whole world. For drawing we "unwrap" such shapes: longitudes are made continuous (179 then
 * 181), which a planar map draws as one small shape in the right place. For sending shapes
 * back to the service we do the reverse: wrap into [-180, 180] and, where a shape really
 * crosses, split it into a MultiPolygon (RFC 7946 §3.1.9) or use a bbox with west > east.
 */

export type Lon = number;
export type Pos = [number, number];
export type Ring = Pos[];

/** Longitude folded into [-180, 180); 180 itself stays 180 so that closing edges survive. */
export function wrapLon(lon: Lon): Lon {
  if (lon >= -180 && lon <= 180) return lon;
  return ((((lon + 180) % 360) + 360) % 360) - 180;
}

/**
 * Makes longitudes continuous along a ring: each vertex is moved by a multiple of 360 so that
 * no edge spans more than 180° of longitude. The first vertex stays where it is.
 */
export function unwrapRing(ring: readonly (readonly number[])[]): Ring {
  const out: Ring = [];
  let prev: number | undefined;
  for (const p of ring) {
    let lon = p[0];
    const lat = p[1];
    if (prev !== undefined) {
      while (lon - prev > 180) lon -= 360;
      while (lon - prev < -180) lon += 360;
    }
    out.push([lon, lat]);
    prev = lon;
  }
  return out;
}

/** True when consecutive vertices of the ring (as given, wrapped) jump across ±180. */
export function ringCrossesAntimeridian(ring: readonly (readonly number[])[]): boolean {
  for (let i = 1; i < ring.length; i++) {
    if (Math.abs(ring[i][0] - ring[i - 1][0]) > 180) return true;
  }
  return false;
}

function meanLon(ring: Ring): number {
  let s = 0;
  for (const p of ring) s += p[0];
  return ring.length ? s / ring.length : 0;
}

function shiftRing(ring: Ring, by: number): Ring {
  return by === 0 ? ring : ring.map(([x, y]) => [x + by, y] as Pos);
}

/** The multiple of 360 that brings `lon` nearest to `target`. */
function shiftToward(lon: number, target: number): number {
  return Math.round((target - lon) / 360) * 360;
}

/**
 * A polygon (outer ring + holes) prepared for drawing: every ring unwrapped, holes moved next
 * to the outer ring.
 */
export function unwrapPolygon(rings: readonly (readonly (readonly number[])[])[]): Ring[] {
  if (rings.length === 0) return [];
  const outer = unwrapRing(rings[0]);
  const centre = meanLon(outer);
  return [
    outer,
    ...rings.slice(1).map((r) => {
      const u = unwrapRing(r);
      return shiftRing(u, shiftToward(meanLon(u), centre));
    }),
  ];
}

/**
 * A multipolygon prepared for drawing: each part unwrapped, and parts moved by multiples of
 * 360 next to the first part, so that a footprint split at the antimeridian (one part ending
 * at 180, the other starting at -180) is drawn as one shape.
 */
export function unwrapMultiPolygon(polys: readonly (readonly (readonly (readonly number[])[])[])[]): Ring[][] {
  const parts = polys.map((p) => unwrapPolygon(p)).filter((p) => p.length > 0);
  if (parts.length === 0) return [];
  const centre = meanLon(parts[0][0]);
  return parts.map((rings, i) => {
    if (i === 0) return rings;
    const by = shiftToward(meanLon(rings[0]), centre);
    return rings.map((r) => shiftRing(r, by));
  });
}

export type BBox = [number, number, number, number];

/**
 * The ring of a bbox for drawing. A STAC bbox whose west is larger than its east crosses the
 * antimeridian: its east edge is moved by +360 so the box is drawn narrow, not world-wide.
 */
export function bboxRing(bbox: readonly number[]): Ring {
  const [w, s, e0, n] = bbox.length >= 6 ? [bbox[0], bbox[1], bbox[3], bbox[4]] : bbox;
  const e = e0 < w ? e0 + 360 : e0;
  return [
    [w, s],
    [e, s],
    [e, n],
    [w, n],
    [w, s],
  ];
}

/** Longitudinal extent of unwrapped rings (may go beyond ±180). */
export function lonExtent(rings: readonly Ring[]): [number, number] {
  let min = Infinity;
  let max = -Infinity;
  for (const r of rings)
    for (const [x] of r) {
      if (x < min) min = x;
      if (x > max) max = x;
    }
  return [min, max];
}

/**
 * Moves an unwrapped ring (e.g. drawn on a map scrolled past the dateline) back so that its
 * centre lies in [-180, 180). Its vertices may still lie beyond ±180 when it crosses.
 */
export function recentreRing(ring: Ring): Ring {
  const c = meanLon(ring);
  return shiftRing(ring, wrapLon(c) - c);
}

/** Clips a ring to the half-plane x <= limit (keep = 'west') or x >= limit ('east'). */
function clipRing(ring: Ring, limit: number, keep: 'west' | 'east'): Ring {
  const inside = (p: Pos) => (keep === 'west' ? p[0] <= limit : p[0] >= limit);
  const out: Ring = [];
  const n = ring.length - 1; // ring is closed: last == first
  for (let i = 0; i < n; i++) {
    const a = ring[i];
    const b = ring[i + 1];
    const ina = inside(a);
    const inb = inside(b);
    if (ina) out.push(a);
    if (ina !== inb) {
      const t = (limit - a[0]) / (b[0] - a[0]);
      out.push([limit, a[1] + t * (b[1] - a[1])]);
    }
  }
  if (out.length > 0) out.push([out[0][0], out[0][1]]);
  return out.length >= 4 ? out : [];
}

/**
 * A ring in any longitude range (unwrapped, possibly crossing ±180) as GeoJSON the service
 * accepts: a Polygon when it stays on one side, otherwise a MultiPolygon split at the
 * antimeridian with every longitude in [-180, 180].
 */
export function ringToGeoJson(ring: Ring): { type: 'Polygon'; coordinates: Ring[] } | { type: 'MultiPolygon'; coordinates: Ring[][] } {
  const r = recentreRing(unwrapRing(ring));
  const [min, max] = lonExtent([r]);
  if (min >= -180 && max <= 180) return { type: 'Polygon', coordinates: [r] };
  const limit = max > 180 ? 180 : -180;
  const west = clipRing(r, limit, 'west');
  const east = clipRing(r, limit, 'east');
  // The part beyond the dateline moves by 360 so that every longitude lands in [-180, 180].
  const moved = (x: Ring, by: number): Ring => x.map(([lon, lat]) => [lon + by, lat] as Pos);
  const parts = (limit === 180 ? [west, moved(east, -360)] : [moved(west, 360), east]).filter((p) => p.length > 0).map((p) => [p]);
  return parts.length === 1 ? { type: 'Polygon', coordinates: parts[0] } : { type: 'MultiPolygon', coordinates: parts };
}

/**
 * The bbox of an unwrapped ring in STAC form: longitudes wrapped into [-180, 180], west > east
 * when the ring crosses the antimeridian, and the whole world when it spans 360° or more.
 */
export function ringToStacBbox(ring: Ring): BBox {
  const r = recentreRing(unwrapRing(ring));
  let [w, e] = lonExtent([r]);
  let s = Infinity;
  let n = -Infinity;
  for (const [, y] of r) {
    if (y < s) s = y;
    if (y > n) n = y;
  }
  if (e - w >= 360) return [-180, s, 180, n];
  w = wrapLon(w);
  e = wrapLon(e);
  if (w === 180 && e !== 180) w = -180;
  return [w, s, e, n];
}
