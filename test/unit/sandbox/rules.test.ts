/** The rules of docs/service-interface.md: transitions on the clock, archive search semantics, pricing, scoping. */
/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are untyped JSON read by assertions */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';
import { ARCHIVE_RATES, SPEED_UPLIFT, TASKING_RATE } from '../../../src/sandbox/orders';
import { caller, fc, square } from './helpers';

let sb: SandboxHandle;
let alice: ReturnType<typeof caller>;
let anon: ReturnType<typeof caller>;

before(async () => {
  sb = await startSandbox({ port: 0, seed: 11 });
  alice = caller(sb, 'alice');
  anon = caller(sb, 'none');
});
after(() => sb.close());

const search = async (body: object) => {
  const r = await alice('POST', '/v0/archives/search', body);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body.features as any[];
};
const num = (b: string[]) => b.map(Number);

describe('transitions on the sandbox clock', () => {
  it('the seeded world holds every order, item and payment status, and failed downloads and deliveries', async () => {
    const items = [];
    for (let off = 0; ; off += 100) {
      const r = (await alice('GET', `/v0/order-items?limit=100&offset=${off}`)).body;
      items.push(...r.order_items);
      if (off + 100 >= r.pagination.total) break;
    }
    const statuses = new Set(items.map((i: any) => i.status));
    for (const s of ['DRAFT', 'ACTIVE', 'FULFILLED', 'CANCELLED', 'FAILED', 'PARTIALLY_FULFILLED']) assert.ok(statuses.has(s), s);
    const pay = new Set(items.map((i: any) => i.payment_status));
    for (const s of ['PAID', 'PARTIAL-REFUND', 'REFUND', 'UNPAID', 'PARTIAL-MONTHLY']) assert.ok(pay.has(s), s);
    const feas = new Set(items.map((i: any) => i.feasibility_status));
    for (const s of ['FAILED', 'WEAK_SUCCESS', 'SUCCESS']) assert.ok(feas.has(s), s);
    const types = new Set(items.map((i: any) => i.type));
    for (const s of ['TASKING', 'ARCHIVE', 'RECURRING']) assert.ok(types.has(s), s);
    const orders = (await alice('GET', '/v0/orders?limit=100')).body.orders;
    const os = new Set(orders.map((o: any) => o.status));
    for (const s of ['PAID', 'REFUND', 'UNPAID']) assert.ok(os.has(s), s);
    const deliveries = (await alice('GET', '/v0/catalogs/deliveries')).body.deliveries;
    assert.ok(deliveries.some((d: any) => d.status === 'FAILED'));
  });
  it('order UNPAID → PAYMENT_IN_PROGRESS → PAID, items DRAFT → ACTIVE → FULFILLED, catalogs, delivery, download', async () => {
    const project = (await alice('GET', '/v0/projects')).body.projects[0];
    const g = square(2.35, 48.86, 0.03);
    const ids = (await search({ intersects: g, collections: ['sentinel-2-l2a'], limit: 2 })).map((f) => f.id);
    const order = (await alice('POST', '/v0/orders', { order_items: [{ project_id: project.id, usecase: 'agriculture', geometry: fc(g), item_ids: ids }] }))
      .body;
    assert.equal(order.order_items[0].feasibility_status, 'SUCCESS');
    const itemId = order.order_items[0].id;
    const read = async () => (await alice('GET', `/v0/orders/${order.id}`)).body;
    const item = async () => (await alice('GET', `/v0/order-items/${itemId}`)).body;
    assert.equal((await read()).status, 'UNPAID');
    assert.equal((await item()).status, 'DRAFT');
    sb.clock.advance(12_000);
    assert.equal((await read()).status, 'PAYMENT_IN_PROGRESS');
    sb.clock.advance(10_000);
    const paid = await read();
    assert.equal(paid.status, 'PAID');
    assert.match(paid.paid_at, /^\d{4}-\d{2}-\d{2}T.*\+00:00$/);
    const active = await item();
    assert.equal(active.status, 'ACTIVE');
    assert.equal(active.payment_status, 'PAID');
    assert.equal(active.tasks.length, 2);
    assert.equal(active.tasks[0].status, 'IN_PROGRESS', 'a task under way: the OpenAPI has no ACTIVE for tasks');
    assert.equal((await alice('POST', '/v0/catalogs/search', { order_item_ids: [itemId] })).body.catalogs.length, 0);
    sb.clock.advance(61_000);
    const done = await item();
    assert.equal(done.status, 'FULFILLED');
    assert.ok(done.tasks.every((t: any) => t.status === 'FULFILLED' && t.delivery_status === 'SUCCESSFUL'));
    const cats = (await alice('POST', '/v0/catalogs/search', { order_item_ids: [itemId] })).body.catalogs;
    assert.equal(cats.length, 2, 'one catalog per fulfilled task');

    const store = (await alice('GET', '/v0/stores')).body.stores[0];
    const d = (await alice('POST', '/v0/catalogs/deliveries', { deliveries: [{ order_item_ids: [itemId], cloud_info: { config: store.id, path: 'o/' } }] }))
      .body.deliveries;
    assert.equal(d.length, 2);
    const dstatus = async () => (await alice('GET', `/v0/catalogs/deliveries?delivery_id=${d[0].delivery_id}`)).body.deliveries[0].status;
    assert.equal(await dstatus(), 'CREATED');
    sb.clock.advance(6_000);
    assert.equal(await dstatus(), 'IN_PROGRESS');
    sb.clock.advance(30_000);
    assert.equal(await dstatus(), 'SUCCESS');

    const dl = (await alice('POST', '/v0/catalogs/download', { order_item_ids: [itemId] })).body;
    const dget = async () => (await alice('GET', `/v0/catalogs/download/${dl.id}`)).body;
    assert.equal(dl.status, 'created');
    assert.equal(dl.signed_url, undefined);
    sb.clock.advance(4_000);
    assert.equal((await dget()).status, 'in_progress');
    sb.clock.advance(15_000);
    const ok = await dget();
    assert.equal(ok.status, 'success');
    const file = await fetch(ok.signed_url);
    assert.equal(file.status, 200);
    const bytes = Buffer.from(await file.arrayBuffer());
    assert.equal(bytes.readUInt32LE(0), 0x04034b50, 'a real ZIP archive');
    assert.ok(bytes.includes(Buffer.from(cats[0].id)));
    sb.clock.advance(16 * 60_000);
    const expired = await fetch(ok.signed_url);
    assert.equal(expired.status, 403);
    const fresh = await dget();
    assert.equal((await fetch(fresh.signed_url)).status, 200, 'each read issues a fresh URL');
    const forged = fresh.signed_url.replace(/\.[^.]+$/, '.AAAA');
    assert.equal((await fetch(forged)).status, 403);
  });
});

