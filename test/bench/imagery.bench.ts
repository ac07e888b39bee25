/**
 * A full-size Sentinel-2 scene (10980 × 10980, 4 bands, uint16) on a map in headless
 * Chromium, three renderers in the same run: the map bundle's imagery layer (EO), OpenLayers'
 * WebGL tile layer over `ol/source/GeoTIFF` (the baseline), and georaster-layer-for-leaflet
 * with georaster. Same file through the same loopback server, same map size (1280 × 800),
 * centre and zoom, same true-colour stretch. Figures: time from the first call to the first
 * full view, pan and zoom-step redraws (p95), JS heap of the page and its workers, bytes
 * fetched for the first view (over the bytes of the tiles that view needs, GDAL's count, and
 * over the file size), bundle sizes. Prints JSON lines; asserts nothing.
 *
 * What is fair here (README, "Benchmarks", says the same):
 * - Every contender's scripts load before its timed window (EO's imagery chunk is injected
 *   with the page's nonce, as its loader would; georaster's scripts and the OpenLayers bundle
 *   are script tags). Inside the window: opening the file, starting decoder workers, reading,
 *   decoding, drawing. EO's reads also cross the harness's stand-in for the extension host
 *   (a Node fetch, then binary over loopback into the page, as VS Code's IPC carries an
 *   ArrayBuffer): that cost is EO's alone.
 * - Every map exists before the window, at one centre and zoom computed here from the
 *   scene's bounds (Leaflet's fitBounds rule); EO's side panel is closed so its map is the
 *   whole viewport, as the others' are.
 * - The stretch: EO's automatic one (2–98 % per band of the coarsest overview), read from an
 *   untimed warm-up run, then handed to every contender, EO included (OpenLayers as the
 *   source's per-band min/max, georaster in its colour function). EO's own automatic stretch
 *   in the window is printed as a figure of its own.
 * - Done means every tile the view shows is shown: for the Leaflet layers, checked each
 *   animation frame (a tile Leaflet marked loaded, or a drawn canvas or decoded image: a
 *   georaster tile handed back from its cache synchronously never fires Leaflet's `load`);
 *   for OpenLayers, its map's `rendercomplete` (no tile loading or queued, the source
 *   ready; tiles fade in over 0 ms, as Leaflet's count before their fade). A move that has
 *   not settled after 60 s counts 60 s (the lines say how many did).
 * - Two clocks for EO after a move, both printed: the first complete frame (every tile of the
 *   new view shown, some from another level EO had decoded, scaled by its warp, while the
 *   zoom's own tiles are read) and the refined view (every tile at its own level: what
 *   OpenLayers' rendercomplete and the Leaflet check mean for the baselines). Ratios against
 *   the baselines' full redraws are quoted for the refined view.
 * - The sandbox synthesizes tiles on demand and caches them: an untimed warm-up round of
 *   every contender fills that cache, then the order rotates each round.
 *
 * The scene: the sandbox's full-size item (the Sentinel-2 item whose id ends in `_00001`),
 * read from a sandbox started here behind its token, through one loopback proxy that adds
 * the Authorization header (what the extension host does for ours) and counts the bytes.
 * `--size N` uses a scene GDAL writes here instead.
 *
 * Cold: the warm-up round is also EO's first look at the sandbox's scene, no tile made yet
 * (only its size asked, one byte), with its own stretch, as Try the Sandbox shows it to a new
 * user: printed as `cold_first_full_view_ms`. `EO_BENCH_ZOOM_IN=K` puts every view K zoom
 * levels closer than the scene's fit (5: the full-size scene at its full resolution).
 *   node out/test/bench/imagery.bench.js [--size N]
 */
import { execFile, execFileSync } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { closeBrowser, getBrowser, openWebview, ROOT } from '../webview/harness';
import { bundle, chromiumInfo, heapOf, type HeapFigures } from './browserMetrics';
import { median } from './measure';

const argSize = process.argv.includes('--size') ? Number(process.argv[process.argv.indexOf('--size') + 1]) : undefined;
const RUNS = Number(process.env.EO_BENCH_RUNS) || 3;
/** `EO_BENCH_RENDERERS=eo` (comma-separated names: eo, openlayers, georaster, eoAuto) runs only those, for work in progress; figures need all. */
const ONLY = process.env.EO_BENCH_RENDERERS?.split(',').map((s) => s.trim());
const VIEW = { width: 1280, height: 800 };
const FIXTURES = join(ROOT, 'test', 'fixtures', 'imagery');
const SHOTS = join(ROOT, 'test-results', 'bench');
/** A move that has not settled after this long counts this long. */
const MOVE_CAP_MS = 60_000;
/** A first view that takes longer counts this long. */
const FIRST_CAP_MS = 300_000;
/** The file's bands, in order; true colour is B04, B03, B02. */
const BANDS = [
  { name: 'B02', commonName: 'blue' },
  { name: 'B03', commonName: 'green' },
  { name: 'B04', commonName: 'red' },
  { name: 'B08', commonName: 'nir' },
];
const RGB_BANDS = ['B04', 'B03', 'B02'];
const NODATA = 0;

