/**
 * A full-size Sentinel-2 scene (10980 × 10980, 4 bands, uint16) on the map in headless
 * Chromium: the map bundle's imagery layer against georaster-layer-for-leaflet (with
 * georaster, reading the same COG by HTTP ranges) on the same file, viewport and view, in
 * the same run. Figures: time from "Show Imagery" to the first full view, pan/zoom redraw p95,
 * JS heap (page + workers, precise memory info), bytes fetched for the first view over the
 * bytes of the tiles that view needs (GDAL's count) and over the file size, and the bundle
 * sizes. Prints JSON lines; asserts nothing.
 *
 * The scene: the sandbox's full-size item (the Sentinel-2 item whose id ends in `_00001`,
 * 10980 × 10980 × 4 uint16), read from a running sandbox behind its token. Both renderers read
 * it through one loopback proxy that adds the Authorization header (what the extension host
 * does for ours) and counts the bytes. `--size N` uses a scene GDAL writes here instead.
 *   node out/test/bench/imagery.bench.js [--size N]
 */
import { execFile, execFileSync } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { closeBrowser, getBrowser, openWebview, ROOT } from '../webview/harness';

const argSize = process.argv.includes('--size') ? Number(process.argv[process.argv.indexOf('--size') + 1]) : undefined;
const RUNS = Number(process.env.EO_BENCH_RUNS) || 3;
const VIEW = { width: 1280, height: 800 };
const FIXTURES = join(ROOT, 'test', 'fixtures', 'imagery');

interface Scene {
  /** A local file, or the scene's URL on the sandbox (read with `token`). */
  file: string;
  corners: [[number, number], [number, number]];
  token?: string;
  label: string;
}

/** The sandbox's full-size Sentinel-2 scene, from a sandbox started here (as `npm run sandbox` does). */
async function sandboxScene(): Promise<{ scene: Scene; stop(): Promise<void> }> {
  const { startSandbox } = await import('../../src/sandbox');
  const { generateArchive } = await import('../../src/sandbox/world/archive');
  const { isFullSizeItem } = await import('../../src/sandbox/imagery/scenes');
  const { COLLECTION_DEFS } = await import('../../src/sandbox/world/collections');
  const sb = await startSandbox({ seed: 42, scale: 1 });
  const row = generateArchive(42, 1).find(isFullSizeItem);
  if (!row) throw new Error('the sandbox has no full-size item');
  const xs: number[] = [];
  const ys: number[] = [];
  const walk = (c: unknown): void => {
    if (Array.isArray(c) && typeof c[0] === 'number') {
      xs.push(c[0] as number);
      ys.push(c[1] as number);
    } else if (Array.isArray(c)) c.forEach(walk);
  };
  walk((row.geometry as { coordinates: unknown }).coordinates);
  const url = `${sb.url}/assets/${COLLECTION_DEFS[row.c].id}/${encodeURIComponent(row.id)}/data.tif`;
  return {
    scene: {
      file: url,
      token: sb.tokens.alice,
      corners: [
        [Math.min(...xs), Math.max(...ys)],
        [Math.max(...xs), Math.min(...ys)],
      ],
      label: `sandbox item ${row.id}, 10980 × 10980 × 4 uint16 COG`,
    },
    stop: () => sb.close(),
  };
}

/** A noisy full-size scene, written once per size under the temp dir (GDAL, DEFLATE, 512-pixel tiles). */
function scene(size: number): Scene {
  const dir = join(tmpdir(), 'eo-imagery-bench');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `scene-${size}.tif`);
  const meta = `${file}.json`;
  if (existsSync(file) && existsSync(meta)) return JSON.parse(readFileSync(meta, 'utf8')) as Scene;
  console.error(`bench: writing a ${size} × ${size} scene with GDAL (once)…`);
  const out = execFileSync('/usr/bin/python3', [join(FIXTURES, 'make_scene.py'), file, '--size', String(size), '--noise', '--block', '512'], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  writeFileSync(meta, out);
  return { ...(JSON.parse(out) as Scene), label: `${size} × ${size} × 4 uint16 COG written by GDAL` };
}