describe('scoping', () => {
  it('each user sees only their own projects, AOIs, orders and stores', async () => {
    const bob = caller(sb, 'bob');
    const a = (await alice('GET', '/v0/aois?limit=100')).body.aois.map((x: any) => x.aoi_id);
    const b = (await bob('GET', '/v0/aois?limit=100')).body.aois.map((x: any) => x.aoi_id);
    assert.ok(a.length >= 12 && b.length >= 12);
    assert.ok(!a.some((id: string) => b.includes(id)));
    const ao = (await alice('GET', '/v0/orders?limit=100')).body.orders.map((x: any) => x.id);
    const bo = (await bob('GET', '/v0/orders?limit=100')).body.orders.map((x: any) => x.id);
    assert.ok(!ao.some((id: string) => bo.includes(id)));
    const as = (await alice('GET', '/v0/stores')).body.stores.map((x: any) => x.id);
    const bs = (await bob('GET', '/v0/stores')).body.stores.map((x: any) => x.id);
    assert.ok(!as.some((id: string) => bs.includes(id)));
    const aois = (await alice('GET', '/v0/aois?limit=100')).body.aois;
    assert.ok(
      aois.some((x: any) => x.geometry.coordinates[0].some((p: number[]) => p[0] > 179) && x.geometry.coordinates[0].some((p: number[]) => p[0] < -179)),
      'an AOI over the antimeridian',
    );
    assert.ok(
      aois.some((x: any) => x.centroid[1] > 66),
      'an AOI at high latitude',
    );
  });
});

