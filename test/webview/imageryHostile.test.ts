/**
 * Hostile GeoTIFFs on the real map bundle (test/fixtures/imagery/hostile.ts): loops and
 * endless chains of directories, values and tiles past the end, lying byte counts, sizes no
 * tile can hold and decompression bombs each fail their layer with a sentence, quickly, with
 * no large read and the renderer's memory measured; their well-formed twin and GDAL's LZW and
 * PackBits files draw. Then the extension's real byte server against a loopback host that
 * ignores `Range`: each file is downloaded once for every layer that shows it.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import proj4 from 'proj4';
import { EoClient } from '../../src/api/client';
import { ImageryByteServer } from '../../src/panels/imagery/byteServer';
import type { ImageryLayerSpec, ReadBytesParams } from '../../src/panels/imagery/protocol';
import { hostileFiles, ORIGIN, SIZE, wellFormed, type HostileFile } from '../fixtures/imagery/hostile';
import { closeBrowser, isType, openWebview, type Harness, type RequestHandler } from './harness';
import { imageryPixelAt, layerSettled } from './imageryPixels';
import { descendantsRss, mb, peakSampler } from './processMemory';
import { moveMap } from './moveMap';

const UTM = '+proj=utm +zone=33 +datum=WGS84 +units=m +no_defs';
const lonLat = (col: number, row: number): [number, number] =>
  proj4(UTM, 'EPSG:4326', [ORIGIN.x + col * ORIGIN.pixel, ORIGIN.y - row * ORIGIN.pixel]) as [number, number];
const CENTRE = lonLat(SIZE / 2, SIZE / 2);

const FOUR = [{ name: 'B02' }, { name: 'B03' }, { name: 'B04' }, { name: 'B08' }];
const STRETCH: [number, number][] = [
  [0, 3000],
  [0, 3000],
  [0, 3000],
];

function spec(id: string, url: string, bands: 1 | 4): ImageryLayerSpec {
  return {
    id,
    title: id,
    url,
    bands: bands === 4 ? FOUR : [{ name: 'grey' }],
    render: { kind: 'rgb', bands: bands === 4 ? ['B04', 'B03', 'B02'] : ['grey', 'grey', 'grey'], stretch: STRETCH },
    source: { kind: 'url', url },
  };
}

/** Answers `readBytes` from files in memory, as the extension would, logging every read. */
function filesHandler(files: Map<string, Buffer>, log: ReadBytesParams[]): RequestHandler {
  return (req) => {
    const r = req as { method: string; params: ReadBytesParams };
    if (r.method !== 'readBytes') throw new Error(`unexpected ${r.method}`);
    log.push(r.params);
    const bytes = files.get(r.params.url);
    if (!bytes) throw new Error('no such file');
    return { bytes: new Uint8Array(bytes.subarray(r.params.offset, r.params.offset + r.params.length)), total: bytes.length };
  };
}

async function openMap(onRequest: RequestHandler): Promise<Harness> {
  const h = await openWebview('map', { onRequest, viewport: { width: 900, height: 700 } });
  await h.waitFor(isType('ready'));
  await h.send({ type: 'init', basemaps: [] });
  const [[w, s], [e, n]] = [lonLat(0, SIZE), lonLat(SIZE, 0)];
  await moveMap(h.page, {
    fitBounds: [
      [s, w],
      [n, e],
    ],
    options: { animate: false },
  });
  return h;
}

/** Shows every file as a layer of one map and returns each layer's outcome, the reads, and the renderer's memory. */
async function showAll(
  files: HostileFile[],
): Promise<{ outcome: Map<string, { state: string; text: string }>; log: ReadBytesParams[]; grew: number; ms: number }> {
  const byUrl = new Map(files.map((f) => [`https://hostile.example.com/${f.name}`, f.bytes]));
  const log: ReadBytesParams[] = [];
  const h = await openMap(filesHandler(byUrl, log));
  try {
    const sampler = peakSampler(() => descendantsRss());
    const t0 = performance.now();
    for (const f of files) await h.send({ type: 'imagery', spec: spec(f.name, `https://hostile.example.com/${f.name}`, f.bands), fit: false });
    const outcome = new Map<string, { state: string; text: string }>();
    for (const f of files) outcome.set(f.name, await layerSettled(h, f.name, 60_000));
    const ms = performance.now() - t0;
    const { base, peak } = sampler.stop();
    assert.deepEqual(
      h.pageErrors.filter((e) => !/Failed to load resource/.test(e)),
      [],
    );
    return { outcome, log, grew: peak - base, ms };
  } finally {
    await h.close();
  }
}

