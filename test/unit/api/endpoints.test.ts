/**
 * A test per endpoint against the sandbox over loopback: the happy path, then the error
 * statuses the interface declares for it (500s come from the sandbox's fault flags).
 */
import { after, before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { ApiError, EoClient, collect, isFinalStatus, needsSignIn, parseTimestamp, type Aoi, type Polygon, type Project } from '../../../src/api';
import { legendsOf } from '../../../src/api/legend';
import { startSandbox } from '../../../src/sandbox';
import { trackUnhandled } from './testServer';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
const unhandled = trackUnhandled();

async function status(p: Promise<unknown>, want: number, msg?: RegExp): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof ApiError, `expected ApiError, got ${String(e)}`);
    assert.equal(e.kind, 'http', e.message);
    assert.equal(e.status, want, e.message);
    assert.ok(e.userMessage.startsWith(`${e.userMessage.split(' (')[0]} (${want})`), e.userMessage);
    if (msg) assert.match(e.message, msg);
    return e;
  }
  assert.fail(`expected HTTP ${want}`);
}

function square(lon: number, lat: number, d = 0.02): Polygon {
  return {
    type: 'Polygon',
    coordinates: [
      [
        [lon, lat],
        [lon + d, lat],
        [lon + d, lat + d],
        [lon, lat + d],
        [lon, lat],
      ],
    ],
  };
}

