/**
 * A Cloud-Optimized GeoTIFF writer whose file layout is computed, not built: uncompressed,
 * fixed-size tiles make every tile's offset a formula, so a reader can ask for any byte range
 * of a 1 GB scene and only the tiles under that range are synthesized.
 *
 * Layout, as GDAL's COG driver writes it (and as its validator checks): the TIFF header, GDAL's
 * structural-metadata "ghost" block, every IFD (full resolution first, then overviews by
 * decreasing size) with its arrays, then tile data from the smallest overview to the full
 * resolution, row-major. Each tile is preceded by its size (uint32) and followed by a repeat
 * of its last 4 bytes (BLOCK_LEADER / BLOCK_TRAILER). Little-endian; BigTIFF only when the
 * file would not fit classic TIFF's 32-bit offsets.
 *
 * Pure: no I/O. The pixel source is a function the caller passes; i13's scenes and insight
 * rasters are two such sources.
 */

export type SampleType = 'uint8' | 'uint16' | 'int16' | 'float32';
export type Samples = Uint8Array | Uint16Array | Int16Array | Float32Array;

/** Which part of which image a tile covers. `level` 0 is full resolution; level k is 2^k
 * times coarser. Pixels are pixel-interleaved: sample `b` of (col, row) inside the tile is
 * `out[(row * tileSize + col) * bands + b]`. `cols`/`rows` < tileSize on the right/bottom edge. */
export interface TileRequest {
  level: number;
  /** Column and row of the tile's first pixel in the level's image. */
  col0: number;
  row0: number;
  cols: number;
  rows: number;
  /** Ground size of one pixel of this level (CRS units), and the level's image size. */
  pixelSize: number;
  width: number;
  height: number;
}

export interface CogSpec {
  width: number;
  height: number;
  bands: number;
  dtype: SampleType;
  tileSize: number;
  /** Top-left corner of the top-left pixel and the (square) pixel size, in CRS units. */
  originX: number;
  originY: number;
  pixelSize: number;
  /** EPSG code of a projected CRS (UTM...) or 4326. */
  epsg: number;
  nodata?: number;
  photometric?: 'minisblack' | 'rgb';
  /** Per band, written in GDAL's metadata tag (gdalinfo shows them). */
  bandNames?: readonly string[];
  scale?: readonly number[];
  offset?: readonly number[];
  /** Force BigTIFF (else chosen only when classic TIFF's 32-bit offsets do not reach). */
  bigTiff?: boolean;
  /** Fills the valid part of one tile; `out` arrives filled with nodata (or 0). */
  fill: (t: TileRequest, out: Samples) => void;
}

export interface Level {
  width: number;
  height: number;
  tilesX: number;
  tilesY: number;
  pixelSize: number;
  /** Offset of the first tile's leader. */
  dataStart: number;
  ifdOffset: number;
}

export interface CogLayout {
  spec: CogSpec;
  bigTiff: boolean;
  levels: Level[];
  tileBytes: number;
  /** leader + tile + trailer */
  slotBytes: number;
  header: Buffer;
  size: number;
}

const BYTES: Record<SampleType, number> = { uint8: 1, uint16: 2, int16: 2, float32: 4 };
const SAMPLE_FORMAT: Record<SampleType, number> = { uint8: 1, uint16: 1, int16: 2, float32: 3 };

const SHORT = 3;
const LONG = 4;
const ASCII = 2;
const DOUBLE = 12;
const LONG8 = 16;
const TYPE_SIZE: Record<number, number> = { [SHORT]: 2, [LONG]: 4, [ASCII]: 1, [DOUBLE]: 8, [LONG8]: 8 };

interface Entry {
  tag: number;
  type: number;
  values: readonly number[] | string;
}

const GHOST_BODY =
  'LAYOUT=IFDS_BEFORE_DATA\nBLOCK_ORDER=ROW_MAJOR\nBLOCK_LEADER=SIZE_AS_UINT4\nBLOCK_TRAILER=LAST_4_BYTES_REPEATED\nKNOWN_INCOMPATIBLE_EDITION=NO\n';
const GHOST = `GDAL_STRUCTURAL_METADATA_SIZE=${String(GHOST_BODY.length).padStart(6, '0')} bytes\n${GHOST_BODY}`;

if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) {
  // Tiles are typed arrays written as they lie in memory, declared little-endian ("II").
  throw new Error('the COG writer assumes a little-endian host');
}

