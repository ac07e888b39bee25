/**
 * Footprints on a map in headless Chromium, 10,000 and 100,000 of them, three renderers in
 * the same run: the map bundle (EO's canvas footprint layer), OpenLayers' vector layer (its
 * canvas renderer) and plain `L.geoJSON` with Leaflet's default SVG renderer. Same map size
 * (1280 × 800; EO's side panel closed), centre and zoom, same data, same style (outline
 * 1 px, fill 8 %, EO's results colour). Figures: first complete render (data handed over →
 * two animation frames later, i.e. painted; the baselines' GeoJSON reading inside), pan
 * redraw (median and p95 of several pans per run), and the page's JS heap after the pans
 * (over the DevTools protocol, after a garbage collection, the input array released). The
 * order rotates each round. Prints JSON lines; asserts nothing.
 *
 * At zoom 2 the 1280-pixel map shows more than one world: EO and OpenLayers draw the world
 * copies in view, Leaflet's vector layers do not wrap (they draw one copy: less to draw).
 *
 *   node out/test/bench/map.bench.js [count]
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { closeBrowser, getBrowser, openWebview, ROOT } from '../webview/harness';
import { bundle, heapOf } from './browserMetrics';
import { median } from './measure';

const COUNTS = Number(process.argv[2]) ? [Number(process.argv[2])] : [10_000, 100_000];
/** Rounds per count: 100,000 footprints in SVG take seconds a pan, so fewer rounds there. */
const runsFor = (n: number) => Number(process.env.EO_BENCH_RUNS) || (n >= 100_000 ? 3 : 4);
const VIEW = { width: 1280, height: 800 };
const CENTER: [number, number] = [20, 0];
const ZOOM = 2;
/** Back and forth, so the view stays over the same stretch of the world. */
const PANS: [number, number][] = [
  [200, 120],
  [-200, -120],
  [-200, 120],
  [200, -120],
  [300, 0],
  [-300, 0],
  [0, 150],
  [0, -150],
];
/** EO's results colour in the bench page (--eo-c-results without a VS Code theme), its fill at 8 %. */
const COLOR = '#f14c4c';
const FILL = 'rgba(241, 76, 76, 0.08)';

const OL_VERSION = (JSON.parse(readFileSync(join(ROOT, 'node_modules', 'ol', 'package.json'), 'utf8')) as { version: string }).version;

/** Deterministic footprints: rotated quadrilaterals of 5–30 km scattered over the land-ish world. */
function footprints(n: number): { id: string; label: string; geometry: unknown; ref: unknown }[] {
  let seed = 42;
  const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const out = [];
  for (let i = 0; i < n; i++) {
    const lon = -170 + rnd() * 340,
      lat = -60 + rnd() * 130;
    const w = 0.05 + rnd() * 0.25,
      h = 0.05 + rnd() * 0.25,
      sk = (rnd() - 0.5) * 0.1;
    const ring = [
      [lon, lat],
      [lon + w, lat + sk],
      [lon + w + sk, lat + h],
      [lon + sk, lat + h - sk],
      [lon, lat],
    ];
    out.push({
      id: `f${i}`,
      label: `Footprint ${i}`,
      geometry: { type: 'Polygon', coordinates: [ring] },
      ref: { kind: 'archiveItem', collection: 'c', id: `f${i}` },
    });
  }
  return out;
}

const p95 = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(0.95 * s.length) - 1)];
};
const round = (x: number) => Math.round(x * 10) / 10;

interface Result {
  first: number;
  pans: number[];
  heapMb: number;
  /** ArrayBuffer backing stores (typed arrays), outside the JS heap figure: EO packs its shapes there. */
  arrayBuffersMb: number;
  /** EO only: its footprint layer's own redraw time (JS issuing the canvas calls) per pan, and shapes painted. */
  redrawJs?: number[];
  drawn?: number;
  world?: boolean;
}

/**
 * Times one renderer in its page: `window.__fs` holds the footprints (put there before, out
 * of the window), `add` hands them to the renderer, `pan` moves the map by pixels.
 */
