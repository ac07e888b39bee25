/**
 * 1,000+ random and malformed requests, then: /ping still answers, no response was a 5xx the
 * sandbox did not inject, and the stored state is byte-for-byte what it was.
 */
import assert from 'node:assert/strict';
import * as net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';
import { Rng } from '../../../src/sandbox/prng';

let sb: SandboxHandle;
before(async () => {
  sb = await startSandbox({ port: 0, seed: 3, headersTimeoutMs: 1500 });
});
after(() => sb.close());

const PATHS = [
  '/v0/projects',
  '/v0/projects/x',
  '/v0/aois',
  '/v0/aoi/x',
  '/v0/aois/x/assets',
  '/v0/aois/x/visualizations',
  '/v0/search',
  '/v0/satellites',
  '/v0/indices',
  '/v0/bandsets',
  '/v0/blocks',
  '/v0/blocks/insights',
  '/v0/orders',
  '/v0/orders/x',
  '/v0/order-items',
  '/v0/order-items/x',
  '/v0/archives/search',
  '/v0/archives/collections',
  '/v0/archives/collections/sentinel-2-l2a/items',
  '/v0/catalogs/search',
  '/v0/catalogs/x',
  '/v0/stores',
  '/v0/stores/x',
  '/v0/catalogs/deliveries',
  '/v0/catalogs/download',
  '/v0/catalogs/download/x',
  '/v0/reports',
  '/v0/aoi/x/insights',
  '/files/abc.def',
  '/../../etc/passwd',
  '/v0/%2e%2e/%2e%2e/etc/passwd',
  '/v0/aoi/..%2f..%2fetc',
  '/v0/aoi/%E0%A4%A',
  '/v0//aois',
  '/v0/aois?limit=1e999',
  '/v0/order-items?created_at=,,,',
  '/v0/aois?offset=99999999999999999999',
  '/v0/indices?limit=%00',
  '/v0/reports?tz=../../etc/localtime',
];
const METHODS = ['GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'OPTIONS'];

/** Valid-looking bodies with one required field removed or given the wrong type. */
const TEMPLATES: [string, Record<string, unknown>][] = [
  [
    '/v0/aois',
    {
      name: 'a',
      project_id: 'p',
      satellite_id: 'sentinel-2',
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [1, 0],
            [1, 1],
            [0, 0],
          ],
        ],
      },
    },
  ],
  ['/v0/stores', { name: 's', type: 'S3', configs: { bucket: 'b', region: 'r', path_prefix: '' }, secrets: { access_key_id: 'a', secret_access_key: 'b' } }],
  ['/v0/indices', { name: 'i', description: '', expression: 'B04/B03', expression_type: 'index', satellite_id: 'sentinel-2', colormap: '', rescale: [0, 1] }],
  ['/v0/orders', { dry_run: false, order_items: [{ geometry: { type: 'FeatureCollection', features: [] }, usecase: 'x', item_ids: ['x'] }] }],
  ['/v0/catalogs/deliveries', { deliveries: [{ catalog_ids: ['x'], cloud_info: { config: 'x', path: '' } }] }],
  ['/v0/catalogs/download', { catalog_ids: ['nope'] }],
];

function junk(rng: Rng, depth = 0): unknown {
  const k = rng.int(0, depth > 2 ? 6 : 9);
  switch (k) {
    case 0:
      return null;
    case 1:
      return rng.chance(0.5);
    case 2:
      return rng.pick([0, -1, 1e308, -1e308, 2 ** 53 + 1, 0.1, 1e-320]);
    case 3:
      return rng.pick(['', 'x', '\u0000', '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 ☃', '../../../etc/passwd', '<script>alert(1)</script>', 'a'.repeat(20_000), '\uD800']);
    case 4:
      return rng.int(-1000, 1000);
    case 5:
      return 'B04/B03';
    case 6:
      return [];
    case 7:
      return Array.from({ length: rng.int(1, 4) }, () => junk(rng, depth + 1));
    default: {
      const o: Record<string, unknown> = {};
      for (let i = 0; i < rng.int(1, 5); i++)
        o[
          rng.pick([
            'name',
            'type',
            'geometry',
            'limit',
            'bbox',
            'query',
            'datetime',
            'ids',
            'order_items',
            'deliveries',
            'secrets',
            '__proto__',
            'constructor',
          ])
        ] = junk(rng, depth + 1);
      return o;
    }
  }
}

function rawRequest(port: number, data: string | Buffer, endAfter = true, timeoutMs = 3000): Promise<string> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    let out = '';
    const done = (): void => {
      clearTimeout(t);
      s.destroy();
      resolve(out);
    };
    const t = setTimeout(done, timeoutMs);
    s.on('data', (d) => (out += d.toString('latin1')));
    s.on('close', done);
    s.on('error', done);
    s.write(data, () => {
      if (endAfter) s.end();
    });
  });
}

