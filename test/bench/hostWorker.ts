/**
 * The extension host's stand-in for the imagery benches (series, timelapse): a worker thread
 * running seriesHost.ts (the sandbox and the host's byte relay), reads relayed through it, and
 * its loop watched while a run goes on.
 */
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { EoClient } from '../../src/api/client';
import type { Aoi, Asset } from '../../src/api/records';
import type { ReadBytesParams } from '../../src/panels/imagery/protocol';
import type { HostStats, StatsPlan } from '../../src/panels/imagery/seriesMessages';
import type { LoopReport } from '../unit/sandbox/loopMonitor';
import type { HostReply, HostRequest } from './seriesHost';
import { isType, openWebview, type Harness } from '../webview/harness';

/** The sandbox's seasonal AOI (Kings River fields) and its dated assets, oldest first. */
export async function seasonalAoi(client: EoClient): Promise<{ aoi: Aoi; assets: Asset[] }> {
  let aoi: Aoi | undefined;
  for await (const a of client.aois.iterate({}, { pageSize: 100 })) if (a.name.startsWith('Kings River fields')) aoi = a;
  if (!aoi) throw new Error('the seasonal AOI is not seeded');
  const assets: Asset[] = [];
  for await (const a of client.aois.iterateAssets(aoi.aoi_id, { pageSize: 100 })) assets.push(a);
  assets.sort((a, b) => a.date.localeCompare(b.date));
  return { aoi, assets };
}

/**
 * A fresh map page (nothing cached from a run before) whose reads go through `host`, the bytes
 * reaching it as binary, as VS Code's IPC carries them (not base64 through DevTools); ready and
 * initialised with no basemap. `onPosted` hears each message the page posts as it arrives.
 */
export async function openMapPage(host: Pick<Host, 'read' | 'stats'>, onPosted?: (m: unknown) => void): Promise<Harness> {
  // the page's questions for a date's statistics, answered by the host (as SeriesChannel does)
  const answer = (m: unknown) => {
    const q = m as { type?: string; statsId?: number; plan?: StatsPlan };
    if (q?.type !== 'seriesStats' || !q.plan) return;
    const statsId = q.statsId as number;
    void host.stats(q.plan).then(
      (result) => h.send({ type: 'seriesStatsReply', statsId, ok: true, result }),
      (e: unknown) => h.send({ type: 'seriesStatsReply', statsId, ok: false, error: e instanceof Error ? e.message : String(e) }),
    );
  };
  const h: Harness = await openWebview('map', {
    viewport: { width: 1100, height: 760 },
    binaryRelay: true,
    onRequest: (req) => host.read((req as { params: ReadBytesParams }).params),
    onPosted: (m) => {
      answer(m);
      onPosted?.(m);
    },
  });
  await h.waitFor(isType('ready'));
  await h.send({ type: 'init', basemaps: [] });
  return h;
}

/** The host worker: reads relayed through it, and its loop watched while `run` runs. */
export class Host {
  private readonly worker = new Worker(join(__dirname, 'seriesHost.js'));
  private readonly waiting = new Map<number, (r: HostReply) => void>();
  private next = 0;
  private onReport?: (r: LoopReport) => void;
  private onClosed?: () => void;
  readonly ready: Promise<{ url: string; token: string }>;

  constructor() {
    this.ready = new Promise((resolve) => {
      this.worker.on('message', (m: HostReply) => {
        if (m.type === 'ready') resolve(m);
        else if (m.type === 'bytes' || m.type === 'stats' || m.type === 'failed') this.waiting.get(m.id)?.(m);
        else if (m.type === 'report') this.onReport?.(m.report);
        else if (m.type === 'closed') this.onClosed?.();
      });
    });
  }

  private post(m: HostRequest): void {
    this.worker.postMessage(m);
  }

  read(p: ReadBytesParams): Promise<{ bytes: Uint8Array; total?: number }> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, (r) => {
        this.waiting.delete(id);
        if (r.type === 'bytes') resolve({ bytes: r.bytes, total: r.total });
        else reject(new Error(r.type === 'failed' ? r.message : 'unexpected reply'));
      });
      this.post({ type: 'read', id, url: p.url, offset: p.offset, length: p.length });
    });
  }

  /** A date's statistics taken by the host from the page's plan. */
  stats(plan: StatsPlan): Promise<HostStats> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, (r) => {
        this.waiting.delete(id);
        if (r.type === 'stats') resolve(r.result);
        else reject(new Error(r.type === 'failed' ? r.message : 'unexpected reply'));
      });
      this.post({ type: 'stats', id, plan });
    });
  }

  async watched<T>(run: () => Promise<T>): Promise<{ value: T; loop: LoopReport }> {
    this.post({ type: 'watch' });
    const value = await run();
    const loop = await new Promise<LoopReport>((resolve) => {
      this.onReport = resolve;
      this.post({ type: 'stop' });
    });
    return { value, loop };
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.onClosed = resolve;
      this.post({ type: 'close' });
    });
    await this.worker.terminate();
  }
}