async function measure(page: Page, how: 'eo' | 'openlayers' | 'leaflet'): Promise<Result> {
  const timed = await page.evaluate(
    async ({ how, pans, color, fill }) => {
      const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(null))));
      const w = window as unknown as Record<string, unknown> & { __fs?: { id: string; geometry: unknown }[] };
      type LMap = { panBy(p: [number, number], o: unknown): void };
      const fs = w.__fs as { id: string; geometry: unknown }[];
      const collection = () => ({ type: 'FeatureCollection', features: fs.map((f) => ({ type: 'Feature', properties: { id: f.id }, geometry: f.geometry })) });
      let pan: (p: [number, number]) => void;
      const t0 = performance.now();
      if (how === 'eo') {
        const app = w.eoMap as { onMessage(m: unknown): void; map: LMap };
        app.onMessage({ type: 'layer', layer: 'results', features: fs, mode: 'replace', fit: false });
        pan = (p) => app.map.panBy(p, { animate: false });
      } else if (how === 'openlayers') {
        const ol = w.olVector as { add(c: unknown, color: string, fill: string): void; pan(x: number, y: number): void };
        ol.add(collection(), color, fill);
        pan = (p) => ol.pan(p[0], p[1]);
      } else {
        const L = w.L as { geoJSON(d: unknown, o: unknown): { addTo(m: unknown): void } };
        const map = w.__map as LMap;
        L.geoJSON(collection(), { style: { color, weight: 1, fillOpacity: 0.08 } }).addTo(map);
        pan = (p) => map.panBy(p, { animate: false });
      }
      await frame();
      const first = performance.now() - t0;
      const times: number[] = [];
      const redrawJs: number[] = [];
      const eoLayer = () => (w.eoMap as { layers: { results: { lastDraw: { ms: number; drawn: number; world: boolean } } } }).layers.results.lastDraw;
      for (const p of pans) {
        const drawnBefore = how === 'eo' ? eoLayer() : undefined;
        const t = performance.now();
        pan(p);
        await frame();
        times.push(performance.now() - t);
        // a pan inside the drawn margin redraws nothing (the record is the same object): 0 ms of its own
        if (how === 'eo') redrawJs.push(eoLayer() === drawnBefore ? 0 : eoLayer().ms);
      }
      // the input is the harness's: what stays on the heap is what the renderer keeps
      delete w.__fs;
      return how === 'eo' ? { first, pans: times, redrawJs, drawn: eoLayer().drawn, world: eoLayer().world } : { first, pans: times };
    },
    { how, pans: PANS, color: COLOR, fill: FILL },
  );
  const heap = await heapOf(page);
  return { ...timed, heapMb: heap.jsMb, arrayBuffersMb: heap.arrayBuffersMb };
}

async function ours(features: unknown[]): Promise<Result> {
  const h = await openWebview('map', { viewport: VIEW, fresh: true });
  try {
    await h.waitFor((m) => (m as { type?: string }).type === 'ready');
    await h.send({ type: 'init', basemaps: [] });
    // the side panel closed: the map is the whole viewport, as the baselines' maps are
    await h.page.locator('#tool-panel').click();
    await h.page.evaluate(
      ({ fs, center, zoom }) => {
        const w = window as unknown as { eoMap: { map: { setView(c: [number, number], z: number, o: unknown): void } }; __fs: unknown };
        w.eoMap.map.setView(center, zoom, { animate: false });
        w.__fs = fs;
        return new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(null))));
      },
      { fs: features as never, center: CENTER, zoom: ZOOM },
    );
    return await measure(h.page, 'eo');
  } finally {
    await h.close();
  }
}

async function baselinePage(css: string, script: string): Promise<{ page: Page; close(): Promise<void> }> {
  const b = await getBrowser();
  const ctx = await b.newContext({ viewport: VIEW });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => console.error(`bench: baseline page error: ${e.message}`));
  await page.setContent(`<!DOCTYPE html><html><head><style>${css} html,body,#map{margin:0;height:100%}</style></head><body><div id="map"></div></body></html>`);
  await page.addScriptTag({ content: script });
  return { page, close: () => ctx.close() };
}

async function leaflet(features: unknown[], assets: Assets): Promise<Result> {
  const { page, close } = await baselinePage(assets.leafletCss, assets.leafletJs);
  try {
    await page.evaluate(
      ({ fs, center, zoom }) => {
        const w = window as unknown as {
          L: { map(el: string, o: unknown): { setView(c: [number, number], z: number, o: unknown): unknown } };
          __map: unknown;
          __fs: unknown;
        };
        w.__map = w.L.map('map', {}).setView(center, zoom, { animate: false });
        w.__fs = fs;
        return new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(null))));
      },
      { fs: features as never, center: CENTER, zoom: ZOOM },
    );
    return await measure(page, 'leaflet');
  } finally {
    await close();
  }
}

async function openlayers(features: unknown[], assets: Assets): Promise<Result> {
  const { page, close } = await baselinePage(assets.olCss, assets.olJs);
  try {
    await page.evaluate(
      ({ fs, center, zoom }) => {
        const w = window as unknown as { olVector: { open(c: [number, number], z: number): void }; __fs: unknown };
        w.olVector.open(center, zoom);
        w.__fs = fs;
        return new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(null))));
      },
      { fs: features as never, center: CENTER, zoom: ZOOM },
    );
    return await measure(page, 'openlayers');
  } finally {
    await close();
  }
}

interface Assets {
  leafletJs: string;
  leafletCss: string;
  olJs: string;
  olCss: string;
}

type Name = 'eo' | 'openlayers' | 'leaflet';

