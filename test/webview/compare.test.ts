/**
 * Compare (swipe, swap, flicker) and the time slider on the map webview, over the synthetic
 * scene GDAL writes (test/fixtures/imagery/make_scene.py): its quadrants hold known values, so
 * what a place should look like under each layer's look is known. The swipe works by clipping
 * (no canvas changes), so pixels are read from what the page shows: a screenshot.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { ImageryLayerSpec, ImageryRender, ReadBytesParams, TimeFrame } from '../../src/panels/imagery/protocol';
import { closeBrowser, getBrowser, isType, openWebview, type Harness } from './harness';
import { squareFeature } from './fixtures';
import { moveMap } from './moveMap';
import type { SeriesRequest } from '../../src/panels/imagery/seriesMessages';

interface Scene {
  file: string;
  points: Record<'vegetation' | 'water' | 'bare' | 'roofs' | 'nodata', [number, number]>;
  corners: [[number, number], [number, number]];
}

const dir = mkdtempSync(join(tmpdir(), 'eo-compare-'));
let scene: Scene;
let decoder: Page;

const BANDS = [
  { name: 'B02', commonName: 'blue' },
  { name: 'B03', commonName: 'green' },
  { name: 'B04', commonName: 'red' },
  { name: 'B08', commonName: 'nir' },
];
const S: [number, number] = [0, 3000];
const TRUE_COLOUR: ImageryRender = { kind: 'rgb', bands: ['B04', 'B03', 'B02'], stretch: [S, S, S] };
const FALSE_COLOUR: ImageryRender = { kind: 'rgb', bands: ['B08', 'B04', 'B03'], stretch: [S, S, S] };
const SWIR_LIKE: ImageryRender = { kind: 'rgb', bands: ['B03', 'B08', 'B04'], stretch: [S, S, S] };
/** The scene's DNs (B02, B03, B04, B08) per quadrant, as make_scene.py writes them. */
const DN = { vegetation: [300, 700, 500, 4500], water: [900, 700, 800, 200] } as const;
const BAND_INDEX: Record<string, number> = { B02: 0, B03: 1, B04: 2, B08: 3 };
/** The colour a look gives a quadrant: DN / 3000 × 255 per channel, clamped. */
function colour(render: ImageryRender, place: keyof typeof DN): number[] {
  if (render.kind !== 'rgb') throw new Error('rgb looks only');
  return render.bands.map((b) => Math.min(255, Math.round((DN[place][BAND_INDEX[b]] / 3000) * 255)));
}

function bbox(sc: Scene): [number, number, number, number] {
  const [[w, n], [e, s]] = sc.corners;
  return [w, s, e, n];
}

const spec = (id: string, render: ImageryRender, over: Partial<ImageryLayerSpec> = {}): ImageryLayerSpec => ({
  id,
  title: id,
  url: `https://assets.example.com/${id}.tif`,
  bands: BANDS,
  render,
  bbox: bbox(scene),
  source: { kind: 'url', url: `https://assets.example.com/${id}.tif` },
  ...over,
});

type App = {
  map: {
    latLngToContainerPoint(ll: [number, number]): { x: number; y: number };
    getSize(): { x: number; y: number };
    fitBounds(b: unknown, o?: unknown): void;
    panBy(d: [number, number], o?: unknown): void;
  };
  imagery(): Promise<{
    compare: { state?: { left: string; right: string; position: number; mode: string; showing: string } };
    timeline: { state: { index: number; date?: string; prefetched: number[] }; layerOf(i: number): { isLoading(): boolean } | undefined };
    layer(id: string): { isLoading(): boolean } | undefined;
  }>;
};

async function open(log: ReadBytesParams[], viewport = { width: 900, height: 700 }): Promise<Harness> {
  const bytes = readFileSync(scene.file);
  const h = await openWebview('map', {
    viewport,
    onRequest: (req) => {
      const r = req as { method: string; params: ReadBytesParams };
      log.push(r.params);
      return { bytes: new Uint8Array(bytes.subarray(r.params.offset, r.params.offset + r.params.length)), total: bytes.length };
    },
  });
  await h.waitFor(isType('ready'));
  await h.send({ type: 'init', basemaps: [] });
  return h;
}

