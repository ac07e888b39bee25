/**
 * A hostile or broken server over loopback: secrets echoed at the clipping boundary, huge
 * bodies, bodies dribbled a byte at a time, failures in the request log, and one signal
 * shared by many concurrent requests (what the progress poller does).
 */
import { after, afterEach, before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { ApiError, EoClient, describeRequest, type RequestEvent } from '../../../src/api';
import { json, startTestServer, trackUnhandled, type TestServer, ORDER } from './testServer';

const TOKEN = 'tok_SECRET_1234567890';
const unhandled = trackUnhandled();

function client(url: string, extra: Partial<ConstructorParameters<typeof EoClient>[0]> = {}): EoClient {
  return new EoClient({
    baseUrl: url,
    token: TOKEN,
    timeoutMs: 2000,
    userAgent: 'eo-imagery-vscode/0.1.0 (test)',
    retry: { retries: 0, baseDelayMs: 5, maxDelayMs: 20 },
    ...extra,
  });
}

async function rejects(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof ApiError, `expected ApiError, got ${String(e)}`);
    return e;
  }
  assert.fail('expected a rejection');
}

/** A service-account key file as a person pastes it (line breaks inside the private key). */
const KEY_MATERIAL = 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj\nMzEfYyjiWA4R4/M2bS1GB4t7NXp98C3SC6dVMvDuictGeurT8jNbvJZHtCSuYEvu';
const GCS_KEY = JSON.stringify({
  type: 'service_account',
  project_id: 'proj',
  private_key_id: '8f2a6c1d9e0b4a7f3c5d2e1f0a9b8c7d6e5f4a3b',
  private_key: `-----BEGIN PRIVATE KEY-----\n${KEY_MATERIAL}\n-----END PRIVATE KEY-----\n`,
  client_email: 'svc@proj.iam.gserviceaccount.com',
});

