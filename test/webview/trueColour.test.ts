import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EoClient } from '../../src/api/client';
import type { Asset } from '../../src/api/records';
import { startSandbox, type SandboxHandle } from '../../src/sandbox';
import type { ImageryLayerSpec } from '../../src/panels/imagery/protocol';
import { aoiAssetSpec, archiveItemSpec } from '../../src/panels/imagery/specs';
import { difference, type Difference, type Rgb } from '../support/colourDifference';
import { closeBrowser, isType, openWebview, type Harness } from './harness';
import { imageryView, type ImageryView } from '../support/imageryView';
import { layerSettled } from './imageryPixels';
import { runFixture, sandboxReads } from './sandboxImagery';

/**
 * The default look of a true-colour layer against two oracles, over the whole view:
 * - GDAL (test/fixtures/imagery/true_colour.py): the same scene warped to the map's view by
 *   gdal.Warp and stretched by numpy with one range for red, green and blue, worked out over
 *   the clear pixels of the coarsest overview. Ours must be the same picture: mean CIEDE2000
 *   under 1 (below what a person tells apart) and mean hue difference under 1.5°.
 * - The scene's own `visual` asset (8-bit true colour the sandbox draws from the same pixels,
 *   as Sentinel-2's TCI is drawn from its reflectance): a picture made with another gain and a
 *   gamma, so only its hues must agree, within 5° on average.
 * Each compared over cells of 12 × 12 screen pixels (their mean colours: the two warps may put
 * a pixel's edge one screen pixel apart) that all three draw in full. Per-band stretching, the
 * old default, is more than 15° off either.
 */
const CELL = 12;
const BOUNDS = { gdal: { deltaE2000: 1, hue: 1.5 }, visual: { hue: 5 } };

let sb: SandboxHandle;
let client: EoClient;

before(async () => {
  sb = await startSandbox({ port: 0 });
  client = new EoClient({ baseUrl: sb.url, token: sb.tokens.alice, userAgent: 'eo-imagery-webview-test' });
});
after(async () => {
  await closeBrowser();
  await sb?.close();
});

interface Oracle {
  stretch: [number, number];
  gdal: Uint8Array;
  visual?: Uint8Array;
}

async function oracle(spec: ImageryLayerSpec, view: ImageryView, visual: string | undefined): Promise<Oracle> {
  assert.equal(spec.render.kind, 'rgb');
  if (spec.render.kind !== 'rgb') throw new Error('not a composite');
  const names = spec.render.bands[0] ? spec.render.bands : (['B04', 'B03', 'B02'] as const);
  const channels = names.map((name) => {
    const b = spec.bands.find((x) => x.name === name);
    assert.ok(b, `the file has no band ${name}`);
    return { band: name, scale: b.scale ?? 1, offset: b.offset ?? 0 };
  });
  const got = await runFixture<{ stretch: [number, number]; gdal: string; visual: string | null }>('true_colour.py', {
    file: spec.url,
    visual,
    header: `Authorization: Bearer ${sb.tokens.alice}`,
    names: spec.bands.map((b) => b.name),
    channels,
    lo: 2,
    hi: 98,
    bounds: view.bounds,
    width: view.width,
    height: view.height,
  });
  const bytes = (b64: string) => new Uint8Array(Buffer.from(b64, 'base64'));
  return { stretch: got.stretch, gdal: bytes(got.gdal), ...(got.visual ? { visual: bytes(got.visual) } : {}) };
}

/** Mean colours of the cells every picture draws in full, one list per picture, cells in the same order. */
function cellMeans(width: number, height: number, pictures: Uint8Array[]): Rgb[][] {
  const out: Rgb[][] = pictures.map(() => []);
  for (let y0 = 0; y0 + CELL <= height; y0 += CELL) {
    for (let x0 = 0; x0 + CELL <= width; x0 += CELL) {
      let full = true;
      const sums = pictures.map(() => [0, 0, 0]);
      for (let y = y0; y < y0 + CELL && full; y++) {
        for (let x = x0; x < x0 + CELL; x++) {
          const o = (y * width + x) * 4;
          if (pictures.some((p) => p[o + 3] === 0)) {
            full = false;
            break;
          }
          pictures.forEach((p, k) => {
            sums[k][0] += p[o];
            sums[k][1] += p[o + 1];
            sums[k][2] += p[o + 2];
          });
        }
      }
      if (!full) continue;
      sums.forEach((s, k) => out[k].push(s.map((v) => v / (CELL * CELL)) as unknown as Rgb));
    }
  }
  return out;
}

async function openMap(): Promise<Harness> {
  const h = await openWebview('map', {
    viewport: { width: 900, height: 700 },
    onRequest: sandboxReads(client),
  });
  await h.waitFor(isType('ready'));
  await h.send({ type: 'init', basemaps: [] });
  return h;
}

