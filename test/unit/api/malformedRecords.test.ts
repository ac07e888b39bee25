/**
 * One malformed record must not fail a page. Scripted services answer in the published
 * OpenAPI's shapes (archive search and collection items as STAC item collections, imagery
 * search keyed by id, blocks with their fields in `spec`, insight runs as `{insights}`), each
 * page with one record that has an odd field. The record is left out with the field that did
 * not fit, the rest is kept; a `null` geometry is valid GeoJSON and its record is kept, and
 * so is a collection with an extent box that does not read (the box is left out).
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { EoClient, collect, type UnreadableEvent } from '../../../src/api';
import { json, startTestServer, type TestServer } from './testServer';

const TOKEN = 'tok-secret-123456';

function item(id: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: 'Feature',
    stac_version: '1.0.0',
    id,
    collection: 'sentinel-2-l2a',
    bbox: ['10.0', '45.0', '10.1', '45.1'],
    geometry: {
      type: 'Polygon',
      coordinates: [
        [
          [10, 45],
          [10.1, 45],
          [10.1, 45.1],
          [10, 45],
        ],
      ],
    },
    properties: { datetime: '2024-05-01T10:00:00Z', 'eo:cloud_cover': 12 },
    assets: { data: { href: 'https://example.test/data.tif', type: 'image/tiff' } },
    links: [],
    ...over,
  };
}

/** A collection as cosmos.originalCollectionSuccessResponse writes it, with `bbox` as its spatial extent. */
function collection(id: string, bbox: unknown = [[-180, -56, 180, 83]]): Record<string, unknown> {
  return {
    id,
    type: 'Collection',
    title: id,
    description: `${id} imagery`,
    license: 'proprietary',
    stac_version: '1.0.0',
    extent: { spatial: { bbox }, temporal: { interval: [['2017-03-28T00:00:00Z', null]] } },
    links: [],
    providers: [{ name: 'Pixxel', roles: ['producer'] }],
    created_at: '2023-08-06T20:46:56.815552Z',
    updated_at: '2023-08-06T20:46:56.815552Z',
  };
}

function block(name: string, version: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: `${name}-${version}`,
    block_status: 'active',
    spec: { name, version, title: name, kind: 'insight', inputs: [{ name: 'image', format: 'raster', type: 'url' }], outputs: [] },
    ...over,
  };
}

function run(id: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  return { id, name: `run ${id}`, status: 'success', created_at: '2024-05-01T10:00:00Z', input: '[]', output: '[]', ...over };
}