describe('api client against the sandbox', () => {
  let sb: Sandbox;
  let alice: EoClient;
  let bob: EoClient;
  let aliceAoi: Aoi;
  let bobAoi: Aoi;
  let aliceProject: Project;
  let bobProject: Project;

  const mk = (token: string | undefined, scheme: 'bearer' | 'raw' = 'bearer'): EoClient =>
    new EoClient({ baseUrl: sb.url, token, authScheme: scheme, timeoutMs: 5000, userAgent: 'eo-imagery-vscode/test', retry: { retries: 1, baseDelayMs: 5 } });
  const fault500 = (path: string, method = 'GET'): void => sb.faults.add({ method, path, status: 500, count: 1 });

  before(async () => {
    sb = await startSandbox({ port: 0 });
    alice = mk(sb.tokens.alice);
    bob = mk(sb.tokens.bob);
    aliceProject = (await alice.projects.listPage()).items[0];
    bobProject = (await bob.projects.listPage()).items[0];
    aliceAoi = (await alice.aois.listPage({ limit: 1 })).items[0];
    bobAoi = (await bob.aois.listPage({ limit: 1 })).items[0];
    assert.ok(aliceProject && bobProject && aliceAoi && bobAoi, 'the sandbox seeds projects and AOIs for both users');
  });
  after(async () => {
    await alice?.close();
    await bob?.close();
    await sb?.close();
    assert.deepEqual(unhandled.reasons, []);
  });

  it('ping needs no token', async () => {
    assert.equal(await mk(undefined).ping(), 'pong');
  });

  it('auth: bearer and raw both work; a bad or missing token is 401 (needs sign-in)', async () => {
    const raw = mk(sb.tokens.alice, 'raw');
    assert.ok((await raw.bandsets.list()).length > 0);
    await raw.close();
    for (const c of [mk('not-a-token'), mk(undefined)]) {
      const e = await status(c.projects.listPage(), 401);
      assert.ok(needsSignIn(e));
      assert.ok(!e.message.includes('not-a-token'));
      await c.close();
    }
  });

  it('projects: list (page_num paging), get; 400, 403, 404, 500', async () => {
    const page = await alice.projects.listPage({ pageNum: 1, pageSize: 2 });
    assert.ok(page.total >= page.items.length);
    const all = await collect(alice.projects.iterate({ pageSize: 1 }));
    assert.equal(all.length, page.total);
    assert.equal(new Set(all.map((p) => p.id)).size, all.length);
    const one = await alice.projects.get(aliceProject.id);
    assert.equal(one.id, aliceProject.id);
    assert.equal(one.members_count, undefined, 'members_count only in the list');
    await status(alice.projects.listPage({ pageSize: 101 }), 400);
    await status(alice.projects.get(bobProject.id), 403);
    await status(alice.projects.get('no-such-project'), 404);
    // The encoded id reaches the route as one segment (rejected as malformed, not routed elsewhere).
    await status(alice.projects.get('no-such/project?#'), 400, /not a well-formed id/);
    fault500('/v0/projects');
    await status(alice.projects.listPage(), 500);
  });

  it('AOIs: list, get, create, assets; 400, 403, 404, 409, 500', async () => {
    const page = await alice.aois.listPage({ offset: 0, limit: 2 });
    assert.ok(page.total !== undefined && page.total >= page.items.length);
    assert.equal((await collect(alice.aois.iterate({}, { pageSize: 3 }))).length, page.total);
    const got = await alice.aois.get(aliceAoi.aoi_id);
    assert.equal(got.aoi_id, aliceAoi.aoi_id);
    assert.equal(parseTimestamp(got.created_at)?.format, 'iso');
    await status(alice.aois.get(bobAoi.aoi_id), 403, /another user/);
    await status(alice.aois.get('nope'), 404);
    await status(alice.aois.listPage({ project_ids: ['nope'] }), 404);
    fault500('/v0/aois');
    await status(alice.aois.listPage(), 500);

    const name = `Test field ${Date.now()}`;
    const sat = (await alice.search.satellites()).find((s) => s.id === aliceAoi.satellite_id)!;
    const found = await alice.search.imagery({
      start_date: '2015-01-01T00:00:00Z',
      end_date: '2030-01-01T00:00:00Z',
      satellites: [{ satellite_id: sat.id, collection_id: sat.collections[0].id }],
      geometry: square(2.3, 48.8),
      limit: 2,
    });
    const pick = { description: '', provider: sat.collections[0].provider, item_ids: found.items.map((i) => i.id) };
    const created = await alice.aois.create({ name, ...pick, project_id: aliceProject.id, satellite_id: aliceAoi.satellite_id, geometry: square(2.3, 48.8) });
    assert.ok(
      pick.item_ids.every((id) => id in created.images),
      "the chosen images are the AOI's",
    );
    assert.equal(created.name, name);
    assert.ok(created.area_in_sq_m > 0);
    await status(alice.aois.create({ name, ...pick, project_id: aliceProject.id, satellite_id: aliceAoi.satellite_id, geometry: square(2.3, 48.8) }), 409);
    const open = square(2.3, 48.8);
    open.coordinates[0].pop();
    await status(alice.aois.create({ name: `${name} b`, ...pick, project_id: aliceProject.id, satellite_id: aliceAoi.satellite_id, geometry: open }), 400);
    await status(
      alice.aois.create({ name: `${name} c`, ...pick, project_id: bobProject.id, satellite_id: aliceAoi.satellite_id, geometry: square(2.3, 48.8) }),
      403,
    );
    fault500('/v0/aois', 'POST');
    await status(
      alice.aois.create({ name: `${name} d`, ...pick, project_id: aliceProject.id, satellite_id: aliceAoi.satellite_id, geometry: square(2.3, 48.8) }),
      500,
    );

    const assets = await alice.aois.assetsPage(aliceAoi.aoi_id, { limit: 5 });
    for (const a of assets.items) {
      assert.equal(a.aoi_id, aliceAoi.aoi_id);
      assert.equal(parseTimestamp(a.created_at)?.format, 'python');
    }
    assert.equal((await collect(alice.aois.iterateAssets(aliceAoi.aoi_id, { pageSize: 2 }))).length, assets.total);
  });

  it('imagery search: next_token paging, satellites; 400, 403, 500', async () => {
    const sats = await alice.search.satellites();
    assert.ok(sats.length > 0);
    // the OpenAPI's satellite record: collections (with provider), scaled bands, rgb_composite
    const s2 = sats.find((s) => s.id === 'sentinel-2')!;
    assert.deepEqual(s2.rgb_composite, { red: 'B04', green: 'B03', blue: 'B02' });
    assert.equal(s2.collections[0].provider, 'planetary');
    assert.equal(s2.collection_id, 'sentinel-2-l2a', 'filled in from collections[0]');
    assert.equal(s2.gsd, 10, 'the finest band resolution');
    assert.ok(s2.bands.every((b) => typeof b.scale === 'number' && typeof b.offset === 'number'));
    const req = {
      start_date: '2015-01-01T00:00:00Z',
      end_date: '2030-01-01T00:00:00Z',
      satellites: sats.map((s) => ({ satellite_id: s.id, collection_id: s.collections[0].id })),
      geometry: aliceAoi.geometry,
      limit: 2,
    };
    const first = await alice.search.imagery(req);
    assert.ok(first.items.length > 0 && first.next_token, 'imagery over the seeded AOI, more than one page');
    assert.ok(Array.isArray(first.items), 'items keyed by id on the wire, an array here');
    assert.ok(first.pagination && first.pagination.skip === 0 && first.pagination.limit === 2 && first.pagination.total > 2);
    for (const it of first.items) assert.ok(it.bbox?.every((x) => typeof x === 'number'));
    const items = await collect(alice.search.iterate(req, { cap: 7 }));
    assert.ok(items.length > 0 && items.length <= 7);
    assert.equal(new Set(items.map((i) => i.id)).size, items.length);
    await status(alice.search.imagery({ ...req, next_token: first.next_token!.slice(0, -2) + 'xx' }), 400, /next_token/);
    await status(alice.search.imagery({ ...req, end_date: '2000-01-01T00:00:00Z' }), 400);
    // pleiades-neo is outside one user's subscription in the sandbox.
    const results = await Promise.allSettled(
      [alice, bob].map((c) => c.search.imagery({ ...req, satellites: [{ satellite_id: 'pleiades-neo', collection_id: 'pleiades-neo' }] })),
    );
    assert.ok(
      results.some((r) => r.status === 'rejected' && (r.reason as ApiError).status === 403),
      'one user lacks pleiades-neo',
    );
    fault500('/v0/search', 'POST');
    await status(alice.search.imagery(req), 500);
    fault500('/v0/satellites');
    await status(alice.search.satellites(), 500);
  });

  it('blocks: the OpenAPI record read; the interface path first, the versioned paths after its 404', async () => {
    const all = await alice.blocks.list();
    const lc = all.find((b) => b.spec.name === 'land-cover-classification')!;
    // dexter.BlockSpecItem: name, title, kind live in spec; the client fills the first version's fields
    assert.equal(lc.name, 'land-cover-classification');
    assert.equal(lc.version, lc.spec.version);
    assert.equal(lc.display_name, 'Land cover classification');
    assert.equal(lc.mode, 'insight');
    assert.equal(lc.block_status, 'active');
    const viaInterface = await alice.blocks.insights({ name: lc.name });
    assert.deepEqual(
      viaInterface.map((b) => b.spec.version),
      [lc.spec.version],
    );
    // a service without GET /v0/blocks/insights (404): GET /v0/blocks/{name}/versions/{version}
    sb.faults.add({ method: 'GET', path: '/v0/blocks/insights', status: 404, count: 1 });
    const one = await alice.blocks.insights({ name: lc.name, version: lc.spec.version });
    assert.equal(one.length, 1);
    assert.deepEqual(one[0].spec.inputs, lc.spec.inputs);
    // ... and GET /v0/blocks/{name} without a version
    sb.faults.add({ method: 'GET', path: '/v0/blocks/insights', status: 404, count: 1 });
    assert.deepEqual(
      (await alice.blocks.insights({ name: lc.name })).map((b) => b.name),
      [lc.name],
    );
    await status(alice.blocks.version(lc.name, '99.0.0'), 404);
    // other failures are not hidden behind the fallback
    fault500('/v0/blocks/insights');
    await status(alice.blocks.insights({ name: lc.name }), 500);
  });

  it('indices: list, create; 400, 409, 500', async () => {
    const page = await alice.indices.listPage({ limit: 100 });
    assert.ok(page.items.some((i) => i.type === 'preset'));
    const presets = await collect(alice.indices.iterate({ type: 'preset' }, { pageSize: 2 }));
    assert.ok(presets.every((i) => i.type === 'preset'));
    await status(alice.indices.listPage({ limit: 101 }), 400);
    const ndvi = page.items.find((i) => i.name === 'NDVI') ?? page.items[0];
    const name = `Ratio ${Date.now()}`;
    const idx = await alice.indices.create({
      name,
      description: 'test',
      expression: ndvi.expression,
      expression_type: 'index',
      satellite_id: ndvi.satellite_id,
      colormap: 'viridis',
      rescale: [-1, 1],
    });
    assert.equal(idx.type, 'custom');
    assert.ok(idx.bands.length > 0);
    await status(
      alice.indices.create({
        name,
        description: 'test',
        expression: ndvi.expression,
        expression_type: 'index',
        satellite_id: ndvi.satellite_id,
        colormap: 'viridis',
        rescale: [-1, 1],
      }),
      409,
    );
    await status(
      alice.indices.create({
        name: `${name} x`,
        description: '',
        expression: 'NOPE/B04',
        expression_type: 'index',
        satellite_id: ndvi.satellite_id,
        colormap: '',
        rescale: [-1, 1],
      }),
      400,
    );
    fault500('/v0/indices');
    await status(alice.indices.listPage(), 500);
  });

  it('visualizations: list (singular key normalised), create with legend; 403, 404, 500', async () => {
    const page = await alice.visualizations.listPage(aliceAoi.aoi_id, { limit: 10 });
    assert.ok(Array.isArray(page.items));
    for (const v of page.items) assert.equal(parseTimestamp(v.created_at)?.format, 'python');
    await status(alice.visualizations.listPage(bobAoi.aoi_id), 403);
    const assets = (await alice.aois.assetsPage(aliceAoi.aoi_id, { limit: 100 })).items.filter((a) => a.visualization_id === '');
    const preset = (await alice.indices.listPage({ type: 'preset', satellite_id: aliceAoi.satellite_id, limit: 1 })).items[0];
    assert.ok(assets.length > 0 && preset, 'a mosaic asset and a preset index for the seeded AOI');
    const v = await alice.visualizations.create(aliceAoi.aoi_id, { index_id: preset.id, src_asset_ids: [assets[0].id] });
    assert.equal(v.index_id, preset.id);
    const legends = legendsOf(v);
    assert.ok(legends.length > 0 && legends.every((l) => l.date && l.dynamic?.length && l.theoretical?.length), 'preset: both legends, per date');
    // OpenAPI: list items carry only index_id; the client joins the index's name and kind.
    const listed = (await alice.visualizations.listPage(aliceAoi.aoi_id, { visualization_id: v.id, limit: 1 })).items[0];
    assert.equal(listed.index_name, preset.name);
    assert.equal(listed.type, 'preset');
    assert.equal(listed.expression_type, preset.expression_type);
    await status(alice.visualizations.create(aliceAoi.aoi_id, { index_id: 'no-such-index', src_asset_ids: [assets[0].id] }), 404);
    await status(alice.visualizations.create(aliceAoi.aoi_id, { index_id: preset.id, src_asset_ids: [] }), 400);
    fault500(`/v0/aois/${aliceAoi.aoi_id}/visualizations`);
    await status(alice.visualizations.listPage(aliceAoi.aoi_id), 500);
  });

  it('blocks, insight runs (estimate, run, list); 400, 404', async () => {
    const blocks = await alice.blocks.list();
    assert.ok(blocks.length > 0);
    const insightBlocks = await alice.blocks.list({ mode: 'insight' });
    assert.ok(insightBlocks.every((b) => b.mode === 'insight'));
    await status(alice.blocks.list({ mode: 'bogus' }), 400);
    const byName = await alice.blocks.insights({ name: insightBlocks[0].spec.name });
    assert.equal(byName[0].spec.name, insightBlocks[0].spec.name);
    // The seeded run: water-extent on alice's Sentinel-2 AOI, from its mosaic asset.
    const s2 = (await collect(alice.aois.iterate())).find((a) => a.satellite_id === 'sentinel-2');
    assert.ok(s2, 'alice has a Sentinel-2 AOI');
    const mosaic = (await collect(alice.aois.iterateAssets(s2.aoi_id))).find((a) => a.visualization_id === '');
    assert.ok(mosaic, 'with a mosaic asset');
    const water = (await alice.blocks.insights({ name: 'water-extent' }))[0];
    const input = water.spec.inputs.map((d) =>
      d.format === 'raster'
        ? { ...d, stac_url: `sandbox://aois/${s2.aoi_id}/assets/${mosaic.id}`, asset_source: { id: mosaic.id, type: 'raw_mosaic' as const } }
        : { ...d, value: d.type === 'boolean' ? 'false' : d.format === 'date' ? '2024-01-01' : '0.2' },
    );
    const run = { name: 'test run', project_id: s2.project_id, block: { name: water.spec.name, version: water.spec.version }, input };
    const before = (await alice.insightRuns.list(s2.aoi_id)).length;
    const tokens = await alice.insightRuns.estimate(s2.aoi_id, run);
    assert.ok(tokens > 0);
    assert.equal((await alice.insightRuns.list(s2.aoi_id)).length, before, 'an estimate runs nothing');
    const started = await alice.insightRuns.run(s2.aoi_id, run);
    assert.ok(started.id);
    const insights = await alice.insightRuns.list(s2.aoi_id);
    assert.equal(insights.length, before + 1);
    const mine = insights.find((i) => i.id === started.id);
    assert.equal(insights[0].id, started.id, 'newest first');
    assert.deepEqual(mine?.block, { name: water.spec.name, version: water.spec.version }, 'the block comes back through the metadata the client sends');
    assert.deepEqual(await alice.insightRuns.list(s2.aoi_id, { id: started.id }).then((l) => l.map((i) => i.id)), [started.id]);
    await status(alice.insightRuns.run(s2.aoi_id, { ...run, block: { name: 'no-such-block', version: '9' } }), 404);
    await status(alice.insightRuns.estimate(s2.aoi_id, { ...run, input: [] }), 400, /input/);
    await status(alice.insightRuns.list(bobAoi.aoi_id), 403);
  });

  it('bandsets; 500', async () => {
    const bs = await alice.bandsets.list();
    assert.ok(bs.length > 0 && bs[0].bands.length > 0);
    fault500('/v0/bandsets');
    await status(alice.bandsets.list(), 500);
  });

  it('orders: dry run (no id, nothing stored), create once, list, get; 400, 404, 500', async () => {
    const before = (await alice.orders.listPage({ limit: 1 })).total ?? 0;
    const archive = await alice.archives.search({ intersects: aliceAoi.geometry, limit: 1 });
    assert.ok(archive.features.length > 0, 'archive imagery over the seeded AOI');
    const item = {
      project_id: aliceAoi.project_id,
      name: 'archive test',
      usecase: 'agriculture',
      geometry: { type: 'FeatureCollection' as const, features: [{ type: 'Feature' as const, properties: {}, geometry: aliceAoi.geometry }] },
      item_ids: [archive.features[0].id],
    };
    const dry = await alice.orders.create({ dry_run: true, order_items: [item] });
    assert.equal(dry.id, undefined);
    assert.equal(typeof dry.total_amount, 'number');
    assert.equal((await alice.orders.listPage({ limit: 1 })).total, before, 'dry run stores nothing');
    const order = await alice.orders.create({ dry_run: false, order_items: [item] });
    assert.ok(order.id);
    assert.equal(order.status, 'UNPAID');
    assert.equal('paid_at' in order, false, 'empty paid_at is dropped');
    assert.equal((await alice.orders.listPage({ limit: 1 })).total, before + 1, 'exactly one order created');
    const got = await alice.orders.get(order.id!);
    assert.equal(got.order_items.length, 1);
    const all = await collect(alice.orders.iterate({}, { pageSize: 7 }));
    assert.equal(all.length, before + 1);
    await status(alice.orders.create({ dry_run: false, order_items: [{ ...item, item_ids: ['no-such-item'] }] }), 400);
    await status(alice.orders.listPage({ status: 'NOPE' as 'PAID' }), 400);
    await status(alice.orders.get('nope'), 404);
    await status(bob.orders.get(order.id!), 404);
    fault500('/v0/orders', 'POST');
    await status(alice.orders.create({ dry_run: true, order_items: [item] }), 500);
    // an item without a use case is refused before anything is sent (the service requires it)
    const sent = (await alice.orders.listPage({ limit: 1 })).total;
    await assert.rejects(alice.orders.create({ dry_run: false, order_items: [{ ...item, usecase: ' ' }] }), /order_items\[0\]: usecase/);
    assert.equal((await alice.orders.listPage({ limit: 1 })).total, sent);
  });

  it('order items: list with tasks, filters, get; 400, 404', async () => {
    const page = await alice.orderItems.listPage({ limit: 20 });
    assert.ok(page.items.length > 0);
    let withTasks: (typeof page.items)[number] | undefined;
    for await (const i of alice.orderItems.iterate({}, { pageSize: 50 })) {
      if ((i.tasks ?? []).length > 0) {
        withTasks = i;
        break;
      }
    }
    assert.ok(withTasks, 'seeded order items have tasks');
    assert.equal(parseTimestamp(withTasks.tasks![0].start_date)?.format, 'dmy');
    const first = page.items[0];
    const one = await alice.orderItems.get(first.id);
    assert.equal(one.id, first.id);
    const byOrder = await collect(alice.orderItems.iterate({ order_ids: [first.order_id] }, { pageSize: 2 }));
    assert.ok(byOrder.length > 0 && byOrder.every((i) => i.order_id === first.order_id));
    await status(alice.orderItems.listPage({ status: 'NOPE' as 'ACTIVE' }), 400);
    await status(alice.orderItems.get('nope'), 404);
  });

  it('archives: search with next links, collections, collection, items, item; 400 with object details, 404', async () => {
    const cols = await alice.archives.collections();
    assert.ok(cols.length > 0);
    const col = await alice.archives.collection(cols[0].id);
    assert.equal(col.id, cols[0].id);
    const fc = await alice.archives.search({ collections: [col.id], limit: 3 });
    assert.equal(fc.features.length, 3);
    for (const f of fc.features) assert.ok(f.bbox?.length === 4 && f.bbox.every((x) => typeof x === 'number'));
    const walked = await collect(alice.archives.iterateSearch({ collections: [col.id] }, { pageSize: 4, cap: 10 }));
    assert.equal(walked.length, 10);
    assert.equal(new Set(walked.map((i) => i.id)).size, 10);
    const items = await collect(alice.archives.iterateItems(col.id, { pageSize: 3, cap: 7 }));
    assert.equal(items.length, 7);
    assert.equal(new Set(items.map((i) => i.id)).size, 7);
    const one = await alice.archives.item(col.id, items[0].id);
    assert.equal(one.id, items[0].id);
    const bad = await status(alice.archives.search({ bbox: [10, 50, 11, 40] }), 400);
    assert.equal(typeof bad.details, 'object', 'archive errors carry object details');
    await status(alice.archives.collection('nope'), 404);
    await status(alice.archives.item(col.id, 'nope'), 404);
  });

  it('catalogs, downloads (polled to success), deliveries, stores, reports', async () => {
    const cats = await alice.catalogs.searchPage({ limit: 5 });
    assert.ok(cats.items.length > 0, 'the sandbox seeds fulfilled imagery');
    const cat = await alice.catalogs.get(cats.items[0].id);
    assert.equal(cat.id, cats.items[0].id);
    assert.equal((await collect(alice.catalogs.iterate({}, { pageSize: 2 }))).length, cats.total);
    await status(alice.catalogs.get('nope'), 404);

    const dl = await alice.downloads.create({ catalog_ids: [cat.id] });
    assert.equal(dl.status, 'created');
    const statuses: string[] = [];
    const done = await alice.downloads.waitUntilDone(dl.id, {
      initialDelayMs: 5,
      maxDelayMs: 20,
      timeoutMs: 10_000,
      onProgress: (d) => {
        statuses.push(d.status);
        sb.clock.advance(60_000);
      },
    });
    assert.ok(isFinalStatus('download', done.status));
    assert.equal(done.status, 'success');
    assert.ok(done.signed_url);
    await status(alice.downloads.get('nope'), 404);

    const secrets = { access_key_id: 'AKIA-TEST', secret_access_key: 'shh' };
    const storeName = `bucket ${Date.now()}`;
    const store = await alice.stores.create({ name: storeName, type: 'S3', configs: { bucket: 'b', region: 'eu-west-1', path_prefix: 'x/' }, secrets });
    assert.equal(JSON.stringify(store).includes('shh'), false, 'secrets never come back');
    assert.ok((await alice.stores.list()).some((s) => s.id === store.id));
    await status(alice.stores.create({ name: storeName, type: 'S3', configs: { bucket: 'b', region: 'eu-west-1', path_prefix: 'x/' }, secrets }), 409);
    const missing = await status(alice.stores.create({ name: `${storeName}2`, type: 'AZBLOB', configs: {}, secrets: {} }), 400);
    assert.match(missing.message, /configs\.bucket, configs\.region/);

    const deliveries = await alice.deliveries.create({ deliveries: [{ catalog_ids: [cat.id], cloud_info: { config: store.id, path: 'out/' } }] });
    assert.equal(deliveries.length, 1);
    const d = await alice.deliveries.waitUntilDone(deliveries[0].delivery_id, {
      initialDelayMs: 5,
      maxDelayMs: 20,
      onProgress: () => sb.clock.advance(60_000),
    });
    assert.equal(d.status, 'SUCCESS');
    assert.ok((await alice.deliveries.list({ catalog_id: cat.id })).some((x) => x.delivery_id === d.delivery_id));
    await status(alice.deliveries.create({ deliveries: [{ catalog_ids: [cat.id], cloud_info: { config: 'no-such-store', path: '' } }] }), 404);

    await alice.stores.delete(store.id);
    await status(alice.stores.delete(store.id), 404);

    const report = await alice.reports.get({ tz: 'Europe/Paris' });
    assert.ok(report.rows.length > 0);
    assert.ok(report.text.startsWith('order_id,'));
    assert.ok(report.rows[0].order_item_id);
    const badTz = await status(alice.reports.get({ tz: 'Mars/Olympus' }), 400);
    assert.match(badTz.userMessage, /time zone/);
  });

  it('a sandbox reset fault on a GET is retried transparently', async () => {
    sb.faults.add({ method: 'GET', path: '/v0/bandsets', status: 500, reset: true, count: 1 });
    assert.ok((await alice.bandsets.list()).length > 0);
  });
});
