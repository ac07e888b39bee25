/**
 * The structure of a TIFF, checked before geotiff.js may follow it: the chain of image
 * directories (bounded in number, each visited once), every entry's values inside the file
 * and of a believable size, and each image's tiles or strips small enough to decode. A file
 * that fails any check is refused with a sentence; geotiff.js only ever sees what passed.
 */
import * as l10n from '@vscode/l10n';
import { byteSize } from '../../../src/format';
import { TIFF_LIMITS } from '../../../src/raster/limits';
import { ImageryError } from './imageryError';

/** What one image directory says about its pixels. */
export interface ImageLayout {
  /** Where the directory starts in the file. */
  offset: number;
  subfileType: number;
  width: number;
  height: number;
  tiled: boolean;
  /** Tile size, or the image width × rows per strip. */
  blockWidth: number;
  blockHeight: number;
  samples: number;
  bitsPerSample: number[];
  planar: 1 | 2;
  compression: number;
  /** Tiles or strips, every plane counted. */
  blocks: number;
  /** Decoded bytes of one tile or strip (one plane's with PlanarConfiguration 2). */
  blockBytes: number;
}

export interface TiffStructure {
  littleEndian: boolean;
  bigTiff: boolean;
  images: ImageLayout[];
}

/** Reads bytes of the file; may return fewer than asked at its end. */
export type ReadAt = (offset: number, length: number) => Promise<ArrayBuffer>;

const TYPE_SIZES: Record<number, number> = { 1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8, 13: 4, 16: 8, 17: 8, 18: 8 };

/** Entries geotiff.js reads whole while parsing a directory (its tag list marks them eager). */
const EAGER = new Set([254, 255, 256, 257, 258, 259, 262, 277, 278, 284, 322, 323, 338, 339, 347, 33550, 33922, 34264, 34735, 34736, 34737, 42113, 50674]);

const TAG = {
  subfile: 254,
  width: 256,
  height: 257,
  bits: 258,
  compression: 259,
  stripOffsets: 273,
  samples: 277,
  rowsPerStrip: 278,
  stripByteCounts: 279,
  planar: 284,
  tileWidth: 322,
  tileHeight: 323,
  tileOffsets: 324,
  tileByteCounts: 325,
};

interface Entry {
  tag: number;
  type: number;
  count: number;
  /** Where the values are: inside the directory or elsewhere in the file. */
  at: number;
  bytes: number;
}

class Reader {
  constructor(
    private readonly read: ReadAt,
    private readonly size: () => number | null,
    readonly littleEndian: boolean,
  ) {}

  /** Exactly `length` bytes at `offset`, or a sentence saying the file ends first. */
  async view(offset: number, length: number, what: string): Promise<DataView> {
    this.inside(offset, length, what);
    const buf = await this.read(offset, length);
    if (buf.byteLength < length) throw pastEnd(what, offset + length, offset + buf.byteLength);
    return new DataView(buf, 0, length);
  }

  /** Refuses a range that does not lie inside the file (when its size is known). */
  inside(offset: number, length: number, what: string): void {
    const size = this.size();
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(offset + length) || (size !== null && offset + length > size)) {
      throw pastEnd(what, offset + length, size);
    }
  }
}

function pastEnd(what: string, end: number, size: number | null): ImageryError {
  return new ImageryError(
    size === null
      ? l10n.t("The file's {0} reaches past its end (to byte {1}); the file is truncated or its header is corrupt.", what, end)
      : l10n.t("The file's {0} reaches past its end (to byte {1} of a {2}-byte file); the file is truncated or its header is corrupt.", what, end, size),
  );
}

function uint(v: DataView, at: number, bytes: number, le: boolean): number {
  if (bytes === 1) return v.getUint8(at);
  if (bytes === 2) return v.getUint16(at, le);
  if (bytes === 4) return v.getUint32(at, le);
  const n = v.getBigUint64(at, le);
  // past 2^53 no offset or count can be real: make it fail every bound
  return n > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(n);
}

/**
 * Reads the header and every image directory, with every check of this module. `size` is
 * the file's length once known (the first read tells it); reads past the end come back short
 * and are refused as well.
 */
