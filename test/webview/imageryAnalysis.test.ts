import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ImageryLayerSpec, ReadBytesParams } from '../../src/panels/imagery/protocol';
import { closeBrowser, isType, openWebview, type Harness } from './harness';
import { imageryPixelAt as pixelAt } from './imageryPixels';
import { moveMap } from './moveMap';
import { waitUntil } from '../support/waitUntil';

/**
 * The pixel inspector, the histogram with its stretch handles and the saved clip, on a scene
 * GDAL wrote (test/fixtures/imagery/make_scene.py): four quadrants of known values, so every
 * expected number comes from the fixture or from GDAL reading the same file.
 */
interface Scene {
  file: string;
  points: Record<'vegetation' | 'water' | 'bare' | 'roofs' | 'nodata', [number, number]>;
  corners: [[number, number], [number, number]];
  values: Record<'vegetation' | 'water' | 'bare' | 'roofs', [number, number, number, number]>;
}

const dir = mkdtempSync(join(tmpdir(), 'eo-analysis-'));
const URL0 = 'https://assets.example.com/scene.tif';
const MASK_CHECK = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'imagery', 'check_masked_clip.py');
const SCALE = 0.0001;
const BANDS = [
  { name: 'B02', commonName: 'blue', wavelength: 0.49, scale: SCALE, offset: 0 },
  { name: 'B03', commonName: 'green', wavelength: 0.56, scale: SCALE, offset: 0 },
  { name: 'B04', commonName: 'red', wavelength: 0.665, scale: SCALE, offset: 0 },
  { name: 'B08', commonName: 'nir', wavelength: 0.842, scale: SCALE, offset: 0 },
];

let scene: Scene;
before(() => {
  const out = execFileSync('/usr/bin/python3', [join(__dirname, '..', '..', '..', 'test', 'fixtures', 'imagery', 'make_scene.py'), join(dir, 'scene.tif')], {
    encoding: 'utf8',
  });
  scene = JSON.parse(out) as Scene;
});
after(async () => {
  await closeBrowser();
  rmSync(dir, { recursive: true, force: true });
});

type Tools = {
  inspector: { active: boolean };
  histogram?: {
    last?: {
      level: number;
      window: [number, number, number, number];
      missing: number;
      bands: { name: string; lo: number; hi: number; counts: number[]; total: number }[];
    };
  };
  openHistogram(): Promise<unknown>;
  clip(req: unknown): Promise<{ bytes: ArrayBuffer; width: number; height: number; fetchedBytes?: number; tileBytes?: number }>;
};
type Win = {
  eoMap: {
    map: { fitBounds(b: unknown, o?: unknown): void; latLngToContainerPoint(ll: [number, number]): { x: number; y: number } };
    imagery(): Promise<{ layer(id: string): { stretch?: [number, number][]; spec: { render: { rescale?: [number, number] } } } | undefined }>;
    imageryTools?: Tools;
  };
  __eoAnalysisChunk?: unknown;
};

async function open(log: ReadBytesParams[]): Promise<Harness> {
  const bytes = readFileSync(scene.file);
  const h = await openWebview('map', {
    viewport: { width: 1280, height: 800 },
    onRequest: (req) => {
      const r = req as { method: string; params: ReadBytesParams };
      if (r.method !== 'readBytes') throw new Error(`unexpected ${r.method}`);
      log.push(r.params);
      return { bytes: new Uint8Array(bytes.subarray(r.params.offset, r.params.offset + r.params.length)), total: bytes.length };
    },
  });
  await h.waitFor(isType('ready'));
  await h.send({ type: 'init', basemaps: [] });
  return h;
}

const spec = (over: Partial<ImageryLayerSpec> = {}): ImageryLayerSpec => ({
  id: 'scene',
  title: 'Synthetic scene',
  url: URL0,
  bands: BANDS,
  render: {
    kind: 'rgb',
    bands: ['B04', 'B03', 'B02'],
    stretch: [
      [0, 0.3],
      [0, 0.3],
      [0, 0.3],
    ],
  },
  source: { kind: 'url', url: URL0 },
  ...over,
});

