import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  bboxRing,
  lonExtent,
  ringCrossesAntimeridian,
  ringToGeoJson,
  ringToStacBbox,
  unwrapMultiPolygon,
  unwrapPolygon,
  unwrapRing,
  wrapLon,
  type Ring,
} from '../../../src/geo/antimeridian';

const fiji: number[][] = [
  [178, -17],
  [-179, -17],
  [-179, -19],
  [178, -19],
  [178, -17],
];

describe('antimeridian', () => {
  it('wraps longitudes into [-180, 180]', () => {
    assert.equal(wrapLon(190), -170);
    assert.equal(wrapLon(-190), 170);
    assert.equal(wrapLon(540), -180);
    assert.equal(wrapLon(180), 180);
    assert.equal(wrapLon(12.5), 12.5);
  });

  it('unwraps a ring that crosses the dateline into a narrow shape', () => {
    assert.equal(ringCrossesAntimeridian(fiji), true);
    const u = unwrapRing(fiji);
    assert.deepEqual(
      u.map((p) => p[0]),
      [178, 181, 181, 178, 178],
    );
    const [w, e] = lonExtent([u]);
    assert.equal(e - w, 3);
  });

  it('leaves a ring that does not cross alone', () => {
    const ring = [
      [10, 10],
      [20, 10],
      [20, 20],
      [10, 10],
    ];
    assert.equal(ringCrossesAntimeridian(ring), false);
    assert.deepEqual(unwrapRing(ring), ring);
  });

  it('moves holes next to their outer ring', () => {
    const outer = [
      [170, 0],
      [-170, 0],
      [-170, 10],
      [170, 10],
      [170, 0],
    ];
    const hole = [
      [-179, 4],
      [-178, 4],
      [-178, 5],
      [-179, 4],
    ];
    const [o, h] = unwrapPolygon([outer, hole]);
    assert.deepEqual(lonExtent([o]), [170, 190]);
    assert.deepEqual(lonExtent([h]), [181, 182]);
  });

  it('joins a footprint split at the dateline into adjacent parts', () => {
    const east = [
      [
        [170, 0],
        [180, 0],
        [180, 5],
        [170, 5],
        [170, 0],
      ],
    ];
    const west = [
      [
        [-180, 0],
        [-175, 0],
        [-175, 5],
        [-180, 5],
        [-180, 0],
      ],
    ];
    const parts = unwrapMultiPolygon([east, west]);
    assert.deepEqual(lonExtent(parts[1]), [180, 185]);
  });

  it('draws a STAC bbox with west > east as a narrow box', () => {
    const r = bboxRing([178, -19, -179, -17]);
    assert.deepEqual(lonExtent([r]), [178, 181]);
    assert.deepEqual(bboxRing([1, 2, 3, 4]), [
      [1, 2],
      [3, 2],
      [3, 4],
      [1, 4],
      [1, 2],
    ]);
    // 3-D bbox: [w, s, zmin, e, n, zmax]
    assert.deepEqual(lonExtent([bboxRing([170, 0, 0, -170, 5, 100])]), [170, 190]);
  });

  it('turns a drawn ring across the dateline into a STAC bbox with west > east', () => {
    const drawn: Ring = [
      [178, -19],
      [181, -19],
      [181, -17],
      [178, -17],
      [178, -19],
    ];
    assert.deepEqual(ringToStacBbox(drawn), [178, -19, -179, -17]);
    // drawn two worlds to the east: same box
    assert.deepEqual(ringToStacBbox(drawn.map(([x, y]) => [x + 720, y])), [178, -19, -179, -17]);
    assert.deepEqual(
      ringToStacBbox([
        [10, 1],
        [20, 1],
        [20, 2],
        [10, 1],
      ]),
      [10, 1, 20, 2],
    );
  });

  it('splits a drawn ring across the dateline into a MultiPolygon within range', () => {
    const drawn: Ring = [
      [178, -19],
      [181, -19],
      [181, -17],
      [178, -17],
      [178, -19],
    ];
    const g = ringToGeoJson(drawn);
    assert.equal(g.type, 'MultiPolygon');
    if (g.type !== 'MultiPolygon') return;
    assert.equal(g.coordinates.length, 2);
    for (const poly of g.coordinates) {
      const [w, e] = lonExtent(poly);
      assert.ok(w >= -180 && e <= 180, `part within range: ${w}..${e}`);
      const ring = poly[0];
      assert.deepEqual(ring[0], ring[ring.length - 1]);
    }
    assert.deepEqual(lonExtent(g.coordinates[0]), [178, 180]);
    assert.deepEqual(lonExtent(g.coordinates[1]), [-180, -179]);
  });

  it('keeps a ring drawn on another world copy as a Polygon moved back', () => {
    const g = ringToGeoJson([
      [370, 0],
      [380, 0],
      [380, 10],
      [370, 0],
    ]);
    assert.deepEqual(g, {
      type: 'Polygon',
      coordinates: [
        [
          [10, 0],
          [20, 0],
          [20, 10],
          [10, 0],
        ],
      ],
    });
  });
});
