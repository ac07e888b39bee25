/**
 * geotiff.js (3.0.x) copies each decoded tile into the caller's arrays one sample at a time
 * through a DataView getter called with `.call`: for a 2048 × 2048 × 4 window that is 16
 * million calls, seconds of the page's main thread (the profile of Save View to GeoTIFF had it
 * as the largest part), and the same per pixel for every tile the map draws. When the
 * samples are whole bytes in the machine's byte order (little-endian files on little-endian
 * machines: every COG GDAL writes, in practice) the tile's buffer is read as a typed array
 * instead: a row copy for band-sequential files, a strided loop over plain typed arrays for
 * pixel-interleaved ones. Anything else (bit-packed or half-float samples, big-endian files,
 * interleaved output, resampling) goes through geotiff.js's own copy.
 *
 * The hook is the image's internal `_readRaster` (the part of `readRasters` after the decoder
 * is chosen), replaced per image; its signature is checked against the pinned version.
 */
import type { GeoTIFFImage } from 'geotiff';

type Arr = Uint8Array | Int8Array | Uint16Array | Int16Array | Uint32Array | Int32Array | Float32Array | Float64Array;
type ArrCtor = new (buffer: ArrayBuffer, byteOffset: number, length: number) => Arr;
type Tile = { x: number; y: number; data: ArrayBuffer };
type Decoder = unknown;

/** The parts of geotiff.js's image this copy uses (present in 3.0.x). */
interface Internals {
  littleEndian: boolean;
  planarConfiguration: number;
  getTileWidth(): number;
  getTileHeight(): number;
  getWidth(): number;
  getHeight(): number;
  getSamplesPerPixel(): number;
  getBlockHeight(y: number): number;
  getTileOrStrip(x: number, y: number, sample: number, decoder: Decoder, signal?: AbortSignal): Promise<Tile>;
  fileDirectory: { getValue(name: string): unknown };
  _readRaster(...args: unknown[]): Promise<unknown>;
}

const LITTLE_ENDIAN_MACHINE = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

function ctorFor(format: number, bits: number): ArrCtor | undefined {
  if (format === 1) return bits === 8 ? Uint8Array : bits === 16 ? Uint16Array : bits === 32 ? Uint32Array : undefined;
  if (format === 2) return bits === 8 ? Int8Array : bits === 16 ? Int16Array : bits === 32 ? Int32Array : undefined;
  if (format === 3) return bits === 32 ? Float32Array : bits === 64 ? Float64Array : undefined;
  return undefined;
}

/** One typed-array type for every sample of the image, or undefined when they differ or are not whole bytes. */
function sampleType(img: Internals): ArrCtor | undefined {
  const n = img.getSamplesPerPixel();
  const bits = img.fileDirectory.getValue('BitsPerSample') as ArrayLike<number> | number | undefined;
  const formats = img.fileDirectory.getValue('SampleFormat') as ArrayLike<number> | number | undefined;
  const at = (v: ArrayLike<number> | number | undefined, i: number, dflt: number) =>
    v === undefined ? dflt : typeof v === 'number' ? v : (v[i] ?? v[0] ?? dflt);
  const first = ctorFor(at(formats, 0, 1), at(bits, 0, 1));
  if (!first) return undefined;
  for (let i = 1; i < n; i++) if (ctorFor(at(formats, i, 1), at(bits, i, 1)) !== first) return undefined;
  return first;
}

/** Replaces the image's per-sample copy with typed-array copies where the layout allows it. */
export function installFastRaster(image: GeoTIFFImage): void {
  const img = image as unknown as Internals;
  const original = img._readRaster;
  if (typeof original !== 'function' || original.length !== 9) return;
  const Ctor = LITTLE_ENDIAN_MACHINE && img.littleEndian ? sampleType(img) : undefined;
  if (!Ctor) return;
  const size = (Ctor as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT;
  img._readRaster = async function (this: Internals, ...args: unknown[]): Promise<unknown> {
    const [win, samples, valueArrays, interleave, decoder, width, height, , signal] = args as [
      number[],
      number[],
      Arr[],
      boolean | undefined,
      Decoder,
      number | undefined,
      number | undefined,
      unknown,
      AbortSignal | undefined,
    ];
    const ww = win[2] - win[0];
    const wh = win[3] - win[1];
    if (interleave || (width && width !== ww) || (height && height !== wh) || !Array.isArray(valueArrays)) return original.apply(this, args);
    const tw = this.getTileWidth();
    const th = this.getTileHeight();
    const iw = this.getWidth();
    const ih = this.getHeight();
    const spp = this.getSamplesPerPixel();
    const planar = this.planarConfiguration === 2;
    const minX = Math.max(Math.floor(win[0] / tw), 0);
    const maxX = Math.min(Math.ceil(win[2] / tw), Math.ceil(iw / tw));
    const minY = Math.max(Math.floor(win[1] / th), 0);
    const maxY = Math.min(Math.ceil(win[3] / th), Math.ceil(ih / th));
    const copy = (tile: Tile, si: number): void => {
      const perPixel = planar ? 1 : spp;
      const src = new Ctor(tile.data, 0, Math.floor(tile.data.byteLength / size));
      const dst = valueArrays[si];
      const off = planar ? 0 : samples[si];
      const blockHeight = this.getBlockHeight(tile.y);
      const firstLine = tile.y * th;
      const firstCol = tile.x * tw;
      const yEnd = Math.min(blockHeight, win[3] - firstLine, ih - firstLine);
      const xStart = Math.max(0, win[0] - firstCol);
      const xEnd = Math.min(tw, win[2] - firstCol, iw - firstCol);
      if (xEnd <= xStart) return;
      for (let y = Math.max(0, win[1] - firstLine); y < yEnd; y++) {
        const to = (y + firstLine - win[1]) * ww + firstCol - win[0];
        const from = y * tw;
        if (perPixel === 1) dst.set(src.subarray(from + xStart, from + xEnd), to + xStart);
        else for (let x = xStart, s = (from + xStart) * perPixel + off; x < xEnd; x++, s += perPixel) dst[to + x] = src[s];
      }
    };
    const jobs: Promise<void>[] = [];
    for (let ty = minY; ty < maxY; ty++) {
      for (let tx = minX; tx < maxX; tx++) {
        if (planar) {
          samples.forEach((sample, si) => jobs.push(this.getTileOrStrip(tx, ty, sample, decoder, signal).then((t) => copy(t, si))));
        } else {
          const tile = this.getTileOrStrip(tx, ty, 0, decoder, signal);
          jobs.push(tile.then((t) => samples.forEach((_, si) => copy(t, si))));
        }
      }
    }
    await Promise.all(jobs);
    return Object.assign(valueArrays, { width: ww, height: wh });
  };
}