describe('one malformed record does not fail a page', () => {
  let srv: TestServer;
  let client: EoClient;
  let events: UnreadableEvent[];

  before(async () => {
    srv = await startTestServer((req, res) => {
      const path = req.url.split('?')[0];
      if (path === '/v0/archives/search') {
        const offset = (JSON.parse(req.body || '{}') as { offset?: number }).offset ?? 0;
        // Full pages of 3 without next links: the client pages on by offset.
        if (offset === 0)
          return json(res, 200, {
            type: 'FeatureCollection',
            features: [item('a'), item('b', { properties: null }), item('c', { geometry: null, bbox: null })],
          });
        if (offset === 3) return json(res, 200, { type: 'FeatureCollection', features: [item('d'), item('e', { assets: { data: { href: 5 } } }), item('f')] });
        return json(res, 200, { type: 'FeatureCollection', features: [] });
      }
      if (path === '/v0/archives/collections/sentinel-2-l2a/items/no-footprint') {
        // cosmos.Item requires only `id`; STAC gives an item with a null geometry no bbox, and
        // a service in Go writes that empty list as []
        return json(res, 200, item('no-footprint', { geometry: null, bbox: [] }));
      }
      if (path === '/v0/archives/collections') {
        return json(res, 200, {
          collections: [
            collection('sentinel-2-l2a'),
            collection('odd-extent', [[10, 45, 10.1]]),
            { title: 'no id' },
            collection('flat-extent', ['10', '45', '10.1', '45.1']),
          ],
        });
      }
      if (path === '/v0/archives/collections/odd-extent') {
        return json(
          res,
          200,
          collection('odd-extent', [
            [10, 45, 10.1],
            ['west', 45, 10.1, 45.1],
            [0, 0, 0, 1, 1, 1],
          ]),
        );
      }
      if (path === '/v0/archives/collections/sentinel-2-l2a/items') {
        return json(res, 200, { type: 'FeatureCollection', features: [item('g'), { id: 'h', properties: 'oops' }, item('i')], links: [] });
      }
      if (path === '/v0/search') {
        return json(res, 200, {
          items: { j: item('j'), k: item('k', { bbox: ['west', 45, 10.1, 45.1] }), l: { ...item('l'), id: undefined } },
          pagination: { limit: 10, skip: 0, total: 3 },
        });
      }
      if (path === '/v0/blocks' || path === '/v0/blocks/insights') {
        return json(res, 200, {
          blocks: [
            block('water', '1.0'),
            block('broken', '1.0', { spec: null }),
            block('water', '0.9', { spec: { ...(block('water', '0.9').spec as object), inputs: 'not json' } }),
          ],
        });
      }
      if (path === '/v0/aoi/aoi-1/insights') {
        return json(res, 200, {
          insights: [run('r1'), run('r2', { output: 42 }), run('r3', { created_at: '2024-06-01T10:00:00Z', progress: `${TOKEN}` }), { name: 'no id' }],
        });
      }
      return json(res, 404, { error: { code: 'not_found', message: 'no such path' } });
    });
  });
  beforeEach(() => {
    events = [];
    client = new EoClient({
      baseUrl: srv.url,
      token: TOKEN,
      userAgent: 'eo-imagery-vscode/0.1.0 (test)',
      timeoutMs: 2000,
      retry: { retries: 0, baseDelayMs: 1, maxDelayMs: 1 },
      onUnreadable: (e) => events.push(e),
    });
  });
  after(() => srv.close());

  it('archive search: the odd record is left out with its field; a null geometry is kept', async () => {
    const fc = await client.archives.search({ limit: 3 });
    assert.deepEqual(
      fc.features.map((f) => f.id),
      ['a', 'c'],
    );
    assert.equal(fc.features[1].geometry, null, 'GeoJSON allows a null geometry: the record is shown without a footprint');
    assert.deepEqual(fc.unreadable, [{ at: 'features[1]', id: 'b', reason: 'features[1].properties: expected object, got null' }]);
    assert.equal(events.length, 1);
    assert.equal(events[0].method, 'POST');
    assert.equal(events[0].path, '/v0/archives/search');
    assert.equal(JSON.stringify(fc).includes('unreadable'), false, 'the note is not part of the record as JSON');
  });

  it('archive search, iterated: every page keeps its readable records, and paging moves by what the server sent', async () => {
    const told: string[] = [];
    const all = await collect(client.archives.iterateSearch({}, { pageSize: 3, onUnreadable: (r) => told.push(...r.map((x) => x.id ?? x.at)) }));
    assert.deepEqual(
      all.map((f) => f.id),
      ['a', 'c', 'd', 'f'],
    );
    assert.deepEqual(told, ['b', 'e']);
    const offsets = srv.requests.filter((r) => r.url === '/v0/archives/search').map((r) => (JSON.parse(r.body) as { offset?: number }).offset ?? 0);
    assert.deepEqual(offsets.slice(-3), [0, 3, 6]);
  });

  it('one archive item with a null geometry (and so an empty bbox) is read, without a footprint', async () => {
    const one = await client.archives.item('sentinel-2-l2a', 'no-footprint');
    assert.equal(one.id, 'no-footprint');
    assert.equal(one.geometry, null);
    assert.equal(one.bbox, undefined, 'no bbox rather than an empty one');
    assert.equal(one.properties.datetime, '2024-05-01T10:00:00Z');
  });

  it('collections: a box of the extent that does not read is left out of it, and a collection that does not read is left out of the list', async () => {
    const all = await client.archives.collections();
    assert.deepEqual(
      all.map((c) => c.id),
      ['sentinel-2-l2a', 'odd-extent', 'flat-extent'],
    );
    assert.deepEqual(all[0].extent.spatial.bbox, [[-180, -56, 180, 83]]);
    assert.deepEqual(all[1].extent.spatial.bbox, [], 'a box of three values is no box');
    assert.deepEqual(all[2].extent.spatial.bbox, [[10, 45, 10.1, 45.1]], 'a flat box is the one box');
    assert.deepEqual(all.unreadable, [{ at: 'collections[2]', id: undefined, reason: 'collections[2].id: expected string, got undefined' }]);
    assert.equal(events.length, 1, 'the collection left out is logged');
    const one = await client.archives.collection('odd-extent');
    assert.deepEqual(one.extent.spatial.bbox, [[0, 0, 1, 1]], 'the box that reads is kept, its 3-D corners as 2-D');
    assert.equal(one.title, 'odd-extent');
  });

  it('collection items: a record whose properties are not an object is left out', async () => {
    const fc = await client.archives.itemsPage('sentinel-2-l2a', { limit: 3 });
    assert.deepEqual(
      fc.features.map((f) => f.id),
      ['g', 'i'],
    );
    assert.equal(fc.unreadable?.length, 1);
    assert.match(fc.unreadable![0].reason, /^features\[1\]\.properties: expected object, got string/);
    assert.equal(fc.unreadable![0].id, 'h');
  });

  it('imagery search keyed by id: a record with an unreadable bbox is left out; a record without id takes its key', async () => {
    const res = await client.search.imagery({
      start_date: '2024-01-01T00:00:00Z',
      end_date: '2024-12-31T23:59:59Z',
      satellites: [],
      geometry: { type: 'Polygon', coordinates: [] },
    });
    assert.deepEqual(
      res.items.map((i) => i.id),
      ['j', 'l'],
    );
    assert.deepEqual(res.unreadable, [{ at: 'items["k"]', id: 'k', reason: 'items["k"].bbox[0]: expected a number, got "west"' }]);
  });

  it('blocks: a block without a spec, and one whose inputs are not JSON, are left out; the others are listed', async () => {
    const blocks = await client.blocks.list({ mode: 'insight' });
    assert.deepEqual(
      blocks.map((b) => `${b.name}@${b.version}`),
      ['water@1.0'],
    );
    assert.deepEqual(
      blocks.unreadable?.map((u) => u.reason),
      ['blocks[1].spec: expected object, got null', 'blocks[2].spec.inputs: expected a list of input definitions, got text that is not JSON'],
    );
    // The versions of one block: a broken version does not hide the others.
    const versions = await client.blocks.insights({ name: 'water' });
    assert.deepEqual(
      versions.map((b) => b.version),
      ['1.0'],
    );
  });

  it('insight runs: runs that do not read are left out and logged without the token', async () => {
    const runs = await client.insightRuns.list('aoi-1');
    assert.deepEqual(
      runs.map((r) => r.id),
      ['r1'],
    );
    assert.deepEqual(
      runs.unreadable?.map((u) => u.at),
      ['insights[1]', 'insights[2]', 'insights[3]'],
    );
    assert.match(runs.unreadable![0].reason, /^insights\[1\]\.output: expected a list of values, got number/);
    assert.match(runs.unreadable![2].reason, /^insights\[3\]\.id: expected string, got undefined/);
    assert.equal(events.length, 1);
    assert.ok(!JSON.stringify(events[0]).includes(TOKEN), 'the log event carries no token');
    assert.ok(!JSON.stringify(runs.unreadable).includes(TOKEN), 'the reasons the view shows carry no token');
    assert.match(runs.unreadable![1].reason, /progress: expected number, got string "\[redacted\]"/);
  });
});