/** The scene's size in bytes (a HEAD-less probe: the first byte's Content-Range). */
async function sceneSize(sc: Scene): Promise<number> {
  if (!/^https?:/.test(sc.file)) return statSync(sc.file).size;
  const res = await fetch(sc.file, { headers: { range: 'bytes=0-0', authorization: `Bearer ${sc.token}` } });
  await res.arrayBuffer();
  const total = Number(/\/(\d+)$/.exec(res.headers.get('content-range') ?? '')?.[1]);
  if (!Number.isFinite(total)) throw new Error(`no Content-Range from ${sc.file} (${res.status})`);
  return total;
}

/** Serves the scene with Range (from the file, or proxied to the sandbox with its token), the baseline's page and scripts; counts bytes per run. */
async function serve(sc: Scene, size: number): Promise<{ origin: string; served: { bytes: number; requests: number }; server: Server }> {
  const file = sc.file;
  const served = { bytes: 0, requests: 0 };
  const scripts: Record<string, string> = {
    '/leaflet.js': join(ROOT, 'node_modules', 'leaflet', 'dist', 'leaflet.js'),
    '/georaster.js': join(ROOT, 'node_modules', 'georaster', 'dist', 'georaster.browser.bundle.min.js'),
    '/grl.js': join(ROOT, 'node_modules', 'georaster-layer-for-leaflet', 'dist', 'v3', 'webpack', 'bundle', 'georaster-layer-for-leaflet.min.js'),
  };
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/scene.tif' && sc.token && !req.headers.range) {
      // GDAL's /vsicurl/ asks HEAD first: the size is known; never stream the whole 1.3 GB file
      res
        .writeHead(req.method === 'HEAD' ? 200 : 416, {
          'content-type': 'image/tiff',
          'content-length': req.method === 'HEAD' ? size : 0,
          'accept-ranges': 'bytes',
          'content-range': `bytes */${size}`,
        })
        .end();
      return;
    }
    if (path === '/scene.tif' && sc.token) {
      served.requests++;
      const headers: Record<string, string> = { authorization: `Bearer ${sc.token}` };
      if (req.headers.range) headers.range = req.headers.range;
      void fetch(file, { headers }).then(
        async (up) => {
          const body = Buffer.from(await up.arrayBuffer());
          served.bytes += body.length;
          const out: Record<string, string | number> = { 'content-type': 'image/tiff', 'content-length': body.length, 'accept-ranges': 'bytes' };
          const cr = up.headers.get('content-range');
          if (cr) out['content-range'] = cr;
          res.writeHead(up.status, out).end(body);
        },
        () => res.writeHead(502).end(),
      );
      return;
    }
    if (path === '/scene.tif') {
      served.requests++;
      const m = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
      if (!m) {
        served.bytes += size;
        res.writeHead(200, { 'content-type': 'image/tiff', 'content-length': size, 'accept-ranges': 'bytes' });
        createReadStream(file).pipe(res);
        return;
      }
      const a = Number(m[1]);
      const b = Math.min(m[2] ? Number(m[2]) : size - 1, size - 1);
      served.bytes += b - a + 1;
      res.writeHead(206, { 'content-type': 'image/tiff', 'content-range': `bytes ${a}-${b}/${size}`, 'content-length': b - a + 1, 'accept-ranges': 'bytes' });
      createReadStream(file, { start: a, end: b }).pipe(res);
      return;
    }
    if (path === '/base.html') {
      const css = readFileSync(join(ROOT, 'node_modules', 'leaflet', 'dist', 'leaflet.css'), 'utf8');
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(
          `<!DOCTYPE html><html><head><style>${css} html,body,#map{margin:0;height:100%}</style></head><body><div id="map"></div><script src="/leaflet.js"></script><script src="/georaster.js"></script><script src="/grl.js"></script></body></html>`,
        );
      return;
    }
    const script = scripts[path];
    if (script) {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      createReadStream(script).pipe(res);
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, served, server };
}

const MOVES: { pan?: [number, number]; zoom?: number }[] = [
  { pan: [300, 0] },
  { pan: [0, 250] },
  { pan: [-300, 0] },
  { pan: [0, -250] },
  { zoom: 1 },
  { pan: [200, 150] },
  { zoom: -1 },
  { pan: [-200, -150] },
  { zoom: 1 },
  { zoom: -1 },
];

