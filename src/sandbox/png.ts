/** A minimal PNG encoder (8-bit RGB or RGBA, no interlace): thumbnails and visualization PNGs. */
import { promisify } from 'node:util';
import { crc32, deflate } from 'node:zlib';
import { pacer } from './pace';

// Off the event loop (libuv's thread pool): a large image compresses for tens of milliseconds.
const deflateAsync = promisify(deflate);

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** `pixel(x, y)` returns [r, g, b] in 0..255; computed row by row, letting the event loop run between rows. */
export async function encodePng(width: number, height: number, pixel: (x: number, y: number) => [number, number, number]): Promise<Buffer> {
  const turn = pacer();
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: RGB
  const stride = width * 3 + 1;
  const raw = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    await turn();
    raw[y * stride] = 0; // filter: none
    for (let x = 0; x < width; x++) {
      const [r, g, b] = pixel(x, y);
      const o = y * stride + 1 + x * 3;
      raw[o] = r;
      raw[o + 1] = g;
      raw[o + 2] = b;
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', await deflateAsync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** 8-bit RGBA (colour type 6): `rgba` holds width × height × 4 bytes, row by row. */
export async function encodePngRgba(width: number, height: number, rgba: Uint8Array): Promise<Buffer> {
  if (rgba.length !== width * height * 4) throw new RangeError(`expected ${width * height * 4} bytes of RGBA, got ${rgba.length}`);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // colour type: RGBA
  const stride = width * 4 + 1;
  const raw = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    raw[y * stride] = 0; // filter: none
    raw.set(rgba.subarray(y * width * 4, (y + 1) * width * 4), y * stride + 1);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', await deflateAsync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
