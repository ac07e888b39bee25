/**
 * geotiff.js's decoders, bounded: each stops at the byte size its tile can hold
 * (tile width × height × bits per pixel) and fails with a sentence past it, so a few
 * kilobytes that inflate to gigabytes cost no more than the tile they claim to be. Deflate,
 * LZW and PackBits are decoded here into a buffer of that size (deflate by the browser's own
 * zlib where it has one, pako otherwise); JPEG and WebP tiles have the
 * size they will decode to read from their own header first, then go to geotiff.js's decoder
 * (or the browser's). The map (main thread) and the decoder worker both call
 * `installBoundedDecoders` before reading a file.
 */
import * as l10n from '@vscode/l10n';
import { BaseDecoder, addDecoder, getDecoder, type ImageFileDirectory } from 'geotiff';
import { Inflate } from 'pako';
import { byteSize } from '../../../src/format';

type DecoderParameters = ConstructorParameters<typeof BaseDecoder>[0] & { JPEGTables?: Uint8Array; samplesPerPixel?: number };
type DecoderClass = new (p: DecoderParameters) => BaseDecoder;

/** Decoded bytes one tile or strip with these parameters holds (one plane's with PlanarConfiguration 2). */
export function expectedBytes(p: DecoderParameters): number {
  const bits =
    Array.isArray(p.bitsPerSample) || ArrayBuffer.isView(p.bitsPerSample) ? Array.from(p.bitsPerSample as ArrayLike<number>) : [Number(p.bitsPerSample)];
  const pixelBits = p.planarConfiguration === 2 ? Math.max(...bits) : bits.reduce((a, b) => a + b, 0);
  return Math.ceil((p.tileWidth * pixelBits) / 8) * p.tileHeight;
}

/** A tile's data that decodes to more than the tile holds. */
class TooLarge extends Error {}

/** Thrown when a tile's data would decode to more than the tile holds. */
export function overflow(kind: string, cap: number): Error {
  return new TooLarge(
    l10n.t(
      "its {0} data decodes to more than the tile's {1}; the file is corrupt or crafted to exhaust memory, so the map stops reading it",
      kind,
      byteSize(cap),
    ),
  );
}

/** Output of at most `cap` bytes, refused past it. */
class Bounded {
  readonly out: Uint8Array;
  n = 0;
  constructor(
    readonly cap: number,
    private readonly kind: string,
  ) {
    this.out = new Uint8Array(cap);
  }
  room(k: number): void {
    if (this.n + k > this.cap) throw overflow(this.kind, this.cap);
  }
  /** Appends `chunk`, or refuses it past the cap. */
  push(chunk: Uint8Array): void {
    this.room(chunk.length);
    this.out.set(chunk, this.n);
    this.n += chunk.length;
  }
  result(): ArrayBuffer {
    return this.n === this.cap ? (this.out.buffer as ArrayBuffer) : (this.out.buffer.slice(0, this.n) as ArrayBuffer);
  }
}

export function inflateBounded(input: Uint8Array, cap: number): ArrayBuffer {
  const out = new Bounded(cap, 'deflate');
  const inflate = new Inflate({ chunkSize: 64 * 1024 });
  inflate.onData = (chunk: Uint8Array) => out.push(chunk);
  // pako's own onEnd would join the chunks onData already took; its status is all we need
  let status = 0;
  inflate.onEnd = (s: number) => {
    status = s;
  };
  inflate.push(input, true);
  if (status !== 0)
    throw new Error(l10n.t('its deflate data is corrupt ({0})', (inflate as unknown as { strm?: { msg?: string } }).strm?.msg || String(status)));
  return out.result();
}

/**
 * Compressed bytes handed to the browser's inflater at a time. The bound is checked on what
 * comes out between two writes, and one write inflates to at most about 1,032 times its size
 * (deflate's largest ratio): 16 KB in is at most some 17 MB out before a bomb is stopped.
 */
const NATIVE_SLICE = 16 * 1024;

