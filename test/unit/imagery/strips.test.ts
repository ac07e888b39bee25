/**
 * A saved view's window read in strips (media/map/imagery/strips.ts) from a COG GDAL wrote:
 * the values are GDAL's own for the window, each strip's tiles go out as a few merged range
 * requests (one per tile row here, where GDAL leaves 8 bytes between tiles), nothing outside
 * the tiles is read, and the reads ahead of the decoders keep to their byte budget.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Cog } from '../../../media/map/imagery/cog';
import { readStrips } from '../../../media/map/imagery/strips';
import type { ReadBytesParams } from '../../../src/panels/imagery/protocol';

const ROOT = join(__dirname, '..', '..', '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'eo-strips-'));
const file = join(dir, 'scene.tif');
/** A window across tile borders on both axes: 5 tile columns and 4 tile rows of 256 pixels. */
const WIN: [number, number, number, number] = [100, 200, 1200, 1000];
let bytes: Buffer;

/** The window's samples as GDAL reads them, band-sequential uint16, and each tile's stored range. */
function gdalWindow(): { values: Buffer; tiles: { tx: number; ty: number; offset: number; length: number }[] } {
  const out = execFileSync(
    '/usr/bin/python3',
    [
      '-c',
      `
import base64, json, sys
from osgeo import gdal
ds = gdal.Open(sys.argv[1])
x0, y0, x1, y1 = map(int, sys.argv[2:6])
arr = ds.ReadAsArray(x0, y0, x1 - x0, y1 - y0)
b = ds.GetRasterBand(1)
bw, bh = b.GetBlockSize()
tiles = []
for ty in range(y0 // bh, (y1 - 1) // bh + 1):
    for tx in range(x0 // bw, (x1 - 1) // bw + 1):
        tiles.append({'tx': tx, 'ty': ty, 'offset': int(b.GetMetadataItem('BLOCK_OFFSET_%d_%d' % (tx, ty), 'TIFF')), 'length': int(b.GetMetadataItem('BLOCK_SIZE_%d_%d' % (tx, ty), 'TIFF'))})
print(json.dumps({'values': base64.b64encode(arr.astype('<u2').tobytes()).decode(), 'tiles': tiles}))
`,
      file,
      ...WIN.map(String),
    ],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  const r = JSON.parse(out) as { values: string; tiles: { tx: number; ty: number; offset: number; length: number }[] };
  return { values: Buffer.from(r.values, 'base64'), tiles: r.tiles };
}

/** The extension's side of readBytes, over the file: every read logged, with how many were in flight. */
function host() {
  const reads: (ReadBytesParams & { inFlight: number })[] = [];
  let inFlight = 0;
  let peak = 0;
  return {
    reads,
    peak: () => peak,
    read: async (p: ReadBytesParams) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      reads.push({ ...p, inFlight });
      // answered on a later turn, as a message from the extension is
      await new Promise((r) => setTimeout(r, 5));
      inFlight--;
      const part = bytes.subarray(p.offset, p.offset + p.length);
      return { bytes: part.buffer.slice(part.byteOffset, part.byteOffset + part.byteLength) as ArrayBuffer, total: bytes.length };
    },
  };
}

before(() => {
  execFileSync('/usr/bin/python3', [join(ROOT, 'test', 'fixtures', 'imagery', 'make_scene.py'), file, '--size', '1536', '--noise', '--block', '256'], {
    encoding: 'utf8',
  });
  bytes = readFileSync(file);
});
after(() => rmSync(dir, { recursive: true, force: true }));

describe('Save View: the window read in strips', () => {
  it("reads GDAL's values, each strip's tiles as one merged request, nothing outside the tiles", async () => {
    const expected = gdalWindow();
    const h = host();
    const cog = await Cog.open('https://assets.example.com/scene.tif', h.read, {});
    const before = h.reads.length;
    const bands = await readStrips(cog, 0, WIN, [0, 1, 2, 3]);
    const got = Buffer.concat(bands.map((b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength)));
    assert.ok(got.equals(expected.values), "the window's samples are GDAL's");
    const reads = h.reads.slice(before);
    const rows = new Set(expected.tiles.map((t) => t.ty));
    // without merging, one request per tile: 20 here
    assert.equal(reads.length, rows.size, `one request per tile row, not per tile (${expected.tiles.length} tiles)`);
    for (const ty of rows) {
      const row = expected.tiles.filter((t) => t.ty === ty);
      const first = Math.min(...row.map((t) => t.offset));
      const end = Math.max(...row.map((t) => t.offset + t.length));
      assert.ok(
        reads.some((r) => r.offset === first && r.offset + r.length === end),
        `row ${ty} read from its first tile's byte to its last's`,
      );
    }
    const tileBytes = expected.tiles.reduce((a, t) => a + t.length, 0);
    const fetched = reads.reduce((a, r) => a + r.length, 0);
    assert.ok(fetched <= tileBytes * 1.01, `fetched ${fetched} for tiles of ${tileBytes}`);
    // every strip's request went out before the first came back: the reads ran ahead of the decoders
    assert.equal(h.peak(), rows.size);
  });

  it('keeps to its read-ahead budget: with room for one strip, one request is out at a time', async () => {
    const expected = gdalWindow();
    const h = host();
    const cog = await Cog.open('https://assets.example.com/scene.tif', h.read, {});
    const before = h.reads.length;
    const bands = await readStrips(cog, 0, WIN, [0, 1, 2, 3], { readAheadBytes: 1 });
    const got = Buffer.concat(bands.map((b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength)));
    assert.ok(got.equals(expected.values));
    assert.ok(
      h.reads.slice(before).every((r) => r.inFlight === 1),
      'no read started while another was out',
    );
  });

  it('refuses a tile read larger than the tile can hold before anything is asked for', async () => {
    const h = host();
    const cog = await Cog.open('https://assets.example.com/scene.tif', h.read, {});
    const before = h.reads.length;
    const huge = { offset: 0, length: 64 * 1024 * 1024 };
    assert.throws(() => cog.prefetch(0, [huge]), /its byte counts cannot be right/);
    assert.equal(h.reads.length, before);
  });
});
