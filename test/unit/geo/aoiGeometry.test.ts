import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { aoiPolygonFromGeoJsonText, selfIntersection } from '../../../src/geo/aoiGeometry';

const square = {
  type: 'Polygon',
  coordinates: [
    [
      [0, 0],
      [1, 0],
      [1, 1],
      [0, 1],
      [0, 0],
    ],
  ],
};
const reason = (text: string): string => {
  const r = aoiPolygonFromGeoJsonText(text);
  assert.equal(r.ok, false);
  return r.ok ? '' : r.reason;
};

describe('AOI geometry from GeoJSON', () => {
  it('accepts a Polygon, a Feature and a one-feature FeatureCollection', () => {
    const feature = { type: 'Feature', properties: {}, geometry: square };
    for (const g of [square, feature, { type: 'FeatureCollection', features: [feature] }]) {
      const r = aoiPolygonFromGeoJsonText(JSON.stringify(g));
      assert.ok(r.ok);
      if (r.ok) assert.deepEqual(r.polygon, square);
    }
  });

  it('refuses everything else with the reason', () => {
    assert.match(reason('{'), /not valid JSON/);
    assert.match(reason('[]'), /not an object/);
    assert.match(reason('{"type":"FeatureCollection","features":[]}'), /holds 0 features/);
    const f = { type: 'Feature', properties: {}, geometry: square };
    assert.match(reason(JSON.stringify({ type: 'FeatureCollection', features: [f, f] })), /holds 2 features/);
    assert.match(reason('{"type":"Point","coordinates":[0,0]}'), /Point; an AOI needs a Polygon/);
    assert.match(reason('{"type":"MultiPolygon","coordinates":[]}'), /MultiPolygon/);
    assert.match(reason('{"type":"Feature","properties":{},"geometry":null}'), /no geometry/);
    assert.match(reason('{"type":"Polygon","coordinates":[[[0,0],[1,0],[0,0]]]}'), /at least 4/);
    assert.match(reason('{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1]]]}'), /not closed/);
    assert.match(reason('{"type":"Polygon","coordinates":[[[0,0],[200,0],[1,1],[0,0]]]}'), /Longitude 200/);
    assert.match(reason('{"type":"Polygon","coordinates":[[[0,0],[1,"x"],[1,1],[0,0]]]}'), /not \[longitude, latitude\]/);
    // a bow tie
    assert.match(reason('{"type":"Polygon","coordinates":[[[0,0],[1,1],[1,0],[0,1],[0,0]]]}'), /intersects itself/);
  });

  it('finds self-intersections but not shared neighbour vertices', () => {
    assert.equal(selfIntersection(square.coordinates[0] as [number, number][]), undefined);
    assert.deepEqual(
      selfIntersection([
        [0, 0],
        [1, 1],
        [1, 0],
        [0, 1],
        [0, 0],
      ]),
      [0, 2],
    );
  });
});
