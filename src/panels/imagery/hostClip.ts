/**
 * "Save View to GeoTIFF…" where the bytes arrive: the extension host executes the map
 * webview's plan (`ClipPlan`: the window, the file's tile layout, the tiles, the mask, the
 * georeferencing). It reads the tiles' ranges merged into a few requests (src/raster/coalesce.ts) through
 * the same reader as the webview's `readBytes` (the files the extension put on the map, the
 * client's token rules and timeouts, the panel's byte budget), inflates them with node:zlib on
 * libuv's threadpool (parallel, each bounded to the tile's decoded size), undoes the predictor,
 * copies the window's rows band by band straight into the file it writes (src/raster/tiffEncode.ts), and
 * masks it to the AOI. No tile crosses to the page and no file comes back: for a raw pixel
 * window those two copies over the webview's IPC were most of the time.
 *
 * The plan comes from the page, which read a hostile file's directories; every number in it is
 * checked again here before a byte is read (the bounds of issue 24: the tile's decoded size,
 * its stored size against that, inside the file, no read over MAX_READ_BYTES).
 */
import { setMaxListeners } from 'node:events';
import { promisify } from 'node:util';
import { inflate as inflateCallback, type InputType, type ZlibOptions } from 'node:zlib';
import * as l10n from '@vscode/l10n';
import { byteSize } from '../../format';
import { coalesce, COALESCE_LIMITS, type ByteRange } from '../../raster/coalesce';
import { MAX_READ_BYTES, TIFF_LIMITS } from '../../raster/limits';
import { applyMask } from '../../raster/maskValue';
import { encodeGeoTiff, geoTiffFile, type BandArray, type BandType } from '../../raster/tiffEncode';
import { ByteGate } from './byteGate';
import type { ClipPlan, ClipPlanTile, TilePlan } from './clipMessages';

const inflate = promisify(inflateCallback) as (input: InputType, options: ZlibOptions) => Promise<Buffer>;

/** Reads `length` bytes at `offset` of the plan's file (in the extension: the panel's byte server). */
export type RangeReader = (offset: number, length: number, signal?: AbortSignal) => Promise<ArrayBuffer | Uint8Array>;

export interface HostClipLimits {
  /** Stored bytes asked for and not yet decoded, at most (as the webview's strips.ts). */
  readAheadBytes: number;
  /**
   * The largest merged request. Smaller than the webview's merges: a request's tiles inflate
   * while the next ones are still arriving, instead of after a whole row of tiles.
   */
  runBytes: number;
  /**
   * Tiles decoding at once, and their decoded bytes at once. The read-ahead counts stored
   * bytes; a run of well-compressed tiles (a scene mostly no-data, or a file made to do this)
   * holds hundreds of them, and zlib allocates each one's output when its inflate starts.
   */
  decoding: number;
  decodedBytes: number;
}

export const HOST_CLIP_LIMITS: HostClipLimits = {
  readAheadBytes: 64 * 1024 * 1024,
  runBytes: 4 * 1024 * 1024,
  // libuv's threadpool runs four inflates at once by default: more would only wait there
  decoding: 4,
  decodedBytes: 256 * 1024 * 1024,
};

export interface HostClipOptions {
  signal?: AbortSignal;
  onProgress?(done: number, total: number): void;
  limits?: HostClipLimits;
}

export interface HostClipResult {
  bytes: Uint8Array;
  width: number;
  height: number;
  /** Bytes read from the file, and the stored size of the tiles the window touches. */
  fetchedBytes: number;
  tileBytes: number;
  /** The most decoded tile bytes held at once (bounded by `HostClipLimits.decodedBytes`). */
  peakDecodedBytes: number;
}

const TYPES: Record<string, BandType> = {
  '1/8': Uint8Array,
  '1/16': Uint16Array,
  '1/32': Uint32Array,
  '2/8': Int8Array,
  '2/16': Int16Array,
  '2/32': Int32Array,
  '3/32': Float32Array,
  '3/64': Float64Array,
};

const isCount = (n: unknown, min = 0): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= min;

/** A plan that does not add up: the page's reading of the file went wrong, the file is not saved. */
function badPlan(what: string): Error {
  return new Error(l10n.t('The map described the clip inconsistently ({0}); it was not saved.', what));
}

export interface Checked {
  type: BandType;
  bytesPer: number;
  /** Decoded bytes of one tile. */
  blockBytes: number;
  /** Samples one tile holds per pixel (all of them, or one plane's). */
  stride: number;
}