/** Heap of the page and its workers after a garbage collection, MB (precise memory info). */
async function heapMb(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.detach();
  const read = () => (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? 0;
  let total = await page.evaluate(read);
  // workers' heaps count too (ours decodes in workers; so may the baseline)
  for (const w of page.workers()) total += Number(await w.evaluate(read).catch(() => 0)) || 0;
  return total / 1048576;
}

type Result = {
  first: number;
  redraws: number[];
  heapMb: number;
  heapDeltaMb: number;
  bytes: number;
  requests: number;
  view: { bounds: number[]; zoom: number };
};

async function ours(sc: Scene, origin: string, served: { bytes: number; requests: number }): Promise<Result> {
  const h = await openWebview('map', {
    viewport: VIEW,
    onRequest: async (req) => {
      const r = req as { method: string; params: { offset: number; length: number } };
      // the extension host's part: one ranged GET per read, bytes handed back
      const res = await fetch(`${origin}/scene.tif`, { headers: { range: `bytes=${r.params.offset}-${r.params.offset + r.params.length - 1}` } });
      const total = Number(/\/(\d+)$/.exec(res.headers.get('content-range') ?? '')?.[1]);
      return { bytes: new Uint8Array(await res.arrayBuffer()), total: Number.isFinite(total) ? total : undefined };
    },
  });
  try {
    await h.waitFor((m) => (m as { type?: string }).type === 'ready');
    await h.send({ type: 'init', basemaps: [] });
    const [[w, n], [e, s]] = sc.corners;
    await h.page.evaluate(
      (b) => (window as unknown as { eoMap: { map: { fitBounds(b: unknown, o: unknown): void } } }).eoMap.map.fitBounds(b, { animate: false }),
      [
        [s, w],
        [n, e],
      ],
    );
    const heap0 = await heapMb(h.page);
    served.bytes = 0;
    served.requests = 0;
    const t0 = Date.now();
    await h.send({
      type: 'imagery',
      fit: false,
      spec: {
        id: 'bench',
        title: 'Bench scene',
        url: `${origin}/scene.tif`,
        source: { kind: 'url', url: `${origin}/scene.tif` },
        bands: [
          { name: 'B02', commonName: 'blue' },
          { name: 'B03', commonName: 'green' },
          { name: 'B04', commonName: 'red' },
          { name: 'B08', commonName: 'nir' },
        ],
        render: { kind: 'rgb', bands: ['B04', 'B03', 'B02'] },
      },
    });
    await h.waitFor((m) => (m as { type?: string; report?: { state: string } }).type === 'imageryStatus', 600_000);
    const first = Date.now() - t0;
    const bytes = served.bytes;
    const requests = served.requests;
    const view = await h.page.evaluate(() => {
      const m = (
        window as unknown as {
          eoMap: { map: { getBounds(): { getWest(): number; getSouth(): number; getEast(): number; getNorth(): number }; getZoom(): number } };
        }
      ).eoMap.map;
      const b = m.getBounds();
      return { bounds: [b.getWest(), b.getSouth(), b.getEast(), b.getNorth()], zoom: m.getZoom() };
    });
    const heap = await heapMb(h.page);
    const redraws = await h.page.evaluate(async (moves) => {
      const app = (
        window as unknown as {
          eoMap: {
            map: { panBy(p: [number, number], o: unknown): void; zoomIn(d: number, o: unknown): void; zoomOut(d: number, o: unknown): void };
            imagery(): Promise<{ layer(id: string): { once(e: string, f: () => void): void; isLoading(): boolean } | undefined }>;
          };
        }
      ).eoMap;
      const layer = (await app.imagery()).layer('bench')!;
      const out: number[] = [];
      for (const mv of moves) {
        const t = performance.now();
        const loaded = new Promise<void>((r) => layer.once('load', () => r()));
        if (mv.pan) app.map.panBy(mv.pan, { animate: false });
        else if ((mv.zoom ?? 0) > 0) app.map.zoomIn(1, { animate: false });
        else app.map.zoomOut(1, { animate: false });
        // no new tile needed (all in the buffer): done once the frame is painted
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        if (layer.isLoading()) await Promise.race([loaded, new Promise((r) => setTimeout(r, 60_000))]);
        out.push(performance.now() - t);
      }
      return out;
    }, MOVES);
    return { first, redraws, heapMb: heap, heapDeltaMb: heap - heap0, bytes, requests, view };
  } finally {
    await h.close();
  }
}

async function baseline(sc: Scene, origin: string, served: { bytes: number; requests: number }, stretch: number): Promise<Result> {
  const b = await getBrowser();
  const ctx = await b.newContext({ viewport: VIEW });
  const page = await ctx.newPage();
  page.on('crash', () => console.error('bench: the baseline page crashed'));
  page.on('pageerror', (e) => console.error(`bench: baseline page error: ${e.message}`));
  try {
    await page.goto(`${origin}/base.html`);
    const [[w, n], [e, s]] = sc.corners;
    const heap0 = await heapMb(page);
    served.bytes = 0;
    served.requests = 0;
    const t0 = Date.now();
    await page.evaluate(
      async ({ url, bounds, k }) => {
        const g = window as unknown as { L: any; parseGeoraster: any; GeoRasterLayer: any; map: any; layer: any }; // eslint-disable-line @typescript-eslint/no-explicit-any
        const map = g.L.map('map', {}).fitBounds(bounds, { animate: false });
        g.map = map;
        const georaster = await g.parseGeoraster(url);
        const to8 = (v: number) => Math.max(0, Math.min(255, Math.round(v * k)));
        const layer = new g.GeoRasterLayer({
          georaster,
          resolution: 256,
          // the same look as ours: R = B04, G = B03, B = B02, stretched, no-data (0) transparent
          pixelValuesToColorFn: (v: number[]) => (v[0] === 0 && v[1] === 0 && v[2] === 0 ? null : `rgb(${to8(v[2])},${to8(v[1])},${to8(v[0])})`),
        });
        g.layer = layer;
        // a first view that takes over 5 minutes is counted as 5 minutes
        await Promise.race([
          new Promise<void>((r) => {
            layer.once('load', () => r());
            layer.addTo(map);
          }),
          new Promise((r) => setTimeout(r, 300_000)),
        ]);
      },
      {
        url: `${origin}/scene.tif`,
        bounds: [
          [s, w],
          [n, e],
        ],
        k: 255 / stretch,
      },
    );
    const first = Date.now() - t0;
    const bytes = served.bytes;
    const requests = served.requests;
    const heap = await heapMb(page);
    const redraws = await page.evaluate(async (moves) => {
      const g = window as unknown as { map: any; layer: any }; // eslint-disable-line @typescript-eslint/no-explicit-any
      const out: number[] = [];
      for (const mv of moves) {
        const t = performance.now();
        const loaded = new Promise<void>((r) => g.layer.once('load', () => r()));
        if (mv.pan) g.map.panBy(mv.pan, { animate: false });
        else if ((mv.zoom ?? 0) > 0) g.map.zoomIn(1, { animate: false });
        else g.map.zoomOut(1, { animate: false });
        // no new tile needed (all in the buffer): done once the frame is painted
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        if (g.layer.isLoading()) await Promise.race([loaded, new Promise((r) => setTimeout(r, 60_000))]);
        out.push(performance.now() - t);
      }
      return out;
    }, MOVES);
    return { first, redraws, heapMb: heap, heapDeltaMb: heap - heap0, bytes, requests, view: { bounds: [], zoom: 0 } };
  } finally {
    await ctx.close();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(0.95 * s.length) - 1)];
};
const round = (x: number) => Math.round(x * 10) / 10;

