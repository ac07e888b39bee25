/**
 * Contract: archive collections, items and search (docs/service-interface.md, "Archives",
 * "Conventions"): STAC feature collections, bbox values as strings, offset/limit paging, and the
 * error body whose `details` is an object for these endpoints.
 */
import * as assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { asArray, asObject, assertErrorBody, assertFields, type Call, caller, expectStatus, ISO_T, type Service, startService } from './service';

const ITEM = {
  id: 'string',
  type: ['Feature'],
  collection: 'string',
  stac_version: 'string',
  stac_extensions: 'array',
  bbox: 'array',
  geometry: 'object',
  properties: 'object',
  assets: 'object',
  links: 'array',
} as const;
const PROPERTIES = {
  datetime: ISO_T,
  created: ISO_T,
  updated: ISO_T,
  platform: 'string',
  constellation: 'string',
  instruments: 'array',
  gsd: 'number',
  'eo:cloud_cover': 'number',
  'proj:code': 'string',
  'proj:shape': 'array',
  'proj:transform': 'array',
  'view:off_nadir': 'number',
  'view:sun_azimuth': 'number',
  'view:sun_elevation': 'number',
} as const;

/** bbox values arrive as strings; each must parse to a finite number. */
function bboxOf(item: unknown): number[] {
  const raw = asArray((item as { bbox: unknown }).bbox, 'item.bbox');
  assert.equal(raw.length, 4, `bbox has 4 values: ${JSON.stringify(raw)}`);
  for (const v of raw) assert.equal(typeof v, 'string', `bbox values are strings: ${JSON.stringify(raw)}`);
  const nums = raw.map(Number);
  assert.ok(nums.every(Number.isFinite), `bbox values parse: ${JSON.stringify(raw)}`);
  return nums;
}

function assertItem(item: unknown, what: string): void {
  assertFields(item, ITEM, what);
  assertFields((item as { properties: unknown }).properties, PROPERTIES, `${what}.properties`);
  bboxOf(item);
}

function assertFeatureCollection(body: Record<string, unknown>, what: string): unknown[] {
  assert.equal(body.type, 'FeatureCollection', `${what}.type`);
  asArray(body.links, `${what}.links`);
  return asArray(body.features, `${what}.features`);
}

describe('contract: archives', () => {
  let svc: Service;
  let call: Call;
  before(async () => {
    svc = await startService();
    call = caller(svc);
  });
  after(() => svc.close());

  it('collections: {collections}, one by id, its items as a feature collection, one item by id', async () => {
    const list = asArray(expectStatus(await call('GET', '/v0/archives/collections'), 200, 'collections').collections, 'collections') as Record<
      string,
      unknown
    >[];
    assert.ok(list.length > 0);
    for (const c of list) {
      assertFields(
        c,
        {
          id: 'string',
          type: ['Collection'],
          title: 'string',
          description: 'string',
          license: 'string',
          stac_version: 'string',
          extent: 'object',
          links: 'array',
          providers: 'array',
        },
        'collection',
      );
      const extent = c.extent as { spatial: { bbox: unknown[][] }; temporal: { interval: unknown[][] } };
      assert.ok(Array.isArray(extent.spatial.bbox[0]) && extent.spatial.bbox[0].every((v) => typeof v === 'number'), 'extent.spatial.bbox: arrays of numbers');
      assert.ok(Array.isArray(extent.temporal.interval[0]), 'extent.temporal.interval: arrays of strings');
    }
    const cid = String(list[0].id);
    const one = expectStatus(await call('GET', `/v0/archives/collections/${cid}`), 200, 'collection');
    assert.equal(one.id, cid);
    const items = assertFeatureCollection(expectStatus(await call('GET', `/v0/archives/collections/${cid}/items?limit=5`), 200, 'items'), 'items');
    assert.ok(items.length > 0 && items.length <= 5);
    for (const i of items) {
      assertItem(i, 'collection item');
      assert.equal((i as { collection: string }).collection, cid);
    }
    const id = (items[0] as { id: string }).id;
    const item = expectStatus(await call('GET', `/v0/archives/collections/${cid}/items/${id}`), 200, 'item');
    assertItem(item, 'item');
    assert.equal(item.id, id);
    const missing = await call('GET', `/v0/archives/collections/${cid}/items/no-such-item`);
    assert.equal(missing.status, 404);
    assertErrorBody(missing, 'archive item 404', 'object');
  });

  it('POST /v0/archives/search: 10 features by default, offset pages on, bbox and datetime filter', async () => {
    const first = assertFeatureCollection(expectStatus(await call('POST', '/v0/archives/search', {}), 200, 'search'), 'search');
    assert.equal(first.length, 10, 'default limit 10');
    first.forEach((f, n) => assertItem(f, `feature ${n}`));
    const next = assertFeatureCollection(expectStatus(await call('POST', '/v0/archives/search', { offset: 10, limit: 10 }), 200, 'search page 2'), 'search');
    const ids = new Set(first.map((f) => (f as { id: string }).id));
    assert.ok(next.length > 0 && next.every((f) => !ids.has((f as { id: string }).id)), 'offset 10 gives other items');

    const box = [-10, 35, 30, 60];
    const inBox = assertFeatureCollection(
      expectStatus(await call('POST', '/v0/archives/search', { bbox: box, datetime: '2022-01-01T00:00:00Z/..', limit: 50 }), 200, 'bbox search'),
      'bbox search',
    );
    assert.ok(inBox.length > 0, 'the archive covers Europe');
    for (const f of inBox) {
      const [w, s, e, n] = bboxOf(f);
      assert.ok(w <= box[2] && e >= box[0] && s <= box[3] && n >= box[1], `item box ${[w, s, e, n]} overlaps the query box`);
      assert.ok(Date.parse((f as { properties: { datetime: string } }).properties.datetime) >= Date.parse('2022-01-01T00:00:00Z'), 'open-ended interval');
    }
  });

  it('a bbox across the antimeridian (first value larger than the third) is a valid query', async () => {
    const r = await call('POST', '/v0/archives/search', { bbox: [170, -50, -170, -10], limit: 20 });
    const features = assertFeatureCollection(expectStatus(r, 200, 'antimeridian search'), 'antimeridian search');
    for (const f of features) {
      const [w, , e] = bboxOf(f);
      assert.ok(e >= 170 || w <= -170 || w > e, `item box ${w}..${e} reaches into 170°E..170°W`);
    }
  });

  it('a malformed search is 400 with {error: {code, message, details: object}}', async () => {
    for (const body of [{ limit: 'ten' }, { bbox: [1, 2, 3] }, { datetime: 'yesterday' }]) {
      const r = await call('POST', '/v0/archives/search', body);
      assert.equal(r.status, 400, `${JSON.stringify(body)}: ${r.text}`);
      assertErrorBody(r, `search ${JSON.stringify(body)}`, 'object');
    }
    const unknown = await call('GET', '/v0/archives/collections/no-such-collection');
    assert.equal(unknown.status, 404);
    asObject(unknown.json, 'collection 404');
    assertErrorBody(unknown, 'collection 404', 'object');
  });
});
