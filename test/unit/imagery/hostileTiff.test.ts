/**
 * The map's checks of a TIFF's structure and its bounded decoders, on the hostile files of
 * test/fixtures/imagery/hostile.ts: each structural one is refused with its sentence before
 * geotiff.js sees it, each bomb stops at its tile's size, and the well-formed twin passes.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { deflateSync, gzipSync, inflateSync } from 'node:zlib';
import { getDecoder } from 'geotiff';
import { readTiffStructure } from '../../../media/map/imagery/tiffStructure';
import { TIFF_LIMITS } from '../../../src/raster/limits';
import {
  checkJpegFrame,
  checkWebpSize,
  expectedBytes,
  inflateBounded,
  inflateNative,
  installBoundedDecoders,
  lzwBounded,
  unpackBitsBounded,
} from '../../../media/map/imagery/decoders';
import { deflateBomb, hostileFiles, jpegBomb, lzwBomb, packbitsBomb, wellFormed } from '../../fixtures/imagery/hostile';

const MB = 1024 * 1024;

/** Reads as the webview's byte source does: what lies inside the file, the file's size once read. */
function reader(bytes: Buffer) {
  let known: number | null = null;
  const reads: { offset: number; length: number }[] = [];
  return {
    reads,
    read: async (offset: number, length: number) => {
      reads.push({ offset, length });
      known = bytes.length;
      const part = bytes.subarray(offset, offset + length);
      return part.buffer.slice(part.byteOffset, part.byteOffset + part.byteLength) as ArrayBuffer;
    },
    size: () => known,
  };
}

const STRUCTURAL = new Set([
  'ifd-self-loop.tif',
  'ifd-cycle.tif',
  'ifd-chain-3000.tif',
  'ifd-past-end.tif',
  'ifd-65535-entries.tif',
  'value-past-end.tif',
  'huge-image.tif',
  'huge-tile.tif',
]);

describe('TIFF structure checks', () => {
  for (const f of hostileFiles().filter((f) => STRUCTURAL.has(f.name))) {
    it(`refuses ${f.name} with a sentence, reading little`, async () => {
      const r = reader(f.bytes);
      await assert.rejects(readTiffStructure(r.read, r.size), (e: Error) => {
        assert.match(e.message, f.says);
        return true;
      });
      const read = r.reads.reduce((a, x) => a + x.length, 0);
      assert.ok(read < 200 * 1024 * (f.name === 'ifd-chain-3000.tif' ? 2 : 1), `${f.name}: read ${read} bytes`);
      assert.ok(r.reads.length <= TIFF_LIMITS.images * 20, `${f.name}: ${r.reads.length} reads`);
    });
  }

  it('passes the well-formed file, the bombs and the lying byte counts (those are caught when a tile is read)', async () => {
    for (const f of [{ name: 'well-formed.tif', bytes: wellFormed() }, ...hostileFiles().filter((f) => !STRUCTURAL.has(f.name))]) {
      const r = reader(f.bytes);
      const s = await readTiffStructure(r.read, r.size);
      assert.equal(s.images.length, 1, f.name);
      assert.equal(s.images[0].width, 512, f.name);
      assert.equal(s.images[0].blocks, 1, f.name);
    }
    const s = await readTiffStructure(reader(wellFormed()).read, () => null);
    assert.deepEqual(
      { ...s.images[0], offset: 0 },
      {
        offset: 0,
        subfileType: 0,
        width: 512,
        height: 512,
        tiled: true,
        blockWidth: 512,
        blockHeight: 512,
        samples: 4,
        bitsPerSample: [16, 16, 16, 16],
        planar: 1,
        compression: 8,
        blocks: 1,
        blockBytes: 2 * MB,
      },
    );
  });
});

