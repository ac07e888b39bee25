// Restoring the map after a reload walks an AOI's asset listing to find single assets; a
// server that keeps announcing a larger total must not keep it paging.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { EoClient } from '../../../src/api';
import { fetchAssets, MAX_ASSETS_WALKED } from '../../../src/panels/mapSources';
import { json, startTestServer, type TestServer } from '../api/testServer';
import { asset } from '../insights/fixtures';

describe('map restore: asset walk', () => {
  let srv: TestServer;
  before(async () => {
    srv = await startTestServer((r, res) => {
      const url = new URL(r.url, 'http://x');
      const offset = Number(url.searchParams.get('offset') ?? 0);
      const limit = Number(url.searchParams.get('limit') ?? 10);
      const assets = Array.from({ length: limit }, (_, i) => asset({ id: `a-${offset + i}`, aoi_id: 'aoi-1' }));
      // Always "more to come": the total grows with every page.
      json(res, 200, { assets, pagination: { offset, limit, total: offset + limit * 2 } });
    });
  });
  after(() => srv.close());

  it(`stops after ${MAX_ASSETS_WALKED} assets when the asset is never found`, async () => {
    const client = new EoClient({ baseUrl: srv.url, token: 't', userAgent: 'test', retry: { retries: 0 } });
    try {
      await assert.rejects(fetchAssets(client, 'aoi-1', new Set(['gone'])), new RegExp(`not among its first ${MAX_ASSETS_WALKED} assets`));
      assert.ok(srv.requests.length <= MAX_ASSETS_WALKED / 100 + 1, `${srv.requests.length} requests`);
    } finally {
      await client.close();
    }
  });
});