/** Waits until no imagery layer of the map is loading tiles (the time slider's hidden ones included). */
async function idle(h: Harness): Promise<void> {
  await h.page.waitForFunction(
    () => {
      const panes = document.querySelectorAll('.leaflet-eo-imagery-pane .leaflet-layer');
      if (panes.length === 0 || document.querySelector('.leaflet-eo-imagery-pane .leaflet-tile:not(.leaflet-tile-loaded)')) return false;
      // a loaded tile still fades in for 200 ms (Leaflet's fade animation): sample after it
      return Array.from(document.querySelectorAll<HTMLElement>('.leaflet-eo-imagery-pane .leaflet-tile')).every((t) => getComputedStyle(t).opacity === '1');
    },
    undefined,
    { timeout: 20000 },
  );
  await h.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/** Page coordinates of a lon/lat on the map. */
async function pagePoint(h: Harness, [lon, lat]: [number, number]): Promise<{ x: number; y: number }> {
  return h.page.evaluate(
    ([lo, la]) => {
      const pt = (window as unknown as { eoMap: App }).eoMap.map.latLngToContainerPoint([la, lo]);
      const r = document.getElementById('map')!.getBoundingClientRect();
      return { x: r.left + pt.x, y: r.top + pt.y };
    },
    [lon, lat],
  );
}

/** The colour the page shows at a page point (a 1 × 1 screenshot, decoded in a blank page). */
async function shown(h: Harness, p: { x: number; y: number }): Promise<number[]> {
  const png = await h.page.screenshot({ clip: { x: Math.round(p.x), y: Math.round(p.y), width: 1, height: 1 } });
  return decoder.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = c.height = 1;
    const ctx = c.getContext('2d')!;
    ctx.drawImage(img, 0, 0);
    return Array.from(ctx.getImageData(0, 0, 1, 1).data.slice(0, 3));
  }, png.toString('base64'));
}

function near(actual: number[], expected: number[], what: string, tol = 4): void {
  assert.ok(
    expected.every((v, i) => Math.abs(actual[i] - v) <= tol),
    `${what}: shows rgb(${actual.join(', ')}), expected rgb(${expected.join(', ')})`,
  );
}

before(async () => {
  scene = JSON.parse(
    execFileSync('/usr/bin/python3', [join(__dirname, '..', '..', '..', 'test', 'fixtures', 'imagery', 'make_scene.py'), join(dir, 'scene.tif')], {
      encoding: 'utf8',
    }),
  ) as Scene;
  decoder = await (await getBrowser()).newPage();
});
after(async () => {
  await decoder?.close();
  await closeBrowser();
  rmSync(dir, { recursive: true, force: true });
});