/**
 * The browser's own inflate (`DecompressionStream`, zlib in native code; in the webview about
 * four times pako's speed on noisy tiles), bounded as `inflateBounded` is. Resolves `undefined`
 * when the browser refuses the data where pako may not: bytes after the end of the zlib stream
 * (writers that pad a tile; Chromium calls them junk, pako ignores them), a gzip header, a
 * truncated or corrupt stream. The caller then inflates with pako, so a tile decodes (or not)
 * exactly as it did before; only a tile too large for itself is refused here.
 */
export async function inflateNative(input: Uint8Array<ArrayBuffer>, cap: number): Promise<ArrayBuffer | undefined> {
  const stream = new DecompressionStream('deflate');
  const writer = stream.writable.getWriter();
  const reader = stream.readable.getReader();
  const out = new Bounded(cap, 'deflate');
  const writing = (async () => {
    for (let at = 0; at < input.length; at += NATIVE_SLICE) await writer.write(input.subarray(at, at + NATIVE_SLICE));
    await writer.close();
  })();
  // a refusal reaches the reader too; this one is only awaited once everything is read
  writing.catch(() => undefined);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      out.push(value);
    }
    await writing;
  } catch (e) {
    if (!(e instanceof TooLarge)) return undefined;
    // stop inflating: cancelling the readable side errors the writer, ending the loop above
    reader.cancel().catch(() => undefined);
    throw e;
  }
  return out.result();
}

export function unpackBitsBounded(input: Uint8Array, cap: number): ArrayBuffer {
  const out = new Bounded(cap, 'PackBits');
  for (let i = 0; i < input.length;) {
    const header = (input[i] << 24) >> 24;
    if (header === -128) {
      i++;
    } else if (header < 0) {
      const run = 1 - header;
      if (i + 1 >= input.length) break;
      out.room(run);
      out.out.fill(input[i + 1], out.n, out.n + run);
      out.n += run;
      i += 2;
    } else {
      const run = Math.min(header + 1, input.length - i - 1);
      out.push(input.subarray(i + 1, i + 1 + run));
      i += header + 2;
    }
  }
  return out.result();
}

/**
 * TIFF's LZW (codes of 9 to 12 bits, most significant bit first, widened one code early, as
 * libtiff writes them). A table that fills without a Clear code stops growing: every code is
 * checked against it, so no code reaches outside.
 */
export function lzwBounded(input: Uint8Array, cap: number): ArrayBuffer {
  const out = new Bounded(cap, 'LZW');
  const prefix = new Int16Array(4096);
  const suffix = new Uint8Array(4096);
  const length = new Uint16Array(4096);
  for (let i = 0; i < 256; i++) {
    prefix[i] = -1;
    suffix[i] = i;
    length[i] = 1;
  }
  const CLEAR = 256;
  const EOI = 257;
  let next = 258;
  let width = 9;
  let old = -1;
  let pos = 0;
  const bits = input.length * 8;
  const first = (code: number): number => {
    while (prefix[code] >= 0) code = prefix[code];
    return suffix[code];
  };
  const emit = (code: number): void => {
    const len = length[code];
    out.room(len);
    for (let i = out.n + len - 1, c = code; i >= out.n; i--, c = prefix[c]) out.out[i] = suffix[c];
    out.n += len;
  };
  while (pos + width <= bits) {
    let code = 0;
    for (let k = 0; k < width; k++, pos++) code = (code << 1) | ((input[pos >> 3] >> (7 - (pos & 7))) & 1);
    if (code === EOI) break;
    if (code === CLEAR) {
      next = 258;
      width = 9;
      old = -1;
      continue;
    }
    if (old < 0) {
      if (code > 255) throw new Error(l10n.t('its LZW data is corrupt (code {0} after a clear)', code));
      emit(code);
      old = code;
      continue;
    }
    if (code > next || (code === next && next >= 4096)) throw new Error(l10n.t('its LZW data is corrupt (code {0} before it is defined)', code));
    const head = code === next ? first(old) : first(code);
    if (next < 4096) {
      prefix[next] = old;
      suffix[next] = head;
      length[next] = length[old] + 1;
      next++;
    }
    emit(code);
    old = code;
    if (next + 1 >= 1 << width && width < 12) width++;
  }
  return out.result();
}

