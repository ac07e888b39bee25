// Runs inside code-server's extension host: the watcher (src/watch) following 20 pending order
// items of the sandbox (clock frozen, so none finishes), through a counting proxy, for 60 s;
// side by side, through its own proxy, a fixed-interval poll of each of the 20 every 5 s (what
// one would write without backoff or a budget). Then the clock moves a day on: how long until
// each of them has seen all 20 final.
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { EoClient } from '../../src/api';
import { startSandbox } from '../../src/sandbox';
import { Watcher } from '../../src/watch/watcher';
import { countingProxy } from './insightPolling.probe';

export interface WatcherSample {
  pending: number;
  window_s: number;
  ours: number;
  baseline: number;
  /** Seconds from the clock jump until every item was seen final. */
  oursNoticedAllS?: number;
  baselineNoticedAllS?: number;
  error?: string;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const total = (counts: Record<string, number>): number => Object.values(counts).reduce((a, b) => a + b, 0);

/** A global state of its own, so the extension's real list is not touched. */
class MemoryState implements vscode.Memento {
  private readonly values = new Map<string, unknown>();
  keys(): readonly string[] {
    return [...this.values.keys()];
  }
  get<T>(key: string, fallback?: T): T | undefined {
    return this.values.has(key) ? (this.values.get(key) as T) : fallback;
  }
  update(key: string, value: unknown): Thenable<void> {
    this.values.set(key, value);
    return Promise.resolve();
  }
}

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
    const aoi = (await direct.aois.listPage({ limit: 1 })).items[0];
    const items = (await direct.archives.search({ intersects: aoi.geometry, limit: 20 })).features;
    const ids: string[] = [];
    for (let i = 0; i < sample.pending; i++) {
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
    const log = { info: (): void => undefined, warn: (): void => undefined };
    const ui = { message: (): Promise<undefined> => Promise.resolve(undefined) };
    const connection = { getClient: () => Promise.resolve(oursClient), onDidChange: () => ({ dispose: (): void => undefined }) };
    watcher = new Watcher({ state: new MemoryState(), connection, log, ui });
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