describe('compare two imagery layers', () => {
  it('shows the left layer left of the divider and the right layer right of it; drags, keys, swaps and flickers', async () => {
    const h = await open([]);
    try {
      const left = spec('truecolour', TRUE_COLOUR);
      const right = spec('falsecolour', FALSE_COLOUR);
      await h.send({ type: 'imageryCompare', left, right });
      await h.page.locator('.eo-swipe-divider').waitFor();
      await idle(h);
      const veg = await pagePoint(h, scene.points.vegetation);
      const mapBox = (await h.page.locator('#map').boundingBox())!;
      // drag the divider with the mouse to the middle of the vegetation quadrant
      const divider = (await h.page.locator('.eo-swipe-divider').boundingBox())!;
      // (by its handle, which sits where no control covers the divider)
      const handle = (await h.page.locator('.eo-swipe-divider .handle').boundingBox())!;
      const y = handle.y + handle.height / 2;
      assert.equal(
        await h.page.evaluate(([x, yy]) => !!document.elementFromPoint(x, yy)?.closest('.eo-swipe-divider'), [divider.x + divider.width / 2, y]),
        true,
        'nothing covers the handle',
      );
      await h.page.mouse.move(divider.x + divider.width / 2, y);
      await h.page.mouse.down();
      await h.page.mouse.move(veg.x, y + 20, { steps: 8 });
      await h.page.mouse.up();
      const state = (await h.page.evaluate(async () => (await (window as unknown as { eoMap: App }).eoMap.imagery()).compare.state))!;
      assert.ok(Math.abs(state.position * mapBox.width + mapBox.x - veg.x) <= 2, `the divider follows the mouse (at ${state.position})`);
      const leftOf = { x: veg.x - 20, y: veg.y };
      const rightOf = { x: veg.x + 20, y: veg.y };
      near(await shown(h, leftOf), colour(TRUE_COLOUR, 'vegetation'), 'left of the divider (true colour)');
      near(await shown(h, rightOf), colour(FALSE_COLOUR, 'vegetation'), 'right of the divider (false colour)');

      // keyboard: the focused divider moves 2 % a step (Shift: 10 %), and says where it is
      await h.page.locator('.eo-swipe-divider').focus();
      const before = Number(await h.page.locator('.eo-swipe-divider').getAttribute('aria-valuenow'));
      for (let i = 0; i < 3; i++) await h.page.keyboard.press('ArrowLeft');
      assert.equal(Number(await h.page.locator('.eo-swipe-divider').getAttribute('aria-valuenow')), before - 6);
      assert.match((await h.page.locator('.eo-swipe-divider').getAttribute('aria-valuetext')) ?? '', /truecolour on the left, falsecolour on the right/);
      // the point just left of where the divider was is now right of it
      near(await shown(h, leftOf), colour(FALSE_COLOUR, 'vegetation'), 'after 3 steps left, the place is on the right side');
      for (let i = 0; i < 3; i++) await h.page.keyboard.press('ArrowRight');

      // swap: the sides change layers, the divider stays
      await h.page.locator('.eo-compare-bar button.swap').click();
      near(await shown(h, leftOf), colour(FALSE_COLOUR, 'vegetation'), 'left after swap');
      near(await shown(h, rightOf), colour(TRUE_COLOUR, 'vegetation'), 'right after swap');
      assert.equal(await h.page.locator('.eo-compare-bar .side.left').textContent(), 'falsecolour');

      // panning moves the places, not the divider: the clips follow the map's corner
      const pan = async (dx: number) => {
        await moveMap(h.page, { panBy: [dx, 0], options: { animate: false } });
        await idle(h);
        return pagePoint(h, scene.points.vegetation);
      };
      const east = await pan(-40);
      assert.ok(east.x > veg.x + 30, `the place moved right of the divider (${east.x} against ${veg.x})`);
      near(await shown(h, east), colour(TRUE_COLOUR, 'vegetation'), 'panned right of the divider');
      const west = await pan(80);
      assert.ok(west.x < veg.x - 30, `the place moved left of the divider (${west.x} against ${veg.x})`);
      near(await shown(h, west), colour(FALSE_COLOUR, 'vegetation'), 'panned left of the divider');
      await pan(-40);

      // flicker (F): one layer over the whole view, F again shows the other
      await h.page.locator('#map').focus();
      await h.page.keyboard.press('f');
      assert.equal(await h.page.locator('.eo-swipe-divider').isVisible(), false);
      for (const p of [leftOf, rightOf]) near(await shown(h, p), colour(FALSE_COLOUR, 'vegetation'), 'flicker shows the left layer everywhere');
      await h.page.keyboard.press('f');
      for (const p of [leftOf, rightOf]) near(await shown(h, p), colour(TRUE_COLOUR, 'vegetation'), 'flicker again shows the right layer everywhere');

      // end: both layers whole again, in the order they had before (the one added last on top)
      await h.page.locator('.eo-compare-bar button.end').click();
      near(await shown(h, leftOf), colour(FALSE_COLOUR, 'vegetation'), 'after compare ends');
      assert.equal(await h.page.locator('.eo-compare').isVisible(), false);
      assert.deepEqual(h.pageErrors, []);
    } finally {
      await h.close();
    }
  });

  it('shows on each side the layer its label names, even with a third layer drawn above both', async () => {
    const h = await open([]);
    try {
      await h.send({ type: 'imagery', spec: spec('one', TRUE_COLOUR), fit: true });
      await h.send({ type: 'imagery', spec: spec('two', FALSE_COLOUR), fit: false });
      // the last one added is drawn on top of the others
      await h.send({ type: 'imagery', spec: spec('three', SWIR_LIKE), fit: false });
      await h.page.locator('.eo-imagery-row[data-id="three"]').waitFor();
      await idle(h);
      const veg = await pagePoint(h, scene.points.vegetation);
      near(await shown(h, veg), colour(SWIR_LIKE, 'vegetation'), 'before compare, the top layer shows');
      await h.page.locator('#imagery-layers button.compare').click();
      const picker = h.page.locator('.eo-compare-picker');
      await picker.getByLabel('Left layer').selectOption({ label: 'one' });
      await picker.getByLabel('Right layer').selectOption({ label: 'two' });
      await picker.locator('button.start').click();
      await idle(h);
      const mapBox = (await h.page.locator('#map').boundingBox())!;
      const state = (await h.page.evaluate(async () => (await (window as unknown as { eoMap: App }).eoMap.imagery()).compare.state))!;
      const divX = mapBox.x + state.position * mapBox.width;
      assert.equal(await h.page.locator('.eo-compare-bar .side.left').textContent(), 'one');
      assert.equal(await h.page.locator('.eo-compare-bar .side.right').textContent(), 'two');
      const place = veg.x < divX ? 'left' : 'right';
      near(await shown(h, veg), colour(place === 'left' ? TRUE_COLOUR : FALSE_COLOUR, 'vegetation'), `the ${place} side shows the layer it names`);
      const water = await pagePoint(h, scene.points.water);
      const waterSide = water.x < divX ? 'left' : 'right';
      near(await shown(h, water), colour(waterSide === 'left' ? TRUE_COLOUR : FALSE_COLOUR, 'water'), `the ${waterSide} side shows the layer it names`);
      // compare ends: the third layer shows again, on top
      await h.page.locator('.eo-compare-bar button.end').click();
      near(await shown(h, veg), colour(SWIR_LIKE, 'vegetation'), 'after compare, the top layer shows again');
    } finally {
      await h.close();
    }
  });

  it('compares two layers picked in the layer list, and ends when one is removed', async () => {
    const h = await open([]);
    try {
      await h.send({ type: 'imagery', spec: spec('one', TRUE_COLOUR), fit: true });
      await h.send({ type: 'imagery', spec: spec('two', FALSE_COLOUR), fit: false });
      await h.page.locator('.eo-imagery-row[data-id="two"]').waitFor();
      await h.page.locator('#imagery-layers button.compare').click();
      const picker = h.page.locator('.eo-compare-picker');
      await picker.getByLabel('Left layer').selectOption({ label: 'two' });
      await picker.getByLabel('Right layer').selectOption({ label: 'one' });
      await picker.locator('button.start').click();
      await idle(h);
      const water = await pagePoint(h, scene.points.water);
      const mapBox = (await h.page.locator('#map').boundingBox())!;
      const state = (await h.page.evaluate(async () => (await (window as unknown as { eoMap: App }).eoMap.imagery()).compare.state))!;
      assert.deepEqual([state.left, state.right, state.mode], ['two', 'one', 'swipe']);
      const divX = mapBox.x + state.position * mapBox.width;
      // the water quadrant is right of the centre: true colour ('one', on the right) shows there
      assert.ok(water.x > divX + 5, 'the water quadrant is right of the divider');
      near(await shown(h, water), colour(TRUE_COLOUR, 'water'), 'right of the divider');
      await h.page.locator('.eo-imagery-row[data-id="two"] button.remove').click();
      assert.equal(await h.page.locator('.eo-compare').isVisible(), false);
      near(await shown(h, water), colour(TRUE_COLOUR, 'water'), 'the remaining layer shows whole');
    } finally {
      await h.close();
    }
  });
});

