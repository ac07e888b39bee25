/**
 * A PNG reader for tests (8-bit RGB or RGBA, non-interlaced, any filter): enough to look at
 * the pixels the service rendered, written from the PNG specification, independent of the
 * sandbox's encoder.
 */
import { inflateSync } from 'node:zlib';

export interface DecodedPng {
  width: number;
  height: number;
  /** RGBA, 4 bytes per pixel, row by row (RGB input gets alpha 255). */
  rgba: Uint8Array;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

export function decodePng(buf: Uint8Array): DecodedPng {
  const b = Buffer.from(buf);
  if (!b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) throw new Error('not a PNG');
  let width = 0,
    height = 0,
    colourType = 0;
  const idat: Buffer[] = [];
  for (let o = 8; o < b.length;) {
    const len = b.readUInt32BE(o);
    const type = b.toString('latin1', o + 4, o + 8);
    const data = b.subarray(o + 8, o + 8 + len);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      if (data[8] !== 8 || data[12] !== 0) throw new Error(`unsupported PNG: bit depth ${data[8]}, interlace ${data[12]}`);
      colourType = data[9];
      if (colourType !== 2 && colourType !== 6) throw new Error(`unsupported PNG colour type ${colourType}`);
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    o += 12 + len;
  }
  const bpp = colourType === 6 ? 4 : 3;
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * bpp;
  const out = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const a = x >= bpp ? out[y * stride + x - bpp] : 0;
      const up = y > 0 ? out[(y - 1) * stride + x] : 0;
      const c = x >= bpp && y > 0 ? out[(y - 1) * stride + x - bpp] : 0;
      const v = line[x];
      out[y * stride + x] = (filter === 0 ? v : filter === 1 ? v + a : filter === 2 ? v + up : filter === 3 ? v + ((a + up) >> 1) : v + paeth(a, up, c)) & 0xff;
    }
  }
  if (bpp === 4) return { width, height, rgba: out };
  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) rgba.set([out[i * 3], out[i * 3 + 1], out[i * 3 + 2], 255], i * 4);
  return { width, height, rgba };
}

export function pixel(png: DecodedPng, x: number, y: number): [number, number, number, number] {
  const o = (y * png.width + x) * 4;
  return [png.rgba[o], png.rgba[o + 1], png.rgba[o + 2], png.rgba[o + 3]];
}
