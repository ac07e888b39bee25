import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { searchOver, searchRingOf } from '../../src/commands/map/searchArea';

describe('an AOI as the map search area', () => {
  it('takes the outer ring of a polygon (or of a feature holding one), closed', () => {
    const ring: [number, number][] = [
      [10, 10],
      [11, 10],
      [11, 11],
      [10, 11],
      [10, 10],
    ];
    assert.deepEqual(
      searchRingOf({
        type: 'Polygon',
        coordinates: [
          ring,
          [
            [10.2, 10.2],
            [10.4, 10.2],
            [10.4, 10.4],
            [10.2, 10.2],
          ],
        ],
      }),
      ring,
    );
    assert.deepEqual(
      searchRingOf({ type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [ring.slice(0, 4).concat([[10, 11]])] } })?.at(-1),
      [10, 10],
    );
  });

  it('keeps a polygon split at the antimeridian whole, in continuous longitudes', () => {
    const west: [number, number][] = [
      [179.8, -16.9],
      [180, -16.9],
      [180, -16.7],
      [179.8, -16.7],
      [179.8, -16.9],
    ];
    const east: [number, number][] = [
      [-180, -16.9],
      [-179.9, -16.9],
      [-179.9, -16.7],
      [-180, -16.7],
      [-180, -16.9],
    ];
    const ring = searchRingOf({ type: 'MultiPolygon', coordinates: [[west], [east]] });
    assert.ok(ring);
    const lons = ring.map(([x]) => x);
    assert.equal(Math.min(...lons), 179.8);
    assert.ok(Math.abs(Math.max(...lons) - 180.1) < 1e-9, 'the eastern part moves past 180, not across the world');
  });

  it('unwraps a ring that jumps across the dateline', () => {
    const ring = searchRingOf({
      type: 'Polygon',
      coordinates: [
        [
          [179.9, -16.9],
          [-179.9, -16.9],
          [-179.9, -16.7],
          [179.9, -16.7],
          [179.9, -16.9],
        ],
      ],
    });
    assert.ok(ring);
    const lons = ring.map(([x]) => x);
    assert.ok(Math.max(...lons) - Math.min(...lons) < 1, JSON.stringify(ring));
  });

  it('refuses what has no ring', () => {
    assert.equal(searchRingOf({ type: 'Point', coordinates: [1, 2] }), undefined);
    assert.equal(searchRingOf(null), undefined);
    assert.equal(
      searchRingOf({
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [1, 1],
          ],
        ],
      }),
      undefined,
    );
  });

  it('reuses the last filters with the new area, or searches every date and collection', () => {
    const ring: [number, number][] = [
      [0, 0],
      [1, 0],
      [1, 1],
      [0, 0],
    ];
    assert.deepEqual(searchOver(ring, 'polygon', undefined), {
      kind: 'archive',
      ring,
      shape: 'polygon',
      collections: [],
      satellites: [],
      from: '',
      to: '',
      sort: 'datetime-desc',
      limit: 50,
    });
    const last = {
      kind: 'archive' as const,
      ring: [[5, 5]] as [number, number][],
      shape: 'rectangle' as const,
      collections: ['sentinel-2-l2a'],
      satellites: [],
      from: '2024-01-01',
      to: '2024-12-31',
      maxCloud: 20,
      sort: 'cloud-asc' as const,
      limit: 25,
    };
    assert.deepEqual(searchOver(ring, 'polygon', last), { ...last, ring, shape: 'polygon' });
  });
});