/**
 * Every number of a tile plan checked before any read; a refusal is a sentence. The tiles are
 * each tile the window touches, once per plane, or with `subset` some of them (a series reads
 * only the tiles holding a pixel centre inside its polygon).
 */
export function checkTilePlan(p: TilePlan, o: { subset?: boolean } = {}): Checked {
  if (!Array.isArray(p.window) || p.window.length !== 4) throw badPlan('window');
  const [x0, y0, x1, y1] = p.window;
  if (!isCount(x0) || !isCount(y0) || !isCount(x1, x0 + 1) || !isCount(y1, y0 + 1)) throw badPlan('window');
  if (!isCount(p.tileWidth, 1) || !isCount(p.tileHeight, 1) || !isCount(p.samplesPerPixel, 1) || !isCount(p.fileSize)) throw badPlan('tile layout');
  const type = TYPES[`${p.sampleFormat}/${p.bitsPerSample}`];
  if (!type) throw badPlan('sample type');
  if (![1, 8, 32946].includes(p.compression) || ![1, 2, 3].includes(p.predictor) || (p.planar !== 1 && p.planar !== 2)) throw badPlan('encoding');
  if ((p.predictor === 2 && p.sampleFormat === 3) || (p.predictor === 3 && p.sampleFormat !== 3) || (p.predictor === 2 && p.bitsPerSample > 32)) {
    throw badPlan('predictor');
  }
  if (!Array.isArray(p.samples) || !p.samples.length || p.samples.some((s) => !isCount(s) || s >= p.samplesPerPixel)) throw badPlan('bands');
  const bytesPer = p.bitsPerSample / 8;
  const stride = p.planar === 1 ? p.samplesPerPixel : 1;
  const blockBytes = p.tileWidth * p.tileHeight * stride * bytesPer;
  if (blockBytes > TIFF_LIMITS.blockBytes) {
    throw new Error(
      l10n.t('A tile of the file holds {0} of pixels; the map decodes tiles of at most {1}.', byteSize(blockBytes), byteSize(TIFF_LIMITS.blockBytes)),
    );
  }
  // each tile the window touches, once per plane, and no other
  const planes = p.planar === 2 ? new Set(p.samples) : new Set([0]);
  const want = new Set<string>();
  for (let ty = Math.floor(y0 / p.tileHeight); ty * p.tileHeight < y1; ty++) {
    for (let tx = Math.floor(x0 / p.tileWidth); tx * p.tileWidth < x1; tx++) for (const pl of planes) want.add(`${tx}/${ty}/${pl}`);
  }
  if (!Array.isArray(p.tiles) || (o.subset ? p.tiles.length > want.size : p.tiles.length !== want.size)) throw badPlan('tiles');
  const most = 2 * blockBytes + 64 * 1024;
  for (const t of p.tiles) {
    if (!isCount(t.offset) || !isCount(t.length) || !want.delete(`${t.tx}/${t.ty}/${t.plane}`)) throw badPlan('tiles');
    if (t.length > most || t.length > MAX_READ_BYTES) {
      throw new Error(
        l10n.t(
          'A tile of the file is stored in {0} while it holds {1} of pixels; its byte counts cannot be right, so the map does not read it.',
          byteSize(t.length),
          byteSize(blockBytes),
        ),
      );
    }
    if (t.offset + t.length > p.fileSize) {
      throw new Error(
        l10n.t(
          'A tile of the file lies past its end (bytes {0} to {1} of a {2}-byte file); the file is truncated or corrupt.',
          t.offset,
          t.offset + t.length,
          p.fileSize,
        ),
      );
    }
  }
  const n = p.samples.length;
  const listOf = (a: unknown, ok: (v: unknown) => boolean) => Array.isArray(a) && a.length === n && a.every(ok);
  if (!listOf(p.names, (v) => typeof v === 'string') || !listOf(p.scale, finite) || !listOf(p.offset, finite)) throw badPlan('band metadata');
  if (p.nodata !== undefined && typeof p.nodata !== 'number') throw badPlan('no-data value');
  return { type, bytesPer, blockBytes, stride };
}

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** A pixel polygon's rings: lists of [x, y] pairs. */
export const isRings = (rings: unknown): rings is [number, number][][] =>
  Array.isArray(rings) && rings.every((r) => Array.isArray(r) && r.every((pt) => Array.isArray(pt) && pt.length === 2 && pt.every(finite)));