const OL_VERSION = (JSON.parse(readFileSync(join(ROOT, 'node_modules', 'ol', 'package.json'), 'utf8')) as { version: string }).version;
const NAMES = {
  eo: 'EO Imagery (map bundle)',
  openlayers: `OpenLayers ${OL_VERSION}: WebGL tile layer + ol/source/GeoTIFF`,
  georaster: 'georaster-layer-for-leaflet 4.1 + georaster 1.6 (resolution 256)',
};

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
  if (existsSync(file) && existsSync(meta))
    return { ...(JSON.parse(readFileSync(meta, 'utf8')) as Scene), label: `${size} × ${size} × 4 uint16 COG written by GDAL` };
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

interface Served {
  bytes: number;
  requests: number;
}

/** Serves the scene with Range (from the file, or proxied to the sandbox with its token) and the baselines' pages and scripts; counts bytes. */
async function serve(sc: Scene, size: number, olScript: string): Promise<{ origin: string; served: Served; server: Server }> {
  const file = sc.file;
  const served: Served = { bytes: 0, requests: 0 };
  const nm = (...p: string[]) => join(ROOT, 'node_modules', ...p);
  const scripts: Record<string, string> = {
    '/leaflet.js': nm('leaflet', 'dist', 'leaflet.js'),
    '/georaster.js': nm('georaster', 'dist', 'georaster.browser.bundle.min.js'),
    '/grl.js': nm('georaster-layer-for-leaflet', 'dist', 'v3', 'webpack', 'bundle', 'georaster-layer-for-leaflet.min.js'),
  };
  const page = (css: string, srcs: string[]) =>
    `<!DOCTYPE html><html><head><style>${css} html,body,#map{margin:0;height:100%}</style></head><body><div id="map"></div>${srcs.map((s) => `<script src="${s}"></script>`).join('')}</body></html>`;
  const pages: Record<string, string> = {
    '/georaster.html': page(readFileSync(nm('leaflet', 'dist', 'leaflet.css'), 'utf8'), ['/leaflet.js', '/georaster.js', '/grl.js']),
    '/openlayers.html': page(readFileSync(nm('ol', 'ol.css'), 'utf8'), ['/ol-imagery.js']),
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
    if (pages[path]) {
      res.writeHead(200, { 'content-type': 'text/html' }).end(pages[path]);
      return;
    }
    if (path === '/ol-imagery.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(olScript);
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

type Move = { pan?: [number, number]; zoom?: number };
const MOVES: Move[] = [
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

/** The centre and zoom Leaflet's `fitBounds` picks for the scene's bounds on the map (no padding, whole zooms). */
function fitView(sc: Scene): { center: [number, number]; zoom: number } {
  const [[w, n], [e, s]] = sc.corners;
  const x = (lon: number) => (lon + 180) / 360;
  const y = (lat: number) => (1 - Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360)) / Math.PI) / 2;
  const zoom = Math.floor(Math.log2(Math.min(VIEW.width / ((x(e) - x(w)) * 256), VIEW.height / ((y(s) - y(n)) * 256))));
  const my = (y(n) + y(s)) / 2;
  const lat = (Math.atan(Math.sinh(Math.PI * (1 - 2 * my))) * 180) / Math.PI;
  return { center: [lat, ((x(w) + x(e)) / 2) * 360 - 180], zoom };
}

interface Setup {
  origin: string;
  served: Served;
  center: [number, number];
  zoom: number;
  /** Per channel (R, G, B) [low, high] in the file's values; none: the renderer's own (EO's automatic stretch). */
  stretch?: [number, number][];
  moves: Move[];
  /** Where to save a picture of the first view. */
  shot?: string;
}

interface Result {
  /** To the full view: every tile shown at its own level. */
  first: number;
  /** To the first frame with every tile shown (EO: some from another level it had decoded). */
  firstFrame: number;
  /** To the first complete frame after each move (EO: tiles from another decoded level allowed). */
  pans: number[];
  zooms: number[];
  /** To every tile at its own level after each move (the baselines: the same as above). */
  pansRefined: number[];
  zoomsRefined: number[];
  capped: number;
  heap0: HeapFigures;
  heap: HeapFigures;
  heapAfterMoves?: HeapFigures;
  bytes: number;
  requests: number;
  /** Bytes read during the moves. */
  moveBytes: number;
  view: { bounds: number[]; zoom: number; size: number[] };
  /** EO's automatic stretch, when it made one. */
  stretch?: [number, number][];
  /** EO's own clock of its first view: file open, first tile drawn, tiles drawn and their median draw time (read and decode included). */
  eoTimings?: { opened: number; firstTile: number; tiles: number; tileMedian: number };
  /** EO only: per read, from the bytes handed to the test harness to their arrival in the page. */
  relayMs?: number[];
}

/**
 * Puts `window.__settled(layer, map, capMs)` in a page with a Leaflet map: resolves true once
 * every tile the view shows is shown (checked each animation frame), false at the cap.
 * Leaflet's `load` is not enough: a tile handed back synchronously from a layer's cache is
 * drawn but never marked loaded, so `load` does not fire again for that layer.
 */
function installSettled(): void {
  type Tile = { el: HTMLElement; loaded?: number };
  type Pt = { x: number; y: number; z?: number; clone(): Pt };
  type Grid = {
    _map?: unknown;
    _tileZoom?: number;
    _tiles: Record<string, Tile>;
    _pxBoundsToTileRange(b: unknown): { min: Pt; max: Pt };
    _getTiledPixelBounds(c: unknown): unknown;
    _isValidTile(c: Pt): boolean;
    _tileCoordsToKey(c: Pt): string;
  };
  const shown = (t: Tile): boolean => {
    if (t.loaded) return true;
    const el = t.el;
    if (el.style.display === 'none' || el.style.visibility === 'hidden') return false;
    if (el instanceof HTMLImageElement) return el.complete && el.naturalWidth > 0;
    return el instanceof HTMLCanvasElement && el.width > 0;
  };
  const viewShown = (layer: Grid, map: { getCenter(): unknown }): boolean => {
    const z = layer._tileZoom;
    if (z === undefined || !layer._map) return false;
    const range = layer._pxBoundsToTileRange(layer._getTiledPixelBounds(map.getCenter()));
    for (let j = range.min.y; j <= range.max.y; j++) {
      for (let i = range.min.x; i <= range.max.x; i++) {
        const c = range.min.clone();
        c.x = i;
        c.y = j;
        c.z = z;
        if (!layer._isValidTile(c)) continue;
        const t = layer._tiles[layer._tileCoordsToKey(c)];
        if (!t || !shown(t)) return false;
      }
    }
    return true;
  };
  (window as unknown as Record<string, unknown>).__settled = async (layer: Grid, map: { getCenter(): unknown }, capMs: number): Promise<boolean> => {
    const t0 = performance.now();
    for (;;) {
      await new Promise((r) => requestAnimationFrame(r));
      if (viewShown(layer, map)) return true;
      if (performance.now() - t0 > capMs) return false;
    }
  };
}

/** Runs the moves on a Leaflet map in the page (`window.__bench` = { map, layer }); each lasts until the view is shown again. */
async function leafletMoves(
  page: Page,
  moves: Move[],
): Promise<{ pans: number[]; zooms: number[]; pansRefined: number[]; zoomsRefined: number[]; capped: number }> {
  return page.evaluate(
    async ({ moves, cap }) => {
      type M = { panBy(p: [number, number], o: unknown): void; zoomIn(d: number, o: unknown): void; zoomOut(d: number, o: unknown): void };
      const w = window as unknown as { __bench: { map: M; layer: unknown }; __settled(l: unknown, m: unknown, c: number): Promise<boolean> };
      const { map, layer } = w.__bench;
      // EO's layer shows a tile from another level it has decoded while the zoom's own level
      // is read; `unrefined()` counts the tiles still waiting for their own pixels
      const unrefined = (l: unknown): number => {
        const f = (l as { unrefined?: () => number }).unrefined;
        return typeof f === 'function' ? f.call(l) : 0;
      };
      const out = { pans: [] as number[], zooms: [] as number[], pansRefined: [] as number[], zoomsRefined: [] as number[], capped: 0 };
      for (const [n, mv] of moves.entries()) {
        performance.mark(`move ${n}`);
        const t = performance.now();
        if (mv.pan) map.panBy(mv.pan, { animate: false });
        else if ((mv.zoom ?? 0) > 0) map.zoomIn(1, { animate: false });
        else map.zoomOut(1, { animate: false });
        if (!(await w.__settled(layer, map, cap))) out.capped++;
        (mv.pan ? out.pans : out.zooms).push(performance.now() - t);
        performance.mark(`moved ${n}`);
        while (unrefined(layer) > 0 && performance.now() - t < cap) await new Promise((r) => requestAnimationFrame(r));
        (mv.pan ? out.pansRefined : out.zoomsRefined).push(performance.now() - t);
      }
      return out;
    },
    { moves, cap: MOVE_CAP_MS },
  );
}

async function shoot(page: Page, file: string | undefined): Promise<void> {
  if (!file) return;
  mkdirSync(SHOTS, { recursive: true });
  // after Leaflet's 200 ms tile fade-in, which the timed window does not wait for
  await page.waitForTimeout(400);
  await page.screenshot({ path: join(SHOTS, file) });
}

/** The bounds, zoom and size of a Leaflet map in the page (`window.__bench.map`). */
const leafletView = (page: Page) =>
  page.evaluate(() => {
    type B = { getWest(): number; getSouth(): number; getEast(): number; getNorth(): number };
    const m = (window as unknown as { __bench: { map: { getBounds(): B; getZoom(): number; getSize(): { x: number; y: number } } } }).__bench.map;
    const b = m.getBounds();
    const s = m.getSize();
    return { bounds: [b.getWest(), b.getSouth(), b.getEast(), b.getNorth()], zoom: m.getZoom(), size: [s.x, s.y] };
  });

async function eo(st: Setup): Promise<Result> {
  /** When each read's bytes were handed to the harness, to time their way into the page. */
  const handed: number[] = [];
  const h = await openWebview('map', {
    viewport: VIEW,
    binaryRelay: true,
    onRequest: async (req) => {
      const r = req as { method: string; params: { offset: number; length: number } };
      // the extension host's part: one ranged GET per read, bytes handed back
      const res = await fetch(`${st.origin}/scene.tif`, { headers: { range: `bytes=${r.params.offset}-${r.params.offset + r.params.length - 1}` } });
      const total = Number(/\/(\d+)$/.exec(res.headers.get('content-range') ?? '')?.[1]);
      const bytes = new Uint8Array(await res.arrayBuffer());
      handed.push(Date.now());
      return { bytes, total: Number.isFinite(total) ? total : undefined };
    },
  });
  try {
    // when each read's bytes reach the page (the harness's relay: binary over loopback)
    await h.page.evaluate(() => {
      const arrived: number[] = [];
      (window as unknown as { __arrived: number[] }).__arrived = arrived;
      window.addEventListener('message', (e) => {
        const d = e.data as { type?: string; result?: { bytes?: unknown } } | undefined;
        if (d?.type === 'response' && d.result?.bytes instanceof ArrayBuffer) arrived.push(Date.now());
      });
    });
    await h.waitFor((m) => (m as { type?: string }).type === 'ready');
    await h.send({ type: 'init', basemaps: [] });
    // the side panel closed: the map is the whole viewport, as the baselines' maps are
    await h.page.locator('#tool-panel').click();
    // the imagery chunk loaded before the window, as the baselines' scripts are
    await h.page.evaluate(
      ([center, zoom]) =>
        new Promise<void>((resolve, reject) => {
          const w = window as unknown as { eoMap: { map: { setView(c: unknown, z: number, o: unknown): void } }; __bench: unknown; __eoImageryChunk?: unknown };
          w.eoMap.map.setView(center, zoom as number, { animate: false });
          const mapScript = Array.from(document.querySelectorAll('script[src]')).find((s) =>
            /\/map\.js$/.test((s as HTMLScriptElement).src),
          ) as HTMLScriptElement;
          const s = document.createElement('script');
          s.nonce = mapScript.nonce;
          s.src = mapScript.src.replace(/map\.js$/, 'imagery.js');
          s.onload = () => (w.__eoImageryChunk ? resolve() : reject(new Error('the imagery chunk did not register')));
          s.onerror = () => reject(new Error('the imagery chunk did not load'));
          document.head.appendChild(s);
        }),
      [st.center, st.zoom] as const,
    );
    await h.page.evaluate(installSettled);
    const heap0 = await heapOf(h.page);
    st.served.bytes = 0;
    st.served.requests = 0;
    const spec = {
      id: 'bench',
      title: 'Bench scene',
      url: `${st.origin}/scene.tif`,
      source: { kind: 'url', url: `${st.origin}/scene.tif` },
      bands: BANDS,
      render: st.stretch ? { kind: 'rgb', bands: RGB_BANDS, stretch: st.stretch } : { kind: 'rgb', bands: RGB_BANDS },
    };
    const { first, firstFrame, capped } = await h.page.evaluate(
      async ({ spec, cap }) => {
        type Layer = { _map?: unknown; stretch?: [number, number][] };
        const w = window as unknown as {
          eoMap: { map: unknown; imagery(): Promise<{ layer(id: string): Layer | undefined }> };
          __bench: { map: unknown; layer: unknown };
          __settled(l: unknown, m: unknown, c: number): Promise<boolean>;
        };
        const t0 = performance.now();
        window.postMessage({ type: 'imagery', fit: false, spec }, '*');
        const manager = await w.eoMap.imagery();
        let layer: Layer | undefined;
        while (!(layer = manager.layer('bench'))?._map) await new Promise((r) => requestAnimationFrame(r));
        const ok = await w.__settled(layer, w.eoMap.map, cap);
        const firstFrame = performance.now() - t0;
        const unrefined = (layer as { unrefined?: () => number }).unrefined;
        while (unrefined && unrefined.call(layer) > 0 && performance.now() - t0 < cap) await new Promise((r) => requestAnimationFrame(r));
        const first = performance.now() - t0;
        w.__bench = { map: w.eoMap.map, layer };
        return { first, firstFrame, capped: ok ? 0 : 1 };
      },
      { spec, cap: FIRST_CAP_MS },
    );
    const bytes = st.served.bytes;
    const requests = st.served.requests;
    const view = await leafletView(h.page);
    const stretch = await h.page.evaluate(() => (window as unknown as { __bench: { layer: { stretch?: [number, number][] } } }).__bench.layer.stretch);
    await shoot(h.page, st.shot);
    const heap = await heapOf(h.page);
    const eoTimings = await h.page.evaluate(() => {
      const t = (window as unknown as { __bench: { layer: { timings: { opened?: number; firstTile?: number; tilesMs: number[] } } } }).__bench.layer.timings;
      const sorted = [...t.tilesMs].sort((x, y) => x - y);
      return { opened: t.opened ?? NaN, firstTile: t.firstTile ?? NaN, tiles: sorted.length, tileMedian: sorted[Math.floor(sorted.length / 2)] ?? NaN };
    });
    st.served.bytes = 0;
    // EO_BENCH_TRACE=DIR: a Chromium trace of the page over the moves, each move between the
    // user-timing marks `move N` and `moved N` (open it in DevTools' Performance panel)
    const traceDir = process.env.EO_BENCH_TRACE;
    const tracing = traceDir && st.moves.length ? await getBrowser() : undefined;
    if (tracing && traceDir) {
      mkdirSync(traceDir, { recursive: true });
      await tracing.startTracing(h.page, {
        path: join(traceDir, `eo-moves-${Date.now()}.json`),
        categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing', 'v8.execute', 'disabled-by-default-v8.cpu_profiler'],
      });
    }
    // EO_BENCH_PROFILE=DIR: a CPU profile of the page over the moves (with dist/ built by `node esbuild.mjs`, its source maps name the functions)
    const profileDir = process.env.EO_BENCH_PROFILE;
    const cdp = profileDir && st.moves.length ? await h.page.context().newCDPSession(h.page) : undefined;
    if (cdp) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
    }
    const moved = await leafletMoves(h.page, st.moves);
    if (tracing) await tracing.stopTracing();
    if (cdp && profileDir) {
      const { profile } = await cdp.send('Profiler.stop');
      mkdirSync(profileDir, { recursive: true });
      writeFileSync(join(profileDir, `eo-moves-${Date.now()}.cpuprofile`), JSON.stringify(profile));
      await cdp.detach();
    }
    const moveBytes = st.served.bytes;
    const heapAfterMoves = st.moves.length ? await heapOf(h.page) : undefined;
    const arrived = await h.page.evaluate(() => (window as unknown as { __arrived: number[] }).__arrived);
    const relayMs = arrived.map((t, i) => t - handed[i]).filter((x) => Number.isFinite(x));
    return {
      first,
      firstFrame,
      ...moved,
      capped: moved.capped + capped,
      heap0,
      heap,
      heapAfterMoves,
      bytes,
      requests,
      moveBytes,
      view,
      stretch,
      eoTimings,
      relayMs,
    };
  } finally {
    await h.close();
  }
}

/** A page of the loopback server in a context of the viewport's size, with its errors reported. */
async function baselinePage(origin: string, path: string): Promise<{ page: Page; close(): Promise<void> }> {
  const b = await getBrowser();
  const ctx = await b.newContext({ viewport: VIEW });
  const page = await ctx.newPage();
  page.on('crash', () => console.error(`bench: the ${path} page crashed`));
  page.on('pageerror', (e) => console.error(`bench: ${path} page error: ${e.message}`));
  await page.goto(`${origin}${path}`);
  return { page, close: () => ctx.close() };
}

async function georaster(st: Setup): Promise<Result> {
  if (!st.stretch) throw new Error('georaster needs the stretch');
  const { page, close } = await baselinePage(st.origin, '/georaster.html');
  try {
    await page.evaluate(
      ([center, zoom]) => {
        const g = window as unknown as { L: { map(id: string, o: unknown): { setView(c: unknown, z: number, o: unknown): unknown } }; __bench: unknown };
        g.__bench = { map: g.L.map('map', {}).setView(center, zoom as number, { animate: false }) };
      },
      [st.center, st.zoom] as const,
    );
    await page.evaluate(installSettled);
    const heap0 = await heapOf(page);
    st.served.bytes = 0;
    st.served.requests = 0;
    const { first, capped } = await page.evaluate(
      async ({ url, stretch, nodata, cap }) => {
        /* eslint-disable @typescript-eslint/no-explicit-any -- the page's globals, untyped scripts */
        const g = window as unknown as {
          parseGeoraster(url: string): Promise<any>;
          GeoRasterLayer: new (o: unknown) => { addTo(m: unknown): void };
          __bench: { map: unknown; layer?: unknown };
          __settled(l: unknown, m: unknown, c: number): Promise<boolean>;
        };
        /* eslint-enable @typescript-eslint/no-explicit-any */
        const t0 = performance.now();
        const georaster = await g.parseGeoraster(url);
        // the same look as the others: R = B04, G = B03, B = B02, each band's stretch, no-data transparent
        const [[r0, r1], [g0, g1], [b0, b1]] = stretch;
        const to8 = (v: number, lo: number, hi: number) => Math.max(0, Math.min(255, Math.round(((v - lo) / (hi - lo)) * 255)));
        const layer = new g.GeoRasterLayer({
          georaster,
          resolution: 256,
          pixelValuesToColorFn: (v: number[]) =>
            v[0] === nodata && v[1] === nodata && v[2] === nodata ? null : `rgb(${to8(v[2], r0, r1)},${to8(v[1], g0, g1)},${to8(v[0], b0, b1)})`,
        });
        layer.addTo(g.__bench.map);
        g.__bench.layer = layer;
        const ok = await g.__settled(layer, g.__bench.map, cap);
        return { first: performance.now() - t0, capped: ok ? 0 : 1 };
      },
      { url: `${st.origin}/scene.tif`, stretch: st.stretch, nodata: NODATA, cap: FIRST_CAP_MS },
    );
    const bytes = st.served.bytes;
    const requests = st.served.requests;
    const view = await leafletView(page);
    await shoot(page, st.shot);
    const heap = await heapOf(page);
    st.served.bytes = 0;
    const moved = await leafletMoves(page, st.moves);
    const moveBytes = st.served.bytes;
    const heapAfterMoves = st.moves.length ? await heapOf(page) : undefined;
    return { first, firstFrame: first, ...moved, capped: moved.capped + capped, heap0, heap, heapAfterMoves, bytes, requests, moveBytes, view };
  } finally {
    await close();
  }
}

type OlBench = {
  open(c: [number, number], z: number): void;
  show(o: unknown): Promise<void>;
  move(m: Move): Promise<void>;
  view(): { bounds: number[]; zoom: number; size: number[] };
};

async function openlayers(st: Setup): Promise<Result> {
  if (!st.stretch) throw new Error('OpenLayers needs the stretch');
  const { page, close } = await baselinePage(st.origin, '/openlayers.html');
  try {
    await page.evaluate(([center, zoom]) => (window as unknown as { olImagery: OlBench }).olImagery.open(center, zoom as number), [
      st.center,
      st.zoom,
    ] as const);
    const heap0 = await heapOf(page);
    st.served.bytes = 0;
    st.served.requests = 0;
    // per file band (B02, B03, B04, B08): the stretch of the channel that shows it
    const [r, g, b] = st.stretch;
    const opts = { url: `${st.origin}/scene.tif`, bands: [3, 2, 1], min: [b[0], g[0], r[0], 0], max: [b[1], g[1], r[1], 1], nodata: NODATA };
    const { first, capped } = await page.evaluate(
      async ({ opts, cap }) => {
        const ol = (window as unknown as { olImagery: OlBench }).olImagery;
        const t0 = performance.now();
        const ok = await Promise.race([ol.show(opts).then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), cap))]);
        return { first: performance.now() - t0, capped: ok ? 0 : 1 };
      },
      { opts, cap: FIRST_CAP_MS },
    );
    const bytes = st.served.bytes;
    const requests = st.served.requests;
    const view = await page.evaluate(() => (window as unknown as { olImagery: OlBench }).olImagery.view());
    await shoot(page, st.shot);
    const heap = await heapOf(page);
    st.served.bytes = 0;
    const moved = await page.evaluate(
      async ({ moves, cap }) => {
        const ol = (window as unknown as { olImagery: OlBench }).olImagery;
        const out = { pans: [] as number[], zooms: [] as number[], capped: 0 };
        for (const mv of moves) {
          const t = performance.now();
          const ok = await Promise.race([ol.move(mv).then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), cap))]);
          if (!ok) out.capped++;
          (mv.pan ? out.pans : out.zooms).push(performance.now() - t);
        }
        // rendercomplete: every tile at the view's resolution
        return { ...out, pansRefined: out.pans, zoomsRefined: out.zooms };
      },
      { moves: st.moves, cap: MOVE_CAP_MS },
    );
    const moveBytes = st.served.bytes;
    const heapAfterMoves = st.moves.length ? await heapOf(page) : undefined;
    return { first, firstFrame: first, ...moved, capped: moved.capped + capped, heap0, heap, heapAfterMoves, bytes, requests, moveBytes, view };
  } finally {
    await close();
  }
}