describe('time slider', () => {
  it('shows one date at a time, steps to prefetched dates without reading, and skips dates outside the view', async () => {
    const log: ReadBytesParams[] = [];
    const h = await open(log);
    try {
      // the same ground on four dates; each date's look differs, so its pixels say which date is shown
      const far: [number, number, number, number] = [100, -40, 101, -39];
      const frames: TimeFrame[] = [
        { date: '2024-05-01', cloudCover: 12, spec: spec('d0501', TRUE_COLOUR) },
        { date: '2024-06-01', cloudCover: 3.4, spec: spec('d0601', FALSE_COLOUR) },
        { date: '2024-06-15', cloudCover: 0, spec: spec('d0615', TRUE_COLOUR, { bbox: far }) },
        { date: '2024-07-01', spec: spec('d0701', SWIR_LIKE) },
      ];
      const [[w, n], [e, s]] = scene.corners;
      await moveMap(h.page, {
        fitBounds: [
          [s, w],
          [n, e],
        ],
        options: { animate: false },
      });
      await h.send({ type: 'imageryTimeline', title: 'Vineyard AOI', frames: [frames[3], frames[0], frames[2], frames[1]], fit: false });
      const range = h.page.getByRole('slider', { name: 'Date' });
      await range.waitFor();
      await idle(h);
      const veg = await pagePoint(h, scene.points.vegetation);
      // it opens on the latest date in view
      assert.equal(await range.getAttribute('aria-valuetext'), '2024-07-01: cloud cover not given');
      near(await shown(h, veg), colour(SWIR_LIKE, 'vegetation'), '2024-07-01 shown');
      const tl = () =>
        h.page.evaluate(async () => {
          const t = (await (window as unknown as { eoMap: App }).eoMap.imagery()).timeline;
          return { ...t.state, loading: t.state.prefetched.map((i) => t.layerOf(i)?.isLoading()) };
        });
      // the date before it in view (06-01; 06-15 misses the view) is drawn ahead, and has finished
      let st = await tl();
      assert.deepEqual(st.prefetched, [1]);
      assert.deepEqual(st.loading, [false]);
      const reads = log.length;
      await range.focus();
      await h.page.keyboard.press('ArrowLeft');
      st = await tl();
      assert.equal(st.date, '2024-06-01', '06-15 is outside the view: skipped');
      near(await shown(h, veg), colour(FALSE_COLOUR, 'vegetation'), '2024-06-01 shown after one step');
      assert.equal(await range.getAttribute('aria-valuetext'), '2024-06-01: 3 % cloud');
      assert.equal(await h.page.locator('.eo-timeline-live').textContent(), '2024-06-01: 3 % cloud');
      // the shown date was drawn ahead: nothing of its file was read for the step (what is read
      // now is the next date ahead, 05-01)
      assert.deepEqual(
        log.slice(reads).filter((r) => r.url === frames[1].spec.url),
        [],
        'no read of the shown date for the step',
      );
      assert.ok(
        log.slice(reads).every((r) => r.url === frames[0].spec.url),
        'reads after the step are for the date ahead',
      );
      assert.deepEqual(st.prefetched, [0, 3], 'its neighbours in view are drawn ahead');
      assert.match((await h.page.locator('.eo-timeline .tick').nth(2).getAttribute('title')) ?? '', /2024-06-15: 0 % cloud, outside this view/);
      await idle(h);
      await h.page.keyboard.press('ArrowLeft');
      near(await shown(h, veg), colour(TRUE_COLOUR, 'vegetation'), '2024-05-01 shown');
      // at the first date, a step back stays put
      await h.page.keyboard.press('ArrowLeft');
      assert.equal((await tl()).date, '2024-05-01');
      await h.page.keyboard.press('End');
      assert.equal((await tl()).date, '2024-07-01');
      // play and pause from the keyboard
      await h.page.keyboard.press(' ');
      assert.equal(await h.page.locator('.eo-timeline button.play').getAttribute('aria-label'), 'Pause');
      await h.page.keyboard.press(' ');
      assert.equal(await h.page.locator('.eo-timeline button.play').getAttribute('aria-label'), 'Play');
      await h.page.locator('.eo-timeline button.end').click();
      assert.equal(await h.page.locator('.eo-timeline').isVisible(), false);
      assert.equal(await h.page.locator('.leaflet-eo-imagery-pane .leaflet-layer').count(), 0, 'closing removes its layers');
      assert.deepEqual(h.pageErrors, []);
    } finally {
      await h.close();
    }
  });
});

