/**
 * "Chart Index Over Time" where the bytes arrive: the extension host takes one date's
 * statistics from the map webview's plan (`StatsPlan`: the polygon's window at the level the
 * page chose, the tiles holding a pixel centre inside it, the index and the bands). The tiles
 * are read and inflated as a clip's are (hostClip.ts: merged ranges, node:zlib on libuv's
 * threadpool, the predictor undone) into the window's bands, and the statistics taken with
 * the same code the page uses (seriesStats.ts). No tile crosses to the page: for a
 * series those copies over the webview's IPC, and the page's decoding, were most of the time.
 */
import * as l10n from '@vscode/l10n';
import { byteSize } from '../../format';
import { IndexStatistics, insideTiles } from './seriesStats';
import type { ByteGate } from './byteGate';
import { cancelled, checkTilePlan, isRings, readTilesInto, type Checked, type HostClipOptions, type RangeReader } from './hostClip';
import { MAX_STATS_WINDOW_BYTES, statsWindowBytes, type HostStats, type StatsPlan } from './seriesMessages';

/** Pixels of the window taken between two turns of the host's event loop. */
const SLICE_PIXELS = 8192;

function badPlan(what: string): Error {
  return new Error(l10n.t('The map described the date inconsistently ({0}).', what));
}

export interface HostStatsOptions extends HostClipOptions {
  /**
   * The dates one map takes at once and the decoded bytes of their windows (`statsWindowBytes`):
   * a page that asks for more waits its turn instead of holding every window at once.
   */
  windows?: ByteGate;
}

/** The statistics of the plan's date. */
export async function runStatsPlan(p: StatsPlan, read: RangeReader, o: HostStatsOptions = {}): Promise<HostStats> {
  const c = checkTilePlan(p, { subset: true });
  if (!isRings(p.rings) || !p.rings.length) throw badPlan('polygon');
  if (typeof p.expression !== 'string') throw badPlan('index');
  if (p.scl !== undefined && !(Number.isSafeInteger(p.scl) && p.scl >= 0 && p.scl < p.samples.length)) throw badPlan('classification band');
  const bytes = statsWindowBytes(p);
  if (bytes > MAX_STATS_WINDOW_BYTES) {
    throw new Error(
      l10n.t('The area holds {0} of pixels at this level; the extension takes at most {1} at once.', byteSize(bytes), byteSize(MAX_STATS_WINDOW_BYTES)),
    );
  }
  // a tile the plan leaves out holds no pixel centre inside the polygon: its zeros never count
  const planned = new Set(p.tiles.map((t) => `${t.tx}/${t.ty}`));
  if (insideTiles(p.rings, p.window, p.tileWidth, p.tileHeight).some(([tx, ty]) => !planned.has(`${tx}/${ty}`))) throw badPlan('tiles');
  const release = (await o.windows?.acquire(bytes, o.signal)) ?? (() => undefined);
  try {
    return await takeStats(p, c, read, o);
  } finally {
    release();
  }
}

/** The plan's window read into its bands, and the statistics taken over them. */
async function takeStats(p: StatsPlan, c: Checked, read: RangeReader, o: HostClipOptions): Promise<HostStats> {
  const [x0, y0, x1, y1] = p.window;
  const width = x1 - x0;
  const height = y1 - y0;
  const bands = p.samples.map(() => new c.type(new ArrayBuffer(width * height * c.bytesPer), 0, width * height));
  const { fetched } = await readTilesInto(p, c, bands, read, o);
  // taken in slices of rows, a turn of the event loop between them: a date's statistics in one
  // piece held the host's loop for 45 ms while the JIT warmed up
  const stats = new IndexStatistics({
    rings: p.rings,
    expression: p.expression,
    bands: p.names,
    scale: p.scale,
    offset: p.offset,
    nodata: p.nodata,
    scl: p.scl,
    single: p.single === true,
  });
  const rows = Math.max(1, Math.floor(SLICE_PIXELS / width));
  for (let r = 0; r < height; r += rows) {
    const n = Math.min(rows, height - r);
    stats.add({ x0, y0: y0 + r, width, height: n, bands: bands.map((b) => b.subarray(r * width, (r + n) * width)) });
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (o.signal?.aborted) throw cancelled();
  }
  return { ...stats.result(), fetchedBytes: fetched, tileBytes: p.tiles.reduce((a, t) => a + t.length, 0) };
}