/** Draws the layer as the extension builds it (its default look), then compares the view with the oracles. */
async function compare(
  spec: ImageryLayerSpec,
  visual?: string,
): Promise<{ gdal: Difference; visual?: Difference; cells: number; ours: [number, number][]; gdalStretch: [number, number] }> {
  const h = await openMap();
  try {
    await h.send({ type: 'imagery', spec, fit: true });
    assert.equal((await layerSettled(h, spec.id, 90_000)).state, 'ready');
    const ours = await h.page.evaluate(
      async (id) =>
        (
          await (window as unknown as { eoMap: { imagery(): Promise<{ layer(id: string): { stretch?: [number, number][] } | undefined }> } }).eoMap.imagery()
        ).layer(id)?.stretch,
      spec.id,
    );
    const view = await imageryView(h.page);
    const truth = await oracle(spec, view, visual);
    const pictures = [view.rgba, truth.gdal, ...(truth.visual ? [truth.visual] : [])];
    const [mine, theirs, pictured] = cellMeans(view.width, view.height, pictures);
    assert.ok(mine.length >= 200, `only ${mine.length} cells of ${CELL} px lie wholly on the scene in all pictures`);
    assert.deepEqual(h.pageErrors, []);
    return {
      gdal: difference(mine, theirs),
      ...(pictured ? { visual: difference(mine, pictured) } : {}),
      cells: mine.length,
      ours: ours ?? [],
      gdalStretch: truth.stretch,
    };
  } finally {
    await h.close();
  }
}

const fmt = (d: Difference) =>
  `ΔE2000 ${d.meanDeltaE2000.toFixed(2)}, ΔE76 ${d.meanDeltaE76.toFixed(2)}, hue ${d.meanHueDifference.toFixed(2)}° over ${d.hued} of ${d.n} cells`;

describe('true colour by default', () => {
  it('an archive scene looks as GDAL draws it with one linked stretch, and has the hues of its own visual picture', async () => {
    const items = await client.archives.search({ collections: ['sentinel-2-l2a'], limit: 20 });
    // the clearest of the first items that is not the full-size 10 m tile (a person's first look; a small one)
    const item = [...items.features]
      .filter((f) => !f.id.endsWith('_00001'))
      .sort((a, b) => (a.properties['eo:cloud_cover'] ?? 100) - (b.properties['eo:cloud_cover'] ?? 100))[0];
    assert.ok(item, 'the sandbox has Sentinel-2 items');
    const r = archiveItemSpec(item);
    if ('note' in r) throw new Error(r.note.text);
    const visual = item.assets.visual?.href;
    assert.ok(visual, 'the item has a visual asset');
    const got = await compare(r.spec, visual);
    const what = `ours ${JSON.stringify(got.ours)}, GDAL's ${JSON.stringify(got.gdalStretch)}; against GDAL: ${fmt(got.gdal)}; against the visual: ${got.visual && fmt(got.visual)}`;
    console.log(`archive ${item.id}: ${what}`);
    assert.ok(got.gdal.meanDeltaE2000 < BOUNDS.gdal.deltaE2000, what);
    assert.ok(got.gdal.meanHueDifference < BOUNDS.gdal.hue, what);
    assert.ok(got.visual && got.visual.meanHueDifference < BOUNDS.visual.hue, what);
  });

  it('an AOI mosaic with its SCL band looks as GDAL draws it with one stretch over its clear pixels', async () => {
    let asset: Asset | undefined;
    for await (const aoi of client.aois.iterate({}, { pageSize: 100 })) {
      if (!/Kings River fields/.test(aoi.name)) continue;
      for await (const a of client.aois.iterateAssets(aoi.aoi_id, { pageSize: 100 })) {
        // a clear summer date
        if (!asset && /^\d{4}-0[6-8]/.test(a.date ?? '') && !/\d+(\.\d+)? % cloud/.test(a.description ?? '')) asset = a;
      }
    }
    assert.ok(asset, 'the sandbox has the seasonal fields AOI with a clear summer mosaic');
    assert.ok(asset.band_list.includes('SCL'), 'the mosaic marks clouds in SCL');
    const sat = (await client.search.satellites()).find((x) => x.id === 'sentinel-2');
    const r = aoiAssetSpec(asset, sat);
    if ('note' in r) throw new Error(r.note.text);
    const got = await compare(r.spec);
    const what = `ours ${JSON.stringify(got.ours)}, GDAL's ${JSON.stringify(got.gdalStretch)}; against GDAL: ${fmt(got.gdal)}`;
    console.log(`mosaic ${asset.date}: ${what}`);
    assert.ok(got.gdal.meanDeltaE2000 < BOUNDS.gdal.deltaE2000, what);
    assert.ok(got.gdal.meanHueDifference < BOUNDS.gdal.hue, what);
  });
});
