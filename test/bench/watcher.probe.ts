// Runs inside code-server's extension host: the watcher (src/watch) following 20 pending order
// items of the sandbox (clock frozen, so none finishes), through a counting proxy, for 60 s;
// side by side, through its own proxy, a fixed-interval poll of each of the 20 every 5 s (what
// one would write without backoff or a budget). Then the clock moves a day on: how long until
// each of them has seen all 20 final. Then 3 insight runs pending on 3 AOIs (the figure the
// sidebar's run poller had before the watcher took those reads over). First, a 503 storm: two
// windows sharing one budget folder follow 25 items while every read is answered 503 with
// Retry-After: 0, beside two windows with a budget each.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EoClient } from '../../src/api';
import { startSandbox, type SandboxHandle } from '../../src/sandbox';
import { SharedBudget } from '../../src/watch/sharedBudget';
import type { WatchBudget } from '../../src/watch/schedule';
import { Watcher } from '../../src/watch/watcher';
import { FaultProxy } from '../support/faultProxy';
import { countingProxy, pendingRuns } from './insightPolling.probe';
import { MemoryState } from '../integration/support/memoryState';

export interface WatcherSample {
  pending: number;
  window_s: number;
  ours: number;
  baseline: number;
  /** Seconds from the clock jump until every item was seen final. */
  oursNoticedAllS?: number;
  baselineNoticedAllS?: number;
  /** Insight runs: 3 pending on 3 AOIs, progress standing still, then rising. */
  runs?: { aois: number; still: RunWindow; rising: RunWindow };
  /** Two windows, 25 items pending, every read answered 503 + Retry-After: 0: requests in the window. */
  storm?: { pending: number; seconds: number; shared: number; apart: number };
  error?: string;
}

/** Requests in one window: the watcher's, and a fixed 2 s poll of each AOI's run list beside it. */
export interface RunWindow {
  seconds: number;
  ours: number;
  baseline: number;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const total = (counts: Record<string, number>): number => Object.values(counts).reduce((a, b) => a + b, 0);

export async function run(): Promise<void> {
  const file = process.env.EO_TEST_RESULT_FILE;
  const sample: WatcherSample = { pending: 20, window_s: 60, ours: 0, baseline: 0 };
  const sandbox = await startSandbox({ port: 0, speed: 0 });
  const ours = await countingProxy(sandbox.url);
  const theirs = await countingProxy(sandbox.url);
  const mk = (url: string): EoClient =>
    new EoClient({ baseUrl: url, token: sandbox.tokens.alice, authScheme: 'bearer', timeoutMs: 10_000, userAgent: 'bench' });
  const direct = mk(sandbox.url);
  const oursClient = mk(ours.url);
  const theirsClient = mk(theirs.url);
  let watcher: Watcher | undefined;
  try {
    const ids = await placeOrders(direct, sample.pending);
    sample.storm = await storm(sandbox.url, sandbox.tokens.alice, [...ids, ...(await placeOrders(direct, 5))]);
    watcher = quietWatcher(oursClient);
    for (const id of ids) watcher.follow('orderItem', id);

    const finalSeen = new Set<string>();
    const final = (s: string): boolean => ['FULFILLED', 'PARTIALLY_FULFILLED', 'FAILED', 'CANCELLED'].includes(s);
    const baselineLoop = async (until: () => boolean): Promise<void> => {
      while (!until()) {
        const started = Date.now();
        await Promise.all(
          ids.map(async (id) => {
            const it = await theirsClient.orderItems.get(id);
            if (final(it.status)) finalSeen.add(id);
          }),
        );
        await sleep(Math.max(0, 5000 - (Date.now() - started)));
      }
    };
    const end = Date.now() + sample.window_s * 1000;
    await baselineLoop(() => Date.now() >= end);
    sample.ours = total(ours.counts);
    sample.baseline = total(theirs.counts);

    sandbox.clock.advance(24 * 60 * 60_000);
    const jump = Date.now();
    const limit = jump + 300_000;
    const w = watcher;
    await Promise.all([
      baselineLoop(() => finalSeen.size === ids.length || Date.now() > limit).then(() => (sample.baselineNoticedAllS = (Date.now() - jump) / 1000)),
      (async () => {
        while (w.size > 0 && Date.now() < limit) await sleep(250);
        if (w.size === 0) sample.oursNoticedAllS = (Date.now() - jump) / 1000;
      })(),
    ]);
    watcher.dispose();
    watcher = undefined;
    sample.runs = await followRuns(sandbox, direct, oursClient, ours.counts, theirsClient, theirs.counts);
  } catch (err) {
    sample.error = err instanceof Error ? (err.stack ?? err.message) : String(err);
  } finally {
    watcher?.dispose();
    await Promise.all([direct.close(), oursClient.close(), theirsClient.close()]);
    await ours.close();
    await theirs.close();
    await sandbox.close();
  }
  if (file) fs.writeFileSync(file, JSON.stringify(sample));
}

/** `count` archive orders of one item each over the first AOI: their items' ids. */
async function placeOrders(direct: EoClient, count: number): Promise<string[]> {
  const aoi = (await direct.aois.listPage({ limit: 1 })).items[0];
  const items = (await direct.archives.search({ intersects: aoi.geometry, limit: 20 })).features;
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const order = await direct.orders.create({
      dry_run: false,
      order_items: [
        {
          project_id: aoi.project_id,
          name: `bench ${i}`,
          usecase: 'general',
          geometry: { type: 'FeatureCollection', features: [{ type: 'Feature', properties: {}, geometry: aoi.geometry }] },
          item_ids: [items[i % items.length].id],
        },
      ],
    });
    ids.push(order.order_items[0].id);
  }
  return ids;
}

