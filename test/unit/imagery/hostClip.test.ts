/**
 * The extension host's half of "Save View to GeoTIFF…" (src/panels/imagery/hostClip.ts): a
 * plan executed over HTTP through the extension's own reader (the panel's byte server and the
 * API client), against GDAL. GDAL writes the files (test/fixtures/imagery/clip_truth.py), says
 * where their tiles are and what a window of them holds, and reads the clip back.
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { EoClient } from '../../../src/api/client';
import { ImageryByteServer } from '../../../src/panels/imagery/byteServer';
import { HOST_CLIP_LIMITS, runClipPlan } from '../../../src/panels/imagery/hostClip';
import type { ClipPlan } from '../../../src/panels/imagery/clipMessages';
import { runStatsPlan } from '../../../src/panels/imagery/hostStats';
import { statsWindowBytes, type StatsPlan } from '../../../src/panels/imagery/seriesMessages';
import { ByteGate } from '../../../src/panels/imagery/byteGate';
import { seriesStatistics, windowHasInside } from '../../../src/panels/imagery/seriesStats';

const SCRIPT = join(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'imagery', 'clip_truth.py');
const py = (...args: string[]): Buffer => execFileSync('/usr/bin/python3', [SCRIPT, ...args], { maxBuffer: 256 * 1024 * 1024 });

interface Layout {
  width: number;
  height: number;
  tileWidth: number;
  tileHeight: number;
  across: number;
  planar: 1 | 2;
  planes: [number, number][][];
  samplesPerPixel: number;
  fileSize: number;
  compression: ClipPlan['compression'];
  predictor: 1 | 2 | 3;
  bitsPerSample: number;
  sampleFormat: 1 | 2 | 3;
}

let dir: string;
let server: Server;
let origin: string;
let client: EoClient;
/** Range requests the server answered, by file. */
const served: { path: string; range: string }[] = [];

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'eo-host-clip-'));
  server = createServer((req, res) => {
    const path = join(dir, (req.url ?? '/').slice(1));
    const m = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
    if (!m) return void res.writeHead(400).end();
    served.push({ path: req.url ?? '', range: req.headers.range ?? '' });
    const body = readFileSync(path);
    const a = Number(m[1]);
    const b = Math.min(Number(m[2]), body.length - 1);
    res.writeHead(206, { 'content-range': `bytes ${a}-${b}/${body.length}`, 'content-length': b - a + 1 }).end(body.subarray(a, b + 1));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  client = new EoClient({ baseUrl: origin, userAgent: 'eo-imagery-test' });
});

