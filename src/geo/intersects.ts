/**
 * True geometric intersection (not only bounding boxes), via @turf/boolean-intersects, made
 * antimeridian-aware: rings are unwrapped to continuous longitudes and the second geometry is
 * also tried shifted by ±360 degrees.
 */
import type { Geometry, Position } from '../api/records';
import { unwrapRing } from './bbox';
import { lazy } from '../lazy';

/** turf's booleanIntersects, loaded on first use (src/lazy.ts). */
export const turfIntersects = lazy(
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  () => (require('@turf/boolean-intersects') as typeof import('@turf/boolean-intersects')).booleanIntersects,
);

function mapRings(g: Geometry, f: (r: Position[]) => Position[]): Geometry {
  switch (g.type) {
    case 'Point':
      return { type: 'Point', coordinates: f([g.coordinates])[0] };
    case 'LineString':
      return { type: 'LineString', coordinates: f(g.coordinates) };
    case 'Polygon':
      return { type: 'Polygon', coordinates: g.coordinates.map(f) };
    case 'MultiPolygon':
      return { type: 'MultiPolygon', coordinates: g.coordinates.map((p) => p.map(f)) };
  }
}

function shifted(g: Geometry, dx: number): Geometry {
  return mapRings(g, (r) => r.map((p) => [p[0] + dx, p[1]] as Position));
}

export function unwrapGeometry(g: Geometry): Geometry {
  return mapRings(g, unwrapRing);
}

export function geometriesIntersect(a: Geometry, b: Geometry): boolean {
  const ua = unwrapGeometry(a);
  const ub = unwrapGeometry(b);
  return turfIntersects()(ua, ub) || turfIntersects()(ua, shifted(ub, 360)) || turfIntersects()(ua, shifted(ub, -360));
}
