/**
 * The reads of a shared view as it opens (src/commands/shareView/viewReads.ts), against a
 * scripted server: an AOI's asset listing is read once for every asset asked of it, page by
 * page only as far as the farthest; a record asked twice is read once (its failure too); every
 * request is counted, retries included, and none is sent past the budget; `inOrder` starts the
 * tasks in order, a few at a time.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { ApiError, EoClient } from '../../../src/api';
import { inOrder, OverBudget, ViewReads } from '../../../src/commands/shareView/viewReads';
import { assetRecord, json, startTestServer, type TestServer } from '../api/testServer';

const ASSETS = 250;

const aoi = {
  aoi_id: 'aoi-1',
  name: 'Lake',
  description: '',
  satellite_id: 's2',
  project_id: 'p',
  geometry: { type: 'Polygon', coordinates: [] },
  status: 'success',
  created_at: '2024-01-01T00:00:00Z',
};

describe('shared view reads', () => {
  let srv: TestServer;
  let client: EoClient;
  let aoiAnswers: number[] = [];
  before(async () => {
    srv = await startTestServer((r, res) => {
      const url = new URL(r.url, 'http://x');
      if (url.pathname === '/v0/aois/aoi-1/assets') {
        const offset = Number(url.searchParams.get('offset') ?? 0);
        const items = [...Array(Math.max(0, Math.min(100, ASSETS - offset)))].map((_, i) => assetRecord(offset + i));
        return json(res, 200, { assets: items, pagination: { total: ASSETS, offset, limit: 100 } });
      }
      if (url.pathname === '/v0/aoi/aoi-1') {
        const status = aoiAnswers.shift() ?? 200;
        return status === 200 ? json(res, 200, aoi) : json(res, status, { error: { code: 'x', message: 'busy', details: '' } }, { 'retry-after': '0' });
      }
      return json(res, 404, { error: { code: 'not_found', message: 'no such record', details: '' } });
    });
    client = new EoClient({ baseUrl: srv.url, token: 't', authScheme: 'bearer', timeoutMs: 2000, userAgent: 'test' });
  });
  afterEach(() => {
    srv.requests.length = 0;
    aoiAnswers = [];
  });
  after(async () => {
    await client.close();
    await srv.close();
  });

  const pages = (): string[] =>
    srv.requests.filter((r) => r.url.startsWith('/v0/aois/aoi-1/assets')).map((r) => new URL(r.url, 'http://x').searchParams.get('offset') ?? '');

  it('walks an AOI’s listing once for every asset asked, only as far as the farthest', async () => {
    const reads = new ViewReads(client);
    const found = await reads.run(() => Promise.all(['a5', 'a150', 'a5', 'a99'].map((id) => reads.asset('aoi-1', id))));
    assert.deepEqual(
      found.map((f) => f.asset?.id),
      ['a5', 'a150', 'a5', 'a99'],
    );
    assert.deepEqual(pages(), ['0', '100'], 'two pages, each once');
    assert.equal(reads.requests, 2);
  });

  it('an asset the listing does not hold: the walk reads to its end, once for every asker', async () => {
    const reads = new ViewReads(client);
    const [gone, again, last] = await reads.run(() => Promise.all([reads.asset('aoi-1', 'nope'), reads.asset('aoi-1', 'nope'), reads.asset('aoi-1', 'a249')]));
    assert.deepEqual(gone, { asset: undefined, beyondCap: false });
    assert.deepEqual(again, gone);
    assert.equal(last.asset?.id, 'a249');
    assert.deepEqual(pages(), ['0', '100', '200']);
    assert.equal((await reads.run(() => reads.assets('aoi-1'))).length, ASSETS, 'the whole listing, without reading it again');
    assert.equal(pages().length, 3);
  });

  it('a record asked twice is read once, and so is a failure', async () => {
    const reads = new ViewReads(client);
    await reads.run(async () => {
      const [a, b] = await Promise.all([reads.aoi('aoi-1'), reads.aoi('aoi-1')]);
      assert.equal(a, b);
      await assert.rejects(reads.archiveItem('c', 'gone'), (e) => e instanceof ApiError && e.status === 404);
      await assert.rejects(reads.archiveItem('c', 'gone'), (e) => e instanceof ApiError && e.status === 404);
    });
    assert.equal(srv.requests.length, 2);
  });

  it('counts every request, retries included, and sends none past the budget', async () => {
    aoiAnswers = [503, 200];
    const reads = new ViewReads(client, 3);
    await reads.run(async () => {
      await reads.aoi('aoi-1');
      assert.equal(reads.requests, 2, 'the 503 and its retry');
      await assert.rejects(Promise.all(['a5', 'a150'].map((id) => reads.asset('aoi-1', id))), (e) => e instanceof OverBudget && e.budget === 3);
    });
    assert.equal(reads.requests, 3);
    assert.equal(srv.requests.length, 3, 'the fourth request was not sent');
    assert.deepEqual(pages(), ['0']);
  });

  it('inOrder starts the tasks in their order, at most `limit` at a time', async () => {
    const started: number[] = [];
    let running = 0;
    let most = 0;
    const out = await inOrder([...Array(10).keys()], 3, async (n) => {
      started.push(n);
      most = Math.max(most, ++running);
      await new Promise((r) => setTimeout(r, 5 + (n % 3)));
      running--;
      return n * 2;
    });
    assert.deepEqual(started, [...Array(10).keys()]);
    assert.equal(most, 3);
    assert.deepEqual(
      out,
      [...Array(10).keys()].map((n) => n * 2),
    );
  });
});
