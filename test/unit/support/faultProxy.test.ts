/**
 * The fault proxy itself: each toxic does what its name says to a known body, against a plain
 * node:http server, so that a test through the proxy can trust what it injected.
 */
import { after, before, beforeEach, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { FaultProxy } from '../../support/faultProxy';

const BODY = Buffer.alloc(256 * 1024, 0);
for (let i = 0; i < BODY.length; i++) BODY[i] = (i * 31 + (i >> 8)) & 0xff;

let server: http.Server;
let upstream: string;
let posts = 0;
let proxy: FaultProxy;

interface Got {
  status?: number;
  headers?: http.IncomingHttpHeaders;
  body: Buffer;
  error?: string;
  ms: number;
}

/** GET or POST through node:http, collecting what arrived before any error. */
function get(url: string, opts: { method?: string; headers?: http.OutgoingHttpHeaders; giveUpMs?: number } = {}): Promise<Got> {
  const start = Date.now();
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const done = (extra: Partial<Got>): void => resolve({ body: Buffer.concat(chunks), ms: Date.now() - start, ...extra });
    const req = http.request(url, { method: opts.method ?? 'GET', headers: opts.headers, agent: false }, (res) => {
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done({ status: res.statusCode, headers: res.headers }));
      res.on('error', (e: NodeJS.ErrnoException) => done({ status: res.statusCode, headers: res.headers, error: e.code ?? e.message }));
      res.on('aborted', () => done({ status: res.statusCode, headers: res.headers, error: 'aborted' }));
    });
    req.on('error', (e: NodeJS.ErrnoException) => done({ error: e.code ?? e.message }));
    if (opts.giveUpMs) req.setTimeout(opts.giveUpMs, () => req.destroy(Object.assign(new Error('timeout'), { code: 'GAVE_UP' })));
    req.end(opts.method === 'POST' ? '{}' : undefined);
  });
}

const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