export async function readTiffStructure(read: ReadAt, size: () => number | null): Promise<TiffStructure> {
  const head = new DataView(await read(0, 16));
  if (head.byteLength < 8) throw new ImageryError(l10n.t('The file is too short to be a GeoTIFF.'));
  const bom = head.getUint16(0, false);
  if (bom !== 0x4949 && bom !== 0x4d4d) throw new ImageryError(l10n.t('The file is not a TIFF (it does not start with II or MM).'));
  const le = bom === 0x4949;
  const magic = head.getUint16(2, le);
  if (magic !== 42 && magic !== 43) throw new ImageryError(l10n.t('The file is not a TIFF (its version number is {0}, not 42 or 43).', magic));
  const big = magic === 43;
  if (big && (head.byteLength < 16 || head.getUint16(4, le) !== 8))
    throw new ImageryError(l10n.t('The file is a BigTIFF with an offset size other than 8 bytes.'));
  const r = new Reader(read, size, le);
  const images: ImageLayout[] = [];
  const seen = new Set<number>();
  let next = big ? uint(head, 8, 8, le) : uint(head, 4, 4, le);
  if (next === 0) throw new ImageryError(l10n.t('The file holds no image.'));
  while (next !== 0) {
    if (seen.has(next)) {
      throw new ImageryError(
        l10n.t(
          "The file's chain of images loops: image {0} points back to the directory at byte {1}. The file is corrupt or crafted to hang a reader.",
          images.length,
          next,
        ),
      );
    }
    if (images.length >= TIFF_LIMITS.images) {
      throw new ImageryError(l10n.t('The file holds more than {0} images (overviews and masks); the map reads at most {0}.', TIFF_LIMITS.images));
    }
    seen.add(next);
    const { layout, nextOffset } = await readDirectory(r, next, big, images.length + 1);
    images.push(layout);
    next = nextOffset;
  }
  return { littleEndian: le, bigTiff: big, images };
}

async function readDirectory(r: Reader, offset: number, big: boolean, n: number): Promise<{ layout: ImageLayout; nextOffset: number }> {
  const le = r.littleEndian;
  const what = l10n.t('directory of image {0}', n);
  if (offset < (big ? 16 : 8)) throw new ImageryError(l10n.t("The file's {0} would start inside its header (at byte {1}).", what, offset));
  const countBytes = big ? 8 : 2;
  const entryBytes = big ? 20 : 12;
  const count = uint(await r.view(offset, countBytes, what), 0, countBytes, le);
  if (count < 1 || count > TIFF_LIMITS.entries) {
    throw new ImageryError(l10n.t("The file's {0} claims {1} entries; the map reads directories of 1 to {2} entries.", what, count, TIFF_LIMITS.entries));
  }
  const dirBytes = countBytes + count * entryBytes + (big ? 8 : 4);
  const dir = await r.view(offset, dirBytes, what);
  const entries = new Map<number, Entry>();
  let eager = 0;
  for (let i = 0; i < count; i++) {
    const at = countBytes + i * entryBytes;
    const tag = dir.getUint16(at, le);
    const type = dir.getUint16(at + 2, le);
    const size = TYPE_SIZES[type];
    if (size === undefined) throw new ImageryError(l10n.t("The file's {0} has entry {1} of an unknown type ({2}).", what, tag, type));
    const valueCount = uint(dir, at + 4, big ? 8 : 4, le);
    const bytes = valueCount * size;
    const inline = bytes <= (big ? 8 : 4);
    const valueAt = inline ? offset + at + (big ? 12 : 8) : uint(dir, at + (big ? 12 : 8), big ? 8 : 4, le);
    if (!inline) {
      if (bytes > TIFF_LIMITS.valueBytes) {
        throw new ImageryError(
          l10n.t(
            "The file's {0} gives entry {1} {2} of values; the map reads at most {3} per entry.",
            what,
            tag,
            byteSize(bytes),
            byteSize(TIFF_LIMITS.valueBytes),
          ),
        );
      }
      r.inside(valueAt, bytes, l10n.t('entry {0} of image {1}', tag, n));
      if (EAGER.has(tag)) eager += bytes;
    }
    entries.set(tag, { tag, type, count: valueCount, at: valueAt, bytes });
  }
  if (eager > TIFF_LIMITS.eagerBytes) {
    throw new ImageryError(
      l10n.t("The file's {0} holds {1} of descriptive values; the map reads at most {2}.", what, byteSize(eager), byteSize(TIFF_LIMITS.eagerBytes)),
    );
  }
  const nextOffset = uint(dir, countBytes + count * entryBytes, big ? 8 : 4, le);
  return { layout: await layoutOf(r, entries, offset, n), nextOffset };
}