function expectRefused(files: HostileFile[], r: Awaited<ReturnType<typeof showAll>>): void {
  for (const f of files) {
    const o = r.outcome.get(f.name);
    assert.equal(o?.state, 'error', `${f.name} fails its layer: ${JSON.stringify(o)}`);
    assert.match(o?.text ?? '', f.says, f.name);
  }
  const largest = Math.max(...r.log.map((p) => p.length));
  assert.ok(largest <= 4 * 1024 * 1024, `no read over 4 MB (largest ${largest} bytes)`);
}

const dir = mkdtempSync(join(tmpdir(), 'eo-hostile-'));
let all: HostileFile[];
before(() => {
  all = hostileFiles();
});
after(async () => {
  await closeBrowser();
  rmSync(dir, { recursive: true, force: true });
});

describe('hostile GeoTIFFs on the map webview', () => {
  it('refuses looping and endless directory chains, values past the end and impossible sizes, each with a sentence', async () => {
    const files = all.filter((f) => /^(ifd-|value-|huge-)/.test(f.name));
    const r = await showAll(files);
    expectRefused(files, r);
    console.log(`# ${files.length} hostile structures refused in ${Math.round(r.ms)} ms; ${r.log.length} reads; renderer memory grew at most ${mb(r.grew)}`);
    assert.ok(r.grew < 300 * 1024 * 1024, `renderer memory grew ${mb(r.grew)}`);
  });

  it('refuses a tile whose byte count lies (16 MB for a 2 MB tile, or past the end) without reading it', async () => {
    const files = all.filter((f) => /byte-count/.test(f.name));
    const r = await showAll(files);
    expectRefused(files, r);
    console.log(`# lying byte counts refused; largest read ${Math.max(...r.log.map((p) => p.length))} bytes`);
  });

  it('stops deflate, LZW, PackBits and JPEG bombs at their tile size, failing the layer with a sentence', async () => {
    const files = all.filter((f) => f.name.startsWith('bomb-'));
    for (const f of files) console.log(`# ${f.name}: ${Math.round(f.bytes.length / 1024)} KB`);
    const r = await showAll(files);
    expectRefused(files, r);
    console.log(
      `# ${files.length} bombs (256 MB of deflate and LZW, 128 MB of PackBits, a JPEG of 8192 × 8192) stopped in ${Math.round(r.ms)} ms; renderer memory grew at most ${mb(r.grew)}`,
    );
    assert.ok(r.grew < 200 * 1024 * 1024, `renderer memory grew ${mb(r.grew)}`);
  });

  it("draws the bombs' well-formed twin (also with bytes after its zlib stream), and GDAL's LZW and PackBits files, with the right colours", async () => {
    const twin: HostileFile = { name: 'well-formed.tif', bytes: wellFormed(), says: /./, bands: 4 };
    // the same tile with 4 KB after its zlib stream: read as pako reads it, not refused as junk
    const padded: HostileFile = { name: 'well-formed-padded.tif', bytes: wellFormed(4096), says: /./, bands: 4 };
    const gdal = ['LZW', 'PACKBITS'].map((c) => {
      const file = join(dir, `${c}.tif`);
      const out = execFileSync(
        '/usr/bin/python3',
        [join(__dirname, '..', '..', '..', 'test', 'fixtures', 'imagery', 'make_scene.py'), file, '--compress', c, '--size', '512'],
        {
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'ignore'],
        },
      );
      const points = (JSON.parse(out) as { points: Record<string, [number, number]> }).points;
      return { name: `gdal-${c}.tif`, bytes: readFileSync(file), says: /./, bands: 4 as const, points };
    });
    const byUrl = new Map([twin, padded, ...gdal].map((f) => [`https://hostile.example.com/${f.name}`, f.bytes]));
    const h = await openMap(filesHandler(byUrl, []));
    try {
      for (const f of [twin, padded]) {
        await h.send({ type: 'imagery', spec: spec(f.name, `https://hostile.example.com/${f.name}`, 4), fit: false });
        assert.deepEqual(await layerSettled(h, f.name), { state: 'ready', text: '' }, f.name);
        // (B04, B03, B02) = (3000, 2000, 1000) over 0–3000
        const px = await imageryPixelAt(h, CENTRE);
        assert.deepEqual(px.slice(0, 3), [255, 170, 85], `${f.name}: ${px}`);
        await h.page.locator(`.eo-imagery-row[data-id="${f.name}"] button.remove`).click();
      }
      for (const g of gdal) {
        await h.send({ type: 'imagery', spec: spec(g.name, `https://hostile.example.com/${g.name}`, 4), fit: false });
        assert.deepEqual(await layerSettled(h, g.name), { state: 'ready', text: '' }, g.name);
        // make_scene.py's vegetation: (B04, B03, B02) = (500, 700, 300) over 0–3000
        const veg = await imageryPixelAt(h, g.points.vegetation);
        assert.ok(
          [43, 60, 26].every((v, i) => Math.abs(veg[i] - v) <= 3),
          `${g.name}: vegetation is rgb(${veg.slice(0, 3).join(', ')})`,
        );
        await h.page.locator(`.eo-imagery-row[data-id="${g.name}"] button.remove`).click();
      }
      assert.deepEqual(h.pageErrors, []);
    } finally {
      await h.close();
    }
  });
});