describe('fault proxy', () => {
  before(async () => {
    server = http.createServer((req, res) => {
      if (req.method === 'POST') {
        posts++;
        req.resume();
        res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ id: `order-${posts}`, host: req.headers.host }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': BODY.length, etag: '"v1"' }).end(BODY);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    upstream = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    proxy = await FaultProxy.start({ upstream, seed: 7, announceSeed: false });
  });
  after(async () => {
    await proxy.close();
    await new Promise<void>((r) => server.close(() => r()));
  });
  beforeEach(() => proxy.clear());

  it('passes a body through untouched, with its headers and the client’s Host', async () => {
    const got = await get(`${proxy.url}/file`);
    assert.equal(got.status, 200);
    assert.equal(sha(got.body), sha(BODY));
    assert.equal(got.headers?.etag, '"v1"');
    const posted = await get(`${proxy.url}/orders`, { method: 'POST' });
    assert.equal(JSON.parse(posted.body.toString()).host, new URL(proxy.url).host, 'links built from Host lead back through the proxy');
  });

  it('limitData closes after exactly N bytes; resetPeer resets after N', async () => {
    proxy.add({ path: '/file', times: 1, toxic: { kind: 'limitData', bytes: 100_000 } });
    const cut = await get(`${proxy.url}/file`);
    assert.equal(cut.body.length, 100_000);
    assert.ok(cut.error, 'the client sees the connection end early');
    assert.deepEqual(cut.body, BODY.subarray(0, 100_000));

    proxy.add({ path: '/file', times: 1, toxic: { kind: 'resetPeer', afterBytes: 70_000 } });
    const reset = await get(`${proxy.url}/file`);
    assert.ok(reset.body.length <= 70_000, `at most 70000 bytes, got ${reset.body.length}`);
    assert.ok(reset.error, 'the client sees a reset');

    const whole = await get(`${proxy.url}/file`);
    assert.equal(sha(whole.body), sha(BODY), 'times: 1 applies once');
  });

  it('resetPeer at 0 resets before any header', async () => {
    proxy.add({ path: '/file', times: 1, toxic: { kind: 'resetPeer', afterBytes: 0 } });
    const got = await get(`${proxy.url}/file`);
    assert.equal(got.status, undefined);
    assert.match(got.error ?? '', /ECONNRESET|socket hang up/);
  });

  it('timeout stalls the body after N bytes until the client gives up', async () => {
    proxy.add({ path: '/file', times: 1, toxic: { kind: 'timeout', afterBytes: 10_000 } });
    const got = await get(`${proxy.url}/file`, { giveUpMs: 400 });
    assert.equal(got.body.length, 10_000);
    assert.match(got.error ?? '', /GAVE_UP|aborted/, 'the client gave up on a stalled body');
    assert.ok(got.ms >= 350, `stalled for ${got.ms} ms`);
  });

  it('status answers a storm itself, with Retry-After, for its length only', async () => {
    const before = posts;
    proxy.add({ toxic: { kind: 'status', status: 503, retryAfter: '7' }, forMs: 300 });
    const a = await get(`${proxy.url}/orders`, { method: 'POST' });
    assert.equal(a.status, 503);
    assert.equal(a.headers?.['retry-after'], '7');
    assert.equal(posts, before, 'upstream never saw the request');
    await new Promise((r) => setTimeout(r, 350));
    const b = await get(`${proxy.url}/file`);
    assert.equal(b.status, 200);
  });

  it('lostAnswer lets upstream act and the client hear nothing', async () => {
    const before = posts;
    proxy.add({ method: 'POST', path: '/orders', times: 1, toxic: { kind: 'lostAnswer' } });
    const got = await get(`${proxy.url}/orders`, { method: 'POST' });
    assert.equal(got.status, undefined);
    assert.ok(got.error);
    assert.equal(posts, before + 1, 'the order was placed upstream');
  });

  it('bandwidth and latency slow the body down; slicer delivers it whole', async () => {
    proxy.add({ path: '/file', times: 1, toxic: { kind: 'bandwidth', bytesPerSecond: 1024 * 1024 } });
    const slow = await get(`${proxy.url}/file`);
    assert.equal(sha(slow.body), sha(BODY));
    assert.ok(slow.ms >= 200, `256 KiB at 1 MiB/s took ${slow.ms} ms`);

    proxy.add({ path: '/file', times: 1, toxic: { kind: 'latency', ms: 150, jitterMs: 20 } });
    const late = await get(`${proxy.url}/file`);
    assert.equal(sha(late.body), sha(BODY));
    assert.ok(late.ms >= 130, `latency ${late.ms} ms`);

    proxy.add({ path: '/file', times: 1, toxic: { kind: 'slicer', sliceBytes: 4096, delayMs: 1 } });
    const sliced = await get(`${proxy.url}/file`);
    assert.equal(sha(sliced.body), sha(BODY));
  });

  it('logs each request with its Range and toxic; the same seed draws the same faults', async () => {
    proxy.log.length = 0;
    await get(`${proxy.url}/file`, { headers: { range: 'bytes=10-', 'if-range': '"v1"' } });
    assert.equal(proxy.log[0].range, 'bytes=10-');
    assert.equal(proxy.log[0].ifRange, '"v1"');

    const draws = async (seed: number): Promise<(string | undefined)[]> => {
      const p = await FaultProxy.start({ upstream, seed, announceSeed: false });
      p.add({ path: '/file', probability: 0.5, toxic: { kind: 'status', status: 503 } });
      for (let i = 0; i < 12; i++) await get(`${p.url}/file`);
      await p.close();
      return p.log.map((r) => r.toxic);
    };
    assert.deepEqual(await draws(42), await draws(42));
    assert.notDeepEqual(await draws(42), await draws(43));
  });

  it('an unresolvable URL fails to resolve', async () => {
    const got = await get(`${proxy.unresolvableUrl()}/file`);
    assert.match(got.error ?? '', /ENOTFOUND|EAI_AGAIN/);
  });
});