describe('bounded decoders', () => {
  const tile = { tileWidth: 512, tileHeight: 512, planarConfiguration: 1, bitsPerSample: [16, 16, 16, 16], predictor: 1 };

  it("size a tile as width × height × bits per pixel (one plane's with planar configuration 2)", () => {
    assert.equal(expectedBytes(tile), 2 * MB);
    assert.equal(expectedBytes({ ...tile, planarConfiguration: 2 }), 512 * 512 * 2);
    assert.equal(expectedBytes({ ...tile, tileWidth: 3, tileHeight: 2, bitsPerSample: [1] }), 2);
  });

  it('stop a deflate bomb at the tile size, and inflate honest data exactly', () => {
    const bomb = deflateBomb(256 * MB);
    // the bomb is real: zlib inflates it to 256 MB
    assert.equal(inflateSync(bomb, { maxOutputLength: 257 * MB }).length, 256 * MB);
    const t0 = performance.now();
    assert.throws(() => inflateBounded(bomb, 2 * MB), /deflate data decodes to more than the tile's 2 MB/);
    console.log(`# deflate bomb: ${Math.round(bomb.length / 1024)} KB → 256 MB refused after ${Math.round(performance.now() - t0)} ms`);
    const honest = Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7) & 255));
    assert.deepEqual(Buffer.from(inflateBounded(deflateSync(honest), 5000)), honest);
  });

  it("stop a deflate bomb at the tile size with the runtime's own inflater (DecompressionStream), and inflate honest data exactly", async () => {
    const bomb = new Uint8Array(deflateBomb(256 * MB));
    const t0 = performance.now();
    await assert.rejects(inflateNative(bomb, 2 * MB), /deflate data decodes to more than the tile's 2 MB; the file is corrupt or crafted to exhaust memory/);
    console.log(`# deflate bomb, native: ${Math.round(bomb.length / 1024)} KB → 256 MB refused after ${Math.round(performance.now() - t0)} ms`);
    // the bound is the tile's size exactly: a tile one byte short of its data is refused too
    const honest = Buffer.from(Array.from({ length: 200_000 }, (_, i) => (i * 7919) % 251));
    const packed = new Uint8Array(deflateSync(honest));
    assert.deepEqual(Buffer.from((await inflateNative(packed, honest.length)) as ArrayBuffer), honest);
    await assert.rejects(inflateNative(packed, honest.length - 1), /deflate data decodes to more than the tile's/);
    // data it refuses is left to pako (undefined), not failed: a gzip header, a truncated stream
    assert.equal(await inflateNative(new Uint8Array(gzipSync(honest)), honest.length), undefined);
    assert.equal(await inflateNative(packed.slice(0, packed.length - 100), honest.length), undefined);
  });

  it('decode through the registered deflate decoder what only pako reads (gzip, bytes after the stream), as before', async () => {
    installBoundedDecoders();
    const honest = Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7) & 255));
    const decode = async (data: Buffer) => {
      const d = await getDecoder(8, { tileWidth: 5000, tileHeight: 1, planarConfiguration: 1, bitsPerSample: [8], predictor: 1 });
      const b = new Uint8Array(data).buffer;
      return Buffer.from(await d.decode(b));
    };
    assert.deepEqual(await decode(deflateSync(honest)), honest);
    assert.deepEqual(await decode(gzipSync(honest)), honest);
    // Chromium's DecompressionStream refuses these (the webview tier draws such a file)
    assert.deepEqual(await decode(Buffer.concat([deflateSync(honest), Buffer.alloc(37, 0xab)])), honest);
    await assert.rejects(decode(deflateSync(Buffer.concat([honest, honest]))), /deflate data decodes to more than the tile's/);
    // what neither reads is refused in words, not drawn from a partial tile
    const packed = deflateSync(honest);
    await assert.rejects(decode(packed.subarray(0, packed.length - 40)), /its deflate data is corrupt/);
    await assert.rejects(decode(Buffer.from([0x78, 0x9c, 0xff, 0xff, 0xff, 0xff])), /its deflate data is corrupt \(invalid block type\)/);
  });

  it('stop an LZW bomb at the tile size, and decode the codes of a string of zeros exactly', () => {
    assert.throws(() => lzwBounded(lzwBomb(256 * MB), 2 * MB), /LZW data decodes to more than the tile's 2 MB/);
    const out = new Uint8Array(lzwBounded(lzwBomb(1_000_000), 2 * MB));
    assert.ok(out.length >= 1_000_000 && out.every((b) => b === 0), `${out.length} zeros`);
  });

  it('refuse an LZW code that is not in the table yet, instead of walking outside it', () => {
    // Clear, 'A', then code 300 (the table holds 258 entries)
    const bits = [
      [256, 9],
      [65, 9],
      [300, 9],
    ];
    let acc = 0n;
    let n = 0;
    for (const [c, w] of bits) {
      acc = (acc << BigInt(w)) | BigInt(c);
      n += w;
    }
    const pad = (8 - (n % 8)) % 8;
    acc <<= BigInt(pad);
    const bytes = new Uint8Array((n + pad) / 8);
    for (let i = bytes.length - 1; i >= 0; i--, acc >>= 8n) bytes[i] = Number(acc & 255n);
    assert.throws(() => lzwBounded(bytes, 1000), /LZW data is corrupt/);
  });

  it('stop a PackBits bomb at the tile size, and unpack literal and repeated runs', () => {
    assert.throws(() => unpackBitsBounded(packbitsBomb(128 * MB), 2 * MB), /PackBits data decodes to more than the tile's 2 MB/);
    // literal run of 3, repeat of 4, a no-op (-128), literal run of 1
    const packed = Uint8Array.from([2, 1, 2, 3, 0xfd, 9, 0x80, 0, 7]);
    assert.deepEqual(Array.from(new Uint8Array(unpackBitsBounded(packed, 100))), [1, 2, 3, 9, 9, 9, 9, 7]);
  });

  it('refuse a JPEG whose frame is larger than its tile before decoding it', () => {
    assert.throws(() => checkJpegFrame(jpegBomb(8192), tile), /JPEG data declares 8192 × 8192 pixels in 1 components where the tile holds 512 × 512/);
    assert.doesNotThrow(() => checkJpegFrame(jpegBomb(512), tile));
  });

  it('refuse a WebP whose picture is larger than its tile before the browser decodes it', () => {
    const webp = (w: number, h: number) => {
      const b = Buffer.alloc(40);
      b.write('RIFF', 0, 'latin1');
      b.writeUInt32LE(32, 4);
      b.write('WEBPVP8L', 8, 'latin1');
      b.writeUInt32LE(20, 16);
      b[20] = 0x2f;
      b.writeUInt32LE(((w - 1) | ((h - 1) << 14)) >>> 0, 21);
      return b;
    };
    assert.throws(() => checkWebpSize(webp(16384, 16384), tile), /WebP data declares 16384 × 16384 pixels where the tile holds 512 × 512/);
    assert.doesNotThrow(() => checkWebpSize(webp(512, 512), tile));
    assert.throws(() => checkWebpSize(Buffer.from('not a webp at all, not at all....'), tile), /no picture size/);
  });
});