const p95 = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(0.95 * s.length) - 1)];
};
const round = (x: number) => Math.round(x * 10) / 10;
const round3 = (x: number) => Math.round(x * 1000) / 1000;

type Name = 'eo' | 'openlayers' | 'georaster' | 'eoAuto';

async function main(): Promise<void> {
  const fromSandbox = argSize === undefined ? await sandboxScene() : undefined;
  const sc = fromSandbox?.scene ?? scene(argSize as number);
  const size = await sceneSize(sc);
  const olScript = await bundle(join(ROOT, 'test', 'bench', 'pages', 'olImagery.ts'));
  const { origin, served, server } = await serve(sc, size, olScript);
  const fit = fitView(sc);
  const center = fit.center;
  const zoom = fit.zoom + Number(process.env.EO_BENCH_ZOOM_IN ?? 0);
  const setup = (moves: Move[], stretch?: [number, number][], shot?: string): Setup => ({ origin, served, center, zoom, stretch, moves, shot });
  const results: Record<Name, Result[]> = { eo: [], openlayers: [], georaster: [], eoAuto: [] };
  let info: Awaited<ReturnType<typeof chromiumInfo>> | undefined;
  let stretch: [number, number][] | undefined;
  try {
    const browser = await getBrowser();
    const probe = await browser.newPage();
    info = await chromiumInfo(browser, probe);
    await probe.close();
    // warm-up: fills the sandbox's tile cache for every contender, and gives EO's automatic stretch; timed only as the cold view
    console.error('bench: warm-up round (the cold view)…');
    const load0 = loadavg();
    const cold = await eo(setup(MOVES));
    stretch = cold.stretch;
    if (fromSandbox) {
      // a person's first look at the scene (Try the Sandbox): nothing made yet, its own stretch
      console.log(
        JSON.stringify({
          bench: 'imagery',
          figure: 'cold_first_full_view_ms',
          value: round(cold.first),
          unit: 'ms',
          note: "EO's first full view of the scene on a fresh sandbox (no tile made yet), with its automatic stretch; the sandbox in this process, as Try the Sandbox runs it in the extension host",
          zoom,
          zoom_in_from_fit: zoom - fit.zoom,
          reads: cold.requests,
          bytes_mb: round(cold.bytes / 1048576),
          goal: 'under 3,000 ms',
          load_average: [...load0, ...loadavg()].map(round),
        }),
      );
    }
    if (!stretch) throw new Error('EO made no stretch');
    if (!ONLY || ONLY.includes('openlayers')) await openlayers(setup(MOVES, stretch));
    if (!ONLY || ONLY.includes('georaster')) await georaster(setup(MOVES, stretch));
    const run: Record<Name, (shot?: string) => Promise<Result>> = {
      eo: (shot) => eo(setup(MOVES, stretch, shot)),
      openlayers: (shot) => openlayers(setup(MOVES, stretch, shot)),
      georaster: (shot) => georaster(setup(MOVES, stretch, shot)),
      // EO as a person meets it: its own automatic stretch inside the window (first view only)
      eoAuto: () => eo(setup([])),
    };
    const order = (['eo', 'openlayers', 'georaster', 'eoAuto'] as Name[]).filter((n) => !ONLY || ONLY.includes(n));
    for (let i = 0; i < RUNS; i++) {
      // the order rotates each round, so no contender always follows the same one
      for (let k = 0; k < order.length; k++) {
        const name = order[(i + k) % order.length];
        console.error(`bench: round ${i + 1}/${RUNS}: ${name}`);
        results[name].push(await run[name](i === 0 ? `imagery-${name}.png` : undefined));
      }
    }
  } finally {
    await closeBrowser();
  }
  const { eo: a, openlayers: o, georaster: g } = results;
  const common = { scene: sc.label, file_mb: round(size / 1048576), runs: RUNS, order: 'rotating, after an untimed warm-up round' };
  const samples = (f: (r: Result) => number[]) => ({ eo: a.flatMap(f).map(round), openlayers: o.flatMap(f).map(round), georaster: g.flatMap(f).map(round) });
  const line = (figure: string, pick: (rs: Result[]) => number, unit: string, extra: Record<string, unknown> = {}) => {
    const [va, vo, vg] = [pick(a), pick(o), pick(g)];
    console.log(
      JSON.stringify({
        bench: 'imagery',
        figure,
        value: round(va),
        unit,
        baseline: NAMES.openlayers,
        baseline_value: round(vo),
        ratio: round3(vo / va),
        georaster: NAMES.georaster,
        georaster_value: round(vg),
        georaster_ratio: round3(vg / va),
        better: 'lower',
        ...extra,
        ...common,
      }),
    );
    return { va, vo, vg };
  };
  // the renderers that ran (EO_BENCH_RENDERERS may leave some out)
  const views = Object.fromEntries(Object.entries({ eo: a[0]?.view, openlayers: o[0]?.view, georaster: g[0]?.view }).filter(([, v]) => v)) as Record<
    string,
    Result['view']
  >;
  // the same to a screen pixel (Leaflet rounds its pixel origin; OpenLayers does not)
  const pixelDeg = 360 / (256 * 2 ** zoom);
  const sameView = Object.values(views).every(
    (v) => v.zoom === a[0].view.zoom && v.size.join() === a[0].view.size.join() && v.bounds.every((x, i) => Math.abs(x - a[0].view.bounds[i]) < pixelDeg),
  );
  console.log(JSON.stringify({ bench: 'imagery', figure: 'view', map_px: [VIEW.width, VIEW.height], center, zoom, same_for_all: sameView, views }));
  console.log(
    JSON.stringify({
      bench: 'imagery',
      figure: 'look',
      stretch_rgb: stretch?.map((s) => s.map(round)),
      note: "EO's automatic stretch (2–98 % per band of the coarsest overview, from the warm-up run), handed to all three; no-data 0 transparent",
      screenshots: `test-results/bench/imagery-{eo,openlayers,georaster}.png`,
    }),
  );
  console.log(JSON.stringify({ bench: 'imagery', figure: 'chromium', ...info, note: 'no GPU: WebGL runs on SwiftShader (CPU)' }));
  const relay = a.flatMap((x) => x.relayMs ?? []);
  console.log(
    JSON.stringify({
      bench: 'imagery',
      figure: 'eo_harness_relay_ms',
      median_per_read: round(median(relay)),
      p95_per_read: round(p95(relay)),
      reads: relay.length,
      unit: 'ms',
      note: "inside EO's windows only: the test harness hands each read's bytes to the page in binary over loopback (the page fetches them from the harness), standing in for VS Code's binary IPC; reads overlap, so these do not add up",
    }),
  );
  const first = line('first_full_view_median_ms', (rs) => median(rs.map((x) => x.first)), 'ms', {
    goal: 'at most 0.5× OpenLayers',
    note: 'every tile at its own level',
    samples: samples((r) => [r.first]),
  });
  line('first_frame_median_ms', (rs) => median(rs.map((x) => x.firstFrame)), 'ms', {
    note: 'every tile shown, EO from any level it has decoded (with a stretch given, it has none before: the same as the full view)',
  });
  const auto = median(results.eoAuto.map((x) => x.first));
  const autoFrame = median(results.eoAuto.map((x) => x.firstFrame));
  console.log(
    JSON.stringify({
      bench: 'imagery',
      figure: 'first_full_view_auto_stretch_median_ms',
      value: round(auto),
      unit: 'ms',
      baseline: NAMES.openlayers,
      baseline_value: round(first.vo),
      ratio: round3(first.vo / auto),
      first_frame: round(autoFrame),
      note: 'EO computing its own stretch inside the window (it reads the coarsest overview first, and shows it until the view level arrives: first_frame), as Show Imagery does; the baselines are given theirs',
      samples: results.eoAuto.map((x) => round(x.first)),
      ...common,
    }),
  );
  const capped = { eo: a.reduce((k, x) => k + x.capped, 0), openlayers: o.reduce((k, x) => k + x.capped, 0), georaster: g.reduce((k, x) => k + x.capped, 0) };
  line('pan_zoom_redraw_p95_ms', (rs) => p95(rs.flatMap((x) => [...x.pans, ...x.zooms])), 'ms', {
    goal: 'at most 0.5× OpenLayers',
    moves_capped_at_60s: capped,
  });
  line('pan_zoom_redraw_refined_p95_ms', (rs) => p95(rs.flatMap((x) => [...x.pansRefined, ...x.zoomsRefined])), 'ms', {
    goal: 'at most 0.5× OpenLayers',
    note: "to every tile at its own level (EO's refinement done; OpenLayers' rendercomplete), like for like",
  });
  line('pan_redraw_p95_ms', (rs) => p95(rs.flatMap((x) => x.pans)), 'ms', { samples: samples((r) => r.pans) });
  line('zoom_step_redraw_p95_ms', (rs) => p95(rs.flatMap((x) => x.zooms)), 'ms', {
    goal: '< 250 ms',
    note: "to the first frame in which every tile of the new view is shown: EO draws a tile from a level it has decoded (scaled) while the zoom's own tiles are read; the baselines' figure is their full redraw",
    samples: samples((r) => r.zooms),
  });
  line('zoom_step_refined_p95_ms', (rs) => p95(rs.flatMap((x) => x.zoomsRefined)), 'ms', {
    note: 'to every tile at its own level (EO refined; the baselines as above)',
    samples: samples((r) => r.zoomsRefined),
  });
  // the whole page, workers included (ours carries the map app: search panel, outlines,
  // footprint layers), after the first view and after the moves; and the growth from adding
  // the layer to its first full view
  const heapNote = {
    goal: "at most half of OpenLayers' and of georaster's",
    workers: { eo: a[0]?.heap.workers, openlayers: o[0]?.heap.workers, georaster: g[0]?.heap.workers },
  };
  line('js_heap_page_and_workers_mb', (rs) => median(rs.map((x) => x.heap.jsMb)), 'MB', heapNote);
  line('js_heap_after_moves_mb', (rs) => median(rs.map((x) => x.heapAfterMoves?.jsMb ?? NaN)), 'MB');
  line('js_heap_workers_mb', (rs) => median(rs.map((x) => x.heap.workersMb)), 'MB');
  line('js_heap_imagery_growth_mb', (rs) => median(rs.map((x) => x.heap.jsMb - x.heap0.jsMb)), 'MB');
  line('array_buffers_mb', (rs) => median(rs.map((x) => x.heap.arrayBuffersMb)), 'MB', {
    note: 'backing stores of typed arrays (decoded pixels) outside the JS heap, page and workers; WebGL textures and decoded images are in neither',
  });
  line('first_view_bytes_mb', (rs) => median(rs.map((x) => x.bytes)) / 1048576, 'MB', { goal: "at most OpenLayers' bytes" });
  line('moves_bytes_mb', (rs) => median(rs.map((x) => x.moveBytes)) / 1048576, 'MB', { note: 'bytes read during the ten moves' });
  const parts = (f: (t: NonNullable<Result['eoTimings']>) => number) => round(median(a.map((x) => (x.eoTimings ? f(x.eoTimings) : NaN))));
  console.log(
    JSON.stringify({
      bench: 'imagery',
      figure: 'eo_first_view_parts_ms',
      file_open: parts((t) => t.opened),
      first_tile: parts((t) => t.firstTile),
      tiles_drawn: parts((t) => t.tiles),
      tile_draw_median: parts((t) => t.tileMedian),
      unit: 'ms',
      note: "EO's own clock from creating the layer: header read, first tile drawn, and each tile's draw (awaiting its reads and decode, warp, paint, BMP) before the image decodes",
      ...common,
    }),
  );
  const v = a[0].view;
  // GDAL reads the same file (through the proxy when it is the sandbox's); not execFileSync:
  // the proxy and the sandbox answer on this process's event loop
  const gdalPath = sc.token ? `/vsicurl/${origin}/scene.tif` : sc.file;
  const { stdout } = await promisify(execFile)('/usr/bin/python3', [join(FIXTURES, 'tile_bytes.py'), gdalPath, ...v.bounds.map(String), String(v.zoom)], {
    encoding: 'utf8',
    env: { ...process.env, GDAL_DISABLE_READDIR_ON_OPEN: 'EMPTY_DIR' },
  });
  const need = JSON.parse(stdout) as { bytes: number; tiles: number; level: number };
  const bytesOf = (rs: Result[]) => median(rs.map((x) => x.bytes));
  const reqs = (rs: Result[]) => median(rs.map((x) => x.requests));
  console.log(
    JSON.stringify({
      bench: 'imagery',
      figure: 'first_view_bytes_over_needed_tiles',
      value: round3(bytesOf(a) / need.bytes),
      goal: 1.3,
      needed_tiles: need.tiles,
      needed_level: need.level,
      needed_bytes: need.bytes,
      baseline_value: round3(bytesOf(o) / need.bytes),
      georaster_value: round3(bytesOf(g) / need.bytes),
      ...common,
    }),
  );
  console.log(
    JSON.stringify({
      bench: 'imagery',
      figure: 'first_view_bytes_over_file',
      value: round3(bytesOf(a) / size),
      baseline_value: round3(bytesOf(o) / size),
      georaster_value: round3(bytesOf(g) / size),
      ...common,
    }),
  );
  console.log(
    JSON.stringify({ bench: 'imagery', figure: 'first_view_requests', value: reqs(a), baseline_value: reqs(o), georaster_value: reqs(g), ...common }),
  );
  const kb = (f: string) => round(statSync(join(ROOT, 'dist', 'media', f)).size / 1024);
  console.log(JSON.stringify({ bench: 'imagery', figure: 'map_bundle_kb', value: kb('map.js'), budget_kb: 250, unit: 'KB' }));
  console.log(
    JSON.stringify({
      bench: 'imagery',
      figure: 'imagery_chunk_kb',
      value: kb('imagery.js'),
      unit: 'KB',
      baseline: 'the OpenLayers page script (map, WebGL tile layer, GeoTIFF source, proj4), esbuild, minified',
      baseline_value: round(Buffer.byteLength(olScript) / 1024),
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