/** An element's box in page pixels, or undefined when it is not shown. */
type Box = { x: number; y: number; width: number; height: number };

describe("the map's floating parts", () => {
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 1920, height: 1080 },
  ]) {
    it(`never cover one another at ${viewport.width} × ${viewport.height}, with every tool open`, async () => {
      const h = await open([], viewport);
      try {
        await h.send({ type: 'imagery', spec: spec('one', TRUE_COLOUR), fit: true });
        await h.send({
          type: 'imagery',
          spec: spec('ndvi', { kind: 'index', expression: '(B08-B04)/(B08+B04)', rescale: [-1, 1], colormap: 'RdYlGn', legendTitle: 'NDVI 2024-06-01' }),
          fit: false,
        });
        await h.send({ type: 'imagery', spec: spec('two', FALSE_COLOUR), fit: false });
        await h.page.locator('.eo-imagery-row[data-id="two"]').waitFor();
        await h.send({ type: 'imageryCompare', left: spec('one', TRUE_COLOUR), right: spec('two', FALSE_COLOUR) });
        const frames: TimeFrame[] = ['2024-05-01', '2024-06-01', '2024-07-01'].map((date, i) => ({
          spec: spec(`t${i}`, [TRUE_COLOUR, FALSE_COLOUR, SWIR_LIKE][i], { title: `Scene ${date}` }),
          date,
          cloudCover: 10 * i,
        }));
        await h.send({ type: 'imageryTimeline', title: 'Scenes over the place', frames, fit: false });
        await h.page.locator('.eo-timeline').waitFor();
        // the index-over-time chart, drawn for three dates over the scene
        const [w, s, e, n] = bbox(scene);
        const polygon = squareFeature('scene', w, s, Math.min(e - w, n - s)).geometry;
        const series: SeriesRequest = {
          title: 'The scene',
          index: { name: 'NDVI', expression: '(B08-B04)/(B08+B04)' },
          polygon,
          dates: ['2024-05-01', '2024-06-01', '2024-07-01'].map((date, i) => ({ date, spec: spec(`s${i}`, TRUE_COLOUR), source: `s${i}` })),
        };
        await h.send({ type: 'seriesStart', requestId: 1, request: series });
        await h.waitFor((m) => (m as { type?: string }).type === 'seriesDone', 60_000);
        await h.page.locator('#imagery-series .chart canvas').first().waitFor();
        await idle(h);
        // the inspector with a reading, and the histogram
        await h.page.evaluate(async ([lon, lat]) => {
          const w = window as unknown as {
            eoMap: { imageryTools?: { inspector: { inspectAt(lo: number, la: number): Promise<unknown> }; openHistogram(): Promise<unknown> } };
          };
          await w.eoMap.imageryTools?.inspector.inspectAt(lon, lat);
          await w.eoMap.imageryTools?.openHistogram();
        }, scene.points.vegetation);
        await h.page.locator('#pixel-inspector table').waitFor();
        await h.page.locator('#imagery-histogram .eo-histogram').first().waitFor({ timeout: 15000 });
        // the basemap chooser open, and a notice
        await h.page.evaluate(() => document.querySelector('.leaflet-control-layers')?.classList.add('leaflet-control-layers-expanded'));
        await h.send({ type: 'notice', level: 'info', text: 'Tiles could not be loaded; showing the offline outlines.' });
        await h.page.locator('.notice').waitFor();
        await h.page.waitForTimeout(300);

        const parts: Record<string, string> = {
          zoom: '.leaflet-control-zoom',
          'drawing tools': '.eo-toolbar',
          'layer chooser': '.leaflet-control-layers',
          'imagery tools': '.eo-imagery-tools',
          inspector: '#pixel-inspector',
          histogram: '#imagery-histogram',
          'compare bar': '.eo-compare-bar',
          'time slider': '.eo-timeline',
          'imagery list': '#imagery-layers',
          legends: '#imagery-legends',
          'index chart': '#imagery-series',
          attribution: '.leaflet-control-attribution',
          notice: '.notice',
        };
        const boxes = await h.page.evaluate((sel: Record<string, string>) => {
          const out: Record<string, Box | undefined> = {};
          for (const [name, css] of Object.entries(sel)) {
            const e = document.querySelector<HTMLElement>(css);
            const r = e?.getBoundingClientRect();
            out[name] = e && r && r.width > 0 && r.height > 0 ? { x: r.x, y: r.y, width: r.width, height: r.height } : undefined;
          }
          return out;
        }, parts);
        const mapBox = (await h.page.locator('#map').boundingBox())!;
        const shot = `test-results/screenshots/map-floating-parts-${viewport.width}x${viewport.height}.png`;
        await h.page.screenshot({ path: shot });
        for (const [name, b] of Object.entries(boxes)) {
          assert.ok(b, `${name} is shown`);
          assert.ok(
            b.x >= mapBox.x - 0.5 &&
              b.y >= mapBox.y - 0.5 &&
              b.x + b.width <= mapBox.x + mapBox.width + 0.5 &&
              b.y + b.height <= mapBox.y + mapBox.height + 0.5,
            `${name} lies inside the map: ${JSON.stringify(b)} in ${JSON.stringify(mapBox)}`,
          );
        }
        const names = Object.keys(boxes);
        for (let i = 0; i < names.length; i++)
          for (let j = i + 1; j < names.length; j++) {
            const a = boxes[names[i]]!;
            const b = boxes[names[j]]!;
            const overlap =
              Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x) > 0.5 && Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y) > 0.5;
            assert.ok(!overlap, `${names[i]} ${JSON.stringify(a)} and ${names[j]} ${JSON.stringify(b)} intersect (see ${shot})`);
          }
        // the close buttons can be reached: nothing lies over them
        for (const css of [
          '.eo-timeline button.end',
          '.eo-compare-bar button.end',
          '#pixel-inspector button.close',
          '#imagery-histogram button.close',
          '#imagery-series button.close',
        ]) {
          const hit = await h.page.evaluate((c) => {
            const e = document.querySelector<HTMLElement>(c);
            if (!e) return 'missing';
            const r = e.getBoundingClientRect();
            const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
            return top && (top === e || e.contains(top)) ? 'reachable' : `covered by ${top?.className ?? 'nothing'}`;
          }, css);
          assert.equal(hit, 'reachable', css);
        }
      } finally {
        await h.close();
      }
    });
  }
});