after(async () => {
  await client.close();
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

function make(name: string, dtype: string, predictor: number, interleave: 'PIXEL' | 'BAND', compress = 'DEFLATE', size = 700, block = 256, bands = 4): string {
  const file = join(dir, name);
  py('make', file, dtype, String(predictor), interleave, compress, String(size), String(block), String(bands));
  return file;
}

/** The plan the webview would send for a window of a level (the tiles as GDAL places them). */
function planOf(file: string, level: number, win: [number, number, number, number], samples: number[]): ClipPlan {
  const l = JSON.parse(py('layout', file, String(level)).toString('utf8')) as Layout;
  const tiles: ClipPlan['tiles'] = [];
  const planes = l.planar === 2 ? [...new Set(samples)] : [0];
  for (let ty = Math.floor(win[1] / l.tileHeight); ty * l.tileHeight < win[3]; ty++) {
    for (let tx = Math.floor(win[0] / l.tileWidth); tx * l.tileWidth < win[2]; tx++) {
      for (const plane of planes) {
        const [offset, length] = l.planes[plane][ty * l.across + tx];
        tiles.push({ tx, ty, plane, offset, length });
      }
    }
  }
  return {
    url: `${origin}/${file.split('/').pop()}`,
    fileSize: l.fileSize,
    level,
    window: win,
    tileWidth: l.tileWidth,
    tileHeight: l.tileHeight,
    samplesPerPixel: l.samplesPerPixel,
    planar: l.planar,
    bitsPerSample: l.bitsPerSample,
    sampleFormat: l.sampleFormat,
    compression: l.compression,
    predictor: l.predictor,
    samples,
    tiles,
    epsg: 32633,
    originX: 500000 + win[0] * 10 * 2 ** level,
    originY: 4650000 - win[1] * 10 * 2 ** level,
    pixelWidth: 10 * 2 ** level,
    pixelHeight: 10 * 2 ** level,
    names: samples.map((s) => `band ${s + 1}`),
    scale: samples.map(() => 1),
    offset: samples.map(() => 0),
  };
}

/** The extension's reader: the panel's byte server over the API client. */
function reader(url: string, counter?: { reads: number }) {
  const bytes = new ImageryByteServer();
  bytes.allow(url);
  return async (offset: number, length: number, signal?: AbortSignal) => {
    if (counter) counter.reads++;
    return (await bytes.read(client, { url, offset, length }, signal)).bytes;
  };
}

/** Runs the plan, writes the clip, and checks it against GDAL's own reading of the window. */
async function clipMatchesGdal(file: string, plan: ClipPlan): Promise<void> {
  const r = await runClipPlan(plan, reader(plan.url));
  const [x0, y0, x1, y1] = plan.window;
  assert.equal(r.width, x1 - x0);
  assert.equal(r.height, y1 - y0);
  const out = join(dir, 'clip.tif');
  writeFileSync(out, r.bytes);
  const expected = py('window', file, String(plan.level), String(x0), String(y0), String(x1 - x0), String(y1 - y0), plan.samples.join(','));
  const got = py('read', out);
  assert.equal(got.length, expected.length);
  assert.ok(got.equals(expected), 'the clip holds the values GDAL reads from the window');
  assert.equal(
    r.tileBytes,
    plan.tiles.reduce((a, t) => a + t.length, 0),
  );
  assert.ok(r.fetchedBytes >= r.tileBytes && r.fetchedBytes <= 1.125 * r.tileBytes, `read ${r.fetchedBytes} for tiles of ${r.tileBytes}`);
}

describe('host clip: a plan executed against GDAL', () => {
  it('uint16, DEFLATE with predictor 2, pixel-interleaved: a window not aligned to tiles, bands reordered', async () => {
    const file = make('u16p2.tif', 'uint16', 2, 'PIXEL');
    await clipMatchesGdal(file, planOf(file, 0, [37, 101, 613, 555], [2, 0, 3]));
  });

  it('the overview level of the same file', async () => {
    const file = make('u16p2ov.tif', 'uint16', 2, 'PIXEL');
    await clipMatchesGdal(file, planOf(file, 1, [13, 7, 341, 350], [0, 1, 2, 3]));
  });

  it('float32, DEFLATE with predictor 3 (floating point)', async () => {
    const file = make('f32p3.tif', 'float32', 3, 'PIXEL', 'DEFLATE', 700, 256, 3);
    await clipMatchesGdal(file, planOf(file, 0, [100, 250, 700, 699], [1, 2]));
  });

  it('band-separate tiles (planar 2), uint16 with predictor 2 and float32 with predictor 3', async () => {
    const u16 = make('u16band.tif', 'uint16', 2, 'BAND');
    await clipMatchesGdal(u16, planOf(u16, 0, [300, 5, 650, 480], [3, 1]));
    const f32 = make('f32band.tif', 'float32', 3, 'BAND', 'DEFLATE', 700, 256, 3);
    await clipMatchesGdal(f32, planOf(f32, 0, [0, 0, 513, 257], [0, 1, 2]));
  });

  it('uncompressed int16 and uint8 without a predictor', async () => {
    const i16 = make('i16.tif', 'int16', 1, 'PIXEL', 'NONE', 600, 128, 2);
    await clipMatchesGdal(i16, planOf(i16, 0, [5, 6, 407, 301], [1, 0]));
    const u8 = make('u8.tif', 'uint8', 2, 'PIXEL', 'DEFLATE', 600, 128, 3);
    await clipMatchesGdal(u8, planOf(u8, 0, [129, 1, 600, 600], [0, 2]));
  });

  it('masks to the rings: pixels whose centre lies outside become the no-data value the plan names', async () => {
    const file = make('mask.tif', 'uint16', 2, 'PIXEL');
    const plan = {
      ...planOf(file, 0, [100, 100, 300, 300], [0]),
      nodata: 7,
      rings: [
        [
          [100, 100],
          [300, 100],
          [100, 300],
          [100, 100],
        ],
      ] as [number, number][][],
    };
    const r = await runClipPlan(plan, reader(plan.url));
    writeFileSync(join(dir, 'masked.tif'), r.bytes);
    const got = py('read', join(dir, 'masked.tif'));
    const window = py('window', file, '0', '100', '100', '200', '200', '0');
    for (const [x, y] of [
      [10, 10],
      [150, 30],
      [199, 199],
      [120, 90],
    ]) {
      const inside = x + y + 1 < 200; // the triangle below the diagonal, by pixel centres
      assert.equal(got.readUInt16LE(2 * (y * 200 + x)), inside ? window.readUInt16LE(2 * (y * 200 + x)) : 7, `pixel ${x},${y}`);
    }
  });
});

describe('host clip: hostile files and plans', () => {
  it('refuses a tile that inflates past its decoded size, in a sentence', async () => {
    // a 512 × 512 uint16 tile holds 512 KiB; its "deflate data" inflates to 8 MiB of zeros
    const bomb = deflateSync(Buffer.alloc(8 * 1024 * 1024));
    writeFileSync(join(dir, 'bomb.tif'), Buffer.concat([Buffer.alloc(1024), bomb]));
    const plan: ClipPlan = {
      ...planOf(make('tmpl.tif', 'uint16', 2, 'PIXEL', 'DEFLATE', 512, 512, 1), 0, [0, 0, 512, 512], [0]),
      url: `${origin}/bomb.tif`,
      fileSize: statSync(join(dir, 'bomb.tif')).size,
      tiles: [{ tx: 0, ty: 0, plane: 0, offset: 1024, length: bomb.length }],
    };
    await assert.rejects(
      runClipPlan(plan, reader(plan.url)),
      /decodes to more than the tile's 512 KB; the file is corrupt or crafted to exhaust memory, so it is not saved\./,
    );
  });

  it('holds a bounded number of decoded tiles at once, however well they compress', async () => {
    // 64 tiles of 256 × 256 uint16 that deflate to a few hundred bytes each: one merged read
    // brings them all, and each inflate would hold its 128 KB output at once without the bound
    const block = 256 * 256 * 2;
    const zeros = deflateSync(Buffer.alloc(block));
    writeFileSync(join(dir, 'sparse.tif'), Buffer.concat([Buffer.alloc(1024), ...Array.from({ length: 64 }, () => zeros)]));
    const template = planOf(make('tmpl-sparse.tif', 'uint16', 1, 'PIXEL', 'DEFLATE', 2048, 256, 1), 0, [0, 0, 2048, 2048], [0]);
    const plan: ClipPlan = {
      ...template,
      url: `${origin}/sparse.tif`,
      fileSize: statSync(join(dir, 'sparse.tif')).size,
      predictor: 1,
      tiles: template.tiles.map((t, i) => ({ ...t, offset: 1024 + i * zeros.length, length: zeros.length })),
    };
    assert.equal(plan.tiles.length, 64);
    const r = await runClipPlan(plan, reader(plan.url), { limits: { ...HOST_CLIP_LIMITS, decoding: 2, decodedBytes: 2 * block } });
    assert.ok(r.peakDecodedBytes > 0 && r.peakDecodedBytes <= 2 * block, `${r.peakDecodedBytes} decoded bytes held at once`);
    const d = await runClipPlan(plan, reader(plan.url));
    assert.ok(d.peakDecodedBytes <= HOST_CLIP_LIMITS.decoding * block, `${d.peakDecodedBytes} decoded bytes held at once by default`);
    assert.equal(r.width * r.height, 2048 * 2048);
  });

  it('refuses lying byte counts before reading anything', async () => {
    const file = make('lies.tif', 'uint16', 2, 'PIXEL', 'DEFLATE', 512, 256, 1);
    const plan = planOf(file, 0, [0, 0, 512, 512], [0]);
    const counter = { reads: 0 };
    const big = { ...plan, tiles: plan.tiles.map((t, i) => (i === 1 ? { ...t, length: 2 * 128 * 1024 + 64 * 1024 + 1 } : t)) };
    await assert.rejects(runClipPlan(big, reader(plan.url, counter)), /is stored in .* while it holds 128 KB of pixels; its byte counts cannot be right/);
    const past = { ...plan, tiles: plan.tiles.map((t, i) => (i === 2 ? { ...t, offset: plan.fileSize - 10 } : t)) };
    await assert.rejects(runClipPlan(past, reader(plan.url, counter)), /lies past its end .* the file is truncated or corrupt\./);
    const huge = { ...plan, tileWidth: 8192, tileHeight: 8192, samplesPerPixel: 1 };
    await assert.rejects(runClipPlan(huge, reader(plan.url, counter)), /holds 128 MB of pixels; the map decodes tiles of at most 64 MB\./);
    const missing = { ...plan, tiles: plan.tiles.slice(1) };
    await assert.rejects(runClipPlan(missing, reader(plan.url, counter)), /described the clip inconsistently \(tiles\)/);
    await assert.rejects(runClipPlan({ ...plan, names: ['a', 'b'] }, reader(plan.url, counter)), /described the clip inconsistently \(band metadata\)/);
    await assert.rejects(runClipPlan({ ...plan, pixelWidth: -10 }, reader(plan.url, counter)), /described the clip inconsistently \(georeferencing\)/);
    assert.equal(counter.reads, 0);
  });

  it('stops reading when cancelled', async () => {
    const file = make('cancel.tif', 'uint16', 2, 'PIXEL', 'DEFLATE', 1024, 256, 4);
    const plan = planOf(file, 0, [0, 0, 1024, 1024], [0, 1, 2, 3]);
    const abort = new AbortController();
    const before = served.length;
    const run = runClipPlan(plan, reader(plan.url), {
      signal: abort.signal,
      limits: { ...HOST_CLIP_LIMITS, readAheadBytes: 1, runBytes: 1 },
      onProgress: (done) => {
        if (done === 1) abort.abort();
      },
    });
    await assert.rejects(run, (e: Error) => e.name === 'AbortError');
    // one run at a time: the one that was read, perhaps the next; not the sixteen tiles
    assert.ok(served.length - before <= 2, `${served.length - before} reads after cancel`);
  });
});

describe('host statistics: a date of an index over time, taken where the bytes arrive', () => {
  const NAMES = ['B04', 'B08'];
  const statsPlan = (plan: ClipPlan, rings: [number, number][][]): StatsPlan => {
    const { epsg: _e, originX: _x, originY: _y, pixelWidth: _w, pixelHeight: _h, rings: _r, ...tiles } = plan;
    return { ...tiles, names: NAMES, rings, expression: '(B08-B04)/(B08+B04)' };
  };
  // a triangle over the window [100, 100, 600, 600]: the tile at column 2, row 0 holds no pixel centre inside it
  const TRIANGLE: [number, number][][] = [
    [
      [100, 100],
      [500, 600],
      [100, 600],
      [100, 100],
    ],
  ];

  it("reads only the polygon's tiles and takes the statistics GDAL's values give", async () => {
    const file = make('stats.tif', 'uint16', 2, 'PIXEL', 'DEFLATE', 700, 256, 2);
    const whole = statsPlan(planOf(file, 0, [100, 100, 600, 600], [0, 1]), TRIANGLE);
    // the tiles holding a pixel centre inside, as the page picks them
    const inside = whole.tiles.filter((t) =>
      windowHasInside(TRIANGLE, Math.max(100, t.tx * 256), Math.max(100, t.ty * 256), Math.min(600, (t.tx + 1) * 256), Math.min(600, (t.ty + 1) * 256)),
    );
    assert.ok(inside.length < whole.tiles.length, 'a tile of the window holds no pixel inside');
    const plan = { ...whole, tiles: inside };
    const got = await runStatsPlan(plan, reader(plan.url));
    const raw = py('window', file, '0', '100', '100', '500', '500', '0,1');
    const values = new Uint16Array(raw.buffer, raw.byteOffset, raw.byteLength / 2);
    const truth = seriesStatistics({
      tiles: [{ x0: 100, y0: 100, width: 500, height: 500, bands: [values.subarray(0, 250_000), values.subarray(250_000)] }],
      rings: TRIANGLE,
      expression: plan.expression,
      bands: NAMES,
      scale: [1, 1],
      offset: [0, 0],
    });
    const { fetchedBytes, tileBytes, ...stats } = got;
    assert.deepEqual(stats, truth);
    assert.ok(truth.valid > 50_000, `${truth.valid} valid pixels`);
    assert.equal(
      tileBytes,
      inside.reduce((a, t) => a + t.length, 0),
    );
    assert.ok(fetchedBytes <= 1.125 * tileBytes, `read ${fetchedBytes} for tiles of ${tileBytes}`);
  });

  it("holds as many dates' windows at once as the map's gate allows, by count and by bytes", async () => {
    const file = make('stats-gate.tif', 'uint16', 2, 'PIXEL', 'DEFLATE', 700, 256, 2);
    const plan = statsPlan(planOf(file, 0, [100, 100, 600, 600], [0, 1]), TRIANGLE);
    const one = statsWindowBytes(plan);
    for (const [gate, most] of [
      [new ByteGate(2, 100 * one), 2],
      [new ByteGate(8, one), 1],
    ] as const) {
      const got = await Promise.all(Array.from({ length: 5 }, () => runStatsPlan(plan, reader(plan.url), { windows: gate })));
      assert.equal(gate.peak.reads, most);
      assert.ok(gate.peak.bytes <= most * one);
      for (const g of got) assert.deepEqual(g, got[0]);
    }
  });

  it('refuses a plan that leaves out a tile with pixels inside, a window past its bound, or a broken polygon, before reading', async () => {
    const file = make('stats-hostile.tif', 'uint16', 2, 'PIXEL', 'DEFLATE', 700, 256, 2);
    const plan = statsPlan(planOf(file, 0, [100, 100, 600, 600], [0, 1]), TRIANGLE);
    const counter = { reads: 0 };
    const read = reader(plan.url, counter);
    await assert.rejects(runStatsPlan({ ...plan, tiles: plan.tiles.slice(1) }, read), /described the date inconsistently \(tiles\)/);
    await assert.rejects(runStatsPlan({ ...plan, rings: [[[1, 2, 3]]] as never }, read), /inconsistently \(polygon\)/);
    await assert.rejects(runStatsPlan({ ...plan, scl: 5 }, read), /inconsistently \(classification band\)/);
    await assert.rejects(runStatsPlan({ ...plan, tiles: [...plan.tiles, plan.tiles[0]] }, read), /inconsistently \(tiles\)/);
    const wide = { ...plan, window: [0, 0, 6000, 6000] as [number, number, number, number], tileWidth: 4096, tileHeight: 4096, tiles: [] };
    await assert.rejects(runStatsPlan(wide, read), /holds 137.3 MB of pixels at this level; the extension takes at most 64 MB at once\./);
    assert.equal(counter.reads, 0);
  });
});
