import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ImageryLayerSpec, ReadBytesParams } from '../../src/panels/imagery/protocol';
import { closeBrowser, isType, openWebview, ROOT, type Harness } from './harness';
import { imageryPixelAt as pixelAt, layerSettled as settled, screenPixelAt } from './imageryPixels';
import { squareFeature } from './fixtures';
import { moveMap } from './moveMap';
import { waitUntil } from '../support/waitUntil';

interface Scene {
  file: string;
  points: Record<'vegetation' | 'water' | 'bare' | 'roofs' | 'nodata', [number, number]>;
  corners: [[number, number], [number, number]];
  overviews: number;
}

const dir = mkdtempSync(join(tmpdir(), 'eo-imagery-'));
function makeScene(name: string, ...args: string[]): Scene {
  const out = execFileSync('/usr/bin/python3', [join(__dirname, '..', '..', '..', 'test', 'fixtures', 'imagery', 'make_scene.py'), join(dir, name), ...args], {
    encoding: 'utf8',
  });
  return JSON.parse(out) as Scene;
}

const URL0 = 'https://assets.example.com/scene.tif';
const BANDS = [
  { name: 'B02', commonName: 'blue', wavelength: 0.49 },
  { name: 'B03', commonName: 'green', wavelength: 0.56 },
  { name: 'B04', commonName: 'red', wavelength: 0.665 },
  { name: 'B08', commonName: 'nir', wavelength: 0.842 },
];

/** Serves byte ranges of `file` as the extension would, and counts what was asked. */
function rangeHandler(file: string, log: ReadBytesParams[], opts: { fail?: { status: number; message: string }; holdFrom?: number } = {}) {
  const bytes = readFileSync(file);
  return (req: unknown) => {
    const r = req as { method: string; params: ReadBytesParams };
    if (r.method !== 'readBytes') throw new Error(`unexpected ${r.method}`);
    log.push(r.params);
    if (opts.fail) throw Object.assign(new Error(opts.fail.message), { status: opts.fail.status });
    // a slow server: reads from this offset on never answer
    if (opts.holdFrom !== undefined && r.params.offset >= opts.holdFrom) return new Promise<never>(() => undefined);
    const slice = bytes.subarray(r.params.offset, r.params.offset + r.params.length);
    return { bytes: new Uint8Array(slice), total: bytes.length };
  };
}

type Posted = { type?: string; id?: number; request?: { method: string; params: ReadBytesParams } };

type Win = {
  eoMap: {
    map: { fitBounds(b: [[number, number], [number, number]], o?: unknown): void; latLngToContainerPoint(ll: [number, number]): { x: number; y: number } };
    imagery(): Promise<{ layer(id: string): { timings: { firstTile?: number } } | undefined }>;
    decodeMode?: { mode: string };
  };
  __state?: { imagery?: ImageryLayerSpec[] };
};

async function open(file: string, log: ReadBytesParams[], opts: Parameters<typeof rangeHandler>[2] = {}): Promise<Harness> {
  const h = await openWebview('map', { onRequest: rangeHandler(file, log, opts), viewport: { width: 900, height: 700 } });
  await h.waitFor(isType('ready'));
  await h.send({ type: 'init', basemaps: [] });
  return h;
}

/** The map fitted to the scene. */
async function fitScene(h: Harness, scene: Scene): Promise<void> {
  const [[w, n], [e, s]] = scene.corners;
  await moveMap(h.page, {
    fitBounds: [
      [s, w],
      [n, e],
    ],
    options: { animate: false },
  });
}

async function show(h: Harness, spec: ImageryLayerSpec, scene: Scene): Promise<void> {
  await fitScene(h, scene);
  await h.send({ type: 'imagery', spec, fit: false });
}

function near(actual: number[], expected: number[], tol: number, what: string): void {
  for (let i = 0; i < expected.length; i++) {
    assert.ok(Math.abs(actual[i] - expected[i]) <= tol, `${what}: got rgb(${actual.slice(0, 3).join(', ')}), expected about rgb(${expected.join(', ')})`);
  }
}

let scene: Scene;
before(() => {
  scene = makeScene('scene.tif');
});
after(async () => {
  await closeBrowser();
  rmSync(dir, { recursive: true, force: true });
});