/** The frame size a JPEG stream declares, checked against its tile before anything is decoded. */
export function checkJpegFrame(data: Uint8Array, p: DecoderParameters): void {
  for (let i = 2; i + 4 <= data.length;) {
    if (data[i] !== 0xff) {
      i++;
      continue;
    }
    const marker = data[i + 1];
    if (marker === 0xff || marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      i += marker === 0xff ? 1 : 2;
      continue;
    }
    if (marker === 0xda || marker === 0xd9) return;
    const len = (data[i + 2] << 8) | data[i + 3];
    const sof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (sof && i + 10 <= data.length) {
      const height = (data[i + 5] << 8) | data[i + 6];
      const width = (data[i + 7] << 8) | data[i + 8];
      const components = data[i + 9];
      const factors = Array.from({ length: components }, (_, c) => data[i + 11 + c * 3] ?? 0x11);
      if (width > p.tileWidth || height > p.tileHeight || components > 4 || factors.some((f) => f >> 4 < 1 || f >> 4 > 4 || (f & 15) < 1 || (f & 15) > 4)) {
        throw new Error(
          l10n.t(
            'its JPEG data declares {0} × {1} pixels in {2} components where the tile holds {3} × {4}; the file is corrupt or crafted to exhaust memory, so the map stops reading it',
            width,
            height,
            components,
            p.tileWidth,
            p.tileHeight,
          ),
        );
      }
    }
    i += 2 + len;
  }
}

/** The picture size a WebP stream declares (lossy, lossless or extended), checked against its tile. */
export function checkWebpSize(data: Uint8Array, p: DecoderParameters): void {
  const text = (at: number) => String.fromCharCode(...data.subarray(at, at + 4));
  const u16 = (at: number) => data[at] | (data[at + 1] << 8);
  const u24 = (at: number) => u16(at) | (data[at + 2] << 16);
  let size: [number, number] | undefined;
  if (data.length >= 30 && text(0) === 'RIFF' && text(8) === 'WEBP') {
    const chunk = text(12);
    const d = 20;
    if (chunk === 'VP8 ' && data[d + 3] === 0x9d && data[d + 4] === 0x01 && data[d + 5] === 0x2a) size = [u16(d + 6) & 0x3fff, u16(d + 8) & 0x3fff];
    else if (chunk === 'VP8L' && data[d] === 0x2f) {
      const b = (data[d + 1] | (data[d + 2] << 8) | (data[d + 3] << 16) | (data[d + 4] << 24)) >>> 0;
      size = [(b & 0x3fff) + 1, ((b >>> 14) & 0x3fff) + 1];
    } else if (chunk === 'VP8X') size = [u24(d + 4) + 1, u24(d + 7) + 1];
  }
  if (!size) throw new Error(l10n.t('its WebP data has no picture size the map can read'));
  if (size[0] > p.tileWidth || size[1] > p.tileHeight) {
    throw new Error(
      l10n.t(
        'its WebP data declares {0} × {1} pixels where the tile holds {2} × {3}; the file is corrupt or crafted to exhaust memory, so the map stops reading it',
        size[0],
        size[1],
        p.tileWidth,
        p.tileHeight,
      ),
    );
  }
}

/** A decoder whose output is checked against its tile's size, whatever decodes it. */
abstract class BoundedDecoder extends BaseDecoder {
  protected readonly cap: number;
  constructor(parameters: DecoderParameters) {
    super(parameters);
    this.cap = expectedBytes(parameters);
  }
  protected get params(): DecoderParameters {
    return this.parameters as DecoderParameters;
  }
  abstract decodeBounded(input: ArrayBuffer): ArrayBuffer | Promise<ArrayBuffer>;
  override async decodeBlock(input: ArrayBuffer): Promise<ArrayBuffer> {
    const out = await this.decodeBounded(input);
    if (out.byteLength > this.cap) throw overflow(this.kind, this.cap);
    return out;
  }
  protected abstract readonly kind: string;
}