/** A watcher of its own (memory state, no notifications) reading through `client`. */
function quietWatcher(client: EoClient, state = new MemoryState(), budget?: WatchBudget): Watcher {
  const log = { info: (): void => undefined, warn: (): void => undefined };
  const ui = { message: (): Promise<undefined> => Promise.resolve(undefined) };
  const connection = { baseUrl: 'http://127.0.0.1', getClient: () => Promise.resolve(client), onDidChange: () => ({ dispose: (): void => undefined }) };
  return new Watcher({ state, connection, log, ui, budget });
}

/**
 * 60 s of a 503 storm (every read of an order item answered 503 with Retry-After: 0) while two
 * windows follow `ids`: two watchers on one state sharing a budget folder, through one proxy;
 * beside them, through another, two with a budget each (what every window had before).
 */
async function storm(upstream: string, token: string, ids: string[]): Promise<NonNullable<WatcherSample['storm']>> {
  const seconds = 60;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-bench-budget-'));
  const proxies = await Promise.all([FaultProxy.start({ upstream, announceSeed: false }), FaultProxy.start({ upstream, announceSeed: false })]);
  const clients = proxies.map((p) => new EoClient({ baseUrl: p.url, token, authScheme: 'bearer', timeoutMs: 10_000, userAgent: 'bench' }));
  const watchers: Watcher[] = [];
  try {
    for (const p of proxies) p.add({ method: 'GET', path: '/v0/order-items/', toxic: { kind: 'status', status: 503, retryAfter: '0' } });
    const [sharedState, apartState] = [new MemoryState(), new MemoryState()];
    for (let w = 0; w < 2; w++) {
      watchers.push(quietWatcher(clients[0], sharedState, new SharedBudget(dir)));
      watchers.push(quietWatcher(clients[1], apartState));
    }
    for (const id of ids) for (const w of watchers) w.follow('orderItem', id);
    for (const w of watchers) w.checkNow();
    await sleep(seconds * 1000);
    const reads = (p: FaultProxy): number => p.log.filter((r) => r.path.startsWith('/v0/order-items/')).length;
    return { pending: ids.length, seconds, shared: reads(proxies[0]), apart: reads(proxies[1]) };
  } finally {
    for (const w of watchers) w.dispose();
    await Promise.all(clients.map((c) => c.close()));
    await Promise.all(proxies.map((p) => p.close()));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The insight-run figure the sidebar's poller used to have: 3 runs pending on 3 AOIs, followed
 * by the watcher, 60 s with progress standing still (clock frozen), 60 s with it rising (0.3 s
 * of sandbox time per second, so the runs stay running); beside it, a fixed 2 s poll of the run
 * list of each of the 3 AOIs.
 */
async function followRuns(
  sandbox: SandboxHandle,
  direct: EoClient,
  oursClient: EoClient,
  oursCounts: Record<string, number>,
  theirsClient: EoClient,
  theirsCounts: Record<string, number>,
): Promise<NonNullable<WatcherSample['runs']>> {
  const { pending, runIds } = await pendingRuns(direct, sandbox, 20, 3);
  const watcher = quietWatcher(oursClient);
  try {
    runIds.forEach((id, i) => watcher.follow('insightRun', id, { parent: pending[i].aoi_id }));
    const window = async (seconds: number, tick?: () => void): Promise<RunWindow> => {
      for (const c of [oursCounts, theirsCounts]) for (const k of Object.keys(c)) delete c[k];
      const until = Date.now() + seconds * 1000;
      const timer = tick ? setInterval(tick, 1000) : undefined;
      while (Date.now() < until) {
        await Promise.all(pending.map((a) => theirsClient.insightRuns.list(a.aoi_id)));
        await sleep(Math.max(0, Math.min(2000, until - Date.now())));
      }
      if (timer) clearInterval(timer);
      return { seconds, ours: total(oursCounts), baseline: total(theirsCounts) };
    };
    const still = await window(60);
    const rising = await window(60, () => sandbox.clock.advance(300));
    if (watcher.size !== runIds.length) throw new Error(`the runs ended during the window (${watcher.size} of ${runIds.length} still followed)`);
    return { aois: pending.length, still, rising };
  } finally {
    watcher.dispose();
  }
}
