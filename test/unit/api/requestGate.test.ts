/**
 * The request gate (src/api/requestGate.ts) and the retry floor, against a scripted server:
 * a gate sees every request a piece of work causes (each retry, each page), and the work of
 * others beside it not at all; a refused first request is never sent, a refused retry ends the
 * call with the service's own answer; a 503 storm with `Retry-After: 0` is retried with the
 * backoff, not back to back.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { ApiError, EoClient } from '../../../src/api';
import { withGate, type GatedRequest } from '../../../src/api/requestGate';
import { assetRecord, json, startTestServer, type TestServer } from './testServer';

const busy = { error: { code: 'unavailable', message: 'busy', details: '' } };

function client(url: string): EoClient {
  return new EoClient({ baseUrl: url, token: 'tok', authScheme: 'bearer', timeoutMs: 2000, userAgent: 'test' });
}

class Refused extends Error {}

describe('request gate and retry floor', () => {
  let srv: TestServer;
  let c: EoClient;
  before(async () => {
    srv = await startTestServer((_r, res) => json(res, 200, { bandsets: [] }));
    c = client(srv.url);
  });
  afterEach(() => {
    srv.requests.length = 0;
  });
  after(async () => {
    await c.close();
    await srv.close();
  });

  it('a 503 storm with Retry-After: 0 is retried with the backoff (≥ 125, 250, 500 ms), not back to back', async () => {
    const at: number[] = [];
    srv.setHandler((_r, res) => {
      at.push(Date.now());
      json(res, 503, busy, { 'retry-after': '0' });
    });
    await assert.rejects(c.bandsets.list(), (e: unknown) => e instanceof ApiError && e.status === 503);
    assert.equal(at.length, 4, 'the first try and 3 retries');
    const gaps = at.slice(1).map((t, i) => t - at[i]);
    [120, 245, 495].forEach((floor, i) => assert.ok(gaps[i] >= floor, `gap ${i + 1}: ${gaps[i]} ms, at least ${floor}`));
  });

  it('sees every request of the work, retries and pages included, and none of the work beside it', async () => {
    let bandsets = 0;
    srv.setHandler((r, res) => {
      if (r.url.startsWith('/v0/bandsets')) return ++bandsets === 1 ? json(res, 503, busy, { 'retry-after': '0' }) : json(res, 200, { bandsets: [] });
      const offset = Number(new URL(r.url, srv.url).searchParams.get('offset') ?? 0);
      const assets = offset < 250 ? [...Array(Math.min(100, 250 - offset))].map((_, i) => assetRecord(offset + i)) : [];
      json(res, 200, { assets, pagination: { total: 250, offset, limit: 100 } });
    });
    const seen: GatedRequest[] = [];
    const gate = { beforeRequest: (r: GatedRequest) => void seen.push(r) };
    const beside = c.aois.assetsPage('aoi-1', { limit: 1 });
    await withGate(gate, async () => {
      await c.bandsets.list();
      let n = 0;
      for await (const _ of c.aois.iterateAssets('aoi-1', { pageSize: 100 })) n++;
      assert.equal(n, 250);
    });
    await beside;
    assert.deepEqual(
      seen.map((r) => `${r.method} ${r.path.split('?')[0]} #${r.attempt}`),
      ['GET /v0/bandsets #1', 'GET /v0/bandsets #2', 'GET /v0/aois/aoi-1/assets #1', 'GET /v0/aois/aoi-1/assets #1', 'GET /v0/aois/aoi-1/assets #1'],
    );
    assert.equal(srv.requests.length, 6, 'the request made beside the gated work went out, unseen by the gate');
  });

  it('a refused first request is not sent: the call ends with the gate’s error', async () => {
    srv.setHandler((_r, res) => json(res, 200, { bandsets: [] }));
    const refused = new Refused('no room');
    await assert.rejects(
      withGate({ beforeRequest: () => Promise.reject(refused) }, () => c.bandsets.list()),
      (e) => e === refused,
    );
    assert.equal(srv.requests.length, 0);
  });

  it('a refused retry ends the call with the service’s answer that asked for it', async () => {
    srv.setHandler((_r, res) => json(res, 503, busy, { 'retry-after': '0' }));
    const gate = {
      beforeRequest: (r: GatedRequest) => {
        if (r.attempt > 1) throw new Refused('no room');
      },
    };
    await assert.rejects(
      withGate(gate, () => c.bandsets.list()),
      (e) => e instanceof ApiError && e.status === 503,
    );
    assert.equal(srv.requests.length, 1);
  });

  it('gates nest: a request inside both is asked of the outer, then the inner', async () => {
    srv.setHandler((_r, res) => json(res, 200, { bandsets: [] }));
    const order: string[] = [];
    await withGate({ beforeRequest: () => void order.push('outer') }, () =>
      withGate({ beforeRequest: () => void order.push('inner') }, () => c.bandsets.list()),
    );
    assert.deepEqual(order, ['outer', 'inner']);
  });
});