describe('pagination limits', () => {
  it('limit 1..100, offset >= 0, else 400 naming the field', async () => {
    for (const q of ['limit=0', 'limit=101', 'limit=-1', 'offset=-1', 'limit=abc', 'limit=1.5']) {
      const r = await alice('GET', `/v0/order-items?${q}`);
      assert.equal(r.status, 400, q);
      assert.match(r.body.error.message, new RegExp(q.split('=')[0]));
    }
    const r = await alice('GET', '/v0/order-items?limit=100&offset=5');
    assert.equal(r.body.order_items.length, 100);
    assert.equal(r.body.pagination.offset, 5);
  });
  it('order item filters: type, status, ids, order_ids, project_ids, created_at and area ranges', async () => {
    const all = (await alice('GET', '/v0/order-items?limit=100')).body.order_items;
    const t = (await alice('GET', '/v0/order-items?type=ARCHIVE&limit=100')).body.order_items;
    assert.ok(t.length > 0 && t.every((i: any) => i.type === 'ARCHIVE'));
    const two = `${all[0].id},${all[1].id}`;
    assert.equal((await alice('GET', `/v0/order-items?ids=${two}`)).body.order_items.length, 2);
    const byOrder = (await alice('GET', `/v0/order-items?order_ids=${all[0].order_id}`)).body.order_items;
    assert.ok(byOrder.every((i: any) => i.order_id === all[0].order_id));
    const byProject = (await alice('GET', `/v0/order-items?project_ids=${all[0].project_id}&limit=100`)).body.order_items;
    assert.ok(byProject.length > 0 && byProject.every((i: any) => i.project_id === all[0].project_id));
    const area = (await alice('GET', '/v0/order-items?area=50,100&limit=100')).body.order_items;
    assert.ok(area.length > 0 && area.every((i: any) => i.area >= 50 && i.area <= 100));
    const since = new Date(sb.clock.now() - 86_400_000).toISOString();
    const recent = (await alice('GET', `/v0/order-items?created_at=${since},&limit=100`)).body.order_items;
    assert.ok(recent.length > 0 && recent.every((i: any) => Date.parse(i.created_at) >= Date.parse(since)));
    assert.equal((await alice('GET', '/v0/order-items?area=x,y')).status, 400);
  });
});