async function values(r: Reader, e: Entry | undefined, what: string): Promise<number[]> {
  if (!e) return [];
  const size = TYPE_SIZES[e.type];
  if (size > 8 || e.bytes > 64 * 1024 || ![1, 3, 4, 16].includes(e.type)) {
    throw new ImageryError(l10n.t("The file's {0} is not a list of whole numbers.", what));
  }
  const v = await r.view(e.at, e.bytes, what);
  return Array.from({ length: e.count }, (_, i) => uint(v, i * size, size, r.littleEndian));
}

async function one(r: Reader, e: Entry | undefined, what: string): Promise<number | undefined> {
  if (!e) return undefined;
  if (e.count !== 1) throw new ImageryError(l10n.t("The file's {0} should be one number, and holds {1}.", what, e.count));
  return (await values(r, e, what))[0];
}

async function layoutOf(r: Reader, e: Map<number, Entry>, offset: number, n: number): Promise<ImageLayout> {
  const name = (s: string) => l10n.t('{0} of image {1}', s, n);
  const width = await one(r, e.get(TAG.width), name('width'));
  const height = await one(r, e.get(TAG.height), name('height'));
  if (!width || !height) throw new ImageryError(l10n.t('Image {0} of the file has no width or height.', n));
  const samples = (await one(r, e.get(TAG.samples), name('samples per pixel'))) ?? 1;
  if (samples < 1) throw new ImageryError(l10n.t('Image {0} of the file has no samples per pixel.', n));
  const bitsEntry = e.get(TAG.bits);
  const bits = bitsEntry ? await values(r, bitsEntry, name('bits per sample')) : [1];
  if (bits.length === 0 || bits.some((b) => b < 1 || b > 64))
    throw new ImageryError(l10n.t('Image {0} of the file has a sample size outside 1 to 64 bits.', n));
  const bitsPerSample = Array.from({ length: samples }, (_, i) => bits[Math.min(i, bits.length - 1)]);
  const planar = ((await one(r, e.get(TAG.planar), name('planar configuration'))) ?? 1) === 2 ? 2 : 1;
  const compression = (await one(r, e.get(TAG.compression), name('compression'))) ?? 1;
  const subfileType = (await one(r, e.get(TAG.subfile), name('subfile type'))) ?? 0;
  const tiled = e.has(TAG.tileWidth) || e.has(TAG.tileOffsets);
  const blockWidth = tiled ? await one(r, e.get(TAG.tileWidth), name('tile width')) : width;
  const rows = tiled ? await one(r, e.get(TAG.tileHeight), name('tile height')) : ((await one(r, e.get(TAG.rowsPerStrip), name('rows per strip'))) ?? height);
  if (!blockWidth || !rows) throw new ImageryError(l10n.t('Image {0} of the file has tiles of no width or height.', n));
  const blockHeight = tiled ? rows : Math.min(rows, height);
  const pixelBits = planar === 1 ? bitsPerSample.reduce((a, b) => a + b, 0) : Math.max(...bitsPerSample);
  const blockBytes = Math.ceil((blockWidth * pixelBits) / 8) * blockHeight;
  if (blockBytes > TIFF_LIMITS.blockBytes) {
    throw new ImageryError(
      l10n.t(
        'Each {0} of image {1} holds {2} of pixels ({3} × {4} pixels × {5} bits); the map decodes at most {6} per tile.',
        tiled ? l10n.t('tile') : l10n.t('strip'),
        n,
        byteSize(blockBytes),
        blockWidth,
        blockHeight,
        pixelBits,
        byteSize(TIFF_LIMITS.blockBytes),
      ),
    );
  }
  const blocks = Math.ceil(width / blockWidth) * Math.ceil(height / blockHeight) * (planar === 2 ? samples : 1);
  const offsets = e.get(tiled ? TAG.tileOffsets : TAG.stripOffsets);
  const counts = e.get(tiled ? TAG.tileByteCounts : TAG.stripByteCounts);
  if (!offsets || !counts) throw new ImageryError(l10n.t('Image {0} of the file does not say where its pixels are.', n));
  for (const list of [offsets, counts]) {
    if (list.count < blocks) {
      throw new ImageryError(
        l10n.t(
          'Image {0} of the file declares {1} × {2} pixels, {3} {4}, but lists the place of only {5}; its header is corrupt or crafted.',
          n,
          width,
          height,
          blocks,
          tiled ? l10n.t('tiles') : l10n.t('strips'),
          list.count,
        ),
      );
    }
  }
  return { offset, subfileType, width, height, tiled, blockWidth, blockHeight, samples, bitsPerSample, planar, compression, blocks, blockBytes };
}
