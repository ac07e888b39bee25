import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { collectionOfFootprints, orderGeometryFromGeoJson, orderGeometryFromText } from '../../../src/orders/orderGeometry';

const square = (x: number, y: number): number[][][] => [
  [
    [x, y],
    [x + 1, y],
    [x + 1, y + 1],
    [x, y + 1],
    [x, y],
  ],
];
const feature = (geometry: unknown): unknown => ({ type: 'Feature', properties: {}, geometry });

describe('order geometry from GeoJSON', () => {
  it('accepts a FeatureCollection of Polygon features', () => {
    const r = orderGeometryFromGeoJson({
      type: 'FeatureCollection',
      features: [feature({ type: 'Polygon', coordinates: square(0, 0) }), feature({ type: 'Polygon', coordinates: square(5, 5) })],
    });
    assert.ok(r.ok);
    assert.equal(r.collection.features.length, 2);
    assert.equal(r.collection.features[1].geometry.type, 'Polygon');
  });

  it('names the offending feature index for a non-Polygon feature', () => {
    const r = orderGeometryFromGeoJson({
      type: 'FeatureCollection',
      features: [feature({ type: 'Polygon', coordinates: square(0, 0) }), feature({ type: 'Point', coordinates: [1, 2] })],
    });
    assert.equal(r.ok, false);
    assert.ok(!r.ok);
    assert.equal(r.featureIndex, 1);
    assert.match(r.reason, /Feature 1 is a Point/);
  });

  it('names the feature whose ring is not closed', () => {
    const open = [
      [
        [0, 0],
        [1, 0],
        [1, 1],
        [0, 1],
      ],
    ];
    const r = orderGeometryFromGeoJson({
      type: 'FeatureCollection',
      features: [
        feature({ type: 'Polygon', coordinates: square(0, 0) }),
        feature({ type: 'Polygon', coordinates: square(2, 2) }),
        feature({ type: 'Polygon', coordinates: open }),
      ],
    });
    assert.ok(!r.ok);
    assert.equal(r.featureIndex, 2);
    assert.match(r.reason, /Feature 2/);
  });

  it('refuses a bare Polygon, an empty collection, a non-Feature entry and bad JSON', () => {
    const bare = orderGeometryFromGeoJson({ type: 'Polygon', coordinates: square(0, 0) });
    assert.ok(!bare.ok);
    assert.match(bare.reason, /is a Polygon; a tasking order needs a FeatureCollection/);
    const empty = orderGeometryFromGeoJson({ type: 'FeatureCollection', features: [] });
    assert.ok(!empty.ok);
    assert.match(empty.reason, /no features/);
    const notFeature = orderGeometryFromGeoJson({ type: 'FeatureCollection', features: [{ type: 'Polygon', coordinates: square(0, 0) }] });
    assert.ok(!notFeature.ok);
    assert.equal(notFeature.featureIndex, 0);
    const text = orderGeometryFromText('{"type": ');
    assert.ok(!text.ok);
    assert.match(text.reason, /not valid JSON/);
  });

  it('refuses out-of-range coordinates with the feature index', () => {
    const r = orderGeometryFromGeoJson({ type: 'FeatureCollection', features: [feature({ type: 'Polygon', coordinates: square(200, 0) })] });
    assert.ok(!r.ok);
    assert.equal(r.featureIndex, 0);
    assert.match(r.reason, /Longitude/);
  });

  it('turns archive footprints into Polygon features, splitting MultiPolygons and skipping points', () => {
    const fc = collectionOfFootprints([
      { id: 'a', geometry: { type: 'Polygon', coordinates: square(0, 0) as [number, number][][] } },
      { id: 'b', geometry: { type: 'MultiPolygon', coordinates: [square(179, 0), square(-180, 0)] as [number, number][][][] } },
      { id: 'c', geometry: { type: 'Point', coordinates: [0, 0] } },
    ]);
    assert.equal(fc.features.length, 3);
    assert.deepEqual(
      fc.features.map((f) => f.properties?.item_id),
      ['a', 'b', 'b'],
    );
  });
});
