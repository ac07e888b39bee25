/**
 * Faults against a scripted in-test server: every one must end in an ApiError of the right
 * kind with a readable message, POSTs must be sent exactly once, nothing may leak a token.
 */
import { after, afterEach, before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { ApiError, EoClient, collect, needsSignIn, type RequestEvent } from '../../../src/api';
import { json, startTestServer, text, trackUnhandled, type TestServer, ORDER } from './testServer';

const TOKEN = 'tok_SECRET_1234567890';
const unhandled = trackUnhandled();

function client(url: string, extra: Partial<ConstructorParameters<typeof EoClient>[0]> = {}): EoClient {
  return new EoClient({
    baseUrl: url,
    token: TOKEN,
    authScheme: 'bearer',
    timeoutMs: 2000,
    userAgent: 'eo-imagery-vscode/0.1.0 (test)',
    retry: { retries: 2, baseDelayMs: 5, maxDelayMs: 20 },
    ...extra,
  });
}

async function rejects(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof ApiError, `expected ApiError, got ${String(e)}`);
    assert.ok(!e.message.includes(TOKEN) && !e.userMessage.includes(TOKEN), 'token leaked into an error');
    return e;
  }
  assert.fail('expected a rejection');
}

describe('api client under faults', () => {
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

  it('401 in the middle of a session needs sign-in', async () => {
    srv.setHandler((_r, res, n) =>
      n === 1 ? json(res, 200, { bandsets: [] }) : json(res, 401, { error: { code: 'unauthorized', message: 'Invalid or expired token', details: '' } }),
    );
    c = client(srv.url);
    assert.deepEqual(await c.bandsets.list(), []);
    const e = await rejects(c.bandsets.list());
    assert.equal(e.kind, 'http');
    assert.equal(e.status, 401);
    assert.equal(e.code, 'unauthorized');
    assert.ok(needsSignIn(e));
    assert.match(e.userMessage, /^Unauthorized \(401\): invalid or expired token/);
    assert.equal(srv.requests.length, 2, '401 is not retried');
  });

  it('403 reads like a notification', async () => {
    srv.setHandler((_r, res) => json(res, 403, { error: { code: 'forbidden', message: 'This AOI belongs to another user', details: '' } }));
    c = client(srv.url);
    const e = await rejects(c.aois.get('a1'));
    assert.equal(e.userMessage, 'Forbidden (403): this AOI belongs to another user');
    assert.equal(e.method, 'GET');
    assert.equal(e.path, '/v0/aoi/a1');
    assert.ok(!needsSignIn(e));
  });

  it("404 with the projects' free-form body", async () => {
    srv.setHandler((_r, res) => json(res, 404, { message: 'Project p9 not found' }));
    c = client(srv.url);
    const e = await rejects(c.projects.get('p9'));
    assert.equal(e.status, 404);
    assert.equal(e.userMessage, 'Not found (404): project p9 not found');
    assert.deepEqual(e.details, { message: 'Project p9 not found' });
  });

  it('409 on a POST: sent once, conflict message', async () => {
    srv.setHandler((_r, res) => json(res, 409, { error: { code: 'conflict', message: 'A store named "raw" already exists', details: 'name' } }));
    c = client(srv.url);
    const e = await rejects(
      c.stores.create({
        name: 'raw',
        type: 'S3',
        configs: { bucket: 'b', region: 'r', path_prefix: 'p' },
        secrets: { access_key_id: 'AK', secret_access_key: 'SK' },
      }),
    );
    assert.equal(e.status, 409);
    assert.equal(e.code, 'conflict');
    assert.equal(e.details, 'name');
    assert.match(e.userMessage, /^Conflict \(409\): a store named "raw" already exists$/);
    assert.equal(srv.count('POST', '/v0/stores'), 1);
  });

  it('500 with an HTML page is not retried and says what the page said', async () => {
    srv.setHandler((_r, res) =>
      text(res, 500, '<!doctype html><html><head><title>500 Internal Server Error</title></head><body><h1>Upstream exploded</h1></body></html>', 'text/html'),
    );
    c = client(srv.url);
    const e = await rejects(c.orders.get('o1'));
    assert.equal(e.kind, 'http');
    assert.equal(e.status, 500);
    assert.match(e.userMessage, /^Server error \(500\): the server sent an HTML page: Upstream exploded/);
    assert.equal(srv.requests.length, 1);
  });

  it('an empty error body still names the status', async () => {
    srv.setHandler((_r, res) => {
      res.writeHead(500);
      res.end();
    });
    c = client(srv.url);
    const e = await rejects(c.stores.list());
    assert.equal(e.userMessage, 'Server error (500)');
  });

  it('archive errors carry object details', async () => {
    srv.setHandler((_r, res) =>
      json(res, 400, { error: { code: 'bad_request', message: 'Invalid bbox', details: { field: 'bbox', reason: 'min lat > max lat' } } }),
    );
    c = client(srv.url);
    const e = await rejects(c.archives.search({ bbox: [0, 10, 1, 5] }));
    assert.deepEqual(e.details, { field: 'bbox', reason: 'min lat > max lat' });
    assert.equal(e.userMessage, 'Bad request (400): invalid bbox');
  });

  it('a text/csv error from reports is decoded', async () => {
    srv.setHandler((_r, res) => text(res, 400, 'code,message\nbad_request,"Unknown time zone ""Mars/Base"""\n', 'text/csv'));
    c = client(srv.url);
    const e = await rejects(c.reports.get({ tz: 'Mars/Base' }));
    assert.equal(e.code, 'bad_request');
    assert.equal(e.userMessage, 'Bad request (400): unknown time zone "Mars/Base"');
    assert.equal(e.path, '/v0/reports?tz=Mars%2FBase');
  });

  it('a report with columns of its own is read as sent (the OpenAPI does not describe them)', async () => {
    // none of the sandbox's columns, a quoted comma, a short last row
    srv.setHandler((_r, res) => text(res, 200, 'Order,Item name,Amount (USD)\no-1,"Farm, north",12.50\no-2,Delta\n', 'text/csv'));
    c = client(srv.url);
    const r = await c.reports.get({ tz: 'UTC' });
    assert.deepEqual(r.columns, ['Order', 'Item name', 'Amount (USD)']);
    assert.deepEqual(r.rows, [
      { Order: 'o-1', 'Item name': 'Farm, north', 'Amount (USD)': '12.50' },
      { Order: 'o-2', 'Item name': 'Delta', 'Amount (USD)': '' },
    ]);
    srv.setHandler((_r, res) => text(res, 200, '', 'text/csv'));
    assert.deepEqual((await c.reports.get()).rows, []);
  });

  it('an order status filter the service ignores is applied here, and paging still covers every order', async () => {
    // OpenAPI GET /v0/orders takes only user_id, limit, offset: this server ignores status
    const all = Array.from({ length: 5 }, (_, i) => ({ ...ORDER, id: `o${i}`, status: i % 2 === 0 ? 'PAID' : 'UNPAID' }));
    srv.setHandler((r, res) => {
      const q = new URL(r.url ?? '/', 'http://x').searchParams;
      const offset = Number(q.get('offset') ?? 0);
      const limit = Number(q.get('limit') ?? 10);
      json(res, 200, { orders: all.slice(offset, offset + limit), pagination: { offset, limit, total: all.length } });
    });
    c = client(srv.url);
    const page = await c.orders.listPage({ status: 'PAID', limit: 2 });
    assert.deepEqual(
      page.items.map((o) => o.id),
      ['o0'],
    );
    assert.equal(page.scanned, 2);
    const paid = await collect(c.orders.iterate({ status: 'PAID' }, { pageSize: 2 }));
    assert.deepEqual(
      paid.map((o) => o.id),
      ['o0', 'o2', 'o4'],
    );
  });

  it('archive search without next links pages on by offset, and a short page ends it', async () => {
    // the OpenAPI pages archives by offset/limit and promises no next links
    const feats = Array.from({ length: 5 }, (_, i) => ({
      id: `it${i}`,
      type: 'Feature',
      collection: 'c',
      bbox: ['0', '0', '1', '1'],
      geometry: { type: 'Point', coordinates: [0, 0] },
      properties: { datetime: null },
    }));
    const seen: unknown[] = [];
    srv.setHandler((r, res) => {
      const b = JSON.parse(r.body) as { offset?: number; limit?: number; collections?: string[] };
      seen.push(b);
      const offset = b.offset ?? 0;
      json(res, 200, { type: 'FeatureCollection', features: feats.slice(offset, offset + (b.limit ?? 10)), links: [] });
    });
    c = client(srv.url);
    const items = await collect(c.archives.iterateSearch({ collections: ['c'] }, { pageSize: 2 }));
    assert.deepEqual(
      items.map((i) => i.id),
      ['it0', 'it1', 'it2', 'it3', 'it4'],
    );
    assert.deepEqual(seen, [
      { collections: ['c'], limit: 2 },
      { collections: ['c'], limit: 2, offset: 2 },
      { collections: ['c'], limit: 2, offset: 4 },
    ]);
  });

  it('a 200 whose body is not JSON is a protocol error', async () => {
    srv.setHandler((_r, res) => text(res, 200, 'OK then', 'application/json'));
    c = client(srv.url);
    const e = await rejects(c.bandsets.list());
    assert.equal(e.kind, 'protocol');
    assert.match(e.message, /expected JSON, got a body that is not JSON/);
  });

  it('a 200 HTML page (captive portal, proxy) is a protocol error', async () => {
    srv.setHandler((_r, res) => text(res, 200, '<html><title>Sign in to Wi-Fi</title></html>', 'text/html; charset=utf-8'));
    c = client(srv.url);
    const e = await rejects(c.stores.list());
    assert.equal(e.kind, 'protocol');
    assert.match(e.userMessage, /HTML page.*Sign in to Wi-Fi/);
  });

  it('a 200 with wrong types names the field', async () => {
    srv.setHandler((_r, res) => json(res, 200, { ...ORDER, total_amount: '12.5' }));
    c = client(srv.url);
    const e = await rejects(c.orders.get('o1'));
    assert.equal(e.kind, 'protocol');
    assert.match(e.serverMessage, /^order\.total_amount: expected number, got string/);
    assert.match(e.userMessage, /^Unexpected response from the EO service: order\.total_amount/);
  });

  it('wrong types deep in a listing name the index', async () => {
    const item = { id: 'i1', status: 'ACTIVE', area: 3, tasks: [{ id: 't1', number_of_strips: 'two' }] };
    srv.setHandler((_r, res) => json(res, 200, { order_items: [item], pagination: { offset: 0, limit: 10, total: 1 } }));
    c = client(srv.url);
    const e = await rejects(c.orderItems.listPage());
    assert.equal(e.serverMessage, 'order_items[0].tasks[0].number_of_strips: expected integer, got string "two"');
  });

  it('a truncated body is a network error; GETs retry it, POSTs do not', async () => {
    srv.setHandler((_r, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"stores": [');
      setTimeout(() => res.socket?.destroy(), 10);
    });
    c = client(srv.url);
    const e = await rejects(c.stores.list());
    assert.equal(e.kind, 'network');
    assert.match(e.userMessage, /closed before the response was complete|cut short|reset/);
    assert.equal(srv.count('GET', '/v0/stores'), 3, 'first try + 2 retries');
    const p = await rejects(c.orders.create({ dry_run: false, order_items: [] }));
    assert.equal(p.kind, 'network');
    assert.equal(srv.count('POST', '/v0/orders'), 1);
  });

  it('a reset connection is a network error; POST sent once', async () => {
    // RST instead of FIN: the client sees ECONNRESET.
    srv.setHandler((_r, res) => res.socket?.resetAndDestroy());
    c = client(srv.url);
    const e = await rejects(c.aois.listPage());
    assert.equal(e.kind, 'network');
    assert.ok(e.code === 'ECONNRESET' || e.code === 'UND_ERR_SOCKET', `code ${e.code}`);
    assert.equal(srv.count('GET', '/v0/aois'), 3);
    const d = await rejects(c.downloads.create({ catalog_ids: ['c1'] }));
    assert.equal(d.kind, 'network');
    assert.equal(srv.count('POST', '/v0/catalogs/download'), 1);
    await rejects(c.deliveries.create({ deliveries: [{ catalog_ids: ['c1'], cloud_info: { config: 's', path: 'p' } }] }));
    assert.equal(srv.count('POST', '/v0/catalogs/deliveries'), 1);
    await rejects(c.stores.delete('s1'));
    assert.equal(srv.count('DELETE', '/v0/stores/s1'), 1);
  });

  it('a server that never answers times out; the POST is not resent', async () => {
    srv.setHandler(() => undefined);
    c = client(srv.url, { timeoutMs: 250, retry: { retries: 1, baseDelayMs: 5 } });
    const t0 = Date.now();
    const e = await rejects(c.orderItems.get('i1'));
    assert.equal(e.kind, 'timeout');
    assert.match(e.userMessage, /did not answer in time \(GET \/v0\/order-items\/i1\)/);
    assert.equal(srv.count('GET', '/v0/order-items/i1'), 2);
    // two 250 ms attempts, not the default 30 s timeout (room for a loaded 2-core machine)
    assert.ok(Date.now() - t0 < 5000);
    const p = await rejects(c.orders.create({ dry_run: false, order_items: [] }));
    assert.equal(p.kind, 'timeout');
    assert.equal(srv.count('POST', '/v0/orders'), 1);
  });

  it('cancelling via AbortSignal ends in kind aborted at once', async () => {
    srv.setHandler(() => undefined);
    c = client(srv.url);
    const ac = new AbortController();
    const p = c.aois.listPage({}, { signal: ac.signal });
    setTimeout(() => ac.abort(), 30);
    const t0 = Date.now();
    const e = await rejects(p);
    assert.equal(e.kind, 'aborted');
    assert.ok(Date.now() - t0 < 1000);
    const pre = new AbortController();
    pre.abort();
    assert.equal((await rejects(c.bandsets.list({ signal: pre.signal }))).kind, 'aborted');
  });

  it('503 then 200: GET retried honouring Retry-After', async () => {
    srv.setHandler((_r, res, n) =>
      n === 1 ? json(res, 503, { error: { code: 'unavailable', message: 'busy', details: '' } }, { 'retry-after': '0' }) : json(res, 200, { bandsets: [] }),
    );
    c = client(srv.url);
    assert.deepEqual(await c.bandsets.list(), []);
    assert.equal(srv.requests.length, 2);
  });

  it('429 with a Retry-After date in the future waits for it', async () => {
    srv.setHandler((_r, res, n) =>
      n === 1 ? json(res, 429, { error: { code: 'rate', message: 'slow down', details: '' } }, { 'retry-after': '1' }) : json(res, 200, { stores: [] }),
    );
    c = client(srv.url);
    const t0 = Date.now();
    assert.deepEqual(await c.stores.list(), []);
    assert.ok(Date.now() - t0 >= 950, 'waited about a second');
  });

  it('a Retry-After longer than we wait is thrown, not slept on', async () => {
    srv.setHandler((_r, res) => json(res, 429, { error: { code: 'rate', message: 'slow down', details: '' } }, { 'retry-after': '3600' }));
    c = client(srv.url);
    const e = await rejects(c.stores.list());
    assert.equal(e.status, 429);
    assert.equal(e.retryAfterMs, 3_600_000);
    assert.equal(srv.requests.length, 1);
  });

  it('429 on a POST is not retried', async () => {
    srv.setHandler((_r, res) => json(res, 429, { error: { code: 'rate', message: 'slow down', details: '' } }, { 'retry-after': '0' }));
    c = client(srv.url);
    await rejects(c.orders.create({ dry_run: true, order_items: [] }));
    assert.equal(srv.requests.length, 1);
  });

  it('a repeated next_token stops the iterator with a protocol error', async () => {
    srv.setHandler((_r, res) => json(res, 200, { items: [{ id: `x${srv.requests.length}`, properties: {}, bbox: ['1', '2', '3', '4'] }], next_token: 'same' }));
    c = client(srv.url);
    const seen: string[] = [];
    const e = await rejects(
      (async () => {
        for await (const it of c.search.iterate({ start_date: 'a', end_date: 'b', satellites: [], geometry: { type: 'Polygon', coordinates: [] } })) {
          seen.push(it.id);
          assert.deepEqual(it.bbox, [1, 2, 3, 4]);
        }
      })(),
    );
    assert.equal(e.kind, 'protocol');
    assert.match(e.message, /next_token it had already sent/);
    assert.equal(srv.requests.length, 2);
    assert.equal(JSON.parse(srv.requests[1].body).next_token, 'same');
  });

  it('a server that ignores offset (repeats a page) stops the iterator', async () => {
    srv.setHandler((r, res) => {
      const offset = Number(new URL(r.url, 'http://x').searchParams.get('offset'));
      json(res, 200, { orders: [ORDER, { ...ORDER, id: 'o2' }], pagination: { offset, limit: 2, total: 10 } });
    });
    c = client(srv.url);
    const e = await rejects(
      (async () => {
        for await (const _ of c.orders.iterate({}, { pageSize: 2 })) void _;
      })(),
    );
    assert.match(e.message, /repeated the page at offset 0 when asked for offset 2/);
  });

  it('a total that contradicts the pages stops the iterator', async () => {
    srv.setHandler((r, res) => {
      const offset = (JSON.parse(r.body) as { offset: number }).offset;
      json(res, 200, { catalogs: offset === 0 ? [{ id: 'c1' }] : [], pagination: { offset, limit: 1, total: 5 } });
    });
    c = client(srv.url);
    const e = await rejects(
      (async () => {
        for await (const _ of c.catalogs.iterate({}, { pageSize: 1 })) void _;
      })(),
    );
    assert.match(e.message, /there are 5 items but the page at offset 1 is empty/);
  });

  it('a next link pointing at another host is not followed (the token would go there)', async () => {
    srv.setHandler((_r, res) =>
      json(res, 200, {
        type: 'FeatureCollection',
        features: [{ id: 'i1', properties: {}, bbox: [0, 0, 1, 1] }],
        links: [{ rel: 'next', href: 'http://evil.example/steal?offset=1' }],
      }),
    );
    c = client(srv.url);
    const e = await rejects(
      (async () => {
        for await (const _ of c.archives.iterateItems('col')) void _;
      })(),
    );
    assert.match(e.message, /outside the service \(http:\/\/evil\.example\)/);
  });

  it('sends the auth header in the chosen scheme, a user agent, and no auth to ping', async () => {
    srv.setHandler((r, res) => (r.url === '/ping' ? json(res, 200, 'pong') : json(res, 200, { stores: [] })));
    c = client(srv.url);
    await c.stores.list();
    assert.equal(srv.requests[0].headers.authorization, `Bearer ${TOKEN}`);
    assert.equal(srv.requests[0].headers['user-agent'], 'eo-imagery-vscode/0.1.0 (test)');
    assert.equal(await c.ping(), 'pong');
    assert.equal(srv.requests[1].headers.authorization, undefined);
    await c.close();
    let asked = 0;
    c = client(srv.url, {
      authScheme: 'raw',
      token: async () => {
        asked++;
        return 'RAWKEY123';
      },
    });
    await c.stores.list();
    assert.equal(srv.requests[2].headers.authorization, 'RAWKEY123');
    assert.equal(asked, 1);
  });

  it('encodes path parameters so an id cannot change the path', async () => {
    srv.setHandler((_r, res) => json(res, 404, { error: { code: 'not_found', message: 'nope', details: '' } }));
    c = client(srv.url);
    await rejects(c.aois.get('a/b?c#d é'));
    await rejects(c.archives.item('col/1', '..'));
    assert.equal(srv.requests[0].url, '/v0/aoi/a%2Fb%3Fc%23d%20%C3%A9');
    assert.equal(srv.requests[1].url, '/v0/archives/collections/col%2F1/items/%2E%2E');
    assert.throws(() => c.orders.get(''), TypeError);
  });

  it('request events redact the Authorization header and store secrets; errors never carry the token', async () => {
    const events: RequestEvent[] = [];
    srv.setHandler((_r, res) => json(res, 401, { error: { code: 'unauthorized', message: `token ${TOKEN} is revoked`, details: `got ${TOKEN}` } }));
    c = client(srv.url, { onRequest: (e) => events.push(e) });
    const e = await rejects(
      c.stores.create({
        name: 's',
        type: 'S3',
        configs: { bucket: 'b', region: 'r', path_prefix: '' },
        secrets: { access_key_id: 'AKIAXXXX', secret_access_key: 'very-secret' },
      }),
    );
    assert.equal(e.serverMessage, 'token [redacted] is revoked');
    assert.equal(e.details, 'got [redacted]');
    assert.equal(events.length, 1);
    const ev = events[0];
    assert.equal(ev.method, 'POST');
    assert.equal(ev.path, '/v0/stores');
    assert.equal(ev.status, 401);
    assert.equal(typeof ev.ms, 'number');
    assert.ok((ev.bytes ?? 0) > 0);
    assert.equal(ev.requestHeaders.authorization, '[redacted]');
    const dump = JSON.stringify(ev);
    for (const s of [TOKEN, 'AKIAXXXX', 'very-secret']) assert.ok(!dump.includes(s), `${s} leaked into the event`);
    assert.deepEqual((ev.requestBody as { secrets: unknown }).secrets, { access_key_id: '[redacted]', secret_access_key: '[redacted]' });
  });

  it('events show retries with their delay', async () => {
    const events: RequestEvent[] = [];
    srv.setHandler((_r, res, n) => (n < 3 ? json(res, 502, {}) : json(res, 200, { bandsets: [] })));
    c = client(srv.url, { onRequest: (e) => events.push(e) });
    await c.bandsets.list();
    assert.deepEqual(
      events.map((e) => [e.attempt, e.status, e.retryInMs !== undefined]),
      [
        [1, 502, true],
        [2, 502, true],
        [3, 200, false],
      ],
    );
  });

  it('a refused connection is a network error naming the host', async () => {
    const dead = await startTestServer(() => undefined);
    const url = dead.url;
    await dead.close();
    c = client(url);
    const e = await rejects(c.bandsets.list());
    assert.equal(e.kind, 'network');
    assert.match(e.userMessage, /Cannot reach the EO service: connection refused by 127\.0\.0\.1:\d+/);
  });
});
