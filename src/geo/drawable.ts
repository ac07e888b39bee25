/**
 * Any GeoJSON geometry the service sends, turned into what a planar map can draw: polygon
 * rings unwrapped across the antimeridian and clamped to Web Mercator's latitudes, points and
 * lines likewise. Pure, shared by the map webview and its tests.
 */
import { unwrapMultiPolygon, unwrapPolygon, unwrapRing, type Pos, type Ring } from './antimeridian';
import { clampLat } from './mercator';

export interface Drawable {
  /** Each polygon: outer ring first, then holes; longitudes may lie beyond ±180. */
  polygons: Ring[][];
  lines: Ring[];
  points: Pos[];
}

type Coords = readonly number[];

function clampRing(r: Ring): Ring {
  return r.map(([x, y]) => [x, clampLat(y)] as Pos);
}

function isPos(p: unknown): p is Coords {
  return Array.isArray(p) && p.length >= 2 && Number.isFinite(p[0]) && Number.isFinite(p[1]);
}

function ringOk(r: unknown): r is Coords[] {
  return Array.isArray(r) && r.length >= 3 && r.every(isPos);
}

/** Unknown input is tolerated: malformed parts are dropped rather than thrown. */
export function toDrawable(geometry: unknown): Drawable {
  const out: Drawable = { polygons: [], lines: [], points: [] };
  add(geometry, out, 0);
  return out;
}

function add(g: unknown, out: Drawable, depth: number): void {
  if (!g || typeof g !== 'object' || depth > 3) return;
  const { type, coordinates, geometries } = g as { type?: unknown; coordinates?: unknown; geometries?: unknown };
  switch (type) {
    case 'Polygon':
      if (Array.isArray(coordinates) && coordinates.every(ringOk) && coordinates.length > 0) {
        out.polygons.push(unwrapPolygon(coordinates as Coords[][]).map(clampRing));
      }
      return;
    case 'MultiPolygon':
      if (Array.isArray(coordinates)) {
        const ok = coordinates.filter((p): p is Coords[][] => Array.isArray(p) && p.length > 0 && p.every(ringOk));
        for (const poly of unwrapMultiPolygon(ok)) out.polygons.push(poly.map(clampRing));
      }
      return;
    case 'LineString':
      if (Array.isArray(coordinates) && coordinates.length >= 2 && coordinates.every(isPos)) {
        out.lines.push(clampRing(unwrapRing(coordinates as Coords[])));
      }
      return;
    case 'MultiLineString':
      if (Array.isArray(coordinates)) {
        for (const l of coordinates) add({ type: 'LineString', coordinates: l }, out, depth + 1);
      }
      return;
    case 'Point':
      if (isPos(coordinates)) out.points.push([coordinates[0], clampLat(coordinates[1])]);
      return;
    case 'MultiPoint':
      if (Array.isArray(coordinates)) for (const p of coordinates) if (isPos(p)) out.points.push([p[0], clampLat(p[1])]);
      return;
    case 'GeometryCollection':
      if (Array.isArray(geometries)) for (const x of geometries) add(x, out, depth + 1);
      return;
    default:
      return;
  }
}

/** [west, south, east, north] of a drawable; west/east unwrapped (may exceed ±180). */
export function drawableBounds(d: Drawable): [number, number, number, number] | undefined {
  let w = Infinity,
    s = Infinity,
    e = -Infinity,
    n = -Infinity;
  const see = (x: number, y: number) => {
    if (x < w) w = x;
    if (x > e) e = x;
    if (y < s) s = y;
    if (y > n) n = y;
  };
  for (const p of d.polygons) for (const [x, y] of p[0]) see(x, y);
  for (const l of d.lines) for (const [x, y] of l) see(x, y);
  for (const [x, y] of d.points) see(x, y);
  return w === Infinity ? undefined : [w, s, e, n];
}