class RawDecoder extends BoundedDecoder {
  protected readonly kind = 'uncompressed';
  // a stored tile larger than the tile is refused before it is read (cog.ts), and only the
  // tile's own bytes of it are looked at
  decodeBounded(input: ArrayBuffer): ArrayBuffer {
    return input.byteLength > this.cap ? input.slice(0, this.cap) : input;
  }
}

class DeflateDecoder extends BoundedDecoder {
  protected readonly kind = 'deflate';
  async decodeBounded(input: ArrayBuffer): Promise<ArrayBuffer> {
    const bytes = new Uint8Array(input);
    const native = typeof DecompressionStream === 'function' ? await inflateNative(bytes, this.cap) : undefined;
    return native ?? inflateBounded(bytes, this.cap);
  }
}

class LzwDecoder extends BoundedDecoder {
  protected readonly kind = 'LZW';
  decodeBounded(input: ArrayBuffer): ArrayBuffer {
    return lzwBounded(new Uint8Array(input), this.cap);
  }
}

class PackbitsDecoder extends BoundedDecoder {
  protected readonly kind = 'PackBits';
  decodeBounded(input: ArrayBuffer): ArrayBuffer {
    return unpackBitsBounded(new Uint8Array(input), this.cap);
  }
}

/** JPEG and WebP: the header checked here, the pixels decoded by the decoder geotiff.js ships. */
function checkedBy(kind: string, check: (d: Uint8Array, p: DecoderParameters) => void, original: Promise<DecoderClass>): DecoderClass {
  return class extends BoundedDecoder {
    protected readonly kind = kind;
    async decodeBounded(input: ArrayBuffer): Promise<ArrayBuffer> {
      check(new Uint8Array(input), this.params);
      const Inner = await original;
      // the inner decoder's own predictor step must not run twice: it gets predictor 1
      return (await new Inner({ ...this.params, predictor: 1 }).decodeBlock(input)) as ArrayBuffer;
    }
  };
}

/** The parameters every decoder gets: strips never taller than the image. */
async function parametersOf(fd: ImageFileDirectory): Promise<DecoderParameters> {
  const value = async (name: string) => (await fd.loadValue(name as never)) as unknown;
  const tiled = !fd.hasTag('StripOffsets' as never);
  const height = Number(await value('ImageLength'));
  return {
    tileWidth: Number(tiled ? await value('TileWidth') : await value('ImageWidth')),
    tileHeight: tiled ? Number(await value('TileLength')) : Math.min(height, Number((await value('RowsPerStrip')) || height)),
    planarConfiguration: Number((await value('PlanarConfiguration')) ?? 1),
    bitsPerSample: (await value('BitsPerSample')) as number[],
    predictor: Number((await value('Predictor')) || 1),
    samplesPerPixel: Number(await value('SamplesPerPixel')) || 1,
    JPEGTables: fd.hasTag('JPEGTables' as never) ? ((await value('JPEGTables')) as Uint8Array) : undefined,
  };
}

let installed = false;

/** Puts the bounded decoders in geotiff.js's registry (once per bundle: the page and the worker). */
export function installBoundedDecoders(): void {
  if (installed) return;
  installed = true;
  // geotiff.js's own JPEG and WebP decoder classes, taken from its registry before ours replace
  // them there (it exports neither); each is made once here with throwaway parameters
  const probe = { tileWidth: 1, tileHeight: 1, planarConfiguration: 1, bitsPerSample: [8], predictor: 1 };
  const classOf = (code: number): Promise<DecoderClass> => {
    const p = getDecoder(code, probe).then((d) => d.constructor as DecoderClass);
    p.catch(() => undefined);
    return p;
  };
  const Jpeg = checkedBy('JPEG', checkJpegFrame, classOf(7));
  const Webp = checkedBy('WebP', checkWebpSize, classOf(50001));
  const use = (cases: number | (number | undefined)[], Decoder: DecoderClass, preferWorker = true) =>
    addDecoder(cases, async () => Decoder as never, parametersOf as never, preferWorker);
  use([undefined, 1], RawDecoder, false);
  use(5, LzwDecoder);
  use(7, Jpeg);
  use([8, 32946], DeflateDecoder);
  use(32773, PackbitsDecoder);
  use(50001, Webp, false);
}
