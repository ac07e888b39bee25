/**
 * Entry of the imagery chunk (`dist/media/imagery.js`), loaded by the map on the first imagery
 * layer. It starts the decoder workers when this webview allows them and falls back to
 * decoding on the main thread, one tile at a time, when it does not.
 */
import { getDecoder, Pool, type DecoderWorker } from 'geotiff';
import { loadL10nBundle } from '../../shared/l10n';
import { ImageryManager, type ImageryManagerDeps } from './manager';
import { ImageryError } from './imageryError';
import { seriesStatistics, type StatsJob, type StatsResult } from '../../../src/panels/imagery/seriesStats';
import { ImageryTools } from './tools';
import type { FromMapMessage } from '../../../src/panels/mapMessages';

declare const __DECODER_WORKER_SOURCE__: string;

/** Decoder workers at most, however many cores: each has its own heap, and the tiles of a view arrive over one channel. */
const MAX_WORKERS = 8;

export type DecodeMode = { mode: 'worker'; workers: number } | { mode: 'main-thread'; reason: string };

/**
 * The statistics of a chart's dates, in one more worker started from the decoder's script
 * (geotiff.js's pool keeps its own workers to itself); on the main thread when none starts.
 */
function statsRunner(started: Promise<Started>): (job: StatsJob) => Promise<StatsResult> {
  let worker: Worker | undefined;
  let next = 1;
  const pending = new Map<number, { resolve(r: StatsResult): void; reject(e: Error): void }>();
  return async (job) => {
    const { url } = await started;
    if (!url) return seriesStatistics(job);
    if (!worker) {
      worker = new Worker(url);
      worker.onmessage = (e: MessageEvent) => {
        const m = e.data as { statsId?: number; result?: StatsResult; error?: string };
        const p = typeof m?.statsId === 'number' ? pending.get(m.statsId) : undefined;
        if (!p) return;
        pending.delete(m.statsId as number);
        if (m.result) p.resolve(m.result);
        else p.reject(new ImageryError(m.error ?? 'The statistics could not be computed.'));
      };
    }
    const statsId = next++;
    const transfer = new Set<ArrayBuffer>();
    for (const t of job.tiles) for (const b of t.bands) if (ArrayBuffer.isView(b) && b.buffer instanceof ArrayBuffer) transfer.add(b.buffer);
    const w = worker;
    return new Promise<StatsResult>((resolve, reject) => {
      pending.set(statsId, { resolve, reject });
      w.postMessage({ statsId, job }, [...transfer]);
    });
  };
}

interface Started {
  pool?: Pool;
  decode: DecodeMode;
  url?: string;
}

async function startPool(): Promise<Started> {
  let url: string | undefined;
  try {
    url = URL.createObjectURL(new Blob([__DECODER_WORKER_SOURCE__], { type: 'text/javascript' }));
    const probe = new Worker(url);
    await new Promise<void>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('the worker did not answer within 3 s')), 3000);
      probe.onmessage = (e) => {
        if (e.data === 'pong') {
          clearTimeout(t);
          resolve();
        }
      };
      probe.onerror = (e) => {
        clearTimeout(t);
        reject(new Error(e.message || 'the worker could not start'));
      };
      probe.postMessage('ping');
    });
    probe.terminate();
    // one per core, as geotiff.js's own pool: while a saved view's tiles inflate the page's
    // thread mostly waits on them (each worker is about 0.3 MB of heap)
    const workers = Math.max(1, Math.min(MAX_WORKERS, navigator.hardwareConcurrency || 2));
    const blobUrl = url;
    return { pool: new Pool(workers, () => new Worker(blobUrl)), decode: { mode: 'worker', workers }, url: blobUrl };
  } catch (e) {
    if (url) URL.revokeObjectURL(url);
    return { decode: { mode: 'main-thread', reason: e instanceof Error ? e.message : String(e) } };
  }
}

/**
 * geotiff.js's pool as soon as the chunk loads, its workers still starting: the first decode
 * waits for their answer (or decodes on the page's thread when they never start), nothing else
 * does. A chart whose statistics the extension takes, or the headers every layer reads first,
 * no longer wait 100–300 ms for workers they may not need.
 */
function poolWhenStarted(started: Promise<Started>): Pool {
  const decoderFor = async (compression: number, parameters: Parameters<Pool['bindParameters']>[1]): Promise<DecoderWorker> => {
    const { pool } = await started;
    return pool ? pool.bindParameters(compression, parameters) : getDecoder(compression, parameters);
  };
  const bindParameters: Pool['bindParameters'] = (compression, parameters) => {
    const decoder = decoderFor(compression, parameters);
    return { decode: async (slice) => (await decoder).decode(slice) };
  };
  return { bindParameters } as Pool;
}

export interface ImageryChunk {
  create(
    deps: Omit<ImageryManagerDeps, 'pool'> & { post?(m: FromMapMessage, transfer?: ArrayBuffer[]): void },
  ): Promise<{ manager: ImageryManager; decode: Promise<DecodeMode>; tools: ImageryTools }>;
}

const chunk: ImageryChunk = {
  async create(deps) {
    // this chunk carries its own copy of @vscode/l10n: hand it the page's bundle too
    loadL10nBundle();
    const started = startPool();
    const pool = poolWhenStarted(started);
    const manager = new ImageryManager({ ...deps, pool });
    const tools = new ImageryTools({ L: deps.L, map: deps.map, manager, pool, post: deps.post, read: deps.read, stats: statsRunner(started) });
    return { manager, decode: started.then((s) => s.decode), tools };
  },
};

(window as unknown as { __eoImageryChunk?: ImageryChunk }).__eoImageryChunk = chunk;
