import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EoClient } from '../../src/api/client';
import type { Asset } from '../../src/api/records';
import { startSandbox, type SandboxHandle } from '../../src/sandbox';
import type { ImageryLayerSpec } from '../../src/panels/imagery/protocol';
import { aoiAssetSpec } from '../../src/panels/imagery/specs';
import { closeBrowser, isType, openWebview, type Harness } from './harness';
import { layerSettled } from './imageryPixels';
import { runFixture, sandboxReads } from './sandboxImagery';

/**
 * The default 2–98 % stretch on the map leaves out what the file marks as no data, cloud or
 * shadow (its SCL band), so clouds do not set the top of the stretch and darken the ground.
 * Checked against test/fixtures/imagery/clear_stretch.py (GDAL and numpy over /vsicurl/) on the
 * cloudiest date (under 75 %) of a sandbox seasonal AOI, where the clear-pixel and all-pixel percentiles
 * differ: the one range of the three bands (the lowest channel's 2 % to the highest's 98 %,
 * media/map/imagery/stretch.ts) within one bin of the histogram (128 bins over the clear
 * values' range) of the clear ones, and further than that from the all-pixel ones.
 */
const TRUE_COLOUR = ['B04', 'B03', 'B02'] as const;
const BINS = 128;

interface GdalChannel {
  clear: [number, number];
  all: [number, number];
  min: number;
  max: number;
  clearShare: number;
}

type Win = { eoMap: { imagery(): Promise<{ layer(id: string): { stretch?: [number, number][] } | undefined }> } };

let sb: SandboxHandle;
let client: EoClient;
let cloudiest: Asset;

before(async () => {
  sb = await startSandbox({ port: 0 });
  client = new EoClient({ baseUrl: sb.url, token: sb.tokens.alice, userAgent: 'eo-imagery-webview-test' });
  const cloudOf = (a: Asset): number => Number(/(\d+(?:\.\d+)?) % cloud/.exec(a.description ?? '')?.[1] ?? 0);
  for await (const aoi of client.aois.iterate({}, { pageSize: 100 })) {
    if (!/two seasons/.test(aoi.name)) continue;
    for await (const a of client.aois.iterateAssets(aoi.aoi_id, { pageSize: 100 })) {
      // a date mostly clouded but with ground to stretch over
      if (cloudOf(a) < 75 && (!cloudiest || cloudOf(a) > cloudOf(cloudiest))) cloudiest = a;
    }
  }
});
after(async () => {
  await closeBrowser();
  await sb?.close();
});

async function gdal(spec: ImageryLayerSpec): Promise<GdalChannel[]> {
  const channels = TRUE_COLOUR.map((name) => {
    const b = spec.bands.find((x) => x.name === name);
    assert.ok(b, `the mosaic has no band ${name}`);
    return { band: name, scale: b.scale ?? 1, offset: b.offset ?? 0 };
  });
  const got = await runFixture<{ channels: GdalChannel[] }>('clear_stretch.py', {
    file: cloudiest.path,
    header: `Authorization: Bearer ${sb.tokens.alice}`,
    channels,
    names: cloudiest.band_list,
    lo: 2,
    hi: 98,
  });
  return got.channels;
}

describe('the default stretch over clear pixels', () => {
  it('on a cloudy mosaic matches GDAL over the pixels SCL calls clear, not over every pixel', async () => {
    assert.ok(cloudiest, 'the sandbox has seasonal AOIs');
    assert.ok(cloudiest.band_list.includes('SCL'), `the mosaic marks clouds in SCL: ${cloudiest.band_list.join(', ')}`);
    const r = aoiAssetSpec(cloudiest);
    if ('note' in r) throw new Error(r.note.text);
    // the default look: true colour, no stretch given, so the 2–98 % one is worked out
    const spec: ImageryLayerSpec = { ...r.spec, render: { kind: 'rgb', bands: [...TRUE_COLOUR] } };
    const h: Harness = await openWebview('map', {
      viewport: { width: 900, height: 700 },
      onRequest: sandboxReads(client),
    });
    try {
      await h.waitFor(isType('ready'));
      await h.send({ type: 'init', basemaps: [] });
      await h.send({ type: 'imagery', spec, fit: true });
      assert.equal((await layerSettled(h, spec.id, 60_000)).state, 'ready');
      const stretch = await h.page.evaluate(async (id) => (await (window as unknown as Win).eoMap.imagery()).layer(id)?.stretch, spec.id);
      assert.ok(stretch?.length === 3, `a stretch per channel: ${JSON.stringify(stretch)}`);
      const truth = await gdal(spec);
      // linked: one range, from the lowest channel's low to the highest channel's high
      const ends = [0, 1].map((k) => {
        const pick = (k ? Math.max : Math.min)(...truth.map((g) => g.clear[k]));
        const g = truth.find((x) => x.clear[k] === pick) ?? truth[0];
        return { clear: pick, bin: (g.max - g.min) / BINS, all: (k ? Math.max : Math.min)(...truth.map((x) => x.all[k])) };
      });
      let moved = 0;
      stretch.forEach((range, c) => {
        ends.forEach((end, k) => {
          const at = `${TRUE_COLOUR[c]}: ${k ? 98 : 2} %`;
          assert.ok(Math.abs(range[k] - end.clear) <= end.bin, `${at} is ${range[k]}, GDAL over clear pixels ${end.clear} (±${end.bin})`);
        });
      });
      for (const end of ends) if (Math.abs(end.all - end.clear) > 2 * end.bin) moved++;
      // the date is cloudy enough that stretching over every pixel would be told apart
      assert.ok(moved >= 1, `clouds move no percentile by more than two bins: ${JSON.stringify(truth)}`);
      assert.deepEqual(h.pageErrors, []);
    } finally {
      await h.close();
    }
  });
});
