/**
 * "Save View to GeoTIFF…" of a 2048 × 2048 window, 4 bands (uint16), at full resolution of a
 * 4096 × 4096 COG (DEFLATE, 512-pixel tiles) served over HTTP with Range: our clip as the
 * extension runs it (the map webview's plan, asked of the page; the extension host's half,
 * src/panels/imagery/hostClip.ts, run here in Node with the extension's own reader: the
 * panel's byte server over the API client) against GDAL's `gdal_translate -srcwin` over
 * /vsicurl/ on the same file and window, in the same run. The page's own clip (the path a
 * compression the host does not inflate takes) is timed beside them. The scene server runs in a
 * process of its own for all three, as the service does.
 * Figures: wall time, and bytes fetched over the stored bytes of the tiles the window touches
 * (GDAL's count of them, from the file's block sizes). Prints JSON lines; asserts nothing.
 *
 * Our window runs from the request to the file on disk, as GDAL's does: the harness stands in
 * for the extension host both ways in binary (each read fetched by the page from the harness,
 * the clip posted back and written), as VS Code carries ArrayBuffers; before, reads reached the
 * page as base64 through the DevTools pipe, a cost of the harness that the product has not.
 *   node out/test/bench/saveView.bench.js
 */
import { execFile, execFileSync, fork } from 'node:child_process';
import { promisify } from 'node:util';
import { createReadStream, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rename, writeFile } from 'node:fs/promises';
import { closeBrowser, getBrowser, openWebview, ROOT } from '../webview/harness';
import { EoClient } from '../../src/api/client';
import { ImageryByteServer } from '../../src/panels/imagery/byteServer';
import { runClipPlan } from '../../src/panels/imagery/hostClip';
import type { ClipPlan } from '../../src/panels/imagery/clipMessages';
import { moveMap } from '../webview/moveMap';
import { median } from './measure';

const SIZE = 4096;
const WINDOW = 2048;
const RUNS = Number(process.env.EO_BENCH_RUNS) || 3;
const DIR = join(tmpdir(), 'eo-imagery-bench');
/** Where our clip is written (the extension host's half, run in this process). */
const SINK = join(DIR, 'clip-ours.tif');
/** Where the stand-in for the extension host writes the page's own clip. */
const PAGE_SINK = join(DIR, 'clip-page.tif');

interface Scene {
  file: string;
  corners: [[number, number], [number, number]];
}

function scene(): Scene {
  mkdirSync(DIR, { recursive: true });
  const file = join(DIR, `clip-scene-${SIZE}.tif`);
  const meta = `${file}.json`;
  if (existsSync(file) && existsSync(meta)) return JSON.parse(readFileSync(meta, 'utf8')) as Scene;
  console.error(`bench: writing a ${SIZE} × ${SIZE} scene with GDAL (once)…`);
  const out = execFileSync(
    '/usr/bin/python3',
    [join(ROOT, 'test', 'fixtures', 'imagery', 'make_scene.py'), file, '--size', String(SIZE), '--noise', '--block', '512'],
    { encoding: 'utf8' },
  );
  writeFileSync(meta, out);
  return JSON.parse(out) as Scene;
}