describe('a press inside a map tool stays in the tool (media/map/toolEvents.ts)', () => {
  it("with Inspect pixels on, the time slider's buttons and a wheel turn over it read no pixel and move nothing", async () => {
    const h = await open([], { width: 1280, height: 800 });
    try {
      await h.send({ type: 'imagery', spec: spec('one', TRUE_COLOUR), fit: true });
      const frames: TimeFrame[] = ['2024-05-01', '2024-06-01', '2024-07-01'].map((date, i) => ({
        spec: spec(`t${i}`, [TRUE_COLOUR, FALSE_COLOUR, SWIR_LIKE][i], { title: `Scene ${date}` }),
        date,
        cloudCover: 10 * i,
      }));
      await h.send({ type: 'imageryTimeline', title: 'Scenes over the place', frames, fit: false });
      await h.page.locator('.eo-timeline').waitFor();
      await idle(h);
      const view = () =>
        h.page.evaluate(() => {
          const w = window as unknown as {
            eoMap: { map: { getCenter(): { lat: number; lng: number }; getZoom(): number }; imageryTools?: { inspector: { reads?: number } } };
          };
          const c = w.eoMap.map.getCenter();
          return { lat: c.lat, lng: c.lng, zoom: w.eoMap.map.getZoom(), reads: w.eoMap.imageryTools?.inspector.reads ?? 0 };
        });
      // count the pixel reads, and turn inspection on as the button does
      await h.page.evaluate(() => {
        const w = window as unknown as {
          eoMap: { imageryTools?: { inspector: { reads?: number; setOn(on: boolean): void; inspectAt(lo: number, la: number): Promise<unknown> } } };
        };
        const ins = w.eoMap.imageryTools!.inspector;
        const inspectAt = ins.inspectAt.bind(ins);
        ins.reads = 0;
        ins.inspectAt = (lo, la) => ((ins.reads = (ins.reads ?? 0) + 1), inspectAt(lo, la));
        ins.setOn(true);
      });
      const before = await view();
      for (const css of ['.eo-timeline button.prev', '.eo-timeline button.next', '.eo-timeline button.play', '.eo-timeline button.play']) {
        await h.page.locator(css).click();
      }
      const slider = await h.page.locator('.eo-timeline').boundingBox();
      await h.page.mouse.move(slider!.x + slider!.width / 2, slider!.y + slider!.height / 2);
      await h.page.mouse.wheel(0, -500);
      await h.page.waitForTimeout(400);
      const after = await view();
      assert.equal(after.reads, 0, 'no pixel was read');
      assert.deepEqual({ ...after, reads: 0 }, { ...before, reads: 0 }, 'the map kept its centre and zoom');
      // a click on the map itself still reads a pixel: the test can fail
      const mapBox = await h.page.locator('#map').boundingBox();
      await h.page.mouse.click(mapBox!.x + mapBox!.width / 2, mapBox!.y + mapBox!.height * 0.6);
      await h.page.waitForTimeout(200);
      assert.equal((await view()).reads, 1, 'a click on the map reads one pixel');
    } finally {
      await h.close();
    }
  });
});