/** A clip's plan checked: its tiles, then its georeferencing and mask. */
export function checkPlan(p: ClipPlan): Checked {
  const c = checkTilePlan(p);
  if (!isCount(p.epsg, 1) || ![p.originX, p.originY].every(finite) || ![p.pixelWidth, p.pixelHeight].every((v) => finite(v) && v > 0)) {
    throw badPlan('georeferencing');
  }
  if (p.rings !== undefined && !isRings(p.rings)) throw badPlan('mask');
  return c;
}

export function cancelled(): Error {
  return Object.assign(new Error('Cancelled.'), { name: 'AbortError' });
}

/** One tile's stored bytes, decoded: exactly `blockBytes`, aligned for a typed array of its samples. */
async function decodeTile(p: TilePlan, c: Checked, stored: Uint8Array): Promise<Uint8Array> {
  let out: Uint8Array;
  if (p.compression === 1) {
    out = stored;
  } else {
    try {
      // bounded like the webview's decoders: an inflate bomb stops at the tile's size. One
      // output chunk, a byte larger than the tile: zlib's default 16 KiB chunks cost a trip back
      // to this thread and a copy each (more time than the inflating), and a chunk exactly full
      // makes zlib allocate a second one to look for more
      out = await inflate(stored, { maxOutputLength: c.blockBytes, chunkSize: Math.max(64, c.blockBytes + 1) });
    } catch (e) {
      const code = (e as { code?: string }).code;
      if (code === 'ERR_BUFFER_TOO_LARGE') {
        throw new Error(
          l10n.t(
            "A tile of the file could not be read: its deflate data decodes to more than the tile's {0}; the file is corrupt or crafted to exhaust memory, so it is not saved.",
            byteSize(c.blockBytes),
          ),
        );
      }
      throw new Error(l10n.t('A tile of the file could not be read: its deflate data is corrupt ({0}).', (e as Error).message));
    }
  }
  if (out.byteLength < c.blockBytes) {
    throw new Error(
      l10n.t('A tile of the file could not be read: it holds {0} where its pixels need {1}; the file is truncated or corrupt.', out.byteLength, c.blockBytes),
    );
  }
  // a typed array of the samples needs an aligned start (Buffer#slice would be a view: copy)
  if (out.byteOffset % c.bytesPer !== 0) out = Uint8Array.prototype.slice.call(out, 0, c.blockBytes);
  return out.subarray(0, c.blockBytes);
}

/**
 * Undoes TIFF predictor 3 (floating point) in the rows of a tile: bytes differenced across the
 * row, then the row's byte planes (most significant first) put back into little-endian values.
 */
function undoFloatPredictor(data: Uint8Array, c: Checked, rowSamples: number, rows: [number, number]): void {
  const rowBytes = rowSamples * c.bytesPer;
  const s = c.stride;
  const copy = new Uint8Array(rowBytes);
  for (let y = rows[0]; y < rows[1]; y++) {
    const row = data.subarray(y * rowBytes, (y + 1) * rowBytes);
    for (let i = s; i < rowBytes; i++) row[i] = (row[i] + row[i - s]) & 0xff;
    copy.set(row);
    for (let i = 0; i < rowSamples; i++) for (let b = 0; b < c.bytesPer; b++) row[c.bytesPer * i + b] = copy[(c.bytesPer - b - 1) * rowSamples + i];
  }
}

