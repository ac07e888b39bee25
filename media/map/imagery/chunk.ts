/**
 * Entry of the imagery chunk (`dist/media/imagery.js`), loaded by the map on the first imagery
 * layer. It starts the decoder workers when this webview allows them and falls back to
 * decoding on the main thread, one tile at a time, when it does not.
 */
import { Pool } from 'geotiff';
import { loadL10nBundle } from '../../shared/l10n';
import type { FromMapClipMessage } from '../../../src/panels/imagery/protocol';
import { ImageryManager, type ImageryManagerDeps } from './manager';
import { ImageryTools } from './tools';

declare const __DECODER_WORKER_SOURCE__: string;

export type DecodeMode = { mode: 'worker'; workers: number } | { mode: 'main-thread'; reason: string };

async function startPool(): Promise<{ pool?: Pool; decode: DecodeMode }> {
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
    const workers = Math.max(1, Math.min(4, (navigator.hardwareConcurrency || 2) - 1));
    const blobUrl = url;
    return { pool: new Pool(workers, () => new Worker(blobUrl)), decode: { mode: 'worker', workers } };
  } catch (e) {
    if (url) URL.revokeObjectURL(url);
    return { decode: { mode: 'main-thread', reason: e instanceof Error ? e.message : String(e) } };
  }
}

export interface ImageryChunk {
  create(
    deps: Omit<ImageryManagerDeps, 'pool'> & { post?(m: FromMapClipMessage): void },
  ): Promise<{ manager: ImageryManager; decode: DecodeMode; tools: ImageryTools }>;
}

const chunk: ImageryChunk = {
  async create(deps) {
    // this chunk carries its own copy of @vscode/l10n: hand it the page's bundle too
    loadL10nBundle();
    const { pool, decode } = await startPool();
    const manager = new ImageryManager({ ...deps, pool });
    const tools = new ImageryTools({ L: deps.L, map: deps.map, manager, pool, post: deps.post });
    return { manager, decode, tools };
  },
};

(window as unknown as { __eoImageryChunk?: ImageryChunk }).__eoImageryChunk = chunk;