describe("the extension's byte server on the map webview, against a host that ignores Range", () => {
  let server: Server;
  let origin: string;
  const requests: string[] = [];
  let file: Buffer;
  before(async () => {
    const path = join(dir, 'scene.tif');
    execFileSync('/usr/bin/python3', [join(__dirname, '..', '..', '..', 'test', 'fixtures', 'imagery', 'make_scene.py'), path, '--size', '1024', '--noise']);
    file = readFileSync(path);
    server = createServer((req, res) => {
      requests.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'image/tiff', 'content-length': file.length });
      res.end(file);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  it('downloads each file once, however many layers read it, and draws them', async () => {
    const client = new EoClient({
      baseUrl: `${origin}/api`,
      token: 'tok_test_1234',
      userAgent: 'eo-imagery-test',
      retry: { retries: 0, baseDelayMs: 1, maxDelayMs: 1 },
    });
    const bytes = new ImageryByteServer(undefined, new Set());
    const urls = [`${origin}/files/a.tif`, `${origin}/files/b.tif`];
    for (const u of urls) bytes.allow(u);
    const h = await openMap(async (req) => {
      const r = await bytes.read(client, (req as { params: ReadBytesParams }).params);
      return { ...r, bytes: new Uint8Array(r.bytes) };
    });
    try {
      const layers = [
        ['a1', urls[0]],
        ['a2', urls[0]],
        ['b1', urls[1]],
      ];
      for (const [id, url] of layers)
        await h.send({ type: 'imagery', spec: { ...spec(id, url, 4), render: { kind: 'rgb', bands: ['B04', 'B03', 'B02'], stretch: STRETCH } }, fit: false });
      for (const [id] of layers) assert.deepEqual(await layerSettled(h, id, 60_000), { state: 'ready', text: '' }, id);
      const per = (p: string) => requests.filter((r) => r === p).length;
      console.log(
        `# ${file.length} B file, host ignores Range: ${requests.length} requests (a: ${per('/files/a.tif')}, b: ${per('/files/b.tif')}), ${bytes.stats.downloads} whole-file downloads, ${bytes.stats.cachedBytes} B kept, peak ${bytes.stats.peak.reads} reads / ${bytes.stats.peak.bytes} B in flight`,
      );
      assert.equal(bytes.stats.downloads, 2, 'one download per file');
      assert.ok(per('/files/a.tif') <= 3 && per('/files/b.tif') <= 3, `few requests per file: ${JSON.stringify(requests)}`);
      assert.ok(bytes.stats.cachedBytes <= 2 * file.length);
    } finally {
      await h.close();
      await client.close();
    }
  });
});