async function serve(file: string): Promise<{ origin: string; served: Counts; server: Server }> {
  const size = statSync(file).size;
  const served = { bytes: 0, requests: 0 };
  const server = createServer((req, res) => {
    if (req.url === '/sink' && req.method === 'POST') {
      // the extension host's part of saving: the clip's bytes arrive and are written to disk
      const parts: Buffer[] = [];
      req.on('data', (c: Buffer) => parts.push(c));
      req.on('end', () => {
        writeFileSync(PAGE_SINK, Buffer.concat(parts));
        res.writeHead(204, { 'access-control-allow-origin': '*' }).end();
      });
      return;
    }
    served.requests++;
    const m = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
    if (req.method === 'HEAD' || !m) {
      if (req.method !== 'HEAD') served.bytes += size;
      res.writeHead(200, { 'content-type': 'image/tiff', 'content-length': size, 'accept-ranges': 'bytes' });
      if (req.method === 'HEAD') res.end();
      else createReadStream(file).pipe(res);
      return;
    }
    const a = Number(m[1]);
    const b = Math.min(m[2] ? Number(m[2]) : size - 1, size - 1);
    served.bytes += b - a + 1;
    res.writeHead(206, { 'content-type': 'image/tiff', 'content-range': `bytes ${a}-${b}/${size}`, 'content-length': b - a + 1, 'accept-ranges': 'bytes' });
    createReadStream(file, { start: a, end: b }).pipe(res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, served, server };
}

interface Counts {
  bytes: number;
  requests: number;
}

/**
 * The scene server in a process of its own, as the service is: serving 45 MB of ranges is not
 * the extension host's work, and in this process it would take the event loop from the host's
 * half of the clip (the page's relay and GDAL read from the same server). Its counts come back
 * over IPC.
 */
async function serveApart(file: string): Promise<{ origin: string; counts(reset?: boolean): Promise<Counts>; close(): void }> {
  const child = fork(__filename, [], { env: { ...process.env, EO_BENCH_SERVE: file }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const origin = await new Promise<string>((resolve) => child.once('message', (m) => resolve((m as { origin: string }).origin)));
  return {
    origin,
    counts: (reset = false) =>
      new Promise<Counts>((resolve) => {
        child.once('message', (m) => resolve(m as Counts));
        child.send({ reset });
      }),
    close: () => child.kill(),
  };
}

/** Stored bytes of the level-0 tiles a pixel window touches (GDAL's block sizes). */
function tileBytes(file: string, win: [number, number, number, number]): number {
  return Number(
    execFileSync(
      '/usr/bin/python3',
      [
        '-c',
        `
import sys
from osgeo import gdal
ds = gdal.Open(sys.argv[1])
x0, y0, w, h = map(int, sys.argv[2:6])
b = ds.GetRasterBand(1)
bw, bh = b.GetBlockSize()
total = 0
for ty in range(y0 // bh, (y0 + h - 1) // bh + 1):
    for tx in range(x0 // bw, (x0 + w - 1) // bw + 1):
        total += int(b.GetMetadataItem('BLOCK_SIZE_%d_%d' % (tx, ty), 'TIFF') or 0)
print(total)
`,
        file,
        ...win.map(String),
      ],
      { encoding: 'utf8' },
    ).trim(),
  );
}

/** The clip's pixel window in the source, from its georeferencing (read by GDAL). */
function windowOf(clip: string, source: string): [number, number, number, number] {
  return JSON.parse(
    execFileSync(
      '/usr/bin/python3',
      [
        '-c',
        `
import json, sys
from osgeo import gdal
c = gdal.Open(sys.argv[1]); s = gdal.Open(sys.argv[2])
cg, sg = c.GetGeoTransform(), s.GetGeoTransform()
print(json.dumps([round((cg[0] - sg[0]) / sg[1]), round((cg[3] - sg[3]) / sg[5]), c.RasterXSize, c.RasterYSize]))
`,
        clip,
        source,
      ],
      { encoding: 'utf8' },
    ),
  ) as [number, number, number, number];
}

async function main(): Promise<void> {
  const sc = scene();
  const server = await serveApart(sc.file);
  const origin = server.origin;
  const [[w, n], [e, s]] = sc.corners;
  const lat = (n + s) / 2;
  // a zoom and viewport whose full-resolution window is about 2048 × 2048 pixels (10 m)
  const zoom = 13;
  const mPerPx = (156543.03392 * Math.cos((lat * Math.PI) / 180)) / 2 ** zoom;
  const side = Math.round((WINDOW * 10) / mPerPx);
  const ours: { ms: number; plan: number; bytes: number; tiles: number; width: number; height: number }[] = [];
  const page: { ms: number; clipped: number; bytes: number }[] = [];
  // the extension's client: one per connection, kept across saves as the extension keeps it
  const client = new EoClient({ baseUrl: origin, userAgent: 'eo-imagery-bench' });
  const gdal: { ms: number; bytes: number; tiles: number }[] = [];
  try {
    for (let run = 0; run < RUNS; run++) {
      const h = await openWebview('map', {
        viewport: { width: side, height: side },
        state: { panelOpen: false },
        binaryRelay: true,
        onRequest: async (req) => {
          const r = req as { params: { offset: number; length: number } };
          const res = await fetch(`${origin}/scene.tif`, { headers: { range: `bytes=${r.params.offset}-${r.params.offset + r.params.length - 1}` } });
          const total = Number(/\/(\d+)$/.exec(res.headers.get('content-range') ?? '')?.[1]);
          return { bytes: new Uint8Array(await res.arrayBuffer()), total: Number.isFinite(total) ? total : undefined };
        },
      });
      try {
        await h.waitFor((m) => (m as { type?: string }).type === 'ready');
        await h.send({ type: 'init', basemaps: [] });
        await moveMap(h.page, { setView: [lat, (w + e) / 2], zoom, options: { animate: false } });
        await h.send({
          type: 'imagery',
          fit: false,
          spec: {
            id: 'bench',
            title: 'Bench scene',
            url: `${origin}/scene.tif`,
            source: { kind: 'url', url: `${origin}/scene.tif` },
            bands: [{ name: 'B02' }, { name: 'B03' }, { name: 'B04' }, { name: 'B08' }],
            render: { kind: 'rgb', bands: ['B04', 'B03', 'B02'] },
          },
        });
        await h.waitFor((m) => (m as { type?: string }).type === 'imageryStatus', 600_000);
        type Tools = { clip(q: unknown): Promise<{ plan?: ClipPlan; bytes: ArrayBuffer; width: number; height: number }> };
        const request = { format: 'geotiff', id: 'bench', bands: ['B02', 'B03', 'B04', 'B08'], level: 0, mask: false };
        // ours, as the extension runs it: the page's plan, then the host's reads, decoding,
        // encoding and the atomic write (a temporary file, renamed), all in the timed window
        await server.counts(true);
        rmSync(SINK, { force: true });
        const bytesServer = new ImageryByteServer();
        bytesServer.allow(`${origin}/scene.tif`);
        const h0 = performance.now();
        const plan = await h.page.evaluate(
          async (q) => (await (window as unknown as { eoMap: { imageryTools: Tools } }).eoMap.imageryTools.clip({ ...q, host: true })).plan,
          request,
        );
        const planned = performance.now() - h0;
        if (!plan) throw new Error('The page made no plan for a DEFLATE file: the host path was not taken.');
        const clip = await runClipPlan(
          plan,
          async (offset, length, signal) => (await bytesServer.read(client, { url: plan.url, offset, length }, signal)).bytes,
        );
        const part = `${SINK}.${Date.now().toString(36)}.part`;
        await writeFile(part, clip.bytes);
        await rename(part, SINK);
        const hostMs = performance.now() - h0;
        const win = windowOf(SINK, sc.file);
        ours.push({ ms: hostMs, plan: planned, bytes: (await server.counts()).bytes, tiles: tileBytes(sc.file, win), width: clip.width, height: clip.height });
        // the page's own clip (the path of a compression the host does not inflate)
        await server.counts(true);
        // EO_BENCH_PROFILE=DIR: a CPU profile of the page over the save (source-mapped with a dev build)
        const profileDir = process.env.EO_BENCH_PROFILE;
        const cdp = profileDir ? await h.page.context().newCDPSession(h.page) : undefined;
        // EO_BENCH_TRACE=DIR: a Chromium trace of the save, page and workers
        const traceDir = process.env.EO_BENCH_TRACE;
        if (traceDir) {
          mkdirSync(traceDir, { recursive: true });
          await (
            await getBrowser()
          ).startTracing(h.page, {
            path: join(traceDir, `save-view-${run}.json`),
            categories: [
              'devtools.timeline',
              'disabled-by-default-devtools.timeline',
              'blink.user_timing',
              'v8.execute',
              'disabled-by-default-v8.cpu_profiler',
            ],
          });
        }
        if (cdp) {
          await cdp.send('Profiler.enable');
          await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
          await cdp.send('Profiler.start');
        }
        const r = await h.page.evaluate(
          async ([sink, q]) => {
            const tools = (window as unknown as { eoMap: { imageryTools: Tools } }).eoMap.imageryTools;
            performance.mark('save');
            const t0 = performance.now();
            const c = await tools.clip(q);
            const clipped = performance.now() - t0;
            performance.mark('clipped');
            // the bytes to the extension host (binary, as VS Code posts an ArrayBuffer) and written
            // (as a Blob: Chromium uploads an ArrayBuffer body some fifteen times slower)
            await fetch(sink, { method: 'POST', body: new Blob([c.bytes]) });
            performance.mark('saved');
            return { ms: performance.now() - t0, clipped, width: c.width, height: c.height };
          },
          [`${origin}/sink`, request] as const,
        );
        if (traceDir) await (await getBrowser()).stopTracing();
        if (cdp && profileDir) {
          const { profile } = await cdp.send('Profiler.stop');
          mkdirSync(profileDir, { recursive: true });
          writeFileSync(join(profileDir, `save-view-${run}.cpuprofile`), JSON.stringify(profile));
          await cdp.detach();
        }
        page.push({ ms: r.ms, clipped: r.clipped, bytes: (await server.counts()).bytes });
        if (windowOf(PAGE_SINK, sc.file).join() !== win.join()) throw new Error("The page's clip and the host's cover different windows.");
        // the baseline: the same window and bands, GDAL over HTTP ranges
        const gout = join(DIR, 'clip-gdal.tif');
        rmSync(gout, { force: true });
        await server.counts(true);
        const t0 = performance.now();
        // async: the range server runs in this process and must answer while GDAL reads
        await promisify(execFile)(
          'gdal_translate',
          ['-q', '-srcwin', ...win.map(String), '-b', '1', '-b', '2', '-b', '3', '-b', '4', `/vsicurl/${origin}/scene.tif`, gout],
          {
            // tuned as its users tune it: decoding on every core, as ours inflates on libuv's pool
            env: {
              ...process.env,
              CPL_VSIL_CURL_ALLOWED_EXTENSIONS: '.tif',
              GDAL_DISABLE_READDIR_ON_OPEN: 'EMPTY_DIR',
              VSI_CACHE: 'FALSE',
              GDAL_NUM_THREADS: 'ALL_CPUS',
            },
          },
        );
        gdal.push({ ms: performance.now() - t0, bytes: (await server.counts()).bytes, tiles: tileBytes(sc.file, win) });
      } finally {
        await h.close();
      }
    }
  } finally {
    server.close();
    await closeBrowser();
  }
  const o = { ms: median(ours.map((x) => x.ms)), plan: median(ours.map((x) => x.plan)), ratio: median(ours.map((x) => x.bytes / x.tiles)) };
  const pg = { ms: median(page.map((x) => x.ms)), clipped: median(page.map((x) => x.clipped)), ratio: median(page.map((x) => x.bytes / ours[0].tiles)) };
  const g = { ms: median(gdal.map((x) => x.ms)), ratio: median(gdal.map((x) => x.bytes / x.tiles)) };
  await client.close();
  console.log(
    JSON.stringify({
      bench: 'save_view_geotiff_2048x4',
      runs: RUNS,
      window: [ours[0].width, ours[0].height],
      ours_ms: Math.round(o.ms),
      ours_plan_in_page_ms: Math.round(o.plan),
      ours_samples_ms: ours.map((x) => Math.round(x.ms)),
      page_path_ms: Math.round(pg.ms),
      page_path_clip_in_page_ms: Math.round(pg.clipped),
      page_path_samples_ms: page.map((x) => Math.round(x.ms)),
      gdal_samples_ms: gdal.map((x) => Math.round(x.ms)),
      note: "ours: from asking the page for its plan to the file renamed into place by the extension host's half (hostClip.ts in this process: the byte server's reads over the API client, zlib on libuv's threadpool, the encoder, a temporary file renamed); page path: the page's own clip, reads relayed to it as binary and the file posted back (a compression the host does not inflate); gdal_translate: process start to its file written",
      gdal_translate_ms: Math.round(g.ms),
      time_vs_gdal: Math.round((o.ms / g.ms) * 100) / 100,
      page_path_vs_gdal: Math.round((pg.ms / g.ms) * 100) / 100,
      page_path_fetched_over_tile_bytes: Math.round(pg.ratio * 1000) / 1000,
      ours_fetched_over_tile_bytes: Math.round(o.ratio * 1000) / 1000,
      gdal_fetched_over_tile_bytes: Math.round(g.ratio * 1000) / 1000,
      goal_fetched_over_tile_bytes: 1.3,
      tile_bytes: ours[0].tiles,
    }),
  );
}

if (process.env.EO_BENCH_SERVE) {
  // the scene server's own process (serveApart)
  void serve(process.env.EO_BENCH_SERVE).then(({ origin, served }) => {
    process.send?.({ origin });
    process.on('message', (m: { reset?: boolean }) => {
      process.send?.({ ...served });
      if (m.reset) Object.assign(served, { bytes: 0, requests: 0 });
    });
  });
} else {
  main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