function count(e: Entry): number {
  return typeof e.values === 'string' ? e.values.length + 1 : e.values.length;
}

function ifdBytes(entries: Entry[], big: boolean): number {
  const inline = big ? 8 : 4;
  let n = (big ? 8 : 2) + entries.length * (big ? 20 : 12) + (big ? 8 : 4);
  for (const e of entries) {
    const sz = count(e) * TYPE_SIZE[e.type];
    if (sz > inline) n += sz + (sz % 2);
  }
  return n;
}

function writeValues(buf: Buffer, at: number, e: Entry): void {
  if (typeof e.values === 'string') {
    buf.write(e.values, at, 'latin1');
    buf[at + e.values.length] = 0;
    return;
  }
  const sz = TYPE_SIZE[e.type];
  e.values.forEach((v, i) => {
    const o = at + i * sz;
    if (e.type === SHORT) buf.writeUInt16LE(v, o);
    else if (e.type === LONG) buf.writeUInt32LE(v, o);
    else if (e.type === DOUBLE) buf.writeDoubleLE(v, o);
    else buf.writeBigUInt64LE(BigInt(v), o);
  });
}

function writeIfd(buf: Buffer, at: number, entries: Entry[], next: number, big: boolean): void {
  const inline = big ? 8 : 4;
  const sorted = [...entries].sort((a, b) => a.tag - b.tag);
  let p = at;
  if (big) buf.writeBigUInt64LE(BigInt(sorted.length), p);
  else buf.writeUInt16LE(sorted.length, p);
  p += big ? 8 : 2;
  let extra = p + sorted.length * (big ? 20 : 12) + (big ? 8 : 4);
  for (const e of sorted) {
    buf.writeUInt16LE(e.tag, p);
    buf.writeUInt16LE(e.type, p + 2);
    const n = count(e);
    if (big) buf.writeBigUInt64LE(BigInt(n), p + 4);
    else buf.writeUInt32LE(n, p + 4);
    const valueAt = p + (big ? 12 : 8);
    const sz = n * TYPE_SIZE[e.type];
    if (sz <= inline) writeValues(buf, valueAt, e);
    else {
      if (big) buf.writeBigUInt64LE(BigInt(extra), valueAt);
      else buf.writeUInt32LE(extra, valueAt);
      writeValues(buf, extra, e);
      extra += sz + (sz % 2);
    }
    p += big ? 20 : 12;
  }
  if (big) buf.writeBigUInt64LE(BigInt(next), p);
  else buf.writeUInt32LE(next, p);
}