async function showAndSettle(h: Harness, s: ImageryLayerSpec): Promise<void> {
  const [[w, n], [e, so]] = scene.corners;
  // the scene clear of the map's own controls (the tools are in the dock beside it), so every quadrant can be clicked
  await moveMap(h.page, {
    fitBounds: [
      [so, w],
      [n, e],
    ],
    options: { animate: false, paddingTopLeft: [60, 10], paddingBottomRight: [70, 10] },
  });
  await h.send({ type: 'imagery', spec: s, fit: false });
  await waitUntil(
    h.page,
    (id) => {
      const r = document.querySelector(`.eo-imagery-row[data-id="${id}"]`) as HTMLElement | null;
      return r?.dataset.state === 'ready';
    },
    s.id,
    { timeout: 20000 },
  );
}

async function clickAt(h: Harness, [lon, lat]: [number, number]): Promise<void> {
  const p = await h.page.evaluate(
    ([lo, la]) => {
      const pt = (window as unknown as Win).eoMap.map.latLngToContainerPoint([la, lo]);
      const r = document.getElementById('map')!.getBoundingClientRect();
      return { x: r.left + pt.x, y: r.top + pt.y };
    },
    [lon, lat],
  );
  await h.page.mouse.click(p.x, p.y);
}

/** The inspector's table: band name → shown value. */
async function table(h: Harness): Promise<Record<string, string>> {
  await h.page.locator('#pixel-inspector .bands tbody tr').first().waitFor({ timeout: 10000 });
  return h.page.evaluate(() =>
    Object.fromEntries(
      Array.from(document.querySelectorAll('#pixel-inspector .bands tbody tr')).map((tr) => [
        (tr.querySelector('th')?.textContent ?? '').split(' ')[0],
        tr.querySelector('td.value')?.textContent ?? '',
      ]),
    ),
  );
}

function gdal(script: string, ...args: string[]): string {
  return execFileSync('/usr/bin/python3', ['-c', script, ...args], { encoding: 'utf8' });
}