async function main(): Promise<void> {
  const assets: Assets = {
    leafletJs: await readFile(join(ROOT, 'node_modules', 'leaflet', 'dist', 'leaflet.js'), 'utf8'),
    leafletCss: await readFile(join(ROOT, 'node_modules', 'leaflet', 'dist', 'leaflet.css'), 'utf8'),
    olJs: await bundle(join(ROOT, 'test', 'bench', 'pages', 'olVector.ts')),
    olCss: await readFile(join(ROOT, 'node_modules', 'ol', 'ol.css'), 'utf8'),
  };
  await getBrowser();
  for (const n of COUNTS) {
    const features = footprints(n);
    const results: Record<Name, Result[]> = { eo: [], openlayers: [], leaflet: [] };
    const run: Record<Name, () => Promise<Result>> = {
      eo: () => ours(features),
      openlayers: () => openlayers(features, assets),
      leaflet: () => leaflet(features, assets),
    };
    // EO_BENCH_RENDERERS=eo (comma-separated) runs some only, while working on one; the figures then lack their baselines
    const only = process.env.EO_BENCH_RENDERERS?.split(',');
    const order = (['eo', 'openlayers', 'leaflet'] as Name[]).filter((x) => !only || only.includes(x));
    const RUNS = runsFor(n);
    for (let i = 0; i < RUNS; i++) {
      // the order rotates each round, so the browser's warm-up and drift hit all alike
      for (let k = 0; k < order.length; k++) {
        const name = order[(i + k) % order.length];
        console.error(`bench: ${n} footprints, round ${i + 1}/${RUNS}: ${name}`);
        results[name].push(await run[name]());
      }
    }
    const line = (figure: string, pick: (rs: Result[]) => number, unit: string, extra: Record<string, unknown> = {}) => {
      const of = (rs: Result[]) => (rs.length ? pick(rs) : NaN);
      const [va, vo, vl] = [of(results.eo), of(results.openlayers), of(results.leaflet)];
      console.log(
        JSON.stringify({
          bench: 'map',
          figure,
          value: round(va),
          unit,
          baseline: `OpenLayers ${OL_VERSION} vector layer (canvas)`,
          baseline_value: round(vo),
          ratio: Math.round((vo / va) * 100) / 100,
          leaflet: 'L.geoJSON + SVG renderer',
          leaflet_value: round(vl),
          leaflet_ratio: Math.round((vl / va) * 100) / 100,
          ...extra,
          n,
          runs: RUNS,
          pans_per_run: PANS.length,
          view: { map_px: [VIEW.width, VIEW.height], center: CENTER, zoom: ZOOM },
          order: 'rotating',
        }),
      );
    };
    const goals = n >= 100_000 ? { first: '< 1 s', pan: '< 50 ms', heap: '< 100 MB' } : { first: '< 1 s, ≥ 3× L.geoJSON' };
    line('first_render_median_ms', (rs) => median(rs.map((x) => x.first)), 'ms', {
      goal: goals.first,
      samples: {
        eo: results.eo.map((x) => round(x.first)),
        openlayers: results.openlayers.map((x) => round(x.first)),
        leaflet: results.leaflet.map((x) => round(x.first)),
      },
    });
    line('pan_redraw_median_ms', (rs) => median(rs.flatMap((x) => x.pans)), 'ms');
    line('pan_redraw_p95_ms', (rs) => p95(rs.flatMap((x) => x.pans)), 'ms', goals.pan ? { goal: goals.pan } : {});
    const eoRedraw = results.eo.flatMap((x) => x.redrawJs ?? []);
    console.log(
      JSON.stringify({
        bench: 'map',
        figure: 'eo_footprint_redraw_js_ms',
        median: round(median(eoRedraw)),
        p95: round(p95(eoRedraw)),
        unit: 'ms',
        shapes_painted: results.eo[0]?.drawn,
        // at a low zoom with thousands of shapes, a pan draws the world image painted once
        from_world_image: results.eo[0]?.world,
        n,
        note: "where EO's pan goes: its footprint layer's redraw() alone (culling and issuing the canvas calls; 0 when the pan stayed inside what it drew); the rest of a pan redraw is Leaflet's move, the outlines, and the browser rasterizing and compositing the frame",
      }),
    );
    line('js_heap_mb', (rs) => median(rs.map((x) => x.heapMb)), 'MB', {
      ...(goals.heap ? { goal: goals.heap } : {}),
      note: 'page JS heap after the pans, garbage collected, the input array released (DevTools Runtime.getHeapUsage)',
    });
    line('array_buffers_mb', (rs) => median(rs.map((x) => x.arrayBuffersMb)), 'MB', {
      note: "typed arrays' backing stores, not in js_heap_mb: EO's packed footprints live here; JS heap plus this is what the shapes cost",
    });
  }
  await closeBrowser();
}

main().catch(async (e) => {
  console.error(e);
  await closeBrowser();
  process.exit(1);
});
