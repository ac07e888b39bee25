/**
 * A fuzz of every sandbox route under an event-loop monitor, shared by the unit test
 * (routeFuzz.test.ts: no 5xx, no stall over a loose bound) and the benchmark
 * (test/bench/sandboxStalls.bench.ts: the stall figures). The sandbox can run inside the
 * extension host (Try the Sandbox), where a request that holds the event loop freezes the
 * editor: every route is asked with real ids and with junk, bodies are mutated, nested deep and
 * given huge geometries, and imagery is read whole and in 16 MiB ranges.
 *
 * The client runs in a worker thread (fuzzClient.ts), so that its reads and its garbage
 * collection are not charged to the sandbox, which runs on this process's main thread, as in
 * the extension host; it reads at most 24 MiB of each answer and then drops the connection,
 * so that whole-file reads of a 1.3 GB scene are bounded (and the server's handling of a
 * client that goes away is tried too). The stalls are read by loopMonitor.ts (main thread
 * CPU time, and monitorEventLoopDelay); the requests in flight during the worst ones are then
 * sent again one at a time, which names the request that held the loop.
 */
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { sandboxRoutes, type SandboxHandle } from '../../../src/sandbox';
import { Rng } from '../../../src/sandbox/prng';
import { T } from '../../../src/sandbox/transitions';
import type { ClientMessage, FuzzJob, RunResult } from './fuzzClient';
import { type RouteMax, type Stall, watchLoop } from './loopMonitor';

export type { Stall };

export interface FuzzOptions {
  seed: number;
  /** Requests to send in all (every route gets at least a few). */
  requests: number;
  /** Stop sending new requests after this long. */
  timeLimitMs: number;
  /** Requests in flight at once. */
  concurrency?: number;
}

export interface FuzzReport {
  sent: number;
  elapsedMs: number;
  statuses: Record<number, number>;
  /** Routes (method + pattern) that were asked. */
  routesAsked: number;
  routesTotal: number;
  /** 5xx answers (none is injected here) and network failures other than our own aborts. */
  failures: string[];
  /** Bodies over the size limit whose connection the server closed while they were sent. */
  oversizedClosed: number;
  /** Largest event-loop delay seen by perf_hooks.monitorEventLoopDelay, ms. */
  maxDelayMs: number;
  p99DelayMs: number;
  /** The worst stalls seen by a 10 ms ticker (by main-thread CPU time), with what was in flight. */
  stalls: Stall[];
  /** The longest stall in main-thread CPU time: how long the sandbox held the loop. */
  maxStallCpuMs: number;
  maxStallWallMs: number;
  cpuSource: string;
  /** Per route: the longest stall while one of its requests was in flight (an upper bound). */
  perRoute: Record<string, RouteMax>;
  /** The requests in flight during the worst stalls, each sent again alone: its own stall. */
  alone: { what: string; route: string; cpuMs: number; wallMs: number; delayMaxMs: number }[];
}

/** The client worker: one run of jobs at a time. */
export class FuzzClient {
  private readonly worker = new Worker(join(__dirname, 'fuzzClient.js'));
  constructor(private readonly sb: SandboxHandle) {}

  /** Hands jobs to the worker: do it before measuring (it copies every body). */
  load(jobs: FuzzJob[]): Promise<RunResult> {
    return this.ask({ type: 'load', jobs });
  }

  /** Sends loaded jobs, `concurrency` at a time. */
  run(jobs: FuzzJob[], concurrency: number, timeLimitMs: number): Promise<RunResult> {
    return this.ask({ type: 'run', url: this.sb.url, token: this.sb.tokens.alice, ids: jobs.map((j) => j.id), concurrency, timeLimitMs });
  }

  private ask(m: ClientMessage): Promise<RunResult> {
    return new Promise((resolve, reject) => {
      const done = (r: RunResult): void => {
        this.worker.off('error', failed);
        resolve(r);
      };
      const failed = (e: Error): void => {
        this.worker.off('message', done);
        reject(e);
      };
      this.worker.once('message', done);
      this.worker.once('error', failed);
      this.worker.postMessage(m);
    });
  }