describe('pixel inspector, histogram and saved clips', () => {
  it('lists every band scaled by raster:bands, both CRSs, and a spectrum with a red edge, without reading again', async () => {
    const log: ReadBytesParams[] = [];
    const h = await open(log);
    try {
      await showAndSettle(h, spec());
      assert.equal(
        await h.page.evaluate(() => (window as unknown as Win).__eoAnalysisChunk),
        undefined,
        'the chart chunk is not loaded before the inspector opens',
      );
      const reads = log.length;
      await h.page.locator('button.inspect').click();
      await clickAt(h, scene.points.vegetation);
      const veg = await table(h);
      // the fixture's DNs × 0.0001
      assert.deepEqual(veg, { B02: '0.03', B03: '0.07', B04: '0.05', B08: '0.45' });
      // the scene's CRS: where GDAL/PROJ puts the clicked lat/lon in EPSG:32633
      assert.equal(await h.page.locator('#pixel-inspector .coords dt').nth(2).textContent(), 'EPSG:32633');
      const ll = (await h.page.locator('#pixel-inspector .lonlat').textContent()) ?? '';
      const [lat, lon] = ll.split(',').map(Number);
      assert.ok(Math.abs(lat - scene.points.vegetation[1]) < 1e-3 && Math.abs(lon - scene.points.vegetation[0]) < 1e-3, `lat/lon ${ll}`);
      const xy = (await h.page.locator('#pixel-inspector .scene-crs').textContent()) ?? '';
      const [, x, y] = /x ([\d.]+), y ([\d.]+)/.exec(xy) ?? [];
      const [ex, ey] = JSON.parse(
        gdal(
          `
import json, sys
from osgeo import osr
a = osr.SpatialReference(); a.ImportFromEPSG(4326); a.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
b = osr.SpatialReference(); b.ImportFromEPSG(32633)
x, y, _ = osr.CoordinateTransformation(a, b).TransformPoint(float(sys.argv[1]), float(sys.argv[2]))
print(json.dumps([x, y]))
`,
          String(lon),
          String(lat),
        ),
      ) as [number, number];
      // the lat/lon shown has 6 decimals (≈ 0.1 m)
      assert.ok(Math.abs(Number(x) - ex) < 0.5 && Math.abs(Number(y) - ey) < 0.5, `scene CRS ${xy}, GDAL ${ex}, ${ey}`);
      // the spectral chart is drawn by the chart chunk
      await h.page.locator('#pixel-inspector .eo-spectrum canvas').first().waitFor({ timeout: 10000 });
      assert.notEqual(await h.page.evaluate(() => (window as unknown as Win).__eoAnalysisChunk), undefined);
      // it fits the dock's width: nothing to scroll sideways to read its last wavelengths
      const scrolled = await h.page.evaluate(() =>
        Array.from(document.querySelectorAll<HTMLElement>('#pixel-inspector, #pixel-inspector *'))
          .filter((e) => e.scrollWidth > e.clientWidth + 1 && /auto|scroll/.test(getComputedStyle(e).overflowX))
          .map((e) => `${e.tagName.toLowerCase()}.${e.className}: ${e.scrollWidth} > ${e.clientWidth}`),
      );
      assert.deepEqual(scrolled, [], 'the spectrum scrolls sideways in the dock');
      // pin it, inspect water, copy both as CSV
      await h.page.locator('#pixel-inspector button.pin').click();
      await clickAt(h, scene.points.water);
      assert.deepEqual(await table(h).then((t) => t.B08), '0.02');
      await h.page.locator('#pixel-inspector button.copy-csv').click();
      const copied = await h.waitFor<{ text: string }>(isType('copyText'));
      const rows = copied.text
        .trim()
        .split('\n')
        .map((l) => l.split(','));
      assert.deepEqual(
        rows.map((r) => r[0]),
        ['band', 'B02', 'B03', 'B04', 'B08'],
      );
      assert.equal(rows[0].length, 4, 'band, wavelength, this pixel, one pinned pixel');
      const col = (band: string, c: number) => Number(rows.find((r) => r[0] === band)?.[c]);
      // water (this pixel) is dark in the NIR; vegetation (pinned) has its red edge
      assert.ok(col('B08', 2) < col('B04', 2), 'water: NIR below red');
      assert.ok(col('B08', 3) > 4 * col('B04', 3), 'vegetation: NIR far above red (the red edge)');
      assert.equal(rows.find((r) => r[0] === 'B08')?.[1], '842');
      if (process.env.EO_SHOT) await h.page.screenshot({ path: process.env.EO_SHOT });
      assert.equal(log.length, reads, 'the inspector read nothing from the file');
      assert.deepEqual(h.pageErrors, []);
    } finally {
      await h.close();
    }
  });

  it('"Copy as CSV" writes a band name that begins like a formula as text, in a `,` and a `;` locale', async () => {
    const h = await open([]);
    try {
      // band names come from the service's or the file's metadata
      const hostile = "=B02+cmd|' /C calc'!A0";
      const nir = "B08;-2+3+cmd|' /C calc'!A0";
      const bands = [{ ...BANDS[0], name: hostile }, BANDS[1], BANDS[2], { ...BANDS[3], name: nir }];
      const base = spec();
      await showAndSettle(h, spec({ bands, render: { ...base.render, bands: ['B04', 'B03', hostile] } as ImageryLayerSpec['render'] }));
      await h.page.locator('button.inspect').click();
      await clickAt(h, scene.points.vegetation);
      await table(h);
      await h.page.locator('#pixel-inspector button.copy-csv').click();
      const copied = await h.waitFor<{ text: string }>(isType('copyText'));
      const firstCells = copied.text
        .trim()
        .split('\n')
        .map((l) => l.split(',')[0]);
      assert.deepEqual(firstCells, ['band', `'${hostile}`, 'B03', 'B04', "B08;'-2+3+cmd|' /C calc'!A0"]);
      assert.deepEqual(h.pageErrors, []);
    } finally {
      await h.close();
    }
  });

  it('counts the decoded window like GDAL, and a stretch handle restyles without reading', async () => {
    const log: ReadBytesParams[] = [];
    const h = await open(log);
    try {
      await showAndSettle(h, spec());
      await h.page.locator('button.histogram').click();
      await h.page.locator('#imagery-histogram .eo-histogram canvas').first().waitFor({ timeout: 10000 });
      const last = await h.page.evaluate(() => (window as unknown as Win).eoMap.imageryTools?.histogram?.last);
      assert.ok(last, 'a histogram was computed');
      assert.equal(last.missing, 0);
      assert.deepEqual(
        last.bands.map((b) => b.name),
        ['B04', 'B03', 'B02'],
      );
      // GDAL reads the same window of the same level and bins it the same way
      const expected = JSON.parse(
        gdal(
          `
import json, sys
import numpy as np
from osgeo import gdal
ds = gdal.Open(sys.argv[1])
last = json.loads(sys.argv[2])
x0, y0, x1, y1 = last['window']
out = []
for name, b in zip(['B04', 'B03', 'B02'], [3, 2, 1]):
    band = ds.GetRasterBand(b)
    if last['level'] > 0:
        band = band.GetOverview(last['level'] - 1)
    a = band.ReadAsArray(x0, y0, x1 - x0, y1 - y0).astype(np.float64)
    v = a[a != 0] * 0.0001
    h = [x for x in last['bands'] if x['name'] == name][0]
    counts, _ = np.histogram(v, bins=len(h['counts']), range=(h['lo'], h['hi']))
    out.append({'total': int(v.size), 'counts': [int(c) for c in counts], 'min': float(v.min()), 'max': float(v.max())})
print(json.dumps(out))
`,
          scene.file,
          JSON.stringify(last),
        ),
      ) as { total: number; counts: number[]; min: number; max: number }[];
      last.bands.forEach((b, i) => {
        assert.equal(b.total, expected[i].total, `${b.name}: pixels counted`);
        assert.deepEqual(b.counts, expected[i].counts, `${b.name}: counts per bin`);
        assert.ok(Math.abs(b.lo - expected[i].min) < 1e-9 && Math.abs(b.hi - expected[i].max) < 1e-9, `${b.name}: range`);
      });
      // the first channel's maximum, moved down with the keyboard
      const reads = log.length;
      const hi = h.page.locator('#imagery-histogram .eo-histogram').first().locator('.handle.hi');
      await hi.focus();
      for (let i = 0; i < 5; i++) await hi.press('Shift+ArrowLeft');
      await waitUntil(h.page, () => {
        const w = window as unknown as { eoMap: { imageryTools?: unknown } } & Win;
        return (document.querySelector('.eo-imagery-row[data-id="scene"]') as HTMLElement | null)?.dataset.state === 'ready' && w;
      });
      const stretch = await h.page.evaluate(async () => (await (window as unknown as Win).eoMap.imagery()).layer('scene')?.stretch);
      // R, G and B share one range by default (issue 41): the handle moves the shared maximum
      assert.ok(
        stretch && stretch[0][1] < 0.3 && stretch.every((b) => b[1] === stretch[0][1]),
        `the linked maximum moved down for R, G and B alike: ${JSON.stringify(stretch)}`,
      );
      await h.page.waitForTimeout(300);
      assert.equal(log.length, reads, 'the restyle redrew from decoded tiles');
      assert.deepEqual(h.pageErrors, []);
    } finally {
      await h.close();
    }
  });

  it("an index layer: the histogram of its values in the view, with the colour map's range as handles that recolour without reading", async () => {
    const log: ReadBytesParams[] = [];
    const h = await open(log);
    try {
      const render = {
        kind: 'index' as const,
        expression: '(B08 - B04) / (B08 + B04)',
        rescale: [-1, 1] as [number, number],
        colormap: 'RdYlGn',
        legendTitle: 'NDVI',
      };
      await showAndSettle(h, spec({ id: 'ndvi', title: 'NDVI', render }));
      const reads = log.length;
      await h.page.locator('button.histogram').click();
      await h.page.locator('#imagery-histogram .eo-histogram canvas').first().waitFor({ timeout: 10000 });
      const last = await h.page.evaluate(() => (window as unknown as Win).eoMap.imageryTools?.histogram?.last);
      assert.ok(last, 'a histogram was computed');
      assert.equal(last.missing, 0);
      assert.equal(last.bands.length, 1, 'one histogram: the index values');
      const [ndvi] = last.bands;
      assert.equal(ndvi.name, 'NDVI');
      // the fixture's quadrants: NDVI = (nir - red) / (nir + red) from their DNs
      const known = (['vegetation', 'water', 'bare', 'roofs'] as const).map(
        (k) => (scene.values[k][3] - scene.values[k][2]) / (scene.values[k][3] + scene.values[k][2]),
      );
      assert.ok(Math.abs(ndvi.lo - Math.min(...known)) < 1e-9 && Math.abs(ndvi.hi - Math.max(...known)) < 1e-9, `range ${ndvi.lo}..${ndvi.hi}`);
      const binOf = (v: number) => Math.min(ndvi.counts.length - 1, Math.floor(((v - ndvi.lo) * ndvi.counts.length) / (ndvi.hi - ndvi.lo)));
      assert.deepEqual(
        ndvi.counts.map((c, i) => (c ? i : -1)).filter((i) => i >= 0),
        [...new Set(known.map(binOf))].sort((a, b) => a - b),
        "a bar for each quadrant's value, nothing else",
      );
      // GDAL reads the two bands over the same window of the same level; no-data (0) left out
      const expected = JSON.parse(
        gdal(
          `
import json, sys
import numpy as np
from osgeo import gdal
ds = gdal.Open(sys.argv[1])
last = json.loads(sys.argv[2])
x0, y0, x1, y1 = last['window']
def read(b):
    band = ds.GetRasterBand(b)
    if last['level'] > 0:
        band = band.GetOverview(last['level'] - 1)
    return band.ReadAsArray(x0, y0, x1 - x0, y1 - y0).astype(np.float64)
red, nir = read(3), read(4)
ok = (red != 0) & (nir != 0)
v = ((nir - red) / (nir + red))[ok]
h = last['bands'][0]
counts, _ = np.histogram(v, bins=len(h['counts']), range=(h['lo'], h['hi']))
print(json.dumps({'total': int(v.size), 'counts': [int(c) for c in counts]}))
`,
          scene.file,
          JSON.stringify(last),
        ),
      ) as { total: number; counts: number[] };
      assert.equal(ndvi.total, expected.total, 'pixels counted');
      assert.deepEqual(ndvi.counts, expected.counts, 'counts per bin');
      // the handles sit on the colour map's range; Home and End put them on the data's ends
      const lo = h.page.locator('#imagery-histogram .eo-histogram .handle.lo');
      const hi = h.page.locator('#imagery-histogram .eo-histogram .handle.hi');
      assert.equal(await lo.getAttribute('aria-valuenow'), '-1');
      assert.equal(await hi.getAttribute('aria-valuenow'), '1');
      assert.equal(await hi.getAttribute('role'), 'slider');
      assert.match((await hi.getAttribute('aria-label')) ?? '', /^NDVI values: /);
      // drawn where they are: -1 and 1 near the two ends of the plot (the range spans them, 2 % to spare)
      const [loX, hiX, width] = await h.page.evaluate(() => {
        const box = (sel: string) => document.querySelector(`#imagery-histogram ${sel}`)!.getBoundingClientRect();
        return [box('.handle.lo').x + box('.handle.lo').width / 2, box('.handle.hi').x + box('.handle.hi').width / 2, box('.u-over').width];
      });
      assert.ok(hiX - loX > 0.9 * width && hiX - loX < width, `handles at ${loX} and ${hiX} on a plot ${width} px wide`);
      if (process.env.EO_SHOT_HISTOGRAM) await h.page.screenshot({ path: process.env.EO_SHOT_HISTOGRAM.replace(/\.png$/, '-before.png') });
      await lo.focus();
      await h.page.keyboard.press('Home');
      await waitUntil(h.page, async () => (await (window as unknown as Win).eoMap.imagery()).layer('ndvi')?.spec.render.rescale?.[0] !== -1);
      await hi.focus();
      await h.page.keyboard.press('End');
      await h.page.keyboard.press('ArrowRight');
      await h.page.keyboard.press('ArrowLeft');
      const rescale = await h.page.evaluate(async () => (await (window as unknown as Win).eoMap.imagery()).layer('ndvi')?.spec.render.rescale);
      assert.ok(
        rescale && Math.abs(rescale[0] - ndvi.lo) < 1e-6 && Math.abs(rescale[1] - ndvi.hi) < 1e-6,
        `the colour map spans the view's values: ${JSON.stringify(rescale)}`,
      );
      assert.ok(await hi.evaluate((e) => e === document.activeElement), 'the handle keeps the keyboard focus while the layer redraws');
      // NDVI of water and of vegetation, as the fixture's DNs give them
      assert.deepEqual(
        [await h.page.locator('.eo-legend[data-id="ndvi"] .min').textContent(), await h.page.locator('.eo-legend[data-id="ndvi"] .max').textContent()],
        ['-0.6', '0.8'],
        'the legend shows the new range',
      );
      // redrawn through RdYlGn over the new range: matplotlib's anchors (ColorBrewer), the
      // lowest value at the first, the highest at the last, NDVI 0 at 0.6/1.4 of the ramp
      const rdylgn = [
        [0xa5, 0x00, 0x26],
        [0xd7, 0x30, 0x27],
        [0xf4, 0x6d, 0x43],
        [0xfd, 0xae, 0x61],
        [0xfe, 0xe0, 0x8b],
        [0xff, 0xff, 0xbf],
        [0xd9, 0xef, 0x8b],
        [0xa6, 0xd9, 0x6a],
        [0x66, 0xbd, 0x63],
        [0x1a, 0x98, 0x50],
        [0x00, 0x68, 0x37],
      ];
      const ramp = (t: number) => {
        const x = t * 10;
        const k = Math.min(9, Math.floor(x));
        return rdylgn[k].map((c, i) => c + (rdylgn[k + 1][i] - c) * (x - k));
      };
      const want = { vegetation: ramp(1), water: ramp(0), bare: ramp((0 - ndvi.lo) / (ndvi.hi - ndvi.lo)) };
      for (const [k, rgb] of Object.entries(want) as [keyof typeof want, number[]][]) {
        let got: number[] = [];
        for (let i = 0; i < 50; i++) {
          got = await pixelAt(h, scene.points[k]);
          if (got[3] && got.slice(0, 3).every((c, j) => Math.abs(c - rgb[j]) <= 3)) break;
          await h.page.waitForTimeout(100);
        }
        assert.ok(got[3] === 255 && got.slice(0, 3).every((c, j) => Math.abs(c - rgb[j]) <= 3), `${k}: drawn ${got} for ${rgb.map(Math.round)}`);
      }
      if (process.env.EO_SHOT_HISTOGRAM) await h.page.screenshot({ path: process.env.EO_SHOT_HISTOGRAM });
      assert.equal(log.length, reads, 'the histogram and the recolouring read nothing from the file');
      assert.deepEqual(h.pageErrors, []);
    } finally {
      await h.close();
    }
  });

  it("a visualization's index layer: Save Colour Range to Service posts the handles' range, its date and colour map; other layers offer no such button", async () => {
    const h = await open([]);
    try {
      const render = {
        kind: 'index' as const,
        expression: '(B08 - B04) / (B08 + B04)',
        rescale: [-1, 1] as [number, number],
        colormap: 'RdYlGn',
        legendTitle: 'NDVI',
      };
      const source = { kind: 'visualization' as const, aoiId: 'aoi-1', id: 'vis-1', assetId: 'asset-1' };
      await showAndSettle(h, spec({ id: 'vis', title: 'NDVI 2026-06-01', render, source, date: '2026-06-01' }));
      await h.page.locator('button.histogram').click();
      const lo = h.page.locator('#imagery-histogram .eo-histogram .handle.lo');
      await lo.waitFor({ timeout: 10000 });
      await lo.focus();
      await h.page.keyboard.press('Home');
      await waitUntil(h.page, async () => (await (window as unknown as Win).eoMap.imagery()).layer('vis')?.spec.render.rescale?.[0] !== -1);
      const drawn = await h.page.evaluate(async () => (await (window as unknown as Win).eoMap.imagery()).layer('vis')?.spec.render.rescale);
      assert.ok(drawn && drawn[0] > -1 && drawn[1] === 1, JSON.stringify(drawn));
      await h.page.locator('#imagery-histogram button.save-range').click();
      const m = (await h.waitFor(isType('saveColourRange'))) as { range: unknown };
      assert.deepEqual(m.range, { visualization: { aoiId: 'aoi-1', id: 'vis-1' }, date: '2026-06-01', rescale: drawn, colormap: 'RdYlGn' });

      // an index layer of a plain file is not a visualization: nothing to save it to
      await showAndSettle(h, spec({ id: 'plain', title: 'NDVI of a file', render }));
      // closed and opened again: the histogram is of the top layer, the new one
      await h.page.locator('button.histogram').click();
      await h.page.locator('button.histogram').click();
      assert.equal(await h.page.locator('#imagery-histogram select.hist-layer').inputValue(), 'plain');
      await h.page.locator('#imagery-histogram .eo-histogram .handle.lo').waitFor({ timeout: 10000 });
      assert.equal(await h.page.locator('#imagery-histogram button.save-range').count(), 0);
      assert.deepEqual(h.pageErrors, []);
    } finally {
      await h.close();
    }
  });

  it("saves the view as a GeoTIFF GDAL reads with the scene's CRS, the window's extent and the file's values", async () => {
    const log: ReadBytesParams[] = [];
    const h = await open(log);
    try {
      await showAndSettle(h, spec());
      const r = await h.page.evaluate(async () => {
        const tools = (window as unknown as Win).eoMap.imageryTools as Tools;
        const c = await tools.clip({ format: 'geotiff', id: 'scene', bands: ['B02', 'B03', 'B04', 'B08'], level: 0, mask: false });
        const u8 = new Uint8Array(c.bytes);
        let s = '';
        for (let i = 0; i < u8.length; i += 0x8000) s += String.fromCharCode(...u8.subarray(i, i + 0x8000));
        return { b64: btoa(s), width: c.width, height: c.height, fetched: c.fetchedBytes, tiles: c.tileBytes };
      });
      const file = join(dir, 'clip.tif');
      writeFileSync(file, Buffer.from(r.b64, 'base64'));
      const info = JSON.parse(execFileSync('gdalinfo', ['-json', file], { encoding: 'utf8' })) as {
        size: [number, number];
        geoTransform: number[];
        coordinateSystem: { wkt: string };
        bands: { description: string; noDataValue: number; scale?: number }[];
        stac?: unknown;
      };
      assert.deepEqual(info.size, [r.width, r.height]);
      assert.match(info.coordinateSystem.wkt, /ID\["EPSG",32633\]\]$/);
      const [ox, px, , oy, , py] = info.geoTransform;
      assert.equal(px, 10);
      assert.equal(py, -10);
      // on the source grid, inside the source's extent
      assert.equal((ox - 500000) % 10, 0);
      assert.equal((4650000 - oy) % 10, 0);
      assert.ok(ox >= 500000 && oy <= 4650000 && ox + r.width * 10 <= 500000 + 1024 * 10 && oy - r.height * 10 >= 4650000 - 1024 * 10);
      assert.deepEqual(
        info.bands.map((b) => b.description),
        ['B02', 'B03', 'B04', 'B08'],
      );
      assert.equal(info.bands[0].noDataValue, 0);
      assert.equal(info.bands[0].scale, SCALE);
      // the values at the quadrants' centres, as gdallocationinfo reads them by lon/lat
      for (const k of ['vegetation', 'water', 'bare', 'roofs'] as const) {
        const [lon, lat] = scene.points[k];
        const vals = execFileSync('gdallocationinfo', ['-valonly', '-wgs84', file, String(lon), String(lat)], { encoding: 'utf8' })
          .trim()
          .split('\n')
          .map(Number);
        assert.deepEqual(vals, scene.values[k], k);
      }
      // it read the window's tiles by ranges, not the file
      assert.ok(r.fetched !== undefined && r.tiles !== undefined && r.fetched <= 1.3 * r.tiles + 64 * 1024, `fetched ${r.fetched} for tiles of ${r.tiles}`);
      assert.ok(log.every((x) => x.length < readFileSync(scene.file).length));
    } finally {
      await h.close();
    }
  });

  it("saves an AOI-masked clip: the polygon's bounding window, the scene's values inside, no-data outside and in its hole", async () => {
    const [[w, n], [e, so]] = scene.corners;
    // a point at a fraction of the scene's lon/lat box (0, 0 = north-west corner)
    const at = (a: number, b: number): [number, number] => [w + a * (e - w), n - b * (n - so)];
    // a pentagon whose west vertex lies outside the scene (the window is clamped to the file),
    // with a square hole in the bare-soil quadrant (even-odd: the hole is outside)
    const outer = [at(0.1, 0.1), at(0.8, 0.1), at(0.45, 0.9), at(0.1, 0.9), at(-0.1, 0.5), at(0.1, 0.1)];
    const hole = [at(0.3, 0.55), at(0.3, 0.68), at(0.42, 0.68), at(0.42, 0.55), at(0.3, 0.55)];
    const polygon = { type: 'Polygon', coordinates: [outer, hole] };
    const h = await open([]);
    try {
      await showAndSettle(h, spec({ id: 'aoi', clip: polygon }));
      type Sizes = { level: number; width: number; height: number }[];
      const infos = await h.page.evaluate(() =>
        ((window as unknown as Win).eoMap.imageryTools as unknown as { clipInfo(): Promise<{ id: string; aoiLevels?: Sizes }[]> }).clipInfo(),
      );
      assert.deepEqual(
        infos.map((i) => [i.id, i.aoiLevels !== undefined]),
        [['aoi', true]],
        'the layer offers its AOI as the extent',
      );
      for (const level of [0, 1]) {
        const r = await h.page.evaluate(async (lv) => {
          const tools = (window as unknown as Win).eoMap.imageryTools as Tools;
          const c = await tools.clip({ format: 'geotiff', id: 'aoi', bands: ['B04', 'B08'], level: lv, mask: true });
          const u8 = new Uint8Array(c.bytes);
          let s = '';
          for (let i = 0; i < u8.length; i += 0x8000) s += String.fromCharCode(...u8.subarray(i, i + 0x8000));
          return { b64: btoa(s), width: c.width, height: c.height };
        }, level);
        const file = join(dir, `masked-${level}.tif`);
        writeFileSync(file, Buffer.from(r.b64, 'base64'));
        const info = JSON.parse(execFileSync('gdalinfo', ['-json', file], { encoding: 'utf8' })) as {
          size: [number, number];
          geoTransform: number[];
          coordinateSystem: { wkt: string };
          bands: { description: string; noDataValue: number }[];
        };
        assert.match(info.coordinateSystem.wkt, /ID\["EPSG",32633\]\]$/);
        assert.deepEqual(
          info.bands.map((b) => b.description),
          ['B04', 'B08'],
        );
        assert.deepEqual(
          info.bands.map((b) => b.noDataValue),
          [0, 0],
          'GDAL reads the no-data value',
        );
        // GDAL's answer from the polygon itself (test/fixtures/imagery/check_masked_clip.py)
        const truth = JSON.parse(
          execFileSync('/usr/bin/python3', [MASK_CHECK, scene.file, file, JSON.stringify(polygon), String(level)], { encoding: 'utf8' }),
        ) as {
          expected: { size: [number, number]; geoTransform: number[] };
          counts: { inside: number; outside: number; outsideWithData: number };
          maskFlags: number[];
          wrong: number[][];
          wrongCount: number;
        };
        // GMF_NODATA: GDAL's mask of each band comes from the no-data value
        assert.deepEqual(truth.maskFlags, [8, 8], 'GDAL masks by the no-data value');
        assert.deepEqual(info.size, truth.expected.size, `level ${level}: the polygon's bounding window`);
        const told = infos[0].aoiLevels?.find((l) => l.level === level);
        assert.deepEqual([told?.width, told?.height], truth.expected.size, `level ${level}: the size the resolution picker shows`);
        info.geoTransform.forEach((v, i) =>
          assert.ok(Math.abs(v - truth.expected.geoTransform[i]) < 1e-6, `level ${level}: geotransform ${info.geoTransform} vs ${truth.expected.geoTransform}`),
        );
        // not vacuous: both sides hold pixels, and outside the polygon the scene has data to hide
        assert.ok(truth.counts.inside > 1000 && truth.counts.outside > 1000 && truth.counts.outsideWithData > 1000, JSON.stringify(truth.counts));
        assert.equal(
          truth.wrongCount,
          0,
          `level ${level}: pixels neither the scene's value inside nor no-data outside (col, row, band, got, want, inside): ${JSON.stringify(truth.wrong)}`,
        );
        if (level > 0) continue;
        // at places computed from the polygon: inside, outside within its window, in its hole
        const valuesAt = (p: [number, number]) =>
          execFileSync('gdallocationinfo', ['-valonly', '-wgs84', file, String(p[0]), String(p[1])], { encoding: 'utf8' })
            .trim()
            .split('\n')
            .map(Number);
        assert.deepEqual(valuesAt(scene.points.vegetation), [scene.values.vegetation[2], scene.values.vegetation[3]], 'vegetation, inside');
        assert.deepEqual(valuesAt(scene.points.bare), [scene.values.bare[2], scene.values.bare[3]], 'bare soil, inside');
        assert.deepEqual(valuesAt(at(0.7, 0.8)), [0, 0], 'roofs, outside the polygon but inside its window');
        assert.deepEqual(valuesAt(at(0.36, 0.615)), [0, 0], 'bare soil, in the hole');
        assert.deepEqual(valuesAt(at(0.15, 0.15)), [scene.values.vegetation[2], scene.values.vegetation[3]], 'vegetation, just inside the north-west vertex');
      }
      assert.deepEqual(h.pageErrors, []);
    } finally {
      await h.close();
    }
  });

  it('saves what is drawn as a PNG of the view', async () => {
    const h = await open([]);
    try {
      await showAndSettle(h, spec());
      const r = await h.page.evaluate(async () => {
        const c = await ((window as unknown as Win).eoMap.imageryTools as Tools).clip({ format: 'png' });
        return { head: Array.from(new Uint8Array(c.bytes).subarray(0, 8)), width: c.width, height: c.height };
      });
      assert.deepEqual(r.head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
      const size = await h.page.evaluate(() => document.getElementById('map')!.getBoundingClientRect());
      assert.equal(r.width, Math.round(size.width));
      assert.equal(r.height, Math.round(size.height));
    } finally {
      await h.close();
    }
  });
});