describe('fuzz', () => {
  it('survives 1,000+ malformed requests without a 5xx or a change to stored data', async () => {
    const before = JSON.stringify(sb.state);
    const rng = new Rng(20240601);
    const port = Number(new URL(sb.url).port);
    const statuses = new Map<number, number>();
    const failures: string[] = [];
    const record = (status: number, what: string, injected: boolean): void => {
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if (status >= 500 && !injected) failures.push(`${status} ${what}`);
    };
    const jobs: (() => Promise<void>)[] = [];
    for (let i = 0; i < 1100; i++) {
      jobs.push(async () => {
        const kind = rng.int(0, 9);
        let method = rng.pick(METHODS);
        let path = rng.pick(PATHS);
        let body: string | undefined;
        if (kind <= 3) body = JSON.stringify(junk(rng));
        else if (kind === 4) body = rng.pick(['{', '{"a":', 'nul', '[1,2', '{"limit": 01}', '\u0000\u0001', '{"a":1}}', '"unterminated']);
        else if (kind <= 7) {
          const [p, t] = rng.pick(TEMPLATES);
          const o = structuredClone(t);
          const key = rng.pick(Object.keys(o).filter((k) => k !== 'dry_run' && k !== 'labels'));
          if (rng.chance(0.5)) delete o[key];
          else o[key] = rng.pick([123, 'x', null, [], true, { a: 1 }].filter((v) => typeof v !== typeof t[key] || Array.isArray(v) !== Array.isArray(t[key])));
          method = 'POST';
          path = p;
          body = JSON.stringify(o);
        }
        const auth = rng.pick([`Bearer ${sb.tokens.alice}`, sb.tokens.bob, 'Bearer ', 'Basic Zm9vOmJhcg==', `Bearer ${sb.tokens.alice} extra`, undefined]);
        const headers: Record<string, string> = {};
        if (auth !== undefined) headers.authorization = auth;
        try {
          const res = await fetch(sb.url + path, { method, headers, body: method === 'GET' || method === 'OPTIONS' ? undefined : body });
          await res.arrayBuffer();
          record(res.status, `${method} ${path} ${body?.slice(0, 80)}`, res.headers.get('x-sandbox-injected') !== null);
        } catch (e) {
          failures.push(`network error ${method} ${path}: ${(e as Error).message}`);
        }
      });
    }
    // Raw-socket cases: truncated bodies, broken request lines, oversized and bad headers.
    const tok = sb.tokens.alice;
    const raws = [
      `POST /v0/stores HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${tok}\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"name":"trunc`,
      `POST /v0/aois HTTP/1.1\r\nHost: x\r\nAuthorization: ${tok}\r\nContent-Length: 10\r\n\r\n{"a":`,
      'GARBAGE\r\n\r\n',
      'GET /ping HTTP/9.9\r\n\r\n',
      `GET /v0/aois HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(70_000)}\r\n\r\n`,
      `POST /v0/indices HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${tok}\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n`,
      `POST /v0/orders HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${tok}\r\nContent-Length: 6000000\r\n\r\n{}`,
      `GET /../../../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n`,
    ];
    for (const raw of raws) {
      jobs.push(async () => {
        const out = await rawRequest(port, raw);
        const m = /^HTTP\/1\.1 (\d{3})/.exec(out);
        if (m) record(Number(m[1]), raw.slice(0, 40), false);
      });
    }
    // Oversized bodies through fetch, streamed past the 5 MB limit.
    for (let i = 0; i < 3; i++) {
      jobs.push(async () => {
        const res = await fetch(`${sb.url}/v0/orders`, {
          method: 'POST',
          headers: { authorization: `Bearer ${tok}` },
          body: 'x'.repeat(5 * 1024 * 1024 + 1),
        }).catch(() => undefined);
        if (res) {
          await res.arrayBuffer();
          record(res.status, 'oversized', false);
          assert.equal(res.status, 413);
        }
      });
    }
    let n = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (n < jobs.length) await jobs[n++]();
      }),
    );
    const total = [...statuses.values()].reduce((a, b) => a + b, 0);
    assert.ok(total >= 1000, `only ${total} answered`);
    assert.deepEqual(failures, []);
    assert.ok((statuses.get(400) ?? 0) > 100, JSON.stringify([...statuses]));
    assert.ok((statuses.get(401) ?? 0) > 50);
    const ping = await fetch(`${sb.url}/ping`);
    assert.equal(await ping.json(), 'pong');
    assert.equal(JSON.stringify(sb.state), before, 'stored data changed');
  });

  it('slowloris: half-sent headers are cut off after the timeout while /ping keeps answering', async () => {
    const port = Number(new URL(sb.url).port);
    const sockets = Array.from({ length: 20 }, () => {
      const s = net.connect(port, '127.0.0.1');
      s.write('GET /v0/aois HTTP/1.1\r\nHost: x\r\nX-Slow: ');
      s.resume();
      return s;
    });
    const closed = sockets.map(
      (s) =>
        new Promise<void>((resolve) => {
          s.on('close', () => resolve());
          s.on('error', () => resolve());
        }),
    );
    const ping = await fetch(`${sb.url}/ping`);
    assert.equal(ping.status, 200);
    const t0 = Date.now();
    const timeout = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 8000));
    const all = await Promise.race([Promise.all(closed).then(() => 'closed' as const), timeout]);
    for (const s of sockets) s.destroy();
    assert.equal(all, 'closed', 'the server closed the slow connections');
    assert.ok(Date.now() - t0 < 8000);
    assert.equal((await fetch(`${sb.url}/ping`)).status, 200);
  });
});
