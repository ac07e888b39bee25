/**
 * A window of one level read in strips of whole tile rows, for "Save View to GeoTIFF…": each
 * tile is read once, a strip's tiles are asked for as a few merged range requests
 * (Cog.prefetch), and those requests run ahead of the decoders, strip by strip in order,
 * within a budget of bytes asked for and not yet decoded. The page then neither waits on one
 * read at a time (each pays its round trip through the extension host) nor holds more than
 * the budget, whatever the window's size.
 */
import type { Pool } from 'geotiff';
import type { Cog } from './cog';
import type { BandArray } from '../../../src/raster/tiffEncode';

/** Tile bytes asked for and not yet decoded, at most: the extension's own budget of bytes in flight. */
export const READ_AHEAD_BYTES = 64 * 1024 * 1024;
/** Strips decoding at once: the decoder workers take a strip's tiles as its bytes arrive. */
const DECODING = 3;

export interface StripOptions {
  pool?: Pool;
  signal?: AbortSignal;
  onProgress?(done: number, total: number): void;
  /** Tests: a smaller budget. */
  readAheadBytes?: number;
}

type Window = [number, number, number, number];

/** A promise settled from outside: a strip's turn to be decoded, once its reads are out. */
function turn(): Promise<void> & { resolve(): void; reject(e: unknown): void } {
  let settle!: { resolve(): void; reject(e: unknown): void };
  const p = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
  // awaited by its strip's decoder; one left unawaited after a failure is nobody's failure
  p.catch(() => undefined);
  return Object.assign(p, settle);
}

/** The window's samples (0-based bands), one array per band, row-major. */
export async function readStrips(cog: Cog, level: number, win: Window, samples: number[], o: StripOptions = {}): Promise<BandArray[]> {
  const Lv = cog.levels[level];
  const [x0, y0, x1, y1] = win;
  const width = x1 - x0;
  const th = Lv.tileHeight;
  const strips: Window[] = [];
  for (let y = y0; y < y1; y = (Math.floor(y / th) + 1) * th) strips.push([x0, y, x1, Math.min(y1, (Math.floor(y / th) + 1) * th)]);
  const ranges = await Promise.all(strips.map((w) => cog.tileRanges(level, w, samples)));
  const stripBytes = ranges.map((r) => r.reduce((a, x) => a + x.length, 0));
  const budget = o.readAheadBytes ?? READ_AHEAD_BYTES;
  const asked = strips.map(turn);
  const drops: (() => void)[] = [];
  let ahead = 0;
  let nextRead = 0;
  let stopped = false;
  const readAhead = () => {
    // one strip always goes, however large: the budget bounds what waits, not what can be read
    while (!stopped && nextRead < strips.length && (ahead === 0 || ahead + stripBytes[nextRead] <= budget)) {
      const s = nextRead++;
      ahead += stripBytes[s];
      try {
        drops[s] = cog.prefetch(level, ranges[s], o.signal);
        asked[s].resolve();
      } catch (e) {
        asked[s].reject(e);
      }
    }
  };
  let out: BandArray[] | undefined;
  let done = 0;
  let nextStrip = 0;
  const decode = async (): Promise<void> => {
    while (!stopped && nextStrip < strips.length) {
      const s = nextStrip++;
      if (o.signal?.aborted) throw Object.assign(new Error('Cancelled.'), { name: 'AbortError' });
      await asked[s];
      let part: BandArray[];
      try {
        part = (await Lv.image.readRasters({ window: strips[s], samples, pool: o.pool, interleave: false, signal: o.signal })) as unknown as BandArray[];
      } finally {
        drops[s]?.();
        ahead -= stripBytes[s];
        readAhead();
      }
      out ??= part.map((p) => new (p.constructor as new (n: number) => BandArray)(width * (y1 - y0)));
      part.forEach((p, b) => (out as BandArray[])[b].set(p as never, (strips[s][1] - y0) * width));
      o.onProgress?.(++done, strips.length);
    }
  };
  readAhead();
  try {
    await Promise.all(Array.from({ length: Math.min(DECODING, strips.length) }, decode));
  } catch (e) {
    // a failed strip ends the clip: nothing more is read, and what was asked for is let go
    stopped = true;
    throw e;
  } finally {
    for (const drop of drops) drop?.();
  }
  return out as BandArray[];
}
