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
import type { ElementHandle, Page } from 'playwright-core';
import type { ImageryLayerSpec, ImageryRender, ReadBytesParams, TimeFrame } from '../../src/panels/imagery/protocol';
import { closeBrowser, getBrowser, isType, openWebview, type Harness } from './harness';
import { squareFeature } from './fixtures';
import { moveMap } from './moveMap';
import type { SeriesRequest } from '../../src/panels/imagery/seriesMessages';
import { waitUntil } from '../support/waitUntil';

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

/** `state`: what the page saved before it was reloaded (VS Code reloads it when its tab is shown again). */
async function open(log: ReadBytesParams[], viewport = { width: 900, height: 700 }, state?: unknown): Promise<Harness> {
  const bytes = readFileSync(scene.file);
  const h = await openWebview('map', {
    viewport,
    state,
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
  await waitUntil(
    h.page,
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

/** Compares two of the map's layers (ids that are their titles), picked in the layer list's Compare. */
async function pickInLayerList(h: Harness, left: string, right: string): Promise<void> {
  for (const id of [left, right]) await h.page.locator(`.eo-imagery-row[data-id="${id}"]`).waitFor();
  await h.page.locator('#imagery-layers button.compare').click();
  const picker = h.page.locator('.eo-compare-picker');
  await picker.getByLabel('Left layer').selectOption({ label: left });
  await picker.getByLabel('Right layer').selectOption({ label: right });
  await picker.locator('button.start').click();
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
    // wide enough that three 2 % key steps move the divider past a point 20 px away, with the
    // dock and the search panel beside the map (at 900 px the map is 280 px: 17 px)
    const h = await open([], { width: 1280, height: 800 });
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
      await pickInLayerList(h, 'two', 'one');
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
      assert.equal(await h.page.locator('.notice').textContent(), 'Compare ended: a compared layer was hidden or removed.');
    } finally {
      await h.close();
    }
  });

  it('comes back as it was when its tab is shown again (the page reloaded from what it saved)', async () => {
    const viewport = { width: 1280, height: 800 };
    const compareState = (h: Harness) => h.page.evaluate(async () => (await (window as unknown as { eoMap: App }).eoMap.imagery()).compare.state);
    const labels = (h: Harness) => h.page.locator('.eo-compare-bar .side').allTextContents();
    const h = await open([], viewport);
    let saved: unknown;
    let before: Awaited<ReturnType<typeof compareState>>;
    const seen: number[][] = [];
    try {
      await h.send({ type: 'imagery', spec: spec('one', TRUE_COLOUR), fit: true });
      await h.send({ type: 'imagery', spec: spec('two', FALSE_COLOUR), fit: false });
      await pickInLayerList(h, 'two', 'one');
      await h.page.locator('.eo-swipe-divider').focus();
      await h.page.keyboard.press('Shift+ArrowRight');
      await idle(h);
      before = await compareState(h);
      assert.deepEqual(await labels(h), ['two', 'one']);
      for (const p of [scene.points.vegetation, scene.points.water]) seen.push(await shown(h, await pagePoint(h, p)));
      saved = await h.page.evaluate(() => (window as unknown as { __state: unknown }).__state);
    } finally {
      await h.close();
    }
    const again = await open([], viewport, saved);
    try {
      await again.page.locator('.eo-imagery-row[data-id="two"]').waitFor();
      await idle(again);
      assert.deepEqual(await compareState(again), before, 'the same pair, divider and mode');
      assert.equal(await again.page.locator('.eo-compare-bar').isVisible(), true);
      assert.deepEqual(await labels(again), ['two', 'one']);
      const points = [scene.points.vegetation, scene.points.water];
      for (const [i, p] of points.entries()) near(await shown(again, await pagePoint(again, p)), seen[i], `the same colour at ${p.join(', ')} as before`);
      assert.deepEqual(again.pageErrors, []);
    } finally {
      await again.close();
    }
  });

  it('a time slider comes back on the date it showed when its tab is shown again (the page reloaded from what it saved)', async () => {
    const frames: TimeFrame[] = [
      { date: '2024-07-01', spec: spec('t0701', SWIR_LIKE) },
      { date: '2024-08-01', spec: spec('t0801', TRUE_COLOUR) },
      { date: '2024-09-01', spec: spec('t0901', FALSE_COLOUR) },
    ];
    const h = await open([]);
    let saved: unknown;
    try {
      await h.send({ type: 'imageryTimeline', title: 'Vineyard AOI', frames, fit: true });
      const range = h.page.getByRole('slider', { name: 'Date' });
      await range.waitFor();
      // one step back from the latest date, from the keyboard
      await range.focus();
      await h.page.keyboard.press('ArrowLeft');
      await idle(h);
      assert.match((await range.getAttribute('aria-valuetext')) ?? '', /2024-08-01/);
      saved = await h.page.evaluate(() => (window as unknown as { __state: unknown }).__state);
    } finally {
      await h.close();
    }
    const again = await open([], undefined, saved);
    try {
      const range = again.page.getByRole('slider', { name: 'Date' });
      await range.waitFor();
      assert.match((await range.getAttribute('aria-valuetext')) ?? '', /2024-08-01/, 'the date it showed');
      assert.equal(await range.getAttribute('max'), '2', 'all three dates');
      assert.deepEqual(again.pageErrors, []);
    } finally {
      await again.close();
    }
  });

  it('with the time slider over a layer, the pixel inspector reads the date the slider shows', async () => {
    const h = await open([], { width: 1280, height: 800 });
    try {
      await h.send({ type: 'imagery', spec: spec('listed 2024-07-01', TRUE_COLOUR), fit: true });
      await h.page.locator('.eo-imagery-row').first().waitFor();
      const frames: TimeFrame[] = ['2024-05-01', '2024-06-01'].map((date) => ({ spec: spec(`slider ${date}`, TRUE_COLOUR), date, cloudCover: 0 }));
      await h.send({ type: 'imageryTimeline', title: 'Scenes over the place', frames, fit: false });
      await h.page.locator('.eo-timeline').waitFor();
      await idle(h);
      const read = await h.page.evaluate(async ([lon, lat]) => {
        const app = (window as unknown as { eoMap: App & { imageryTools?: { inspector: { inspectAt(lo: number, la: number): Promise<unknown> } } } }).eoMap;
        const { timeline } = await app.imagery();
        await app.imageryTools?.inspector.inspectAt(lon, lat);
        return { shown: timeline.state.date, text: document.getElementById('pixel-inspector')?.textContent ?? '' };
      }, scene.points.vegetation);
      assert.ok(read.shown, 'the slider shows a date');
      assert.match(read.text, new RegExp(`slider ${read.shown}`), `the reading names the slider's date (${read.shown}), not the layer under it`);
      assert.doesNotMatch(read.text, /listed 2024-07-01/);
      assert.deepEqual(h.pageErrors, []);
    } finally {
      await h.close();
    }
  });

  it('ends, and says so, when the time slider opens over it; the slider closes, and says so, when a compare starts', async () => {
    const h = await open([]);
    try {
      await h.send({ type: 'imagery', spec: spec('d0501', TRUE_COLOUR, { title: 'Vineyard 2024-05-01' }), fit: true });
      await h.send({ type: 'imagery', spec: spec('d0601', FALSE_COLOUR, { title: 'Vineyard 2024-06-01' }), fit: false });
      await h.page.locator('.eo-imagery-row[data-id="d0601"]').waitFor();
      const pickTwo = async () => {
        await h.page.locator('#imagery-layers button.compare').click();
        await h.page.locator('.eo-compare-picker button.start').click();
      };
      await pickTwo();
      const bar = h.page.locator('.eo-compare-bar');
      assert.deepEqual(await bar.locator('.side').allTextContents(), ['Vineyard 2024-05-01', 'Vineyard 2024-06-01']);
      const frames: TimeFrame[] = [
        { date: '2024-07-01', spec: spec('t0701', SWIR_LIKE) },
        { date: '2024-08-01', spec: spec('t0801', TRUE_COLOUR) },
      ];
      await h.send({ type: 'imageryTimeline', title: 'Vineyard AOI', frames, fit: false });
      const range = h.page.getByRole('slider', { name: 'Date' });
      await range.waitFor();
      // the slider shows 2024-08-01: no compare bar goes on naming May and June
      assert.equal(await bar.isVisible(), false, 'the compare bar is gone');
      assert.equal(await h.page.evaluate(async () => (await (window as unknown as { eoMap: App }).eoMap.imagery()).compare.state), undefined);
      assert.equal(await h.page.locator('.notice').textContent(), 'Compare ended: the time slider shows the dates of Vineyard AOI.');
      await pickTwo();
      await bar.waitFor();
      assert.equal(await range.isVisible(), false, 'the time slider is closed');
      assert.equal(await h.page.locator('.notice').textContent(), 'Time slider closed: a compare shows two layers now.');
      await idle(h);
      // what shows is the compare: the left layer left of the divider, the right one right of it
      const mapBox = (await h.page.locator('#map').boundingBox())!;
      const divX = mapBox.x + mapBox.width / 2;
      for (const place of ['vegetation', 'water'] as const) {
        const p = await pagePoint(h, scene.points[place]);
        if (Math.abs(p.x - divX) < 5) continue;
        near(await shown(h, p), colour(p.x < divX ? TRUE_COLOUR : FALSE_COLOUR, place), `${place}, ${p.x < divX ? 'left' : 'right'} of the divider`);
      }
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

/** An element's box in page pixels. */
type Box = { x: number; y: number; width: number; height: number };

/** A 1280 × 800 page with every tool open in the dock, closed after `fn`. */
/**
 * Every tool of the map open, twice: with the compare, then with the time slider (opening one
 * closes the other). `tools`: the tools open, by the element its own close hides.
 */
async function withEveryTool(fn: (h: Harness, tools: Record<string, string>) => Promise<void>): Promise<void> {
  for (const last of ['compare', 'time slider'] as const) {
    const h = await open([], { width: 1280, height: 800 });
    try {
      await openEveryTool(h, last);
      const closed = last === 'compare' ? 'time slider' : 'compare';
      await fn(h, Object.fromEntries(Object.entries(TOOLS).filter(([name]) => name !== closed)));
    } finally {
      await h.close();
    }
  }
}

/**
 * Opens every tool of the map: three layers (one an index with its legend), the time slider and
 * compare (`last` of the two stays open), the index chart, the inspector with a reading, the histogram.
 */
async function openEveryTool(h: Harness, last: 'compare' | 'time slider'): Promise<void> {
  await h.send({ type: 'imagery', spec: spec('one', TRUE_COLOUR), fit: true });
  await h.send({
    type: 'imagery',
    spec: spec('ndvi', { kind: 'index', expression: '(B08-B04)/(B08+B04)', rescale: [-1, 1], colormap: 'RdYlGn', legendTitle: 'NDVI 2024-06-01' }),
    fit: false,
  });
  await h.send({ type: 'imagery', spec: spec('two', FALSE_COLOUR), fit: false });
  await h.page.locator('.eo-imagery-row[data-id="two"]').waitFor();
  const compare = async () => {
    await h.send({ type: 'imageryCompare', left: spec('one', TRUE_COLOUR), right: spec('two', FALSE_COLOUR) });
    await h.page.locator('.eo-compare-bar').waitFor();
  };
  const timeline = async () => {
    const frames: TimeFrame[] = ['2024-05-01', '2024-06-01', '2024-07-01'].map((date, i) => ({
      spec: spec(`t${i}`, [TRUE_COLOUR, FALSE_COLOUR, SWIR_LIKE][i], { title: `Scene ${date}` }),
      date,
      cloudCover: 10 * i,
    }));
    await h.send({ type: 'imageryTimeline', title: 'Scenes over the place', frames, fit: false });
    await h.page.locator('.eo-timeline').waitFor();
  };
  if (last === 'compare') {
    await timeline();
    await compare();
  } else {
    await compare();
    await timeline();
  }
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
  await openInspectorAndHistogram(h);
}

/** The inspector with a reading of the scene's vegetation, and the histogram. */
async function openInspectorAndHistogram(h: Harness): Promise<void> {
  await h.page.evaluate(async ([lon, lat]) => {
    const w = window as unknown as {
      eoMap: { imageryTools?: { inspector: { inspectAt(lo: number, la: number): Promise<unknown> }; openHistogram(): Promise<unknown> } };
    };
    await w.eoMap.imageryTools?.inspector.inspectAt(lon, lat);
    await w.eoMap.imageryTools?.openHistogram();
  }, scene.points.vegetation);
  await h.page.locator('#pixel-inspector table').waitFor();
  await h.page.locator('#imagery-histogram .eo-histogram').first().waitFor({ timeout: 15000 });
}

/** The tools, each by the element its own close hides. */
const TOOLS: Record<string, string> = {
  compare: '.eo-compare-bar',
  'time slider': '.eo-timeline',
  'imagery list': '#imagery-layers',
  legends: '#imagery-legends',
  inspector: '#pixel-inspector',
  histogram: '#imagery-histogram',
  'index chart': '#imagery-series',
};
/** The map's own controls, over the map. */
const MAP_CONTROLS: Record<string, string> = {
  zoom: '.leaflet-control-zoom',
  'drawing tools': '.eo-toolbar',
  'layer chooser': '.leaflet-control-layers',
  'imagery tools': '.eo-imagery-tools',
  attribution: '.leaflet-control-attribution',
  notice: '.notice',
};

describe("the map's tools in one dock", () => {
  it("never cover one another nor the map's controls, nor scroll sideways: every combination of open tools at 1024 × 768, 1280 × 800 and 1920 × 1080", async () => {
    await withEveryTool(async (h, tools) => {
      // the basemap chooser open, and a notice
      await h.page.evaluate(() => document.querySelector('.leaflet-control-layers')?.classList.add('leaflet-control-layers-expanded'));
      await h.send({ type: 'notice', level: 'info', text: 'Tiles could not be loaded; showing the offline outlines.' });
      await h.page.locator('.notice').waitFor();
      for (const viewport of [
        { width: 1024, height: 768 },
        { width: 1280, height: 800 },
        { width: 1920, height: 1080 },
      ]) {
        await h.page.setViewportSize(viewport);
        await h.page.waitForTimeout(300);
        const shot = `test-results/screenshots/map-dock-${viewport.width}x${viewport.height}${'compare' in tools ? '' : '-time-slider'}.png`;
        await h.page.screenshot({ path: shot });
        // each combination: the tools left out are closed as their own close does (the `hidden` attribute)
        const problems = await h.page.evaluate(
          ([tools, controls]: Record<string, string>[]) => {
            const out: string[] = [];
            const box = (e: Element | null): Box | undefined => {
              const r = e?.getBoundingClientRect();
              return r && r.width > 0 && r.height > 0 ? { x: r.x, y: r.y, width: r.width, height: r.height } : undefined;
            };
            // the width an element's text would take on one line
            const measureUnwrapped = (e: HTMLElement): number => {
              const copy = e.cloneNode(true) as HTMLElement;
              copy.style.cssText = 'position: fixed; left: 0; top: 0; width: max-content; max-width: none; visibility: hidden';
              document.body.append(copy);
              const w = copy.getBoundingClientRect().width;
              copy.remove();
              return w;
            };
            const meet = (a: Box, b: Box) =>
              Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x) > 0.5 && Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y) > 0.5;
            const names = Object.keys(tools);
            const els = names.map((n) => document.querySelector<HTMLElement>(tools[n])!);
            const missing = names.filter((_, i) => !els[i]);
            if (missing.length) return [`not found: ${missing.join(', ')}`];
            const wasHidden = els.map((e) => e.hidden);
            // a table heading's words stay whole (at 1024 px the inspector's "Wavelength" broke before its last letter)
            for (const th of Array.from(document.querySelectorAll<HTMLElement>('#eo-dock th'))) {
              const walk = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
              for (let t = walk.nextNode(); t; t = walk.nextNode()) {
                for (const word of (t.textContent ?? '').matchAll(/\S+/g)) {
                  const range = document.createRange();
                  range.setStart(t, word.index);
                  range.setEnd(t, word.index + word[0].length);
                  const lines = new Set(Array.from(range.getClientRects()).map((r) => Math.round(r.top)));
                  if (lines.size > 1) out.push(`"${word[0]}" is broken across lines in a table heading at ${innerWidth} × ${innerHeight}`);
                }
              }
            }
            try {
              for (let mask = 1; mask < 1 << names.length; mask++) {
                names.forEach((_, i) => (els[i].hidden = !(mask & (1 << i))));
                const open = names.filter((_, i) => mask & (1 << i));
                const what = `with ${open.join(', ')} open at ${innerWidth} × ${innerHeight}`;
                const boxes: [string, Box | undefined][] = [
                  ...open.map((n) => [n, box(document.querySelector(tools[n]))] as [string, Box | undefined]),
                  ...Object.entries(controls).map(([n, c]) => [n, box(document.querySelector(c))] as [string, Box | undefined]),
                ];
                for (const [n, b] of boxes) if (!b) out.push(`${n} is not shown ${what}`);
                const shown = boxes.filter((x): x is [string, Box] => !!x[1]);
                for (let i = 0; i < shown.length; i++)
                  for (let j = i + 1; j < shown.length; j++) if (meet(shown[i][1], shown[j][1])) out.push(`${shown[i][0]} and ${shown[j][0]} overlap ${what}`);
                const mapBox = box(document.getElementById('map'))!;
                for (const n of open) {
                  const b = box(document.querySelector(tools[n]));
                  if (b && meet(b, mapBox)) out.push(`${n} covers the map ${what}`);
                  if (b && (b.x < -0.5 || b.x + b.width > innerWidth + 0.5)) out.push(`${n} runs off the page ${what}`);
                }
                if (mapBox.width < 300) out.push(`the map is ${mapBox.width} px wide ${what}`);
                // the map's own status lines (the basemap's attribution, a notice) keep a readable width
                for (const n of ['attribution', 'notice']) {
                  const b = box(document.querySelector(controls[n]));
                  const e = document.querySelector<HTMLElement>(controls[n]);
                  const natural = e && box(e) ? measureUnwrapped(e) : 0;
                  if (b && b.width + 1 < Math.min(natural, 240)) out.push(`${n} is squeezed to ${Math.round(b.width)} px (of ${Math.round(natural)}) ${what}`);
                }
                const wide = [document.documentElement, ...Array.from(document.querySelectorAll<HTMLElement>('#eo-dock, #eo-dock *'))].filter(
                  (e) => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible' && getComputedStyle(e).overflowX !== 'hidden',
                );
                if (document.documentElement.scrollWidth > innerWidth) wide.push(document.documentElement);
                for (const e of new Set(wide)) {
                  const widest = Array.from(e.querySelectorAll('*')).sort((p, q) => q.getBoundingClientRect().right - p.getBoundingClientRect().right)[0];
                  out.push(`${e.id || e.className || e.tagName} scrolls sideways (${widest?.tagName}.${widest?.className}) ${what}`);
                }
              }
            } finally {
              els.forEach((e, i) => (e.hidden = wasHidden[i]));
            }
            return out;
          },
          [tools, MAP_CONTROLS],
        );
        assert.deepEqual([...new Set(problems)].slice(0, 20), [], `(see ${shot})`);
      }
    });
  });

  it('brings a tool that opens into view, unfolded: the index chart below the other tools, the time slider above them', async () => {
    const h = await open([], { width: 1280, height: 800 });
    try {
      await h.send({ type: 'imagery', spec: spec('one', TRUE_COLOUR), fit: true });
      await h.page.locator('.eo-imagery-row[data-id="one"]').waitFor();
      await idle(h);
      // the inspector with a reading and the histogram: the dock is taller than the page
      await openInspectorAndHistogram(h);
      /** Whether the section's heading is inside the dock's visible part. */
      const inView = (slot: string) =>
        h.page.evaluate((s) => {
          const d = document.getElementById('eo-dock')!.getBoundingClientRect();
          const head = document.getElementById(`dock-${s}-head`)!.getBoundingClientRect();
          return head.height > 0 && head.top >= d.top - 1 && head.bottom <= d.bottom + 1;
        }, slot);

      // read from the top, as after the layers: a chart asked for opens below the fold
      await h.page.evaluate(() => (document.getElementById('eo-dock')!.scrollTop = 0));
      const [w, s, e, n] = bbox(scene);
      const series: SeriesRequest = {
        title: 'The scene',
        index: { name: 'NDVI', expression: '(B08-B04)/(B08+B04)' },
        polygon: squareFeature('scene', w, s, Math.min(e - w, n - s)).geometry,
        dates: ['2024-05-01', '2024-06-01'].map((date, i) => ({ date, spec: spec(`s${i}`, TRUE_COLOUR), source: `s${i}` })),
      };
      await h.send({ type: 'seriesStart', requestId: 1, request: series });
      await h.waitFor((m) => (m as { type?: string }).type === 'seriesDone', 60_000);
      await h.page.locator('#imagery-series .chart canvas').first().waitFor();
      assert.ok(await h.page.evaluate(() => document.getElementById('eo-dock')!.scrollHeight > innerHeight), 'the tools are taller than the dock');
      assert.ok(await inView('series'), 'the index chart that just opened is in view');
      // and the chart itself, drawn after its heading showed: not only the heading at the dock's foot
      const chartTop = await h.page.evaluate(() => {
        const d = document.getElementById('eo-dock')!.getBoundingClientRect();
        const c = document.querySelector('#imagery-series .chart canvas')!.getBoundingClientRect();
        return { top: c.top, bottom: c.bottom, dockBottom: d.bottom };
      });
      assert.ok(chartTop.top + 0.5 * (chartTop.bottom - chartTop.top) <= chartTop.dockBottom, `the chart is in view: ${JSON.stringify(chartTop)}`);

      // scrolled to the bottom, a time slider opens above: in view too, and unfolded though it was folded when it last closed
      const frames: TimeFrame[] = ['2024-05-01', '2024-06-01'].map((date, i) => ({ spec: spec(`t${i}`, TRUE_COLOUR), date, cloudCover: 0 }));
      await h.send({ type: 'imageryTimeline', title: 'Scenes over the place', frames, fit: false });
      await h.page.locator('.eo-timeline').waitFor();
      await h.page.locator('#dock-timeline-head').click();
      assert.equal(await h.page.locator('#dock-timeline-head').getAttribute('aria-expanded'), 'false');
      // folded, its close is out of reach: it ends as when a compare takes its place
      await h.page.evaluate(async () => {
        const app = (window as unknown as { eoMap: { imagery(): Promise<{ timeline: { stop(): void } }> } }).eoMap;
        (await app.imagery()).timeline.stop();
      });
      await h.page.locator('[data-slot="timeline"]').waitFor({ state: 'hidden' });
      await h.page.evaluate(() => {
        const d = document.getElementById('eo-dock')!;
        d.scrollTop = d.scrollHeight;
      });
      await h.send({ type: 'imageryTimeline', title: 'Scenes over the place', frames, fit: false });
      await h.page.locator('.eo-timeline').waitFor();
      await h.page.waitForTimeout(300);
      assert.equal(await h.page.locator('#dock-timeline-head').getAttribute('aria-expanded'), 'true', 'the reopened slider is unfolded');
      assert.ok(await inView('timeline'), 'the time slider that just opened is in view');
      assert.deepEqual(h.pageErrors, []);
    } finally {
      await h.close();
    }
  });

  it('in an editor too narrow for the dock and the search panel, the panel folds as the dock opens (☰ brings it back); a panel listing results stays', async () => {
    const widths = (h: Harness) => h.page.evaluate(() => ({ map: document.getElementById('map')!.clientWidth, side: document.getElementById('side')!.hidden }));
    // 1280 × 800 with VS Code's side bar: the editor, and so the page, is about 930 px wide
    const narrow = { width: 930, height: 700 };
    const h = await open([], narrow);
    try {
      assert.equal((await widths(h)).side, false, 'the search panel shows at first');
      await h.send({ type: 'imagery', spec: spec('one', TRUE_COLOUR), fit: true });
      await h.page.locator('.eo-imagery-row[data-id="one"]').waitFor();
      await waitUntil(h.page, () => document.getElementById('side')!.hidden, undefined, { timeout: 10_000 });
      const folded = await widths(h);
      assert.ok(folded.map >= 480, `the map keeps room beside the dock: ${folded.map} px`);
      // ☰ brings it back, and a tool opening later leaves it where the person put it
      await h.page.locator('#tool-panel').click();
      assert.equal((await widths(h)).side, false, '☰ shows the panel again');
      await h.send({ type: 'imagery', spec: spec('two', TRUE_COLOUR), fit: false });
      await h.page.locator('.eo-imagery-row[data-id="two"]').waitFor();
      await h.page.waitForTimeout(300);
      assert.equal((await widths(h)).side, false, 'the dock was open already: the panel stays as the person left it');
      assert.deepEqual(h.pageErrors, []);
    } finally {
      await h.close();
    }

    // the same page listing search results: they stay in sight
    const [w, s, e, n] = bbox(scene);
    const result = { id: 'r1', label: 'A scene', geometry: squareFeature('r1', w, s, Math.min(e - w, n - s)).geometry, ref: { kind: 'catalog', id: 'r1' } };
    /** The panel after a layer opens the dock on a page of `viewport` opened from `state`. */
    const panelAfterDock = async (viewport: { width: number; height: number }, state?: unknown): Promise<boolean> => {
      const page = await open([], viewport, state);
      try {
        if (state) await page.page.locator('#results li').first().waitFor();
        await page.send({ type: 'imagery', spec: spec('one', TRUE_COLOUR), fit: true });
        await page.page.locator('.eo-imagery-row[data-id="one"]').waitFor();
        await page.page.waitForTimeout(300);
        return (await widths(page)).side;
      } finally {
        await page.close();
      }
    };
    const listing = { results: { page: { searchId: 1, loaded: 1, hasMore: false }, features: [result] } };
    assert.equal(await panelAfterDock(narrow, listing), false, 'a panel listing results is not folded away');
    // wide enough for both: nothing folds
    assert.equal(await panelAfterDock({ width: 1400, height: 800 }), false, 'at 1400 px the map has room beside both');
  });

  it('folds and unfolds each section from the keyboard alone, with a visible focus', async () => {
    await withEveryTool(async (h, tools) => {
      const heads = await h.page.locator('#eo-dock .eo-dock-section button.fold:visible').all();
      assert.equal(heads.length, Object.keys(tools).length, 'a section per open tool');
      for (const head of heads) {
        await head.focus();
        const outline = await head.evaluate((e) => getComputedStyle(e).outlineStyle + ' ' + getComputedStyle(e).outlineWidth);
        assert.ok(!/^none/.test(outline) && !/ 0px$/.test(outline), `no focus outline on a section heading: ${outline}`);
        assert.equal(await head.getAttribute('aria-expanded'), 'true');
        const body = h.page.locator(`#${(await head.getAttribute('aria-controls'))!}`);
        await h.page.keyboard.press('Enter');
        assert.equal(await head.getAttribute('aria-expanded'), 'false');
        assert.ok(!(await body.isVisible()), 'folded away');
        await h.page.keyboard.press('Space');
        assert.equal(await head.getAttribute('aria-expanded'), 'true');
        assert.ok(await body.isVisible(), 'unfolded');
      }
      // Tab goes from one heading to the next through the section between them
      await heads[0].focus();
      const order: string[] = [];
      for (let i = 0; i < 60 && order.length < heads.length; i++) {
        await h.page.keyboard.press('Tab');
        const id = await h.page.evaluate(() => (document.activeElement?.classList.contains('fold') ? document.activeElement.id : ''));
        if (id) order.push(id);
      }
      assert.equal(order.length, heads.length - 1, `every heading reached by Tab: ${order.join(', ')}`);
    });
  });

  it('a click and a key press on each control of each tool open no footprint under it, read no pixel and keep the view', async () => {
    await withEveryTool(async (h, tools) => {
      // a search result under the whole page: a press that fell through would select and open it
      await h.send({ type: 'layer', layer: 'results', features: [squareFeature('under', -179, -80, 170)], mode: 'replace', fit: false });
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
      const view = () =>
        h.page.evaluate(() => {
          const w = window as unknown as {
            eoMap: {
              map: { getCenter(): unknown; getZoom(): number; project(ll: unknown, z: number): { x: number; y: number } };
              selected?: unknown;
              imageryTools?: { inspector: { reads?: number } };
            };
          };
          // the centre in world pixels, to the pixel: the map keeps its centre when the dock comes or goes, to within a rounding
          const m = w.eoMap.map;
          const c = m.project(m.getCenter(), m.getZoom());
          return {
            x: Math.round(c.x / 2),
            y: Math.round(c.y / 2),
            zoom: m.getZoom(),
            reads: w.eoMap.imageryTools?.inspector.reads ?? 0,
            selected: !!w.eoMap.selected,
          };
        });
      let before = await view();
      const opened = () => h.posted.filter((m) => (m as { type?: string }).type === 'open').length;
      // the controls that close or remove go last, so every other control is pressed while its tool is open
      // (a layer's Zoom to is left out: moving the map is its job)
      const css = Object.values(tools)
        .map((t) => `${t} :is(button:not(.zoom), input, select, [tabindex="0"])`)
        .join(', ');
      // handles, not nth(i) of a live list: a close or a removal takes rows out of the page, and nth(i)
      // past the end waits for an element that never comes
      const controls = (await h.page.locator(css).elementHandles()) as ElementHandle<HTMLElement>[];
      const closes = await Promise.all(controls.map((c) => c.evaluate((e) => /close|remove|end\b/.test(e.className))));
      const order = [...controls.filter((_, i) => !closes[i]), null, ...controls.filter((_, i) => closes[i])];
      assert.ok(order.length >= 20, `the tools have their controls (${order.length})`);
      let pressed = 0;
      let wasOpened = 0;
      for (const target of order) {
        if (!target) {
          // between the controls and the closes, the test shows it can fail: a click on the map reads a pixel
          const mapBox = (await h.page.locator('#map').boundingBox())!;
          await h.page.mouse.click(mapBox.x + mapBox.width / 2, mapBox.y + mapBox.height * 0.6);
          await h.page.waitForTimeout(300);
          before = await view();
          assert.equal(before.reads, 1, 'a click on the map reads one pixel');
          wasOpened = opened();
          continue;
        }
        if (!(await target.evaluate((e) => e.isConnected && e.getClientRects().length > 0))) continue;
        const b = await target.boundingBox();
        if (!b || !(await target.isVisible())) continue;
        const label = await target.evaluate(
          (e) => `${e.tagName.toLowerCase()}.${e.className} "${e.getAttribute('aria-label') ?? e.textContent?.trim().slice(0, 20)}"`,
        );
        const type = await target.evaluate((e) => (e as HTMLInputElement).type);
        if (type !== 'file') await h.page.mouse.click(b.x + b.width / 2, b.y + b.height / 2);
        if (await target.isVisible()) {
          await target.focus();
          await h.page.keyboard.press('+');
          await h.page.keyboard.press('ArrowUp');
        }
        pressed++;
        await h.page.waitForTimeout(60);
        const now = await view();
        assert.equal(opened(), wasOpened, `a press on ${label} opened a footprint`);
        assert.deepEqual(now, { ...before }, `a press on ${label} changed the map`);
      }
      assert.ok(pressed >= 20, `pressed ${pressed} controls`);
    });
  });
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
