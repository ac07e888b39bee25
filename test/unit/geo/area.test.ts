// geodesicArea gives @turf/area's answer (the formula it replaced in the map's bundle) for
// random polygons with holes and multipolygons, and the same area for a ring drawn across the
// antimeridian as for that ring moved whole to one side.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { area as turfArea } from '@turf/area';
import type { Position } from '../../../src/api/records';
import { geodesicArea } from '../../../src/geo/area';
import { Rng } from '../../../src/sandbox/prng';

/** A star-shaped ring around (lon, lat), radius up to r degrees, closed. */
function ring(next: () => number, lon: number, lat: number, r: number): Position[] {
  const n = 3 + Math.floor(next() * 20);
  const pts: Position[] = [];
  for (let i = 0; i < n; i++) {
    const a = (i / n) * 2 * Math.PI;
    const d = r * (0.3 + 0.7 * next());
    pts.push([lon + d * Math.cos(a), Math.max(-89, Math.min(89, lat + d * Math.sin(a)))]);
  }
  pts.push(pts[0]);
  return pts;
}

describe('geodesicArea', () => {
  it("equals @turf/area's for 500 random polygons and multipolygons", () => {
    const g = new Rng(7);
    const next = (): number => g.next();
    for (let k = 0; k < 500; k++) {
      const lon = -170 + next() * 340;
      const lat = -80 + next() * 160;
      const r = [0.001, 0.1, 2, 8][k % 4];
      const outer = ring(next, lon, lat, r);
      const hole = ring(next, lon, lat, r * 0.2);
      const poly = { type: 'Polygon' as const, coordinates: k % 3 === 0 ? [outer, hole] : [outer] };
      const want = turfArea(poly);
      assert.ok(Math.abs(geodesicArea(poly) - want) <= 1e-9 * Math.max(1, want), `polygon ${k}`);
      const multi = { type: 'MultiPolygon' as const, coordinates: [[outer], [ring(next, lon + r * 3, lat, r)]] };
      const wantMulti = turfArea(multi);
      assert.ok(Math.abs(geodesicArea(multi) - wantMulti) <= 1e-9 * Math.max(1, wantMulti), `multipolygon ${k}`);
    }
  });

  it('a ring across the antimeridian has the area of the same ring on one side', () => {
    const across: Position[] = [
      [178, -19],
      [-179, -19],
      [-179, -16],
      [178, -16],
      [178, -19],
    ];
    const oneSide: Position[] = across.map(([x, y]) => [x < 0 ? x + 360 : x, y]);
    const a = geodesicArea({ type: 'Polygon', coordinates: [across] });
    assert.ok(Math.abs(a - turfArea({ type: 'Polygon', coordinates: [oneSide] })) < 1e-6 * a);
    // 3° × 3° near 17.5° S: about 318 km × 334 km
    assert.ok(a > 1.0e11 && a < 1.1e11, String(a));
  });
});