async function main(): Promise<void> {
  const fromSandbox = argSize === undefined ? await sandboxScene() : undefined;
  const sc = fromSandbox?.scene ?? scene(argSize as number);
  const size = await sceneSize(sc);
  const { origin, served, server } = await serve(sc, size);
  const a: Result[] = [];
  const b: Result[] = [];
  try {
    // alternating which goes first, so neither always meets a warm cache (the sandbox's tile cache, the OS's)
    for (let i = 0; i < RUNS; i++) {
      if (i % 2 === 0) {
        a.push(await ours(sc, origin, served));
        b.push(await baseline(sc, origin, served, 3000));
      } else {
        b.push(await baseline(sc, origin, served, 3000));
        a.push(await ours(sc, origin, served));
      }
    }
  } finally {
    await closeBrowser();
  }
  const base = 'georaster-layer-for-leaflet 4.1 + georaster 1.6 (resolution 256)';
  const common = { scene: sc.label, file_mb: round(size / 1048576), runs: RUNS };
  const line = (figure: string, value: number, baseValue: number, unit: string, better: 'lower' = 'lower') =>
    console.log(
      JSON.stringify({
        bench: 'imagery',
        figure,
        value: round(value),
        unit,
        baseline: base,
        baseline_value: round(baseValue),
        ratio: round(baseValue / value),
        better,
        ...common,
      }),
    );
  line('first_full_view_median_ms', median(a.map((x) => x.first)), median(b.map((x) => x.first)), 'ms');
  // each move waits at most 60 s for the layer's 'load' (a layer that never settles counts 60 s)
  line('pan_zoom_redraw_p95_ms', p95(a.flatMap((x) => x.redraws)), p95(b.flatMap((x) => x.redraws)), 'ms');
  // the whole page (ours carries the map app: search panel, outlines, footprint layers) and the
  // growth from adding the layer to its first full view (the imagery code alone)
  line('js_heap_page_mb', median(a.map((x) => x.heapMb)), median(b.map((x) => x.heapMb)), 'MB');
  line('js_heap_imagery_growth_mb', median(a.map((x) => x.heapDeltaMb)), median(b.map((x) => x.heapDeltaMb)), 'MB');
  line('first_view_bytes_mb', median(a.map((x) => x.bytes)) / 1048576, median(b.map((x) => x.bytes)) / 1048576, 'MB');
  const v = a[0].view;
  // GDAL reads the same file (through the proxy when it is the sandbox's); not execFileSync:
  // the proxy and the sandbox answer on this process's event loop
  const gdalPath = sc.token ? `/vsicurl/${origin}/scene.tif` : sc.file;
  const { stdout } = await promisify(execFile)('/usr/bin/python3', [join(FIXTURES, 'tile_bytes.py'), gdalPath, ...v.bounds.map(String), String(v.zoom)], {
    encoding: 'utf8',
    env: { ...process.env, GDAL_DISABLE_READDIR_ON_OPEN: 'EMPTY_DIR' },
  });
  const need = JSON.parse(stdout) as { bytes: number; tiles: number; level: number };
  console.log(
    JSON.stringify({
      bench: 'imagery',
      figure: 'first_view_bytes_over_needed_tiles',
      value: round((median(a.map((x) => x.bytes)) / need.bytes) * 100) / 100,
      goal: 1.3,
      needed_tiles: need.tiles,
      needed_level: need.level,
      needed_bytes: need.bytes,
      baseline_value: round((median(b.map((x) => x.bytes)) / need.bytes) * 100) / 100,
      ...common,
    }),
  );
  console.log(
    JSON.stringify({
      bench: 'imagery',
      figure: 'first_view_bytes_over_file',
      value: round((median(a.map((x) => x.bytes)) / size) * 1000) / 1000,
      baseline_value: round((median(b.map((x) => x.bytes)) / size) * 1000) / 1000,
      ...common,
    }),
  );
  console.log(
    JSON.stringify({
      bench: 'imagery',
      figure: 'first_view_requests',
      value: median(a.map((x) => x.requests)),
      baseline_value: median(b.map((x) => x.requests)),
      ...common,
    }),
  );
  const kb = (f: string) => round(statSync(join(ROOT, 'dist', 'media', f)).size / 1024);
  console.log(JSON.stringify({ bench: 'imagery', figure: 'map_bundle_kb', value: kb('map.js'), budget_kb: 250, unit: 'KB' }));
  console.log(
    JSON.stringify({
      bench: 'imagery',
      figure: 'imagery_chunk_kb',
      value: kb('imagery.js'),
      unit: 'KB',
      note: 'loaded on the first imagery layer; geotiff.js, proj4 and the decoder worker inside',
    }),
  );
  server.closeAllConnections();
  server.close();
  await fromSandbox?.stop();
}

main().then(
  () => process.exit(0),
  async (e) => {
    console.error(e);
    await closeBrowser();
    process.exit(1);
  },
);