const spec = (over: Partial<ImageryLayerSpec> = {}): ImageryLayerSpec => ({
  id: 'scene',
  title: 'Synthetic scene',
  url: URL0,
  bands: BANDS,
  render: {
    kind: 'rgb',
    bands: ['B04', 'B03', 'B02'],
    stretch: [
      [0, 3000],
      [0, 3000],
      [0, 3000],
    ],
  },
  source: { kind: 'url', url: URL0 },
  ...over,
});

describe('imagery on the map webview', () => {
  it('draws a UTM scene in true colour where GDAL places it, with no-data transparent', async () => {
    const log: ReadBytesParams[] = [];
    const h = await open(scene.file, log);
    try {
      await show(h, spec(), scene);
      assert.deepEqual(await settled(h, 'scene'), { state: 'ready', text: '' });
      // DN / 3000 × 255 per channel (R = B04, G = B03, B = B02)
      const expect = (v: [number, number, number, number]) => [v[2], v[1], v[0]].map((x) => Math.round((x / 3000) * 255));
      near(await pixelAt(h, scene.points.vegetation), expect([300, 700, 500, 4500]), 3, 'vegetation');
      near(await pixelAt(h, scene.points.water), expect([900, 700, 800, 200]), 3, 'water');
      near(await pixelAt(h, scene.points.bare), expect([2500, 2500, 2500, 2500]), 3, 'bare soil');
      near(await pixelAt(h, scene.points.roofs), expect([600, 700, 3000, 1500]), 3, 'roofs');
      assert.equal((await pixelAt(h, scene.points.nodata))[3], 0, 'no-data pixels are transparent');
      // a tile with nothing of the scene on it shows nothing: an image without a source would
      // get the browser's grey outline, a grid over the map around the scene
      const empty = await h.page.evaluate(() =>
        Array.from(document.querySelectorAll<HTMLImageElement>('.leaflet-eo-imagery-pane img.leaflet-tile'))
          .filter((t) => !t.getAttribute('src'))
          .map((t) => getComputedStyle(t).display),
      );
      assert.ok(empty.length > 0, 'the view has tiles beyond the scene');
      assert.deepEqual(
        empty.filter((d) => d !== 'none'),
        [],
        'no empty tile is shown',
      );
      // only ranges were read, never the whole file in one go
      const size = readFileSync(scene.file).length;
      assert.ok(
        log.every((r) => r.length < size),
        'no read asks for the whole file',
      );
      assert.deepEqual(h.pageErrors, []);
    } finally {
      await h.close();
    }
  });

  it('shows imagery above the fill of a selected footprint: the scene keeps its colours, the outline stays on top', async () => {
    const h = await open(scene.file, []);
    try {
      await show(h, spec(), scene);
      assert.equal((await settled(h, 'scene')).state, 'ready');
      // a search result whose footprint covers the whole scene, selected (its fill is strongest then)
      const [[w, n], [e, s]] = scene.corners;
      const f = squareFeature('over', w - 0.5, s - 0.5, Math.max(e - w, n - s) + 1);
      await h.send({ type: 'layer', layer: 'results', mode: 'replace', fit: false, features: [f] });
      // selected as from the results list (a selection from the extension also opens a popup)
      await h.page.evaluate(() =>
        (window as unknown as { eoMap: { select(k: string, id: string, from: string): void } }).eoMap.select('results', 'over', 'list'),
      );
      // the selection fits the map to the footprint: the new view's tiles are drawn and faded in
      await waitUntil(h.page, () => {
        const tiles = Array.from(document.querySelectorAll<HTMLImageElement>('.leaflet-eo-imagery-pane img.leaflet-tile[src]'));
        return tiles.length > 0 && tiles.every((t) => t.complete && getComputedStyle(t).opacity === '1');
      });
      await h.page.waitForTimeout(300);
      for (const name of ['vegetation', 'water', 'bare'] as const) {
        const imagery = await pixelAt(h, scene.points[name]);
        assert.equal(imagery[3], 255, `${name}: the imagery is opaque there`);
        near(await screenPixelAt(h, scene.points[name]), imagery.slice(0, 3), 2, `${name} under the selected footprint`);
      }
      // the fills are drawn (under the imagery), and the outline over it
      const panes = await h.page.evaluate(() => ({
        fills: !!document.querySelector('.leaflet-eo-fills-pane canvas.eo-footprint-fills'),
        outline: !!document.querySelector('.leaflet-overlay-pane canvas.eo-footprints'),
      }));
      assert.deepEqual(panes, { fills: true, outline: true });
    } finally {
      await h.close();
    }
  });

  it("closes a footprint's popup that lies over imagery added after it; a popup elsewhere stays", async () => {
    const h = await open(scene.file, []);
    try {
      const [[w, n], [e, s]] = scene.corners;
      await fitScene(h, scene);
      const size = Math.max(e - w, n - s);
      // one footprint over the scene, one below it (both in view)
      const over = squareFeature('over', w + size / 4, s + size / 4, size / 2);
      const beside = squareFeature('beside', w + size / 4, s - size * 0.35, size / 6);
      await h.send({ type: 'layer', layer: 'results', mode: 'replace', fit: false, features: [over, beside] });
      const clickOn = async (lon: number, lat: number) => {
        const p = await h.page.evaluate(
          ([lo, la]) => {
            const pt = (
              window as unknown as { eoMap: { map: { latLngToContainerPoint(ll: [number, number]): { x: number; y: number } } } }
            ).eoMap.map.latLngToContainerPoint([la, lo]);
            const r = document.getElementById('map')!.getBoundingClientRect();
            return { x: r.left + pt.x, y: r.top + pt.y };
          },
          [lon, lat],
        );
        await h.page.mouse.click(p.x, p.y);
      };
      const bbox: [number, number, number, number] = [w, s, e, n];
      // a click on the footprint over the scene opens its popup; the scene's imagery added then closes it
      await clickOn(w + size / 2, s + size / 2);
      await h.page.locator('.leaflet-popup').waitFor();
      await h.send({ type: 'imagery', spec: spec({ bbox }), fit: false });
      await h.page.locator('.eo-imagery-row[data-id="scene"]').waitFor();
      // (it fades out for 200 ms)
      await h.page.locator('.leaflet-popup').waitFor({ state: 'detached', timeout: 2000 });
      // the popup of the footprint beside the scene stays when imagery is added again
      await clickOn(w + size / 4 + size / 12, s - size * 0.35 + size / 12);
      await h.page.locator('.leaflet-popup').waitFor();
      await h.send({ type: 'imagery', spec: spec({ id: 'again', bbox }), fit: false });
      await h.page.locator('.eo-imagery-row[data-id="again"]').waitFor();
      await h.page.waitForTimeout(500);
      assert.equal(await h.page.locator('.leaflet-popup').count(), 1, 'the popup beside the imagery stays');
    } finally {
      await h.close();
    }
  });

  it('colours an NDVI expression through RdYlGn and shows its legend', async () => {
    const h = await open(scene.file, []);
    try {
      await show(
        h,
        spec({ id: 'ndvi', render: { kind: 'index', expression: '(B08-B04)/(B08+B04)', rescale: [-1, 1], colormap: 'RdYlGn', legendTitle: 'NDVI' } }),
        scene,
      );
      assert.equal((await settled(h, 'ndvi')).state, 'ready');
      // ColorBrewer RdYlGn (matplotlib's anchors): NDVI 0.8 → 0.9 of the ramp #1a9850,
      // -0.6 → 0.2 #f46d43, 0 → 0.5 #ffffbf
      near(await pixelAt(h, scene.points.vegetation), [0x1a, 0x98, 0x50], 6, 'vegetation NDVI 0.8');
      near(await pixelAt(h, scene.points.water), [0xf4, 0x6d, 0x43], 6, 'water NDVI -0.6');
      near(await pixelAt(h, scene.points.bare), [0xff, 0xff, 0xbf], 6, 'bare NDVI 0');
      const legend = h.page.locator('.eo-legend[data-id="ndvi"]');
      assert.equal(await legend.locator('.title').textContent(), 'NDVI');
      assert.equal(await legend.locator('.min').textContent(), '-1');
      assert.equal(await legend.locator('.max').textContent(), '1');
      const ends = await legend.locator('canvas').evaluate((c: HTMLCanvasElement) => {
        const ctx = c.getContext('2d')!;
        return [Array.from(ctx.getImageData(0, 5, 1, 1).data), Array.from(ctx.getImageData(255, 5, 1, 1).data)];
      });
      near(ends[0], [0xa5, 0x00, 0x26], 2, 'legend low end');
      near(ends[1], [0x00, 0x68, 0x37], 2, 'legend high end');
    } finally {
      await h.close();
    }
  });

  it('stretches 2–98 % from the overview by default, keeps the layer in the saved state, and removes it', async () => {
    const h = await open(scene.file, []);
    try {
      await show(h, spec({ render: { kind: 'rgb', bands: ['B08', 'B04', 'B03'] } }), scene);
      assert.equal((await settled(h, 'scene')).state, 'ready');
      const veg = await pixelAt(h, scene.points.vegetation);
      const water = await pixelAt(h, scene.points.water);
      assert.ok(veg[0] > 200 && veg[1] < 60, `false colour: vegetation is red, got ${veg}`);
      assert.ok(water[0] < 40, `false colour: water is dark, got ${water}`);
      const saved = await h.page.evaluate(() => (window as unknown as Win).__state?.imagery);
      assert.equal(saved?.[0]?.id, 'scene');
      await h.page.locator('.eo-imagery-row[data-id="scene"] button.remove').click();
      assert.equal(await h.page.locator('.eo-imagery-row').count(), 0);
      assert.deepEqual(await h.page.evaluate(() => (window as unknown as Win).__state?.imagery), []);
    } finally {
      await h.close();
    }
  });

  it('the band controls restyle the layer: a preset, three bands typed, a stretch, percentiles; a wrong input says why', async () => {
    const h = await open(scene.file, []);
    try {
      await show(h, spec({ render: { kind: 'rgb', bands: ['B04', 'B03', 'B02'] } }), scene);
      assert.equal((await settled(h, 'scene')).state, 'ready');
      const row = h.page.locator('.eo-imagery-row[data-id="scene"]');
      const select = row.getByLabel('Band combination');
      await select.waitFor();
      assert.equal(await select.inputValue(), 'B04|B03|B02');
      const savedRender = () => h.page.evaluate(() => (window as unknown as Win).__state?.imagery?.[0]?.render);
      const rendered = async (pred: (r: ImageryLayerSpec['render'] | undefined) => boolean, what: string) => {
        for (let i = 0; i < 100 && !pred(await savedRender()); i++) await new Promise((r) => setTimeout(r, 50));
        assert.ok(pred(await savedRender()), `${what}: ${JSON.stringify(await savedRender())}`);
      };
      await select.selectOption('B08|B04|B03');
      await rendered((r) => r?.kind === 'rgb' && r.bands.join() === 'B08,B04,B03', 'the false colour preset');
      await settled(h, 'scene');

      // the controls are built again for the new look: pick three bands by name
      await row.getByLabel('Band combination').selectOption('custom');
      const fields = ['Red', 'Green', 'Blue'].map((c) => row.getByLabel(`${c} channel band`));
      await fields[0].fill('B99');
      await row.getByRole('button', { name: 'Apply' }).click();
      assert.equal(await row.locator('.hint').textContent(), 'No band named "B99".');
      await fields[0].fill('B08');
      await fields[1].fill('B08');
      await fields[2].fill('B08');
      await row.getByRole('button', { name: 'Apply' }).click();
      await rendered((r) => r?.kind === 'rgb' && r.bands.join() === 'B08,B08,B08', 'three bands typed');
      await settled(h, 'scene');

      // one range for the three bands by default: one minimum and maximum
      const mode = row.getByLabel('Stretch mode');
      assert.equal(await mode.inputValue(), 'linked');
      assert.equal(await row.getByLabel('R maximum').count(), 0, 'no per-channel fields while linked');
      await row.getByLabel('RGB maximum').fill('-1');
      await row.getByRole('button', { name: 'Stretch' }).click();
      assert.equal(await row.locator('.hint').textContent(), 'Each maximum must be a number above its minimum.');
      await row.getByLabel('RGB minimum').fill('0');
      await row.getByLabel('RGB maximum').fill('0.4');
      await row.getByRole('button', { name: 'Stretch' }).click();
      await rendered((r) => r?.kind === 'rgb' && JSON.stringify(r.stretch) === '[[0,0.4],[0,0.4],[0,0.4]]', 'one range typed');
      await settled(h, 'scene');

      // each band its own range, chosen from the keyboard (the select just before the range),
      // kept in the look (a saved view carries it)
      await row.getByLabel('RGB minimum').focus();
      await h.page.keyboard.press('Shift+Tab');
      assert.equal(await h.page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Stretch mode');
      await h.page.keyboard.press('ArrowDown');
      await rendered((r) => r?.kind === 'rgb' && r.perBand === true && r.stretch === undefined, 'per band');
      await settled(h, 'scene');
      for (const c of ['R', 'G', 'B']) {
        await row.getByLabel(`${c} minimum`).fill('0');
        await row.getByLabel(`${c} maximum`).fill('0.5');
      }
      await row.getByRole('button', { name: 'Stretch' }).click();
      await rendered((r) => r?.kind === 'rgb' && JSON.stringify(r.stretch) === '[[0,0.5],[0,0.5],[0,0.5]]', 'the stretch typed');
      await settled(h, 'scene');

      await row.getByLabel('Percentiles').fill('5-95');
      await row.getByRole('button', { name: 'Auto' }).click();
      await rendered(
        (r) => r?.kind === 'rgb' && r.stretch === undefined && r.perBand === true && r.percentiles?.join() === '5,95',
        'percentiles, still per band',
      );
      assert.deepEqual(h.pageErrors, []);
    } finally {
      await h.close();
    }
  });

  it("decodes in a blob worker under the map's CSP", async () => {
    const h = await open(scene.file, []);
    try {
      await show(h, spec(), scene);
      await settled(h, 'scene');
      assert.deepEqual(await h.page.evaluate(() => (window as unknown as Win).eoMap.decodeMode?.mode), 'worker');
    } finally {
      await h.close();
    }
  });

  it('decodes on the page when no worker can start, the same pixels', async () => {
    const h = await open(scene.file, []);
    try {
      // a webview that refuses workers (another host's CSP): the decoder pool starts in the
      // background while the first reads go out, and its failure must not leave them waiting
      await h.page.evaluate(() => {
        (window as unknown as { Worker: unknown }).Worker = class {
          constructor() {
            throw new Error('workers are not allowed here');
          }
        };
      });
      await show(h, spec(), scene);
      assert.deepEqual(await settled(h, 'scene'), { state: 'ready', text: '' });
      const expect = (v: [number, number, number, number]) => [v[2], v[1], v[0]].map((x) => Math.round((x / 3000) * 255));
      near(await pixelAt(h, scene.points.vegetation), expect([300, 700, 500, 4500]), 3, 'vegetation');
      near(await pixelAt(h, scene.points.water), expect([900, 700, 800, 200]), 3, 'water');
      assert.deepEqual(await h.page.evaluate(() => (window as unknown as Win).eoMap.decodeMode?.mode), 'main-thread');
    } finally {
      await h.close();
    }
  });

  it('says why when the file cannot be read, the CRS is unknown, or a band is missing', async () => {
    const h = await open(scene.file, [], { fail: { status: 403, message: 'Forbidden (403): access to the file was refused.' } });
    try {
      await show(h, spec({ id: 'denied' }), scene);
      const s = await settled(h, 'denied');
      assert.equal(s.state, 'error');
      assert.match(s.text, /403/);
    } finally {
      await h.close();
    }
    const h2 = await open(scene.file, []);
    try {
      await show(h2, spec({ id: 'noband', render: { kind: 'rgb', bands: ['B12', 'B08', 'B04'] } }), scene);
      const s = await settled(h2, 'noband');
      assert.equal(s.state, 'error');
      assert.match(s.text, /no band named "B12"/);
    } finally {
      await h2.close();
    }
    const junk = join(dir, 'junk.tif');
    execFileSync('/usr/bin/python3', ['-c', `open(${JSON.stringify(junk)}, 'wb').write(b'II*\\x00' + bytes(range(256)) * 8)`]);
    const h3 = await open(junk, []);
    try {
      await show(h3, spec({ id: 'junk' }), scene);
      const s = await settled(h3, 'junk');
      assert.equal(s.state, 'error');
      assert.match(s.text, /not a readable GeoTIFF|directory could not be read|could not be|past its end/);
    } finally {
      await h3.close();
    }
  });

  it('colours a classified raster by its class colours, leaves other values and no-data transparent, and lists the classes', async () => {
    const cls = makeScene('classes.tif', '--classes', '--size', '512');
    const h = await open(cls.file, []);
    try {
      await show(
        h,
        spec({
          id: 'lc',
          bands: [{ name: 'class' }],
          render: {
            kind: 'classes',
            band: 'class',
            legendTitle: 'Land cover',
            classes: [
              { value: 1, color: '#1f78b4', name: 'water' },
              { value: 2, color: '#ffd92f80', name: 'cropland' },
              { value: 5, color: '#a61', name: 'bare soil' },
              { value: 0, color: '#00000000', name: 'no change' },
            ],
          },
        }),
        cls,
      );
      assert.deepEqual(await settled(h, 'lc'), { state: 'ready', text: '' });
      const water = await pixelAt(h, cls.points.water);
      near(water, [0x1f, 0x78, 0xb4, 255], 1, 'water, class 1');
      const crop = await pixelAt(h, cls.points.vegetation);
      near(crop, [0xff, 0xd9, 0x2f, 0x80], 3, 'cropland, class 2 at half opacity');
      near(await pixelAt(h, cls.points.bare), [0xaa, 0x66, 0x11, 255], 1, 'bare soil, class 5 (#a61)');
      assert.equal((await pixelAt(h, cls.points.roofs))[3], 0, 'a value no class lists (9) is not drawn');
      assert.equal((await pixelAt(h, cls.points.nodata))[3], 0, 'no-data (255) is not drawn');
      const legend = h.page.locator('.eo-legend[data-id="lc"]');
      assert.equal(await legend.locator('.title').textContent(), 'Land cover');
      assert.deepEqual(await legend.locator('li .name').allTextContents(), ['water', 'cropland', 'bare soil', 'no change']);
      const swatch = await legend.locator('li[data-value="1"] .swatch').evaluate((e) => getComputedStyle(e).backgroundColor);
      assert.equal(swatch, 'rgb(31, 120, 180)');
      assert.deepEqual(h.pageErrors, []);
    } finally {
      await h.close();
    }
  });

  it("outlines an insight output's AOI with the layer, in the AOI layer's colour; hiding or removing the layer takes the outline with it", async () => {
    const cls = makeScene('outlined.tif', '--classes', '--size', '256');
    const h = await open(cls.file, []);
    try {
      // the run's AOI: the middle of the scene
      const [[w, n], [e, s]] = cls.corners;
      const [aw, ae, as, an] = [w + (e - w) * 0.25, w + (e - w) * 0.75, s + (n - s) * 0.25, s + (n - s) * 0.75];
      const aoi = {
        type: 'Polygon',
        coordinates: [
          [
            [aw, as],
            [ae, as],
            [ae, an],
            [aw, an],
            [aw, as],
          ],
        ],
      };
      const output = spec({
        id: 'output',
        bands: [{ name: 'class' }],
        render: { kind: 'classes', band: 'class', legendTitle: 'Land cover', classes: [{ value: 1, color: '#1f78b4', name: 'water' }] },
        outline: aoi,
      });
      await show(h, output, cls);
      assert.deepEqual(await settled(h, 'output'), { state: 'ready', text: '' });
      const outline = h.page.locator('path.eo-imagery-outline');
      assert.equal(await outline.count(), 1, 'the AOI is outlined with the output');
      const drawn = await outline.evaluate((p) => ({
        stroke: p.getAttribute('stroke'),
        fill: p.getAttribute('fill'),
        aois: getComputedStyle(document.documentElement).getPropertyValue('--eo-c-aois').trim(),
        box: p.getBoundingClientRect().toJSON() as { left: number; top: number; right: number; bottom: number },
      }));
      assert.ok(drawn.aois, 'the theme names the AOI colour');
      assert.equal(drawn.stroke, drawn.aois, "the outline is in the AOI layer's colour");
      assert.equal(drawn.fill, 'none', 'the outline tints nothing inside it');
      // where the AOI is on screen: its corners, projected by the map
      const want = await h.page.evaluate(
        ([nw, se]) => {
          const map = (window as unknown as Win).eoMap.map;
          const r = document.getElementById('map')!.getBoundingClientRect();
          const a = map.latLngToContainerPoint([nw[1], nw[0]]);
          const b = map.latLngToContainerPoint([se[1], se[0]]);
          return { left: r.left + a.x, top: r.top + a.y, right: r.left + b.x, bottom: r.top + b.y };
        },
        [
          [aw, an],
          [ae, as],
        ] as [[number, number], [number, number]],
      );
      for (const side of ['left', 'top', 'right', 'bottom'] as const)
        assert.ok(Math.abs(drawn.box[side] - want[side]) <= 3, `outline's ${side} at ${drawn.box[side]}, the AOI's at ${want[side]}`);
      await h.page.screenshot({ path: join(ROOT, 'test-results', 'screenshots', 'insight-output-aoi-outline.png') });

      const row = h.page.locator('.eo-imagery-row[data-id="output"]');
      await row.locator('input.visible').uncheck();
      assert.equal(await outline.count(), 0, 'hiding the output hides its outline');
      await row.locator('input.visible').check();
      assert.equal(await outline.count(), 1, 'showing the output again shows its outline');
      await row.locator('button.remove').click();
      assert.equal(await outline.count(), 0, 'removing the output removes its outline');
      assert.deepEqual(h.pageErrors, []);
    } finally {
      await h.close();
    }
  });

  it('shows progress while a slow server holds the tiles; removing the layer cancels every read in flight', async () => {
    // texture makes tiles big (flat quadrants compress to a few bytes each, inside the first read):
    // every read after the header block is then a tile read
    const noisy = makeScene('noisy.tif', '--noise');
    const h = await open(noisy.file, [], { holdFrom: 1 });
    try {
      await show(h, spec({ id: 'slow' }), noisy);
      const status = h.page.locator('.eo-imagery-row[data-id="slow"] .status');
      await waitUntil(
        h.page,
        () => /Loading tiles: \d+ of \d+/.test(document.querySelector('.eo-imagery-row[data-id="slow"] .status')?.textContent ?? ''),
        undefined,
        { timeout: 20000 },
      );
      const [, done, total] = /Loading tiles: (\d+) of (\d+)/.exec((await status.textContent()) ?? '') ?? [];
      assert.ok(Number(done) < Number(total), `tiles still loading: ${done} of ${total}`);
      // wait until the held reads have gone out, then remove the layer
      const held = () =>
        (h.posted as Posted[])
          .filter((m) => m.type === 'request' && m.request?.method === 'readBytes' && m.request.params.offset >= 1)
          .map((m) => m.id as number);
      await h.page.waitForTimeout(300);
      const pending = held();
      assert.ok(
        pending.length > 0,
        `tile reads went out: ${JSON.stringify((h.posted as Posted[]).filter((m) => m.type === 'request').map((m) => [m.id, m.request?.method, m.request?.params?.offset, m.request?.params?.length]))}`,
      );
      await h.page.locator('.eo-imagery-row[data-id="slow"] button.remove').click();
      await h.waitFor((m) => (m as Posted).type === 'cancelRequest' && (m as Posted).id === pending.at(-1), 5000);
      const cancelled = new Set((h.posted as Posted[]).filter((m) => m.type === 'cancelRequest').map((m) => m.id));
      assert.deepEqual(
        pending.filter((id) => !cancelled.has(id)),
        [],
        'every read in flight is cancelled',
      );
      assert.equal(await h.page.locator('.eo-imagery-row').count(), 0);
      assert.deepEqual(h.pageErrors, []);
    } finally {
      await h.close();
    }
  });

  it('draws a GeoTIFF that is not tiled when it is under 50 MB, and refuses a bigger one saying why', async () => {
    const striped = makeScene('striped.tif', '--striped', '--size', '512');
    const h = await open(striped.file, []);
    try {
      await show(h, spec({ id: 'striped' }), striped);
      assert.deepEqual(await settled(h, 'striped'), { state: 'ready', text: '' });
      near(
        await pixelAt(h, striped.points.vegetation),
        [500, 700, 300].map((x) => Math.round((x / 3000) * 255)),
        3,
        'vegetation from strips',
      );
    } finally {
      await h.close();
    }
    const big = join(dir, 'big-striped.tif');
    execFileSync('/usr/bin/python3', [
      '-c',
      [
        'from osgeo import gdal, osr',
        `ds = gdal.GetDriverByName('GTiff').Create(${JSON.stringify(big)}, 7300, 7300, 1, gdal.GDT_Byte, ['TILED=NO'])`,
        'ds.SetGeoTransform((500000, 10, 0, 4650000, 0, -10))',
        's = osr.SpatialReference(); s.ImportFromEPSG(32633); ds.SetProjection(s.ExportToWkt())',
        'ds.GetRasterBand(1).Fill(7); ds = None',
      ].join('\n'),
    ]);
    const h2 = await open(big, []);
    try {
      await show(
        h2,
        spec({
          id: 'big',
          bands: [{ name: 'grey' }],
          render: {
            kind: 'rgb',
            bands: ['grey', 'grey', 'grey'],
            stretch: [
              [0, 255],
              [0, 255],
              [0, 255],
            ],
          },
        }),
        scene,
      );
      const s = await settled(h2, 'big');
      assert.equal(s.state, 'error');
      assert.match(s.text, /not tiled and 53 MB/);
      assert.match(s.text, /gdal_translate -of COG/);
    } finally {
      await h2.close();
    }
  });

  it('refuses a CRS the map cannot reproject, and a preset that needs more bands than the file has, each saying why', async () => {
    const laea = makeScene('laea.tif', '--epsg', '3035', '--size', '256');
    const h = await open(laea.file, []);
    try {
      await show(h, spec({ id: 'laea' }), scene);
      const s = await settled(h, 'laea');
      assert.equal(s.state, 'error');
      assert.match(s.text, /EPSG:3035, which the map cannot reproject/);
    } finally {
      await h.close();
    }
    const one = makeScene('one-band.tif', '--classes', '--size', '256');
    const h2 = await open(one.file, []);
    try {
      // the item said four bands; the file holds one: true colour (B04, B03, B02) cannot fit
      await show(h2, spec({ id: 'oneband', render: { kind: 'rgb', bands: ['B04', 'B03', 'B02'] } }), one);
      const s = await settled(h2, 'oneband');
      assert.equal(s.state, 'error');
      assert.match(s.text, /Band "B04" is band 3, but the file has only 1 band/);
    } finally {
      await h2.close();
    }
  });

  it('signed out, its layers wait under the one banner; signed in again, they draw and the search options fill', async () => {
    const NOT_CONNECTED = 'No EO Imagery service is connected: sign in, or try the sandbox.';
    let connected = false;
    const bytes = rangeHandler(scene.file, []);
    const options = {
      collections: [{ id: 'c1', title: 'Collection one' }],
      satellites: [{ id: 's1', name: 'Sat one', collection_id: 'c1', queryables: [] }],
      projects: [],
      errors: {},
    };
    // as the extension answers: signed out, every request fails, the options' too
    const h = await openWebview('map', {
      viewport: { width: 1200, height: 800 },
      onRequest: (req) => {
        if (!connected) throw new Error(NOT_CONNECTED);
        return (req as { method: string }).method === 'searchOptions' ? options : bytes(req);
      },
    });
    try {
      await h.waitFor(isType('ready'));
      await h.send({ type: 'init', basemaps: [] });
      await h.send({ type: 'connection', connected: false, configured: false });
      await show(h, spec(), scene);
      await show(h, spec({ id: 'second', title: 'Second scene' }), scene);
      await h.page.locator('#not-connected').waitFor();
      for (const id of ['scene', 'second']) assert.equal((await settled(h, id)).state, 'error', `${id} cannot be read signed out`);
      // one red line says why (the banner), not one per layer and per list
      const lines = () =>
        h.page.evaluate(() =>
          Array.from(document.querySelectorAll<HTMLElement>('[role="alert"], .error'))
            .filter((e) => e.offsetParent !== null && (e.textContent ?? '').trim() !== '' && !e.closest('#not-connected'))
            .map((e) => e.textContent),
        );
      await h.page.waitForTimeout(300);
      assert.deepEqual(await lines(), [], 'no red line besides the banner');
      assert.match((await settled(h, 'scene')).text, /sign in/i, 'the row says what it waits for');

      // Signed in (here or in another window): the layers draw, in their order, and the lists fill.
      connected = true;
      await h.send({ type: 'connection', connected: true, configured: true });
      await h.page.locator('#not-connected').waitFor({ state: 'detached' });
      await waitUntil(h.page, () => Array.from(document.querySelectorAll<HTMLElement>('.eo-imagery-row')).every((r) => r.dataset.state === 'ready'));
      assert.deepEqual(await h.page.evaluate(() => Array.from(document.querySelectorAll<HTMLElement>('.eo-imagery-row')).map((r) => r.dataset.id)), [
        'scene',
        'second',
      ]);
      assert.equal((await pixelAt(h, scene.points.bare))[3], 255, 'the scene is drawn');
      await waitUntil(h.page, () => document.querySelectorAll('#collections option').length === 1);
      assert.deepEqual(await lines(), []);
      assert.deepEqual(h.pageErrors, []);
    } finally {
      await h.close();
    }
  });
});
