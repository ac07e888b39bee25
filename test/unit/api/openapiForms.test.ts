/**
 * The client against scripted services in the OpenAPI's forms where it differs from the
 * interface: deliveries and downloads that insist on both id lists (the client sends the list
 * in use, after a 400 naming the other sends once more with it as `[]`, then remembers),
 * visualization list items without names, and catalog search's default limit of 2.
 */
import { after, before, beforeEach, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { ApiError, EoClient } from '../../../src/api';
import { json, startTestServer, type SeenRequest, type TestServer } from './testServer';

function demandsBoth(req: SeenRequest): string | undefined {
  const body = JSON.parse(req.body) as Record<string, unknown>;
  const items = (Array.isArray(body.deliveries) ? body.deliveries : [body]) as Record<string, unknown>[];
  for (const it of items) {
    for (const k of ['catalog_ids', 'order_item_ids']) if (!Array.isArray(it[k])) return k;
  }
  return undefined;
}

describe('id lists of deliveries and downloads', () => {
  let srv: TestServer;
  let client: EoClient;
  before(async () => {
    srv = await startTestServer((req, res) => {
      const missing = demandsBoth(req);
      if (missing) return json(res, 400, { error: { code: 'bad_request', message: 'validation failed', details: `${missing}: field required` } });
      if (req.url.startsWith('/v0/catalogs/deliveries')) {
        return json(res, 201, { deliveries: [{ delivery_id: 'd1', catalog_id: 'c1', status: 'CREATED' }] });
      }
      return json(res, 201, { id: 'dl1', status: 'created' });
    });
  });
  beforeEach(() => {
    srv.requests.length = 0;
    client = new EoClient({
      baseUrl: srv.url,
      token: 't',
      userAgent: 'eo-imagery-vscode/0.1.0 (test)',
      timeoutMs: 2000,
      retry: { retries: 2, baseDelayMs: 5, maxDelayMs: 20 },
    });
  });
  after(() => srv.close());

  it('a delivery is sent with the list in use, then once more with the other as [] after a 400 naming it', async () => {
    const out = await client.deliveries.create({ deliveries: [{ catalog_ids: ['c1'], cloud_info: { config: 's', path: 'p/' } }] });
    assert.equal(out[0].delivery_id, 'd1');
    assert.equal(srv.requests.length, 2);
    assert.deepEqual(JSON.parse(srv.requests[0].body).deliveries[0], { catalog_ids: ['c1'], cloud_info: { config: 's', path: 'p/' } });
    assert.deepEqual(JSON.parse(srv.requests[1].body).deliveries[0], { catalog_ids: ['c1'], order_item_ids: [], cloud_info: { config: 's', path: 'p/' } });
  });

  it('remembers the form for the session: the next download sends both lists at once', async () => {
    await client.downloads.create({ order_item_ids: ['oi1'] });
    assert.equal(srv.requests.length, 2, 'first call: one 400, one retry');
    await client.downloads.create({ catalog_ids: ['c9'] });
    assert.equal(srv.requests.length, 3, 'second call: sent once');
    assert.deepEqual(JSON.parse(srv.requests[2].body), { catalog_ids: ['c9'], order_item_ids: [] });
  });

  it('a 400 about something else is not retried', async () => {
    srv.setHandler((_req, res) => json(res, 400, { error: { code: 'bad_request', message: 'cloud_info.config: unknown store' } }));
    await assert.rejects(
      client.deliveries.create({ deliveries: [{ order_item_ids: ['oi1'], cloud_info: { config: 'x', path: '' } }] }),
      (e) => e instanceof ApiError && e.status === 400,
    );
    assert.equal(srv.requests.length, 1);
  });

  it('a second 400 is reported, not retried again', async () => {
    srv.setHandler((_req, res) => json(res, 400, { error: { code: 'bad_request', message: 'order_item_ids: field required' } }));
    await assert.rejects(client.downloads.create({ catalog_ids: ['c1'] }), (e) => e instanceof ApiError && e.status === 400);
    assert.equal(srv.requests.length, 2);
  });

  it('a 500 is never followed by a second POST', async () => {
    srv.setHandler((_req, res) => json(res, 500, { error: { code: 'internal', message: 'order_item_ids broke' } }));
    await assert.rejects(client.downloads.create({ catalog_ids: ['c1'] }), (e) => e instanceof ApiError && e.status === 500);
    assert.equal(srv.requests.length, 1);
  });
});

describe('visualization list items: names joined from the indices', () => {
  const ITEM = {
    id: 'v1',
    aoi_id: 'a1',
    index_id: 'i1',
    user_id: 'u',
    tenant_id: 't',
    progress: 100,
    status: 'success',
    created_at: '2024-01-01 00:00:00.000000+00:00',
    updated_at: '2024-01-01 00:00:00.000000+00:00',
  };
  const INDEX = {
    id: 'i1',
    name: 'Water ratio',
    description: '',
    org_id: 'o',
    user_id: 'u',
    satellite_id: 's',
    type: 'custom',
    expression: 'B03/B08',
    expression_type: 'index',
    bands: ['B03', 'B08'],
    colormap: 'viridis',
    rescale: [0, 3],
    created_at: 'x',
    updated_at: 'x',
  };
  let srv: TestServer;
  let client: EoClient;
  before(async () => {
    srv = await startTestServer((req, res) => {
      if (req.url.startsWith('/v0/indices')) return json(res, 200, { indices: [INDEX], pagination: { offset: 0, limit: 1, total: 1 } });
      const named = req.url.includes('user_id=named');
      return json(res, 200, {
        visualization: [named ? { ...ITEM, index_name: 'Sent name' } : ITEM, { ...ITEM, id: 'v2' }],
        pagination: { offset: 0, limit: 10, total: 2 },
      });
    });
    client = new EoClient({
      baseUrl: srv.url,
      token: 't',
      userAgent: 'eo-imagery-vscode/0.1.0 (test)',
      timeoutMs: 2000,
      retry: { retries: 0, baseDelayMs: 5, maxDelayMs: 20 },
    });
  });
  after(() => srv.close());

  it('fills index_name from one index read per session, and keeps a name the service sent', async () => {
    const page = await client.visualizations.listPage('a1');
    assert.deepEqual(
      page.items.map((v) => [v.index_name, v.type, v.expression_type]),
      [
        ['Water ratio', 'custom', 'index'],
        ['Water ratio', 'custom', 'index'],
      ],
    );
    assert.equal(srv.count('GET', '/v0/indices'), 1);
    await client.visualizations.listPage('a1');
    assert.equal(srv.count('GET', '/v0/indices'), 1, 'the index was read again');
    const withName = await client.visualizations.listPage('a1', { user_id: 'named' });
    assert.equal(withName.items[0].index_name, 'Sent name');
  });

  it('a failing index read leaves the page standing without the name', async () => {
    const other = new EoClient({
      baseUrl: srv.url,
      token: 't',
      userAgent: 'eo-imagery-vscode/0.1.0 (test)',
      timeoutMs: 2000,
      retry: { retries: 0, baseDelayMs: 5, maxDelayMs: 20 },
    });
    srv.setHandler((req, res) => {
      if (req.url.startsWith('/v0/indices')) return json(res, 500, { error: { code: 'internal', message: 'down' } });
      return json(res, 200, { visualization: [ITEM], pagination: { offset: 0, limit: 10, total: 1 } });
    });
    const page = await other.visualizations.listPage('a1');
    assert.equal(page.items[0].id, 'v1');
    assert.ok(!page.items[0].index_name);
  });
});

describe('catalog search always sends its limit (the service defaults to 2)', () => {
  it('a page asked without a limit still sends limit and offset', async () => {
    const srv = await startTestServer((_req, res) => json(res, 200, { catalogs: [], pagination: { offset: 0, limit: 10, total: 0 } }));
    try {
      const client = new EoClient({ baseUrl: srv.url, token: 't', userAgent: 'eo-imagery-vscode/0.1.0 (test)', timeoutMs: 2000 });
      await client.catalogs.searchPage({});
      const body = JSON.parse(srv.requests[0].body) as { limit?: number; offset?: number };
      assert.equal(body.limit, 10);
      assert.equal(body.offset, 0);
    } finally {
      await srv.close();
    }
  });
});