describe('archive search like a STAC API', () => {
  it('bbox, including a box over the antimeridian (west > east), checked against true geometry', async () => {
    const box = [177, -20, -178, -14];
    const f = await search({ bbox: box, limit: 100 });
    assert.ok(f.length > 0);
    for (const x of f) {
      const [w, , e] = num(x.bbox);
      const lons = JSON.stringify(x.geometry)
        .match(/-?\d+(\.\d+)?(?=,-?\d)/g)!
        .map(Number);
      assert.ok(w > e || lons.some((l) => l >= 177 || l <= -178), `${x.id} ${x.bbox}`);
    }
    assert.ok(
      f.some((x) => x.geometry.type === 'MultiPolygon'),
      'items split at the antimeridian',
    );
  });
  it('intersects uses the polygon, not only its box', async () => {
    // A thin diagonal triangle: its bbox covers much more than the triangle itself.
    const tri = {
      type: 'Polygon',
      coordinates: [
        [
          [-125, 30],
          [-110, 45],
          [-110.5, 45],
          [-125, 30],
        ],
      ],
    };
    const byTri = await search({ intersects: tri, limit: 1000 });
    const byBox = await search({ bbox: [-125, 30, -110, 45], limit: 1000 });
    assert.ok(byTri.length < byBox.length, `${byTri.length} < ${byBox.length}`);
    assert.ok(byTri.every((t) => byBox.some((b) => b.id === t.id)));
    const pt = await search({ intersects: { type: 'Point', coordinates: [-120.45, 36.75] }, limit: 5 });
    assert.ok(pt.length > 0);
  });
  it('datetime instants, closed and open intervals', async () => {
    const [first] = await search({ limit: 1 });
    const dt = first.properties.datetime;
    const inst = await search({ datetime: dt, limit: 100 });
    assert.ok(inst.length >= 1 && inst.every((x) => x.properties.datetime === dt));
    const closed = await search({ datetime: '2020-01-01T00:00:00Z/2020-02-01T00:00:00Z', limit: 100 });
    assert.ok(closed.length > 0 && closed.every((x) => x.properties.datetime >= '2020-01-01' && x.properties.datetime <= '2020-02-01T00:00:00Z'));
    const open = await search({ datetime: '../2018-03-01T00:00:00Z', limit: 100 });
    assert.ok(open.length > 0 && open.every((x) => x.properties.datetime <= '2018-03-01T00:00:00Z'));
    const openEnd = await search({ datetime: '2025-06-01T00:00:00Z/..', limit: 100 });
    assert.ok(openEnd.length > 0 && openEnd.every((x) => x.properties.datetime >= '2025-06-01'));
    assert.equal((await alice('POST', '/v0/archives/search', { datetime: '../..' })).status, 400);
    assert.equal((await alice('POST', '/v0/archives/search', { datetime: 'yesterday' })).status, 400);
  });
  it('ids, collections, query operators, sortby and the next link', async () => {
    const some = await search({ collections: ['landsat-c2-l2'], limit: 3 });
    assert.ok(some.every((x) => x.collection === 'landsat-c2-l2'));
    const byIds = await search({ ids: [some[0].id, some[2].id] });
    assert.deepEqual(byIds.map((x) => x.id).sort(), [some[0].id, some[2].id].sort());
    const q = (op: object) => search({ query: { 'eo:cloud_cover': op }, limit: 200 });
    assert.ok((await q({ lt: 5 })).every((x) => x.properties['eo:cloud_cover'] < 5));
    assert.ok((await q({ lte: 5 })).every((x) => x.properties['eo:cloud_cover'] <= 5));
    assert.ok((await q({ gt: 90 })).every((x) => x.properties['eo:cloud_cover'] > 90));
    assert.ok((await q({ gte: 90 })).every((x) => x.properties['eo:cloud_cover'] >= 90));
    const plat = await search({ query: { platform: { in: ['landsat-9'] } }, limit: 50 });
    assert.ok(plat.length > 0 && plat.every((x) => x.properties.platform === 'landsat-9'));
    const eq = await search({ query: { platform: { eq: 'sentinel-2a' } }, limit: 50 });
    assert.ok(eq.length > 0 && eq.every((x) => x.properties.platform === 'sentinel-2a'));
    const neq = await search({ query: { constellation: { neq: 'sentinel-2' } }, limit: 50 });
    assert.ok(neq.every((x) => x.properties.constellation !== 'sentinel-2'));
    const sorted = await search({ sortby: [{ field: 'properties.eo:cloud_cover', direction: 'desc' }], limit: 20 });
    for (let i = 1; i < sorted.length; i++) assert.ok(sorted[i - 1].properties['eo:cloud_cover'] >= sorted[i].properties['eo:cloud_cover']);
    const asc = await search({ sortby: [{ field: 'datetime', direction: 'asc' }], limit: 5 });
    assert.ok(asc[0].properties.datetime <= asc[4].properties.datetime);
    const bad = await alice('POST', '/v0/archives/search', { query: { 'eo:cloud_cover': { like: 3 } } });
    assert.equal(bad.status, 400);
    assert.match(bad.body.error.message, /query\.eo:cloud_cover\.like/);
    const page1 = await alice('POST', '/v0/archives/search', { collections: ['sentinel-2-l2a'], limit: 4 });
    const next = page1.body.links.find((l: any) => l.rel === 'next');
    assert.equal(next.method, 'POST');
    const page2 = await alice('POST', '/v0/archives/search', next.body);
    assert.equal(page2.body.features.length, 4);
    assert.ok(!page2.body.features.some((f: any) => page1.body.features.some((g: any) => g.id === f.id)));
    assert.equal((await alice('POST', '/v0/archives/search', { limit: 1001 })).status, 400);
    assert.equal((await alice('POST', '/v0/archives/search', { bbox: [0, 10, 1] })).status, 400);
    assert.equal((await anon('POST', '/v0/archives/search', {})).status, 401);
  });
});