describe('api client against a hostile server', () => {
  let srv: TestServer;
  let c: EoClient;
  before(async () => {
    srv = await startTestServer((_r, res) => json(res, 500, {}));
  });
  afterEach(async () => {
    await c?.close();
    srv.requests.length = 0;
  });
  after(async () => {
    await srv.close();
    assert.deepEqual(unhandled.reasons, [], 'unhandled rejections');
  });

  for (const offset of [200, 260, 290, 299]) {
    it(`an echoed key file cut by the 300-character clip leaves nothing of the key (echo at ${offset})`, async () => {
      // The server echoes the request body inside its message, the secret straddling the clip.
      srv.setHandler((r, res) =>
        json(res, 400, { error: { code: 'invalid', message: `${'x'.repeat(offset)} rejected ${r.body}`, details: `echo: ${r.body}` } }),
      );
      c = client(srv.url);
      const e = await rejects(
        c.stores.create({
          name: 'gcs',
          type: 'GCS',
          configs: { bucket: 'b', path_prefix: '' },
          secrets: { project_id: 'proj', service_account_credentials: GCS_KEY },
        }),
      );
      const shown = [e.message, e.userMessage, e.serverMessage, typeof e.details === 'string' ? e.details : JSON.stringify(e.details)].join('\n');
      for (const piece of ['8f2a6c1d', 'MIIEvQIBADAN', 'private_key_id', 'BEGIN PRIVATE']) assert.ok(!shown.includes(piece), `"${piece}" survived: ${shown}`);
    });
  }

  it('an echoed token at the clipping boundary leaves no prefix of it', async () => {
    srv.setHandler((_r, res) => json(res, 401, { error: { code: 'unauthorized', message: `${'y'.repeat(280)} token ${TOKEN} revoked` } }));
    c = client(srv.url);
    const e = await rejects(c.bandsets.list());
    for (const s of [e.message, e.userMessage]) assert.ok(!s.includes('tok_SECR'), s);
  });

  it('a body over the limit is refused with a clear error, without reading it whole', async () => {
    const huge = Buffer.alloc(4 * 1024 * 1024, 0x20);
    let written = 0;
    srv.setHandler((_r, res) => {
      // No content-length: the client must count while it reads.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"bandsets": [');
      const pump = (): void => {
        while (written < 64 * 1024 * 1024) {
          written += huge.length;
          if (!res.write(huge)) {
            res.once('drain', pump);
            return;
          }
        }
        res.end(']}');
      };
      res.on('close', () => res.removeAllListeners('drain'));
      pump();
    });
    c = client(srv.url, { maxResponseBytes: 1024 * 1024 });
    const e = await rejects(c.bandsets.list());
    assert.equal(e.kind, 'protocol');
    assert.match(e.userMessage, /larger than 1 MB.*eoImagery\.maxResponseMegabytes/);
    assert.ok(written < 64 * 1024 * 1024, `the client read on: ${written} bytes written`);
  });

  it('a body whose content-length is over the limit is refused before reading', async () => {
    srv.setHandler((_r, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(10 * 1024 * 1024) });
      res.write('{"bandsets": [');
    });
    c = client(srv.url, { maxResponseBytes: 1024 * 1024 });
    const e = await rejects(c.bandsets.list());
    assert.equal(e.kind, 'protocol');
    assert.match(e.message, /larger than 1 MB/);
  });

  it('a body dribbled one byte every 100 ms is cut off at the timeout', async () => {
    const body = JSON.stringify({ bandsets: [] }) + ' '.repeat(200);
    let timer: NodeJS.Timeout | undefined;
    srv.setHandler((_r, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) });
      let i = 0;
      timer = setInterval(() => {
        if (res.destroyed || i >= body.length) {
          clearInterval(timer);
          if (!res.destroyed) res.end();
          return;
        }
        res.write(body[i++]);
      }, 100);
    });
    c = client(srv.url, { timeoutMs: 1000 });
    const t0 = Date.now();
    const e = await rejects(c.bandsets.list());
    clearInterval(timer);
    assert.equal(e.kind, 'timeout');
    assert.match(e.message, /body took longer than 1 s/);
    assert.ok(Date.now() - t0 < 5000, `took ${Date.now() - t0} ms`);
  });

  it('a failed request logs its kind and message, not [object Object]', async () => {
    const events: RequestEvent[] = [];
    const dead = await startTestServer(() => undefined);
    const url = dead.url;
    await dead.close();
    c = client(url, { onRequest: (e) => events.push(e) });
    await rejects(c.bandsets.list());
    const line = describeRequest(events[0]);
    assert.doesNotMatch(line, /object Object/);
    assert.match(line, /^GET \/v0\/bandsets → network error in \d+ ms \(network: connection refused by 127\.0\.0\.1:\d+\)$/);
    assert.match(
      describeRequest({ ...events[0], status: 503, error: { kind: 'http', message: 'GET /v0/bandsets → 503: busy' }, retryInMs: 250 }),
      /→ 503 in \d+ ms(, \d+ B)?; retrying in 250 ms$/,
    );
  });

  it('57 concurrent reads sharing one signal leave at most one listener on it (no MaxListenersExceededWarning)', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error): void => {
      warnings.push(`${w.name}: ${w.message}`);
    };
    process.on('warning', onWarning);
    const shared = new AbortController();
    let peak = 0;
    srv.setHandler((r, res) => {
      peak = Math.max(peak, getEventListeners(shared.signal, 'abort').length);
      const id = decodeURIComponent(r.url.split('/').pop() ?? '');
      setTimeout(() => json(res, 200, { ...ORDER, id }), 20);
    });
    c = client(srv.url);
    try {
      const ids = Array.from({ length: 57 }, (_, i) => `order-${i}`);
      const got = await Promise.all(ids.map((id) => c.orders.get(id, { signal: shared.signal })));
      assert.deepEqual(
        got.map((o) => o.id),
        ids,
      );
      await new Promise((r) => setImmediate(r));
      assert.equal(getEventListeners(shared.signal, 'abort').length, 0, 'listeners left on the shared signal');
      assert.ok(peak <= 1, `${peak} listeners on the shared signal at once`);
      assert.deepEqual(
        warnings.filter((w) => /MaxListeners/.test(w)),
        [],
      );
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('aborting the shared signal still cancels every request in flight', async () => {
    const shared = new AbortController();
    srv.setHandler(() => undefined); // never answers
    c = client(srv.url);
    const all = Array.from({ length: 12 }, (_, i) => rejects(c.orders.get(`o${i}`, { signal: shared.signal })));
    await new Promise((r) => setTimeout(r, 100));
    shared.abort();
    const errors = await Promise.all(all);
    assert.deepEqual([...new Set(errors.map((e) => e.kind))], ['aborted']);
  });
});