/** A decoded tile's part of the window into the output bands (`bands[k]` holds sample `p.samples[k]`). */
function place(p: TilePlan, c: Checked, t: ClipPlanTile, data: Uint8Array, bands: BandArray[]): void {
  const [x0, y0, x1, y1] = p.window;
  const width = x1 - x0;
  const gx0 = t.tx * p.tileWidth;
  const gy0 = t.ty * p.tileHeight;
  const cx0 = Math.max(x0, gx0);
  const cx1 = Math.min(x1, gx0 + p.tileWidth);
  const cy0 = Math.max(y0, gy0);
  const cy1 = Math.min(y1, gy0 + p.tileHeight);
  if (cx0 >= cx1 || cy0 >= cy1) return;
  const s = c.stride;
  const rowSamples = p.tileWidth * s;
  const rows: [number, number] = [cy0 - gy0, cy1 - gy0];
  if (p.predictor === 3) undoFloatPredictor(data, c, rowSamples, rows);
  const v = new c.type(data.buffer, data.byteOffset, data.byteLength / c.bytesPer);
  const n = cx1 - cx0;
  for (let k = 0; k < p.samples.length; k++) {
    const sample = p.samples[k];
    if (p.planar === 2 && t.plane !== sample) continue;
    const first = p.planar === 1 ? sample : 0;
    for (let y = cy0; y < cy1; y++) {
      const src = (y - gy0) * rowSamples + (cx0 - gx0) * s + first;
      const dst = (y - y0) * width + (cx0 - x0);
      if (p.predictor === 2) sumDifferences(bands[k], dst, v, src, s, cx0 - gx0, n);
      else if (s === 1) bands[k].set(v.subarray(src, src + n) as never, dst);
      else copyStrided(bands[k], dst, v, src, s, n);
    }
  }
}

/**
 * TIFF predictor 2 (horizontal differencing) undone while copying: one sample's row of a tile
 * summed from its first column (`skip` of them left of the window), `n` sums stored from `dst`.
 * The sum is exact in a double (at most a tile's width of 32-bit values) and the typed array's
 * store wraps it to the sample's width, as the encoder's subtraction did; one pass instead of
 * undoing the whole tile first and copying after.
 */
function sumDifferences(out: BandArray, dst: number, v: BandArray, src: number, stride: number, skip: number, n: number): void {
  let s = src - skip * stride;
  let acc = 0;
  for (let x = 0; x < skip; x++, s += stride) acc += v[s];
  for (let x = 0; x < n; x++, s += stride) {
    acc += v[s];
    out[dst + x] = acc;
  }
}

/** `n` samples every `stride` from `src` of a tile to `out` from `dst`: the hot loop of a clip. */
function copyStrided(out: BandArray, dst: number, v: BandArray, src: number, stride: number, n: number): void {
  for (let x = 0; x < n; x++, src += stride) out[dst + x] = v[src];
}

/** A tile stored with no bytes (sparse): its part of the window holds no-data (GDAL reads it so). */
function fillEmpty(p: TilePlan, t: ClipPlanTile, bands: BandArray[]): void {
  const [x0, y0, x1, y1] = p.window;
  const value = p.nodata ?? 0;
  const cx0 = Math.max(x0, t.tx * p.tileWidth);
  const cx1 = Math.min(x1, (t.tx + 1) * p.tileWidth);
  for (let y = Math.max(y0, t.ty * p.tileHeight); y < Math.min(y1, (t.ty + 1) * p.tileHeight); y++) {
    p.samples.forEach((sample, k) => {
      if (p.planar === 1 || t.plane === sample) bands[k].fill(value, (y - y0) * (x1 - x0) + cx0 - x0, (y - y0) * (x1 - x0) + cx1 - x0);
    });
  }
}

/**
 * Runs `work` on each run in order, starting the next while the runs in flight hold at most
 * `budget` bytes; one always goes, however large: the budget bounds what waits, not what can
 * be read. Resolves when all are done; the first failure rejects and starts no more.
 */
function readAhead<R extends { length: number }>(runs: readonly R[], budget: number, work: (run: R) => Promise<void>): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let next = 0;
    let ahead = 0;
    let running = 0;
    let failed = false;
    const pump = () => {
      while (!failed && next < runs.length && (ahead === 0 || ahead + runs[next].length <= budget)) {
        const run = runs[next++];
        ahead += run.length;
        running++;
        work(run).then(
          () => {
            ahead -= run.length;
            running--;
            if (failed) return;
            if (running === 0 && next >= runs.length) resolve();
            else pump();
          },
          (e: unknown) => {
            if (failed) return;
            failed = true;
            reject(e);
          },
        );
      }
    };
    if (!runs.length) resolve();
    else pump();
  });
}

/**
 * The plan's tiles read (their ranges merged into a few requests, within the read-ahead
 * budget), inflated (a bounded number at once) and their part of the window copied into
 * `bands` (`bands[k]`: sample `p.samples[k]`, the window's rows). A tile stored with no bytes
 * fills its part with no-data. Returns the bytes read and the most decoded bytes held at once.
 */
