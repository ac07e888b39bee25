/**
 * 10,000 footprints in headless Chromium: the map bundle (canvas footprint layer) against
 * plain `L.geoJSON` with Leaflet's default SVG renderer, same page size, same data, same run.
 * Times: first complete render (data handed over → two animation frames later, i.e. painted)
 * and a pan redraw. Also the page's JS heap after rendering, read from `performance.memory`
 * with Chromium's precise memory info on (otherwise it is bucketed and only updated every few
 * minutes). The two alternate which runs first in each round. Prints JSON lines; asserts nothing.
 *
 *   node out/test/bench/map.bench.js [count]
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { closeBrowser, getBrowser, openWebview, ROOT } from '../webview/harness';

const N = Number(process.argv[2]) || 10_000;
const RUNS = 4;
/** Without it, Chromium quantises `performance.memory` and refreshes it only every 20 minutes. */
const PRECISE_MEMORY = ['--enable-precise-memory-info'];

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

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

const round = (x: number) => Math.round(x * 10) / 10;

async function ours(features: unknown[]): Promise<{ first: number; pan: number; heapMb: number }> {
  const h = await openWebview('map', { viewport: { width: 1280, height: 800 } });
  try {
    await h.waitFor((m) => (m as { type?: string }).type === 'ready');
    await h.send({ type: 'init', basemaps: [] });
    await h.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(null))));
    return await h.page.evaluate(async (fs) => {
      const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(null))));
      const app = (
        window as unknown as {
          eoMap: {
            onMessage(m: unknown): void;
            map: { panBy(p: [number, number], o: unknown): void; setView(c: [number, number], z: number, o: unknown): void };
          };
        }
      ).eoMap;
      app.map.setView([20, 0], 2, { animate: false });
      await frame();
      const t0 = performance.now();
      app.onMessage({ type: 'layer', layer: 'results', features: fs, mode: 'replace', fit: false });
      await frame();
      const first = performance.now() - t0;
      const t1 = performance.now();
      app.map.panBy([200, 120], { animate: false });
      await frame();
      const pan = performance.now() - t1;
      const mem = (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory;
      return { first, pan, heapMb: mem ? mem.usedJSHeapSize / 1048576 : NaN };
    }, features as never);
  } finally {
    await h.close();
  }
}

async function baseline(features: unknown[]): Promise<{ first: number; pan: number; heapMb: number }> {
  const leafletJs = await readFile(join(ROOT, 'node_modules', 'leaflet', 'dist', 'leaflet.js'), 'utf8');
  const leafletCss = await readFile(join(ROOT, 'node_modules', 'leaflet', 'dist', 'leaflet.css'), 'utf8');
  const b = await getBrowser(PRECISE_MEMORY);
  const ctx = await b.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await ctx.newPage();
  try {
    await page.setContent(
      `<!DOCTYPE html><html><head><style>${leafletCss} html,body,#map{margin:0;height:100%}</style></head><body><div id="map"></div></body></html>`,
    );
    await page.addScriptTag({ content: leafletJs });
    return await page.evaluate(async (fs) => {
      const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(null))));
      type LMap = { panBy(p: [number, number], o: unknown): void };
      const L = (
        window as unknown as {
          L: {
            map(el: string, o: unknown): LMap & { setView(c: [number, number], z: number, o: unknown): LMap };
            geoJSON(d: unknown): { addTo(m: LMap): void };
          };
        }
      ).L;
      const map = L.map('map', {}).setView([20, 0], 2, { animate: false });
      await frame();
      const t0 = performance.now();
      L.geoJSON({
        type: 'FeatureCollection',
        features: (fs as unknown[]).map((f) => ({
          type: 'Feature',
          properties: { id: (f as { id: string }).id },
          geometry: (f as { geometry: unknown }).geometry,
        })),
      }).addTo(map);
      await frame();
      const first = performance.now() - t0;
      const t1 = performance.now();
      map.panBy([200, 120], { animate: false });
      await frame();
      const pan = performance.now() - t1;
      const mem = (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory;
      return { first, pan, heapMb: mem ? mem.usedJSHeapSize / 1048576 : NaN };
    }, features as never);
  } finally {
    await ctx.close();
  }
}

async function main(): Promise<void> {
  const features = footprints(N);
  await getBrowser(PRECISE_MEMORY);
  const a: { first: number; pan: number; heapMb: number }[] = [];
  const b: { first: number; pan: number; heapMb: number }[] = [];
  for (let i = 0; i < RUNS; i++) {
    // Alternate who goes first so the browser's warm-up and drift hit both alike.
    if (i % 2 === 0) {
      a.push(await ours(features));
      b.push(await baseline(features));
    } else {
      b.push(await baseline(features));
      a.push(await ours(features));
    }
  }
  const line = (figure: string, value: number, base: number, unit = 'ms') =>
    console.log(
      JSON.stringify({
        bench: 'map',
        figure,
        value: round(value),
        unit,
        baseline: 'L.geoJSON + SVG renderer',
        baseline_value: round(base),
        ratio: Math.round((base / value) * 100) / 100,
        n: N,
        runs: RUNS,
        order: 'alternating',
      }),
    );
  line('first_render_median_ms', median(a.map((x) => x.first)), median(b.map((x) => x.first)));
  line('pan_redraw_median_ms', median(a.map((x) => x.pan)), median(b.map((x) => x.pan)));
  line('js_heap_mb', median(a.map((x) => x.heapMb)), median(b.map((x) => x.heapMb)), 'MB');
  await closeBrowser();
}

main().catch(async (e) => {
  console.error(e);
  await closeBrowser();
  process.exit(1);
});
