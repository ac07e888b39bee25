import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EoClient } from '../../src/api/client';
import type { Asset } from '../../src/api/records';
import { startSandbox, type SandboxHandle } from '../../src/sandbox';
import type { ImageryLayerSpec, TimeFrame } from '../../src/panels/imagery/protocol';
import { aoiAssetSpec } from '../../src/panels/imagery/specs';
import { closeBrowser, isType, openWebview } from './harness';
import { runFixture, sandboxReads } from './sandboxImagery';
import { decode, runTimelapse } from './timelapseRun';

/**
 * The time slider draws every date with one stretch, worked out over the dates' clear pixels
 * together, so a date under cloud does not change how the others look (nor get a stretch of
 * its own clouds). Six dates of the sandbox's seasonal fields AOI around its wholly clouded
 * one: each date's layer, shown in turn, has the same range, and it is GDAL's
 * (test/fixtures/imagery/true_colour.py with `series`: the linked 2–98 % over the six dates'
 * coarsest overviews, SCL-clear pixels pooled) within 1e-4 reflectance. Export Timelapse…
 * draws every date as that date drawn with GDAL's range.
 */
const TRUE_COLOUR: [string, string, string] = ['B04', 'B03', 'B02'];

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

async function gdalStretch(specs: ImageryLayerSpec[]): Promise<[number, number]> {
  const bands = specs[0].bands;
  const got = await runFixture<{ stretch: [number, number] }>('true_colour.py', {
    series: specs.map((s) => s.url),
    header: `Authorization: Bearer ${sb.tokens.alice}`,
    names: bands.map((b) => b.name),
    channels: TRUE_COLOUR.map((name) => {
      const b = bands.find((x) => x.name === name);
      return { band: name, scale: b?.scale ?? 1, offset: b?.offset ?? 0 };
    }),
    lo: 2,
    hi: 98,
  });
  return got.stretch;
}

/** The mean absolute difference of two RGBA pictures of one size, per colour channel (0–255). */
function meanDifference(a: Uint8Array, b: Uint8Array): number {
  assert.equal(a.length, b.length);
  let sum = 0;
  for (let i = 0; i < a.length; i += 4) sum += Math.abs(a[i] - b[i]) + Math.abs(a[i + 1] - b[i + 1]) + Math.abs(a[i + 2] - b[i + 2]);
  return sum / ((a.length / 4) * 3);
}

type App = {
  eoMap: {
    imagery(): Promise<{
      timeline: {
        show(i: number): void;
        state: { index: number };
        layerOf(i: number): { lookReady(): Promise<void>; stretch?: [number, number][] } | undefined;
      };
    }>;
  };
};

/** Six dates of the seasonal fields AOI around its wholly clouded one (the third), drawn in true colour. */
async function sixDates(): Promise<TimeFrame[]> {
  const assets: Asset[] = [];
  for await (const aoi of client.aois.iterate({}, { pageSize: 100 })) {
    if (!/Kings River fields/.test(aoi.name)) continue;
    for await (const a of client.aois.iterateAssets(aoi.aoi_id, { pageSize: 100 })) if (!a.visualization_id) assets.push(a);
  }
  assets.sort((a, b) => (a.date ?? '').localeCompare(b.date ?? ''));
  const cloud = (a: Asset) => Number(/(\d+(?:\.\d+)?) % cloud/.exec(a.description ?? '')?.[1] ?? 0);
  const clouded = assets.findIndex((a) => cloud(a) === 100);
  assert.ok(clouded >= 2, `the fields AOI has a wholly clouded date: ${assets.map(cloud).join(', ')}`);
  const six = assets.slice(clouded - 2, clouded + 4);
  const sat = (await client.search.satellites()).find((x) => x.id === 'sentinel-2');
  return six.map((a) => {
    const r = aoiAssetSpec(a, sat);
    if ('note' in r) throw new Error(r.note.text);
    return { spec: r.spec, date: (a.date ?? '').slice(0, 10), cloudCover: cloud(a) };
  });
}