describe('order pricing and store rules', () => {
  it('prices archive items as km² × collection rate with the delivery speed uplift listed', async () => {
    const g = square(31.05, 30.8, 0.05);
    const [f] = await search({ intersects: g, collections: ['sentinel-2-l2a'], limit: 1 });
    const r = (
      await alice('POST', '/v0/orders', { dry_run: true, order_items: [{ geometry: fc(g), usecase: 'agriculture', item_ids: [f.id], delivery_speed: 'RUSH' }] })
    ).body;
    const it = r.order_items[0];
    const expectBase = Math.round(Math.max(25, it.area) * ARCHIVE_RATES['sentinel-2-l2a'] * 100) / 100;
    assert.ok(Math.abs(it.base_amount - expectBase) <= 0.02, `${it.base_amount} vs ${expectBase}`);
    assert.equal(it.uplifts.length, 1);
    assert.equal(it.uplifts[0].percentage, SPEED_UPLIFT.RUSH);
    assert.ok(Math.abs(it.final_amount - it.base_amount * 1.5) <= 0.02);
    assert.equal(r.total_amount, it.final_amount);
  });
  it('prices tasking by occurrences with cloud and off-nadir uplifts, and reports feasibility', async () => {
    const g = fc(square(2.35, 48.86, 0.1));
    const base = {
      geometry: g,
      usecase: 'agriculture',
      recurrence: 'WEEKLY',
      start_date: '2030-01-01T00:00:00Z',
      end_date: '2030-02-01T00:00:00Z',
      no_of_occurrences: 3,
      bandset: { bandset_id: 'bs-pneo-vnir' },
    };
    const r = (await alice('POST', '/v0/orders', { dry_run: true, order_items: [{ ...base, cloud_cover: 5, off_nadir: 10 }] })).body.order_items[0];
    assert.equal(r.type, 'RECURRING');
    assert.ok(Math.abs(r.base_amount - Math.max(100, r.area) * TASKING_RATE * 3) <= 0.05);
    assert.deepEqual(r.uplifts.map((u: any) => u.percentage).sort(), [15, 20]);
    assert.equal(r.feasibility_status, 'WEAK_SUCCESS');
    assert.equal(r.occurrences.length, 3);
    const huge = (await alice('POST', '/v0/orders', { dry_run: true, order_items: [{ ...base, geometry: fc(square(2, 48, 1)) }] })).body.order_items[0];
    assert.equal(huge.feasibility_status, 'FAILED');
    // OpenAPI: a list of maps from field name to messages
    assert.match(huge.validation_errors[0].geometry[0], /tasking limit/);
  });
  it('store secrets by type: 400 lists every missing key', async () => {
    const r = await alice('POST', '/v0/stores', { name: 'az', type: 'AZBLOB', configs: { bucket: 'c' }, secrets: { account_name: 'a' } });
    assert.equal(r.status, 400);
    assert.ok(!r.body.error.message.includes('path_prefix'), 'path_prefix is optional');
    for (const k of ['configs.region', 'secrets.tenant_id', 'secrets.client_id', 'secrets.client_secret']) assert.ok(r.body.error.message.includes(k), k);
    const g = await alice('POST', '/v0/stores', {
      name: 'g',
      type: 'GCS',
      configs: { bucket: 'b', region: 'europe-west4' },
      secrets: { project_id: 'p', service_account_credentials: '{"k":"very-secret"}' },
    });
    assert.equal(g.status, 201);
    assert.ok(!g.text.includes('very-secret'));
    assert.equal((await alice('POST', '/v0/stores', { name: 'x', type: 'FTP', configs: {}, secrets: {} })).status, 400);
  });
});

describe('faults', () => {
  it('forces a status on a path for the next N requests, then clears', async () => {
    sb.faults.add({ method: 'GET', path: '/v0/stores', status: 503, count: 2, body: { error: { code: 'unavailable', message: 'down', details: '' } } });
    assert.equal((await alice('GET', '/v0/stores')).status, 503);
    const second = await alice('GET', '/v0/stores');
    assert.equal(second.status, 503);
    assert.equal(second.headers.get('x-sandbox-injected'), 'fault');
    assert.equal((await alice('GET', '/v0/stores')).status, 200);
    sb.faults.add({ path: /^\/v0\/orders/, status: 500, count: 5, body: '<html>oops</html>', contentType: 'text/html' });
    const html = await alice('GET', '/v0/orders');
    assert.equal(html.status, 500);
    assert.equal(html.text, '<html>oops</html>');
    sb.faults.clear();
    assert.equal((await alice('GET', '/v0/orders')).status, 200);
    sb.faults.add({ path: '/v0/bandsets', status: 200, reset: true });
    await assert.rejects(alice('GET', '/v0/bandsets'));
    assert.equal((await alice('GET', '/v0/bandsets')).status, 200);
  });
});