function xmlEscape(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function gdalMetadata(spec: CogSpec): string | undefined {
  const items: string[] = [];
  for (let b = 0; b < spec.bands; b++) {
    const name = spec.bandNames?.[b];
    if (name !== undefined) items.push(`<Item name="DESCRIPTION" sample="${b}" role="description">${xmlEscape(name)}</Item>`);
    if (spec.scale?.[b] !== undefined) items.push(`<Item name="SCALE" sample="${b}" role="scale">${spec.scale[b]}</Item>`);
    if (spec.offset?.[b] !== undefined) items.push(`<Item name="OFFSET" sample="${b}" role="offset">${spec.offset[b]}</Item>`);
  }
  return items.length ? `<GDALMetadata>${items.join('')}</GDALMetadata>` : undefined;
}

function geoKeys(epsg: number): number[] {
  const geographic = epsg === 4326 || (epsg >= 4000 && epsg < 5000);
  const keys = geographic
    ? [
        [1024, 0, 1, 2],
        [1025, 0, 1, 1],
        [2048, 0, 1, epsg],
        [2054, 0, 1, 9102],
      ]
    : [
        [1024, 0, 1, 1],
        [1025, 0, 1, 1],
        [3072, 0, 1, epsg],
        [3076, 0, 1, 9001],
      ];
  return [1, 1, 0, keys.length, ...keys.flat()];
}

function entriesFor(spec: CogSpec, level: Level, isMain: boolean, offsets: number[], counts: number[], big: boolean): Entry[] {
  const bits = BYTES[spec.dtype] * 8;
  const rgb = spec.photometric === 'rgb';
  const extraSamples = spec.bands - (rgb ? 3 : 1);
  const e: Entry[] = [
    { tag: 254, type: LONG, values: [isMain ? 0 : 1] },
    { tag: 256, type: LONG, values: [level.width] },
    { tag: 257, type: LONG, values: [level.height] },
    { tag: 258, type: SHORT, values: Array<number>(spec.bands).fill(bits) },
    { tag: 259, type: SHORT, values: [1] },
    { tag: 262, type: SHORT, values: [rgb ? 2 : 1] },
    { tag: 277, type: SHORT, values: [spec.bands] },
    { tag: 284, type: SHORT, values: [1] },
    { tag: 322, type: SHORT, values: [spec.tileSize] },
    { tag: 323, type: SHORT, values: [spec.tileSize] },
    { tag: 324, type: big ? LONG8 : LONG, values: offsets },
    { tag: 325, type: LONG, values: counts },
    { tag: 339, type: SHORT, values: Array<number>(spec.bands).fill(SAMPLE_FORMAT[spec.dtype]) },
  ];
  if (extraSamples > 0) e.push({ tag: 338, type: SHORT, values: Array<number>(extraSamples).fill(0) });
  if (spec.nodata !== undefined) e.push({ tag: 42113, type: ASCII, values: String(spec.nodata) });
  if (isMain) {
    e.push(
      { tag: 33550, type: DOUBLE, values: [spec.pixelSize, spec.pixelSize, 0] },
      { tag: 33922, type: DOUBLE, values: [0, 0, 0, spec.originX, spec.originY, 0] },
      { tag: 34735, type: SHORT, values: geoKeys(spec.epsg) },
    );
    const md = gdalMetadata(spec);
    if (md) e.push({ tag: 42112, type: ASCII, values: md });
  }
  return e;
}

/** Every offset and the header bytes of the COG `spec` describes; no pixel is computed. */
export function cogLayout(spec: CogSpec): CogLayout {
  if (!Number.isInteger(spec.width) || !Number.isInteger(spec.height) || spec.width < 1 || spec.height < 1)
    throw new RangeError('image size must be positive integers');
  if (spec.tileSize % 16 !== 0 || spec.tileSize < 16 || spec.tileSize > 4096) throw new RangeError('tile size must be a multiple of 16 between 16 and 4096');
  if (spec.bands < 1 || spec.bands > 65535) throw new RangeError('band count out of range');
  if (spec.photometric === 'rgb' && spec.bands < 3) throw new RangeError('an RGB image needs at least 3 bands');
  const T = spec.tileSize;
  const levels: Level[] = [];
  for (let k = 0; ; k++) {
    const width = Math.ceil(spec.width / 2 ** k);
    const height = Math.ceil(spec.height / 2 ** k);
    levels.push({ width, height, tilesX: Math.ceil(width / T), tilesY: Math.ceil(height / T), pixelSize: spec.pixelSize * 2 ** k, dataStart: 0, ifdOffset: 0 });
    if (width <= T && height <= T) break;
  }
  const tileBytes = T * T * spec.bands * BYTES[spec.dtype];
  const slotBytes = tileBytes + 8;
  const tileCount = levels.reduce((n, l) => n + l.tilesX * l.tilesY, 0);
  const big = spec.bigTiff ?? tileCount * slotBytes + 1e6 > 0xffffffff;
  const ghostAt = big ? 16 : 8;
  let at = ghostAt + GHOST.length;
  at += at % 2;
  const sizes = levels.map((l, i) => {
    const n = l.tilesX * l.tilesY;
    return ifdBytes(entriesFor(spec, l, i === 0, Array<number>(n).fill(0), Array<number>(n).fill(0), big), big);
  });
  for (let i = 0; i < levels.length; i++) {
    levels[i].ifdOffset = at;
    at += sizes[i];
  }
  const headerSize = at;
  for (let i = levels.length - 1; i >= 0; i--) {
    levels[i].dataStart = at;
    at += levels[i].tilesX * levels[i].tilesY * slotBytes;
  }
  const header = Buffer.alloc(headerSize);
  header.write(big ? 'II+\0' : 'II*\0', 0, 'latin1');
  if (big) {
    header.writeUInt16LE(8, 4);
    header.writeUInt16LE(0, 6);
    header.writeBigUInt64LE(BigInt(levels[0].ifdOffset), 8);
  } else header.writeUInt32LE(levels[0].ifdOffset, 4);
  header.write(GHOST, ghostAt, 'latin1');
  levels.forEach((l, i) => {
    const n = l.tilesX * l.tilesY;
    const offsets = Array.from({ length: n }, (_, k) => l.dataStart + k * slotBytes + 4);
    const entries = entriesFor(spec, l, i === 0, offsets, Array<number>(n).fill(tileBytes), big);
    writeIfd(header, l.ifdOffset, entries, i + 1 < levels.length ? levels[i + 1].ifdOffset : 0, big);
  });
  return { spec, bigTiff: big, levels, tileBytes, slotBytes, header, size: at };
}

function allocSamples(spec: CogSpec, n: number): Samples {
  switch (spec.dtype) {
    case 'uint8':
      return new Uint8Array(n);
    case 'uint16':
      return new Uint16Array(n);
    case 'int16':
      return new Int16Array(n);
    case 'float32':
      return new Float32Array(n);
  }
}

function blankTile(layout: CogLayout): Samples {
  const { spec } = layout;
  const out = allocSamples(spec, spec.tileSize * spec.tileSize * spec.bands);
  if (spec.nodata !== undefined && spec.nodata !== 0) out.fill(spec.nodata);
  return out;
}

/** Fills rows [r0, r1) of tile (tx, ty) of a level into `out` (the whole tile's samples). */
function fillRows(layout: CogLayout, level: number, tx: number, ty: number, r0: number, r1: number, out: Samples): void {
  const { spec } = layout;
  const l = layout.levels[level];
  const T = spec.tileSize;
  const col0 = tx * T;
  const row0 = ty * T + r0;
  const rows = Math.min(r1, l.height - ty * T) - r0;
  if (rows <= 0) return;
  spec.fill(
    { level, col0, row0, cols: Math.min(T, l.width - col0), rows, pixelSize: l.pixelSize, width: l.width, height: l.height },
    out.subarray(r0 * T * spec.bands),
  );
}

/** The bytes of one tile, computed by the spec's pixel source. */
export function synthesizeTile(layout: CogLayout, level: number, tx: number, ty: number): Buffer {
  const out = blankTile(layout);
  fillRows(layout, level, tx, ty, 0, layout.spec.tileSize, out);
  return Buffer.from(out.buffer, out.byteOffset, out.byteLength);
}

/** Where computed tiles are kept between reads (a bounded cache); absent: always compute. */
export interface TileStore {
  get(level: number, tx: number, ty: number): Buffer | undefined;
  put(level: number, tx: number, ty: number, bytes: Buffer): void;
}

/** Which tile slot holds byte `pos` (pos must be at or past the header). */
function slotAt(layout: CogLayout, pos: number): { level: number; index: number; start: number } {
  for (let i = layout.levels.length - 1; i >= 0; i--) {
    const l = layout.levels[i];
    const end = l.dataStart + l.tilesX * l.tilesY * layout.slotBytes;
    if (pos >= l.dataStart && pos < end) {
      const index = Math.floor((pos - l.dataStart) / layout.slotBytes);
      return { level: i, index, start: l.dataStart + index * layout.slotBytes };
    }
  }
  throw new RangeError(`byte ${pos} is outside the file`);
}

/**
 * Bytes and pixels of a tile computed per step when streaming. The server lets the event loop
 * run between steps, so one step is the longest a read holds it: a few milliseconds, since a
 * synthetic pixel costs microseconds whatever its bands (the sandbox may run inside the
 * extension host).
 */
const STRIP_BYTES = 64 * 1024;
const STRIP_PIXELS = 1024;
const EMPTY = Buffer.alloc(0);

/** Rows of a tile computed per step. */
function stripRows(layout: CogLayout): number {
  const rowBytes = layout.tileBytes / layout.spec.tileSize;
  return Math.max(1, Math.min(Math.floor(STRIP_BYTES / rowBytes), Math.floor(STRIP_PIXELS / layout.spec.tileSize)));
}

/**
 * One tile computed a strip of rows per step (`next()` until done; its value is the tile's
 * bytes), so a caller can let other work run between strips.
 */
export function* tileSteps(layout: CogLayout, level: number, tx: number, ty: number): Generator<void, Buffer> {
  const out = blankTile(layout);
  const rows = stripRows(layout);
  for (let r = 0; r < layout.spec.tileSize; r += rows) {
    if (r > 0) yield;
    fillRows(layout, level, tx, ty, r, Math.min(layout.spec.tileSize, r + rows), out);
  }
  return Buffer.from(out.buffer, out.byteOffset, out.byteLength);
}

/** The tiles whose bytes (between leader and trailer) lie wholly in the file's bytes [start, end). */
export function tilesWithin(layout: CogLayout, start: number, end: number): { level: number; tx: number; ty: number }[] {
  const out: { level: number; tx: number; ty: number }[] = [];
  for (let i = 0; i < layout.levels.length; i++) {
    const l = layout.levels[i];
    const n = l.tilesX * l.tilesY;
    const first = Math.max(0, Math.ceil((start - 4 - l.dataStart) / layout.slotBytes));
    const last = Math.min(n, Math.floor((end - 4 - layout.tileBytes - l.dataStart) / layout.slotBytes) + 1);
    for (let k = first; k < last; k++) out.push({ level: i, tx: k % l.tilesX, ty: Math.floor(k / l.tilesX) });
  }
  return out;
}

/**
 * The file's bytes [start, end) as a sequence of buffers, so a caller can stream a large range
 * without holding it. A tile that is not in `store` is computed in strips of rows, each strip
 * a separate chunk: a consumer that yields to the event loop between chunks (a stream) is
 * never blocked for a whole tile. Only the rows the range returns are computed; a tile asked
 * for whole is kept in `store` (a header read that runs into the first tile computes the
 * rows it sends, not the tile).
 */
export function* byteChunks(layout: CogLayout, start: number, end: number, store?: TileStore): Generator<Buffer> {
  if (start < 0 || end > layout.size || start > end) throw new RangeError('byte range outside the file');
  const { spec, tileBytes } = layout;
  const T = spec.tileSize;
  const rowBytes = tileBytes / T;
  const strip = stripRows(layout);
  let pos = start;
  if (pos < layout.header.length) {
    const stop = Math.min(end, layout.header.length);
    yield layout.header.subarray(pos, stop);
    pos = stop;
  }
  const leader = Buffer.alloc(4);
  leader.writeUInt32LE(tileBytes, 0);
  while (pos < end) {
    const s = slotAt(layout, pos);
    const rel0 = pos - s.start;
    const rel1 = Math.min(end, s.start + layout.slotBytes) - s.start;
    pos = s.start + rel1;
    // The part of [rel0, rel1) that `buf` holds, `buf` being slot bytes [from, from + length).
    const piece = function* (buf: Buffer, from: number): Generator<Buffer> {
      const a = Math.max(rel0, from);
      const b = Math.min(rel1, from + buf.length);
      if (b > a) yield buf.subarray(a - from, b - from);
    };
    yield* piece(leader, 0);
    if (rel1 <= 4) continue;
    const l = layout.levels[s.level];
    const tx = s.index % l.tilesX;
    const ty = Math.floor(s.index / l.tilesX);
    let data = store?.get(s.level, tx, ty);
    if (!data) {
      // rows [row0, row1) hold the bytes asked for; the trailer repeats the last row's end
      const row0 = rel0 >= 4 + tileBytes ? T - 1 : Math.floor((Math.max(rel0, 4) - 4) / rowBytes);
      const row1 = rel1 > 4 + tileBytes ? T : Math.ceil((Math.min(rel1, 4 + tileBytes) - 4) / rowBytes);
      const out = blankTile(layout);
      const bytes = Buffer.from(out.buffer, out.byteOffset, out.byteLength);
      for (let r = Math.floor(row0 / strip) * strip; r < row1; r += strip) {
        const r1 = Math.min(T, r + strip);
        fillRows(layout, s.level, tx, ty, r, r1, out);
        // A strip before the range starts (the strips are aligned) still yields (nothing):
        // the consumer lets the event loop run between chunks.
        let gave = false;
        for (const chunk of piece(bytes.subarray(r * rowBytes, r1 * rowBytes), 4 + r * rowBytes)) {
          gave = true;
          yield chunk;
        }
        if (!gave) yield EMPTY;
      }
      if (row0 === 0 && row1 === T) store?.put(s.level, tx, ty, bytes);
      data = bytes;
    } else yield* piece(data, 4);
    yield* piece(data.subarray(tileBytes - 4), 4 + tileBytes);
  }
}

export function readRange(layout: CogLayout, start: number, end: number, store?: TileStore): Buffer {
  return Buffer.concat([...byteChunks(layout, start, end, store)]);
}

/** The whole file in memory: for small rasters (insight outputs, tests). */
export function writeCog(spec: CogSpec): Buffer {
  const layout = cogLayout(spec);
  return readRange(layout, 0, layout.size);
}
