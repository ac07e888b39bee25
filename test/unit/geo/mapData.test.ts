import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { aoiFeature, archiveSearchBody, catalogFeature, imagerySearchBody, mapTargetOf, orderItemFeatures } from '../../../src/panels/mapData';
import type { Aoi, OrderItem } from '../../../src/api/records';
import type { SearchParams } from '../../../src/panels/protocol';
import { tileOrigins, contentSecurityPolicy } from '../../../src/panels/webviewHtml';

const base: SearchParams = {
  kind: 'archive',
  ring: [
    [178, -19],
    [181, -19],
    [181, -17],
    [178, -17],
    [178, -19],
  ],
  shape: 'rectangle',
  collections: ['c1'],
  satellites: ['s1'],
  from: '2024-01-01',
  to: '2024-02-01',
  maxCloud: 20,
  sort: 'datetime-desc',
  limit: 25,
};

describe('map search requests', () => {
  it('a rectangle across the dateline becomes a west>east bbox, with date, cloud and sort', () => {
    assert.deepEqual(archiveSearchBody(base), {
      limit: 25,
      collections: ['c1'],
      bbox: [178, -19, -179, -17],
      datetime: '2024-01-01T00:00:00Z/2024-02-01T23:59:59Z',
      query: { 'eo:cloud_cover': { lte: 20 } },
      sortby: [{ field: 'properties.datetime', direction: 'desc' }],
    });
  });

  it('a polygon becomes intersects (split at the dateline), open dates use ..', () => {
    const b = archiveSearchBody({ ...base, shape: 'polygon', collections: [], from: '', to: '2024-02-01', maxCloud: undefined, sort: 'cloud-asc' });
    assert.equal(b.intersects?.type, 'MultiPolygon');
    assert.equal(b.collections, undefined);
    assert.equal(b.datetime, '../2024-02-01T23:59:59Z');
    assert.equal(b.query, undefined);
    assert.deepEqual(b.sortby, [{ field: 'properties.eo:cloud_cover', direction: 'asc' }]);
  });

  it('imagery search: satellites with their collection, cloud filter {id, min, max} in integers, geometry', () => {
    // OpenAPI lens.V2Query: collection_id required beside satellite_id; lens.Filter needs all three, integers
    const b = imagerySearchBody(
      {
        ...base,
        kind: 'imagery',
        maxCloud: 19.5,
        ring: [
          [1, 1],
          [2, 1],
          [2, 2],
          [1, 1],
        ],
      },
      [{ id: 's1', name: 'S1', bands: [], collections: [{ id: 'c9', name: 'C9', provider: 'planetary' }] }],
    );
    assert.deepEqual(b.satellites, [{ satellite_id: 's1', collection_id: 'c9' }]);
    assert.deepEqual(b.filters, [{ id: 'eo:cloud_cover', min: 0, max: 20 }]);
    assert.throws(() => imagerySearchBody({ ...base, kind: 'imagery' }, [{ id: 's1', name: 'S1', bands: [], collections: [] }]), /no collection for S1/);
    assert.equal(b.geometry.type, 'Polygon');
    assert.equal(b.start_date, '2024-01-01T00:00:00Z');
    assert.throws(() => imagerySearchBody({ ...base, satellites: [] }, []), /at least one satellite/);
  });
});

describe('catalog footprints', () => {
  it("come from details (a STAC item, OpenAPI clerk.Catalog), or the first version's geometry", () => {
    const poly = {
      type: 'Polygon' as const,
      coordinates: [
        [
          [0, 0],
          [1, 0],
          [1, 1],
          [0, 0],
        ],
      ] as [number, number][][],
    };
    const base = {
      id: 'c1',
      org_id: 'o',
      task_id: 't',
      bandset_id: 'b',
      area: 1,
      delivery_status: 'SUCCESS',
      created_at: '2024-01-02T00:00:00Z',
      updated_at: '',
      created_by: '',
      updated_by: '',
    };
    const f = catalogFeature({ ...base, details: { id: 'S2_item', type: 'Feature', geometry: poly, bbox: [0, 0, 1, 1] } });
    assert.deepEqual(f?.geometry, poly);
    assert.equal(f?.label, 'S2_item');
    assert.deepEqual(catalogFeature({ ...base, geometry: poly })?.geometry, poly);
    assert.equal(catalogFeature(base), undefined);
  });
});

describe('map rows and popups', () => {
  it('say statuses and kinds in words, as the sidebar does', () => {
    const aoi = { aoi_id: 'a1', name: 'Nile Delta fields', area_in_sq_m: 64_900_000, satellite_id: 'sentinel-2', status: 'success' } as Aoi;
    assert.equal(aoiFeature(aoi).detail, '64.9 km² · sentinel-2 · Success');
    const oi = {
      id: 'o1',
      name: 'Nairobi',
      type: 'ARCHIVE',
      status: 'PAYMENT_IN_PROGRESS',
      images: [{ item_id: 'S2_1', geometry: { type: 'Point', coordinates: [0, 0] } }],
    } as unknown as OrderItem;
    assert.equal(orderItemFeatures(oi)[0].detail, 'Archive · Payment in progress · S2_1');
  });
});

describe('Show on Map targets', () => {
  it('tells records apart and refuses what has no footprint', () => {
    const poly = {
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [1, 0],
          [1, 1],
          [0, 0],
        ],
      ],
    };
    const aoi = mapTargetOf({ kind: 'aoi', record: { aoi_id: 'a1', name: 'A', geometry: poly, centroid: [0.5, 0.5] } });
    assert.ok(!('reason' in aoi) && aoi.layer === 'aois' && aoi.features[0].centroid?.[0] === 0.5);
    const item = mapTargetOf({ type: 'Feature', id: 'i', collection: 'c', geometry: poly, properties: { datetime: null } });
    assert.ok(!('reason' in item) && item.layer === 'archiveItems');
    const cat = mapTargetOf({ id: 'k', task_id: 't', bandset_id: 'b' });
    assert.ok('reason' in cat && /no footprint/.test(cat.reason));
    const oi = mapTargetOf({ kind: 'orderItem', record: { id: 'o', order_id: 'x', images: [] } });
    assert.ok('reason' in oi);
    assert.ok('reason' in mapTargetOf(undefined));
  });
});

describe('webview CSP', () => {
  it('derives img-src from basemap templates and refuses junk', () => {
    assert.deepEqual(
      tileOrigins(['https://{s}.tile.example.org/{z}/{x}/{y}.png', 'http://a.b:8080/{z}/{x}/{y}', 'javascript:alert(1)', 'https://x.org; script-src *']),
      ['https://*.tile.example.org', 'http://a.b:8080'],
    );
    const csp = contentSecurityPolicy({ cspSource: 'https://w', nonce: 'n1', imgSources: ['https://*.tile.example.org', "'unsafe-inline'"] });
    assert.equal(
      csp,
      "default-src 'none'; script-src 'nonce-n1'; style-src https://w 'nonce-n1'; img-src https://w data: https://*.tile.example.org; font-src https://w",
    );
  });
});