  close(): Promise<number> {
    return this.worker.terminate();
  }
}

interface Ids {
  aoi: string[];
  project: string[];
  collection: string[];
  item: Record<string, string[]>;
  mosaic: Record<string, string[]>;
  insight: Record<string, string[]>;
  outputFile: string[];
  visualization: Record<string, string[]>;
  download: Record<string, string[]>;
  catalog: string[];
  catalogDownload: string[];
  order: string[];
  orderItem: string[];
  store: string[];
  block: [string, string][];
  token: Record<'aoi-files' | 'files' | 'outputs/package', string[]>;
}

const JUNK_IDS = ['x', '..%2f..%2fetc', '%E0%A4%A', 'a'.repeat(300), '00000000-0000-4000-8000-000000000000', '%00', '-', '.'];

type Caller = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: unknown }>;

function caller(sb: SandboxHandle): Caller {
  return async (method, path, body) => {
    const res = await fetch(sb.url + path, {
      method,
      headers: { authorization: `Bearer ${sb.tokens.alice}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text && (res.headers.get('content-type') ?? '').includes('json') ? (JSON.parse(text) as unknown) : text };
  };
}

const pathOfUrl = (u: string): string => new URL(u).pathname;

/** Real ids of alice's records, and signed URLs of downloads, read through the API. */
async function discover(sb: SandboxHandle): Promise<Ids> {
  const call = caller(sb);
  const alice = sb.users.alice.id;
  const st = sb.state;
  const aois = st.aois.filter((a) => a.user_id === alice);
  const ids: Ids = {
    aoi: aois.map((a) => a.aoi_id),
    project: st.projects.filter((p) => p.owner === alice).map((p) => p.id),
    collection: [],
    item: {},
    mosaic: {},
    insight: {},
    outputFile: [],
    visualization: {},
    download: {},
    catalog: [],
    catalogDownload: st.downloads.filter((d) => d.owner === alice && !d.aoi_id).map((d) => d.id),
    order: st.orders.filter((o) => o.user_id === alice).map((o) => o.id),
    orderItem: st.orders.filter((o) => o.user_id === alice).flatMap((o) => o.items.map((i) => i.id)),
    store: st.stores.filter((s) => s.owner === alice).map((s) => s.id),
    block: [],
    token: { 'aoi-files': [], files: [], 'outputs/package': [] },
  };
  const cols = (await call('GET', '/v0/archives/collections')).body as { collections: { id: string }[] };
  ids.collection = cols.collections.map((c) => c.id);
  for (const cid of ids.collection) {
    const fc = (await call('GET', `/v0/archives/collections/${cid}/items?limit=5`)).body as { features: { id: string }[] };
    ids.item[cid] = fc.features.map((f) => f.id);
  }
  for (const a of aois) {
    ids.mosaic[a.aoi_id] = st.assets.filter((x) => x.aoi_id === a.aoi_id && !x.visualization_id && x.path?.startsWith('http')).map((x) => `${x.date}.tif`);
    ids.insight[a.aoi_id] = st.insights.filter((r) => r.aoi_id === a.aoi_id).map((r) => r.id);
    ids.visualization[a.aoi_id] = st.visualizations.filter((v) => v.aoi_id === a.aoi_id).map((v) => v.id);
  }
  const blocks = (await call('GET', '/v0/blocks')).body as { blocks: { spec: { name: string; version: string } }[] };
  ids.block = blocks.blocks.map((b) => [b.spec.name, b.spec.version]);
  for (const r of st.insights.filter((x) => x.owner === alice)) {
    const run = ((await call('GET', `/v0/aoi/${r.aoi_id}/insights?id=${r.id}`)).body as { insights: { output?: { value?: string }[] }[] }).insights[0];
    for (const o of run?.output ?? []) if (o.value?.startsWith(sb.url)) ids.outputFile.push(pathOfUrl(o.value));
    const pkg = await call('PUT', `/v0/aoi/${r.aoi_id}/insights/${r.id}/download`, {});
    const url = (pkg.body as { signed_url?: string }).signed_url;
    if (url) ids.token['outputs/package'].push(pathOfUrl(url).split('/').pop()!);
  }
  // AOI downloads of one asset (a GeoTIFF) and of several (a ZIP), and a catalog download.
  const withAssets = aois
    .map((a) => ({ a, assets: st.assets.filter((x) => x.aoi_id === a.aoi_id && !x.visualization_id) }))
    .filter((x) => x.assets.length >= 2);
  const created: [string, string][] = [];
  for (const { a, assets } of withAssets.slice(0, 2)) {
    for (const pick of [assets.slice(0, 1), assets.slice(0, 3)]) {
      const d = await call('POST', `/v0/aois/${a.aoi_id}/downloads`, { asset_ids: pick.map((x) => x.id) });
      const id = (d.body as { download_id?: string }).download_id;
      if (id) created.push([a.aoi_id, id]);
    }
  }
  const catalogs = (await call('POST', '/v0/catalogs/search', { limit: 10 })).body as { catalogs?: { id: string }[] };
  ids.catalog = (catalogs.catalogs ?? []).map((c) => c.id);
  if (ids.catalog.length) {
    const d = await call('POST', '/v0/catalogs/download', { catalog_ids: ids.catalog.slice(0, 2), order_item_ids: [] });
    const id = (d.body as { id?: string }).id;
    if (id) ids.catalogDownload.push(id);
  }
  sb.clock.advance(T.downloadDone + 1000);
  for (const [aoiId, id] of created) {
    (ids.download[aoiId] ??= []).push(id);
    const url = ((await call('GET', `/v0/aois/${aoiId}/downloads/${id}`)).body as { signed_url?: string }).signed_url;
    if (url) ids.token['aoi-files'].push(pathOfUrl(url).split('/').pop()!);
  }
  for (const id of ids.catalogDownload) {
    const url = ((await call('GET', `/v0/catalogs/download/${id}`)).body as { signed_url?: string }).signed_url;
    if (url) ids.token.files.push(pathOfUrl(url).split('/').pop()!);
  }
  return ids;
}

/** A ring of `n` vertices on a circle: valid, and costly for a quadratic self-intersection check. */
function circle(n: number, lon: number, lat: number, r: number): number[][] {
  const ring = Array.from({ length: n - 1 }, (_, i) => [lon + r * Math.cos((2 * Math.PI * i) / (n - 1)), lat + r * Math.sin((2 * Math.PI * i) / (n - 1))]);
  return [...ring, ring[0]];
}

/** A ring whose edges all span the same longitudes: every pair overlaps. */
function zigzag(n: number): number[][] {
  const ring = Array.from({ length: n - 2 }, (_, i) => [i % 2 ? 10 : 11, 45 + i * 1e-4]);
  return [...ring, [10.5, 44], ring[0]];
}

function nested(depth: number): string {
  return `{"limit":1,"extra":${'['.repeat(depth)}1${']'.repeat(depth)}}`;
}

/** Hostile bodies: geometry-heavy, deep, or junk. */
function hostileBody(rng: Rng): string {
  switch (rng.int(0, 9)) {
    case 0:
      return JSON.stringify({ type: 'MultiPolygon', coordinates: Array.from({ length: 100 }, (_, i) => [circle(1999, -170 + i * 3, 10, 1)]) });
    case 1:
      return JSON.stringify({ type: 'Polygon', coordinates: [circle(9999, 10, 45, 2)] });
    case 2:
      return JSON.stringify({ type: 'Polygon', coordinates: [zigzag(9999)] });
    case 3:
      return nested(rng.pick([100, 6500, 50_000]));
    case 4:
      return `{"a":${'{"b":'.repeat(20_000)}1${'}'.repeat(20_000)}}`;
    case 5:
      return JSON.stringify({
        features: Array.from({ length: 40 }, () => ({ type: 'Feature', geometry: { type: 'Polygon', coordinates: [circle(999, 10, 45, 1)] } })),
      });
    default:
      return JSON.stringify(junk(rng));
  }
}

function junk(rng: Rng, depth = 0): unknown {
  switch (rng.int(0, depth > 2 ? 5 : 7)) {
    case 0:
      return null;
    case 1:
      return rng.pick([0, -1, 1e308, 2 ** 53 + 1, 0.5]);
    case 2:
      return rng.pick(['', 'x', '\u0000', '☃', 'a'.repeat(20_000), '\uD800']);
    case 3:
      return rng.chance(0.5);
    case 4:
      return [];
    case 5:
      return {};
    case 6:
      return Array.from({ length: rng.int(1, 4) }, () => junk(rng, depth + 1));
    default: {
      const o: Record<string, unknown> = {};
      for (let i = 0; i < rng.int(1, 4); i++)
        o[rng.pick(['name', 'geometry', 'limit', 'asset_ids', 'catalog_ids', 'order_items', 'input', 'satellites'])] = junk(rng, depth + 1);
      return o;
    }
  }
}

/** Valid-looking bodies per route, which the fuzz then breaks in one place or fills with a hostile value. */
function templates(ids: Ids): Record<string, () => Record<string, unknown>> {
  const poly = { type: 'Polygon', coordinates: [circle(40, 10, 45, 0.05)] };
  return {
    'POST /v0/aois': () => ({
      name: `fuzz ${Math.random()}`,
      description: '',
      project_id: ids.project[0],
      satellite_id: 'sentinel-2',
      provider: 'esa',
      item_ids: ids.item[ids.collection[0]]?.slice(0, 1) ?? [],
      geometry: poly,
    }),
    'POST /v0/search': () => ({
      start_date: '2020-01-01',
      end_date: '2030-01-01',
      satellites: [{ satellite_id: 'sentinel-2', collection_id: ids.collection[0] }],
      geometry: poly,
      limit: 10_000,
    }),
    'POST /v0/archives/search': () => ({ intersects: poly, limit: 1000 }),
    'POST /v0/catalogs/search': () => ({ limit: 100 }),
    'POST /v0/orders': () => ({
      dry_run: true,
      order_items: [
        {
          name: 'x',
          usecase: 'x',
          project_id: ids.project[0],
          geometry: { type: 'FeatureCollection', features: [{ type: 'Feature', properties: {}, geometry: poly }] },
          item_ids: ids.item[ids.collection[0]]?.slice(0, 1),
        },
      ],
    }),
    'POST /v0/aois/:aoi_id/downloads': () => ({ asset_ids: [] }),
    'POST /v0/aois/:aoi_id/visualizations': () => ({ index_id: 'ndvi', asset_ids: [] }),
    'POST /v0/aois/:aoi_id/visualizations/:visualization_id/png': () => ({ date: '2024-06-01', legend_mode: 'continuous' }),
    'POST /v0/aoi/:aoi_id/insights': () => ({
      name: 'x',
      project_id: ids.project[0],
      estimate: true,
      block: { name: ids.block[0]?.[0], version: ids.block[0]?.[1] },
      input: [],
    }),
    'POST /v0/indices': () => ({
      name: 'i',
      description: '',
      expression: 'B04/B03',
      expression_type: 'index',
      satellite_id: 'sentinel-2',
      colormap: 'viridis',
      rescale: [0, 1],
    }),
    'POST /v0/stores': () => ({ name: 's', type: 'S3', configs: { bucket: 'b', region: 'r' }, secrets: { access_key_id: 'a', secret_access_key: 'b' } }),
    'POST /v0/catalogs/deliveries': () => ({ deliveries: [{ catalog_ids: ids.catalog.slice(0, 1), cloud_info: { config: ids.store[0] ?? 'x', path: '' } }] }),
    'POST /v0/catalogs/download': () => ({ catalog_ids: ids.catalog.slice(0, 1), order_item_ids: [] }),
    'PUT /v0/aoi/:aoi_id/insights/:insight_id/download': () => ({}),
  };
}

/** Values for each path parameter: real ones most of the time, junk sometimes. */
function fill(pattern: string, ids: Ids, rng: Rng): string {
  const aoi = rng.pick(ids.aoi);
  const cid = rng.pick(ids.collection);
  const real: Record<string, () => string | undefined> = {
    aoi_id: () => aoi,
    id: () => {
      if (pattern.startsWith('/assets/') || pattern.includes('/items/')) return rng.pick(ids.item[cid] ?? ['x']);
      if (pattern.includes('/projects/')) return rng.pick(ids.project);
      if (pattern.includes('/orders/')) return rng.pick(ids.order);
      if (pattern.includes('/order-items/')) return rng.pick(ids.orderItem);
      if (pattern.includes('/catalogs/')) return rng.pick(ids.catalog.length ? ids.catalog : ['x']);
      if (pattern.includes('/stores/')) return rng.pick(ids.store.length ? ids.store : ['x']);
      return undefined;
    },
    cid: () => cid,
    file: () =>
      pattern.startsWith('/outputs/')
        ? rng.pick(['water_mask.tif', 'water_bodies.geojson'])
        : rng.pick(ids.mosaic[aoi]?.length ? ids.mosaic[aoi] : ['2024-01-01.tif']),
    insight_id: () => rng.pick(ids.insight[aoi]?.length ? ids.insight[aoi] : ['x']),
    visualization_id: () => rng.pick(ids.visualization[aoi]?.length ? ids.visualization[aoi] : ['x']),
    download_id: () =>
      pattern.includes('/catalogs/')
        ? rng.pick(ids.catalogDownload.length ? ids.catalogDownload : ['x'])
        : rng.pick(ids.download[aoi]?.length ? ids.download[aoi] : ['x']),
    token: () => {
      const kind = pattern.startsWith('/aoi-files') ? 'aoi-files' : pattern.startsWith('/files') ? 'files' : 'outputs/package';
      return rng.pick(ids.token[kind].length ? ids.token[kind] : ['x']);
    },
    name: () => rng.pick(ids.block)?.[0],
    version: () => rng.pick(ids.block)?.[1],
  };
  if (pattern === '/outputs/:insight_id/:file' && ids.outputFile.length && rng.chance(0.7)) return rng.pick(ids.outputFile);
  return pattern.replace(/:([a-z_]+)/g, (_, name: string) => {
    const v = rng.chance(0.85) ? real[name]?.() : undefined;
    return encodeURIComponent(v ?? rng.pick(JUNK_IDS)).replace(/%25/g, '%');
  });
}

const RANGES = [undefined, 'bytes=0-16777215', 'bytes=16777216-33554431', 'bytes=-16777216', 'bytes=0-', 'bytes=5-4', 'bytes=0-0,2-2,4-4', 'junk'];

function manyRanges(): string {
  return `bytes=${Array.from({ length: 64 }, (_, i) => `${i * 300_000}-${i * 300_000 + 262_143}`).join(',')}`;
}

/** Sends `opts.requests` requests over every route and reports statuses and stalls. */
export async function fuzzEveryRoute(sb: SandboxHandle, opts: FuzzOptions): Promise<FuzzReport> {
  const ids = await discover(sb);
  const rng = new Rng(opts.seed);
  const routes = sandboxRoutes();
  const tpl = templates(ids);
  const asked = new Set<string>();
  // Full-size scene reads: the heaviest imagery answers.
  const s2 = ids.collection.find((c) => c.startsWith('sentinel-2'));
  const fullItem = (s2 &&
    (await fetch(`${sb.url}/v0/archives/search`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sb.tokens.alice}`, 'content-type': 'application/json' },
      body: JSON.stringify({ collections: [s2], limit: 1000 }),
    })
      .then((r) => r.json() as Promise<{ features: { id: string }[] }>)
      .then((fc) => fc.features.find((f) => f.id.endsWith('_00001'))?.id))) as string | undefined;

  const jobs: FuzzJob[] = [];
  let route = '';
  const job = (method: string, path: string, body?: string, headers: Record<string, string> = {}): void => {
    const what = `${method} ${path.slice(0, 120)}${headers.range ? ` [${headers.range.slice(0, 40)}]` : ''}${body ? ` ${body.slice(0, 60)}` : ''}`;
    jobs.push({ method, path, body, headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers }, what, route, id: jobs.length });
  };

  // Every route a few times, then random ones until the count is reached.
  const perRoute = Math.max(2, Math.floor(opts.requests / routes.length / 2));
  const planned = [...routes.flatMap((r) => Array.from({ length: perRoute }, () => r))];
  while (planned.length < opts.requests) planned.push(rng.pick(routes));
  for (const r of planned) {
    const key = `${r.method} ${r.path}`;
    asked.add(key);
    route = key;
    const path = fill(r.path, ids, rng);
    if (r.method === 'GET') {
      const isCog = /\.tif$/.test(r.path) || r.path === '/outputs/:insight_id/:file' || r.path === '/aoi-files/:token';
      const range = isCog ? (rng.chance(0.1) ? manyRanges() : rng.pick(RANGES)) : undefined;
      const q = rng.chance(0.2) ? `?${rng.pick(['limit=100', 'limit=1e999', 'offset=-1', 'tz=../../x', 'created_at=,,,', 'name=%00', 'id=x'])}` : '';
      job('GET', path + (isCog ? '' : q), undefined, range ? { range } : {});
      continue;
    }
    const t = tpl[key];
    let body: string;
    if (t && rng.chance(0.6)) {
      const o = t();
      const k = rng.pick(Object.keys(o));
      const hostile = rng.chance(0.5) ? hostileBody(rng) : undefined;
      if (hostile) o[k] = '\u0000hostile';
      else if (rng.chance(0.6)) o[k] = rng.pick([null, 'x', 123, [], {}, junk(rng)]);
      // The hostile text goes in as it is: some of it is too deep to stringify.
      body = hostile ? JSON.stringify(o).replace('"\\u0000hostile"', hostile) : JSON.stringify(o);
    } else body = hostileBody(rng);
    job(r.method, path, body);
  }
  route = 'GET /assets/:cid/:id/data.tif';
  if (fullItem && s2) {
    for (const range of [undefined, 'bytes=0-16777215', 'bytes=600000000-616777215', manyRanges()]) {
      job('GET', `/assets/${s2}/${fullItem}/data.tif`, undefined, range ? { range } : {});
    }
  }
  // Shuffle, so that heavy requests meet each other and light ones.
  for (let i = jobs.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [jobs[i], jobs[j]] = [jobs[j], jobs[i]];
  }

  const client = new FuzzClient(sb);
  try {
    await client.load(jobs);
    const watch = watchLoop({ intervalMs: 10 });
    const r = await client.run(jobs, opts.concurrency ?? 6, opts.timeLimitMs);
    const loop = watch.stop();
    // Each request in flight during a stall of 50 ms or more, sent again alone.
    const suspects = [...new Set(loop.stalls.filter((s) => s.cpuMs >= 50).flatMap((s) => s.jobs))].flatMap((id) => jobs.filter((j) => j.id === Number(id)));
    const alone: FuzzReport['alone'] = [];
    for (const j of suspects.slice(0, 24)) {
      const w = watchLoop({ intervalMs: 10 });
      await client.run([j], 1, 60_000);
      const one = w.stop();
      alone.push({ what: j.what, route: j.route, cpuMs: one.maxStallCpuMs, wallMs: one.maxStallWallMs, delayMaxMs: one.delayMaxMs });
    }
    alone.sort((a, b) => b.cpuMs - a.cpuMs);
    return {
      sent: r.sent,
      elapsedMs: r.elapsedMs,
      statuses: r.statuses,
      routesAsked: asked.size,
      routesTotal: routes.length,
      failures: r.failures,
      oversizedClosed: r.oversizedClosed,
      maxDelayMs: loop.delayMaxMs,
      p99DelayMs: loop.delayP99Ms,
      stalls: loop.stalls,
      maxStallCpuMs: loop.maxStallCpuMs,
      maxStallWallMs: loop.maxStallWallMs,
      cpuSource: loop.cpuSource,
      perRoute: loop.perRoute,
      alone,
    };
  } finally {
    await client.close();
  }
}