export async function readTilesInto(
  p: TilePlan,
  c: Checked,
  bands: BandArray[],
  read: RangeReader,
  o: HostClipOptions = {},
): Promise<{ fetched: number; peakDecodedBytes: number }> {
  const limits = o.limits ?? HOST_CLIP_LIMITS;
  const total = p.tiles.length;
  let done = 0;
  const tick = () => o.onProgress?.(++done, total);
  for (const t of p.tiles) {
    if (t.length === 0) {
      fillEmpty(p, t, bands);
      tick();
    }
  }
  const byRange = new Map<string, ClipPlanTile[]>();
  const key = (r: ByteRange) => `${r.offset}+${r.length}`;
  for (const t of p.tiles) if (t.length > 0) byRange.set(key(t), [...(byRange.get(key(t)) ?? []), t]);
  const runs = coalesce(
    p.tiles.filter((t) => t.length > 0),
    { ...COALESCE_LIMITS, maxRun: Math.min(limits.runBytes, MAX_READ_BYTES) },
  );
  // a failure ends the read: the other reads are aborted with it
  const inner = new AbortController();
  // every read in flight listens to it (the gate, the client): more than Node's default ten
  setMaxListeners(Infinity, inner.signal);
  const stop = () => inner.abort();
  o.signal?.addEventListener('abort', stop, { once: true });
  let fetched = 0;
  const decoding = new ByteGate(limits.decoding, limits.decodedBytes);
  try {
    if (o.signal?.aborted) throw cancelled();
    const readRun = async (run: (typeof runs)[number]) => {
      const got = await read(run.offset, run.length, inner.signal);
      const bytes = got instanceof Uint8Array ? got : new Uint8Array(got);
      if (bytes.byteLength !== run.length) {
        throw new Error(l10n.t('The server sent {0} bytes of the file where {1} were asked for.', bytes.byteLength, run.length));
      }
      fetched += run.length;
      await Promise.all(
        run.parts.map(async (part) => {
          if (inner.signal.aborted) throw cancelled();
          for (const t of byRange.get(key(part)) ?? []) {
            const stored = bytes.subarray(part.offset - run.offset, part.offset - run.offset + part.length);
            // two tiles at one range (a hostile plan) must not decode each other's predictor twice
            const release = await decoding.acquire(c.blockBytes, inner.signal);
            try {
              const data = await decodeTile(p, c, (byRange.get(key(part)) ?? []).length > 1 ? stored.slice() : stored);
              if (inner.signal.aborted) throw cancelled();
              place(p, c, t, data, bands);
            } finally {
              release();
            }
            tick();
          }
        }),
      );
    };
    await readAhead(runs, limits.readAheadBytes, readRun).catch((e: unknown) => {
      inner.abort();
      throw o.signal?.aborted ? cancelled() : e;
    });
  } finally {
    o.signal?.removeEventListener('abort', stop);
  }
  return { fetched, peakDecodedBytes: decoding.peak.bytes };
}

/** The plan executed: the GeoTIFF's bytes, ready to write. */
export async function runClipPlan(p: ClipPlan, read: RangeReader, o: HostClipOptions = {}): Promise<HostClipResult> {
  const c = checkPlan(p);
  const [x0, y0, x1, y1] = p.window;
  const width = x1 - x0;
  const height = y1 - y0;
  const geo = { width, height, epsg: p.epsg, originX: p.originX, originY: p.originY, pixelWidth: p.pixelWidth, pixelHeight: p.pixelHeight };
  const meta = { names: p.names, scale: p.scale, offset: p.offset };
  const file = geoTiffFile({ ...geo, ...meta, nodata: p.nodata, type: c.type, bandCount: p.samples.length });
  let buffer = file.buffer;
  const { fetched, peakDecodedBytes } = await readTilesInto(p, c, file.bands, read, o);
  if (p.rings) {
    const nodata = applyMask(file.bands, width, height, x0, y0, p.rings, p.nodata);
    if (nodata === undefined) {
      throw new Error(l10n.t('Every value the file can hold occurs inside the AOI, so none is left to mark the pixels outside it. Save the view instead.'));
    }
    // the value that marks the outside is known only now: the file is written again with it in its header
    if (p.nodata === undefined) buffer = encodeGeoTiff({ ...geo, ...meta, nodata, bands: file.bands });
  }
  return {
    bytes: new Uint8Array(buffer),
    width,
    height,
    fetchedBytes: fetched,
    tileBytes: p.tiles.reduce((a, t) => a + t.length, 0),
    peakDecodedBytes,
  };
}
