import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_MERCATOR_LAT, clampLat, project } from '../../../src/geo/mercator';
import { drawableBounds, toDrawable } from '../../../src/geo/drawable';

describe('mercator', () => {
  it('clamps latitudes to the square world', () => {
    assert.ok(Math.abs(MAX_MERCATOR_LAT - 85.0511287798) < 1e-9);
    assert.equal(clampLat(90), MAX_MERCATOR_LAT);
    assert.equal(clampLat(-90), -MAX_MERCATOR_LAT);
    assert.equal(clampLat(45), 45);
  });

  it('projects the corners of the world to the unit square', () => {
    const [x0, y0] = project(-180, MAX_MERCATOR_LAT);
    const [x1, y1] = project(180, -90);
    assert.ok(Math.abs(x0) < 1e-12 && Math.abs(y0) < 1e-9);
    assert.ok(Math.abs(x1 - 1) < 1e-12 && Math.abs(y1 - 1) < 1e-9);
    assert.deepEqual(project(0, 0), [0.5, 0.5]);
  });
});

describe('drawable', () => {
  it('unwraps and clamps polygons, and tolerates junk', () => {
    const d = toDrawable({
      type: 'Polygon',
      coordinates: [
        [
          [179, 89],
          [-179, 89],
          [-179, 80],
          [179, 89],
        ],
      ],
    });
    assert.equal(d.polygons.length, 1);
    const b = drawableBounds(d);
    assert.deepEqual(b, [179, 80, 181, MAX_MERCATOR_LAT]);
    assert.deepEqual(toDrawable(null), { polygons: [], lines: [], points: [] });
    assert.deepEqual(toDrawable({ type: 'Polygon', coordinates: [[['a', 1]]] }).polygons, []);
    assert.equal(drawableBounds(toDrawable({ type: 'Nope' })), undefined);
  });

  it('handles points, lines, multipolygons and collections', () => {
    const d = toDrawable({
      type: 'GeometryCollection',
      geometries: [
        { type: 'Point', coordinates: [5, 6] },
        {
          type: 'LineString',
          coordinates: [
            [170, 0],
            [-170, 1],
          ],
        },
        {
          type: 'MultiPolygon',
          coordinates: [
            [
              [
                [0, 0],
                [1, 0],
                [1, 1],
                [0, 0],
              ],
            ],
            [
              [
                [2, 2],
                [3, 2],
                [3, 3],
                [2, 2],
              ],
            ],
          ],
        },
      ],
    });
    assert.deepEqual(d.points, [[5, 6]]);
    assert.deepEqual(d.lines, [
      [
        [170, 0],
        [190, 1],
      ],
    ]);
    assert.equal(d.polygons.length, 2);
  });
});