describe('one stretch across the dates of a time slider and a timelapse', () => {
  it('every date, the clouded one too, is drawn with the range of the dates’ clear pixels together', async () => {
    const frames = await sixDates();
    const h = await openWebview('map', {
      viewport: { width: 900, height: 700 },
      onRequest: sandboxReads(client),
    });
    try {
      await h.waitFor(isType('ready'));
      await h.send({ type: 'init', basemaps: [] });
      await h.send({ type: 'imageryTimeline', title: 'Kings River fields', frames, fit: true });
      await h.page.getByRole('slider', { name: 'Date' }).waitFor();
      const stretches: [number, number][][] = [];
      for (let i = 0; i < frames.length; i++) {
        const s = await h.page.evaluate(async (k) => {
          const tl = (await (window as unknown as App).eoMap.imagery()).timeline;
          tl.show(k);
          const layer = tl.layerOf(k);
          await layer?.lookReady();
          return layer?.stretch;
        }, i);
        assert.ok(s?.length === 3, `${frames[i].date}: a stretch per channel`);
        stretches.push(s);
      }
      const truth = await gdalStretch(frames.map((f) => f.spec));
      stretches.forEach((s, i) =>
        s.forEach((range, c) => {
          const at = `${frames[i].date} (${frames[i].cloudCover} % cloud) ${TRUE_COLOUR[c]}`;
          assert.ok(
            Math.abs(range[0] - truth[0]) <= 1e-4 && Math.abs(range[1] - truth[1]) <= 1e-4,
            `${at}: ${JSON.stringify(range)}, GDAL over the dates ${JSON.stringify(truth)}`,
          );
        }),
      );
      // the clouded date alone would be stretched over its clouds: the test tells the two apart
      const alone = await gdalStretch([frames[2].spec]);
      assert.ok(Math.abs(alone[1] - truth[1]) > 0.05 || Math.abs(alone[0] - truth[0]) > 0.05, `the clouded date alone: ${JSON.stringify(alone)}`);
      assert.deepEqual(h.pageErrors, []);
    } finally {
      await h.close();
    }
  });
  it('a timelapse draws every date as it is drawn with GDAL’s range of the dates together', async () => {
    const frames = await sixDates();
    const truth = await gdalStretch(frames.map((f) => f.spec));
    const bbox = frames[0].spec.bbox;
    assert.ok(bbox, 'the mosaic has a bounding box');
    const h = await openWebview('map', { viewport: { width: 900, height: 700 }, onRequest: sandboxReads(client) });
    try {
      await h.waitFor(isType('ready'));
      await h.send({ type: 'init', basemaps: [] });
      const gif = async (dates: TimeFrame[]): Promise<Uint8Array[]> => {
        const { reply } = await runTimelapse(h, { title: 'Kings River fields', frames: dates, bbox, width: 320, height: 240, fps: 2, format: 'gif' });
        assert.equal(reply.ok, true, reply.error);
        assert.deepEqual(
          reply.result?.dates,
          dates.map((f) => f.date),
          'every date drawn',
        );
        return decode(reply.result?.b64 ?? '').frames;
      };
      const drawn = await gif(frames);
      // the oracle: the same dates with GDAL's range given to each
      const given = await gif(frames.map((f) => ({ ...f, spec: { ...f.spec, render: { kind: 'rgb', bands: TRUE_COLOUR, stretch: [truth, truth, truth] } } })));
      const differences = drawn.map((d, i) => meanDifference(d, given[i]));
      const what = `mean difference per channel (0–255) from each date drawn with GDAL's range ${JSON.stringify(truth)}: ${differences.map((d) => d.toFixed(2)).join(', ')}`;
      console.log(what);
      assert.ok(
        differences.every((d) => d < 1),
        what,
      );
      assert.deepEqual(h.pageErrors, []);
    } finally {
      await h.close();
    }
  });
});
