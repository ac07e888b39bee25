import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EoClient } from '../../src/api/client';
import type { Aoi, Asset } from '../../src/api/records';
import { startSandbox, type SandboxHandle } from '../../src/sandbox';
import type { ReadBytesParams } from '../../src/panels/imagery/protocol';
import { aoiAssetSpec } from '../../src/panels/imagery/specs';
import { closeBrowser, isType, openWebview, ROOT, type Harness } from './harness';
import type { SeriesPoint, SeriesRequest, StatsPlan } from '../../src/panels/imagery/seriesMessages';
import { runStatsPlan } from '../../src/panels/imagery/hostStats';
import { waitUntil } from '../support/waitUntil';

/**
 * "Chart Index Over Time" in the map webview against GDAL: the sandbox's seasonal AOIs (26
 * dated mosaics each, cloudy dates marked in SCL), each date's statistics compared with
 * test/fixtures/imagery/series_stats.py, which burns the polygon into the same level's grid
 * with gdal.RasterizeLayer and computes the index with numpy over /vsicurl/.
 */
const SCRIPT = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'imagery', 'series_stats.py');
const NDVI = '(B08-B04)/(B08+B04)';

interface GdalRow {
  value?: number;
  pixels?: number;
  valid?: number;
  mean?: number;
  median?: number;
  p10?: number;
  p90?: number;
  error?: string;
}

let sb: SandboxHandle;
let client: EoClient;
const seasonal: { aoi: Aoi; assets: Asset[] }[] = [];

before(async () => {
  sb = await startSandbox({ port: 0 });
  client = new EoClient({ baseUrl: sb.url, token: sb.tokens.alice, userAgent: 'eo-imagery-webview-test' });
  for await (const aoi of client.aois.iterate({}, { pageSize: 100 })) {
    if (!/two seasons/.test(aoi.name)) continue;
    const assets: Asset[] = [];
    for await (const a of client.aois.iterateAssets(aoi.aoi_id, { pageSize: 100 })) assets.push(a);
    assets.sort((a, b) => a.date.localeCompare(b.date));
    seasonal.push({ aoi, assets });
  }
});
after(async () => {
  await closeBrowser();
  await sb?.close();
});

function request(aoi: Aoi, assets: Asset[], expression = NDVI, polygon: unknown = aoi.geometry): SeriesRequest {
  return {
    title: aoi.name,
    index: { name: 'NDVI', expression },
    polygon,
    dates: assets.map((a) => {
      const r = aoiAssetSpec(a);
      if ('note' in r) throw new Error(r.note.text);
      return { date: a.date, spec: r.spec, source: a.id };
    }),
  };
}

/** A link with a latency per read, counting the files that have a read waiting on it at once. */
class SlowLink {
  /** Most files with a read in flight at once. */
  most = 0;
  private readonly waiting = new Map<string, number>();
  constructor(private readonly ms: number) {}

  async through<T>(url: string, read: () => Promise<T>): Promise<T> {
    this.waiting.set(url, (this.waiting.get(url) ?? 0) + 1);
    this.most = Math.max(this.most, this.waiting.size);
    try {
      await new Promise((r) => setTimeout(r, this.ms));
      return await read();
    } finally {
      const n = (this.waiting.get(url) ?? 1) - 1;
      if (n) this.waiting.set(url, n);
      else this.waiting.delete(url);
    }
  }
}

async function open(log: ReadBytesParams[], corrupt = new Set<string>(), link?: SlowLink): Promise<Harness> {
  // a date the page asks the extension for (a series started with `host`): taken here as the
  // extension host takes it (hostStats.ts), its reads logged as the page's are
  const answer = (m: unknown) => {
    const q = m as { type?: string; statsId?: number; plan?: StatsPlan };
    if (q?.type !== 'seriesStats' || !q.plan) return;
    const { url } = q.plan;
    const read = async (offset: number, length: number) => {
      log.push({ url, offset, length });
      return new Uint8Array((await client.readRange(url, offset, length, { maxWholeFile: 50 * 1024 * 1024 })).body);
    };
    void runStatsPlan(q.plan, read).then(
      (result) => h.send({ type: 'seriesStatsReply', statsId: q.statsId, ok: true, result }),
      (e: unknown) => h.send({ type: 'seriesStatsReply', statsId: q.statsId, ok: false, error: e instanceof Error ? e.message : String(e) }),
    );
  };
  const h: Harness = await openWebview('map', {
    viewport: { width: 1100, height: 760 },
    onPosted: answer,
    onRequest: async (req) => {
      const r = req as { method: string; params: ReadBytesParams };
      if (r.method !== 'readBytes') throw new Error(`unexpected ${r.method}`);
      log.push(r.params);
      const read = () => client.readRange(r.params.url, r.params.offset, r.params.length, { maxWholeFile: 50 * 1024 * 1024 });
      const got = await (link ? link.through(r.params.url, read) : read());
      // a corrupt file: cut short after its header, so its tiles lie past its end
      if (corrupt.has(r.params.url)) return { bytes: new Uint8Array(got.body).subarray(0, Math.max(0, 32 * 1024 - r.params.offset)), total: 32 * 1024 };
      return { bytes: new Uint8Array(got.body), total: got.total };
    },
  });
  await h.waitFor(isType('ready'));
  await h.send({ type: 'init', basemaps: [] });
  return h;
}

async function run(
  h: Harness,
  requestId: number,
  req: SeriesRequest,
  host = false,
): Promise<{ points: SeriesPoint[]; done: { ok: boolean; error?: string; cancelled?: boolean } }> {
  await h.send({ type: 'seriesStart', requestId, request: req, ...(host ? { host: true } : {}) });
  const done = await h.waitFor<{ ok: boolean; error?: string; cancelled?: boolean }>(
    (m) => (m as { type?: string; requestId?: number }).type === 'seriesDone' && (m as { requestId: number }).requestId === requestId,
    180_000,
  );
  const points: SeriesPoint[] = [];
  for (const m of h.posted as { type?: string; requestId?: number; index: number; point: SeriesPoint }[]) {
    if (m.type === 'seriesPoint' && m.requestId === requestId) points[m.index] = m.point;
  }
  return { points, done };
}

/** GDAL's answer; asynchronous, since it reads from the sandbox in this very process. */
async function gdal(files: string[], polygon: unknown, level: number, bands: string[], expression = NDVI): Promise<GdalRow[]> {
  const child = spawn('/usr/bin/python3', [SCRIPT], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
  child.stdin.end(JSON.stringify({ files, header: `Authorization: Bearer ${sb.tokens.alice}`, polygon, level, expression, bands }));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.equal(code, 0, 'series_stats.py ran');
  return out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as GdalRow);
}

describe('chart an index over time: statistics per date', () => {
  it('matches GDAL on every date of both seasonal AOIs, one taken by the page and one by the extension host: mean and percentiles within 1e-3, the valid share exact', async () => {
    assert.equal(seasonal.length, 2, 'the sandbox has two seasonal AOIs');
    const log: ReadBytesParams[] = [];
    const h = await open(log);
    try {
      let id = 1;
      // GDAL's answer for one AOI is computed while the webview charts the next one: two
      // processes, two cores, and the test takes the longer of the two instead of their sum.
      const checks: Promise<void>[] = [];
      for (const [k, { aoi, assets }] of seasonal.entries()) {
        assert.ok(assets.length >= 24, `${aoi.name}: ${assets.length} dates`);
        // the first by the page's own reading, the second as the extension starts a series: by the host
        const host = k === 1;
        const asked = h.posted.length;
        const { points, done } = await run(h, id++, request(aoi, assets), host);
        const toHost = h.posted.slice(asked).filter((m) => (m as { type?: string }).type === 'seriesStats').length;
        assert.equal(toHost, host ? assets.length : 0, `${aoi.name}: dates the host took`);
        assert.equal(done.ok, true, done.error);
        assert.equal(points.length, assets.length);
        const level = points[0].level ?? 0;
        assert.ok(
          points.every((p) => p.level === level),
          'one level for every date (the same grid)',
        );
        const check = gdal(
          assets.map((a) => a.path),
          aoi.geometry,
          level,
          assets[0].band_list,
        ).then((truth) => compare(aoi, points, truth));
        check.catch(() => undefined); // reported by Promise.all below, not as an unhandled rejection
        checks.push(check);
      }
      await Promise.all(checks);
      assert.deepEqual(h.pageErrors, []);
    } finally {
      await h.close();
    }
  });

  function compare(aoi: Aoi, points: SeriesPoint[], truth: GdalRow[]): void {
    let cloudy = 0;
    points.forEach((p, i) => {
      const g = truth[i];
      const at = `${aoi.name} ${p.date}`;
      assert.equal(p.error, undefined, `${at}: ${p.error}`);
      assert.equal(g.error, undefined, `${at} GDAL: ${g.error}`);
      assert.equal(p.pixels, g.pixels, `${at}: pixels inside`);
      assert.equal(p.valid, g.valid, `${at}: valid pixels`);
      assert.ok(p.pixels >= 10_000, `${at}: the level gives the polygon at least 10,000 pixels (${p.pixels})`);
      if (p.valid < p.pixels * 0.9) cloudy++;
      for (const k of ['mean', 'median', 'p10', 'p90'] as const) {
        if (g[k] === undefined) assert.equal(p[k], undefined, `${at}: ${k}`);
        else assert.ok(Math.abs((p[k] as number) - g[k]) <= 1e-3, `${at}: ${k} ${p[k]} vs GDAL ${g[k]}`);
      }
      assert.ok((p.fetchedBytes ?? 0) <= (p.tileBytes ?? 0) * 1.3 + 64 * 1024, `${at}: read ${p.fetchedBytes} for tiles of ${p.tileBytes}`);
    });
    assert.ok(cloudy >= 3, `${aoi.name}: some dates are clouded (${cloudy})`);
    const medians = points.map((p) => p.median).filter((v): v is number => v !== undefined);
    assert.ok(Math.max(...medians) - Math.min(...medians) > 0.2, `${aoi.name}: the index moves with the seasons`);
  }

  it('over a slow link the dates are read together, not one after another: eight files in flight at once, no more', async () => {
    const { aoi, assets } = seasonal[0];
    const dates = assets.slice(0, 16);
    const link = new SlowLink(150);
    const h = await open([], new Set(), link);
    try {
      const { points, done } = await run(h, 1, request(aoi, dates));
      assert.equal(done.ok, true, done.error);
      assert.equal(points.filter((p) => p.median !== undefined || p.valid === 0).length, dates.length, 'every date charted');
      // before: two dates at a time, each waiting on its header, then its tiles
      assert.equal(link.most, 8, `files with a read in flight at once: ${link.most}`);
    } finally {
      await h.close();
    }
  });

  it('marks a date whose file is missing (404) or corrupt and charts the rest', async () => {
    const { aoi, assets } = seasonal[0];
    const some = assets.slice(0, 4);
    const missing = { ...some[1], path: some[1].path.replace(/\d{4}-\d{2}-\d{2}\.tif$/, '1999-01-01.tif') };
    const corrupt = new Set([some[2].path]);
    assert.ok((await client.readRange(some[2].path, 0, 16, { maxWholeFile: 1024 })).total! > 256 * 1024, 'the file is larger than the cut');
    const h = await open([], corrupt);
    try {
      const { points, done } = await run(h, 1, request(aoi, [some[0], missing, some[2], some[3]]));
      assert.equal(done.ok, true, done.error);
      assert.ok(points[0].median !== undefined && points[3].median !== undefined, 'the readable dates are charted');
      assert.match(points[1].error ?? '', /404|not found/i);
      assert.ok(points[2].error, 'the corrupt date is marked');
      assert.equal(points[2].median, undefined);
      await waitUntil(h.page, () => document.querySelectorAll('#imagery-series .problems li').length === 2);
      const status = await h.page.textContent('#imagery-series .status');
      assert.match(status ?? '', /4 dates, 2 could not be read/);
    } finally {
      await h.close();
    }
  });

  it('an area that misses every scene and an expression with an unknown band: every date says why', async () => {
    const { aoi, assets } = seasonal[0];
    const far = {
      type: 'Polygon',
      coordinates: [
        [
          [10, 10],
          [10.01, 10],
          [10.01, 10.01],
          [10, 10.01],
          [10, 10],
        ],
      ],
    };
    const h = await open([]);
    try {
      const a = await run(h, 1, request(aoi, assets.slice(0, 2), NDVI, far));
      assert.ok(
        a.points.every((p) => /does not overlap/.test(p.error ?? '')),
        JSON.stringify(a.points),
      );
      const b = await run(h, 2, request(aoi, assets.slice(0, 2), '(B08-B99)/(B08+B99)'));
      assert.ok(
        b.points.every((p) => /B99/.test(p.error ?? '')),
        JSON.stringify(b.points),
      );
    } finally {
      await h.close();
    }
  });

  it('while the person picks, the page loads its imagery code and reads nothing; the series then runs', async () => {
    const { aoi, assets } = seasonal[1];
    const log: ReadBytesParams[] = [];
    const h = await open(log);
    try {
      const loaded = () => h.page.evaluate(() => '__eoImageryChunk' in window);
      assert.equal(await loaded(), false, 'a map without imagery has not loaded the imagery code');
      await h.send({ type: 'seriesPrepare' });
      await waitUntil(h.page, () => '__eoImageryChunk' in window && '__eoAnalysisChunk' in window, undefined, { timeout: 30_000 });
      assert.deepEqual(log, [], 'nothing read before the series is asked for');
      const { points, done } = await run(h, 9, request(aoi, assets.slice(0, 3)), true);
      assert.equal(done.ok, true);
      assert.equal(points.filter((p) => p && !p.error).length, 3);
      assert.deepEqual(h.pageErrors, []);
    } finally {
      await h.close();
    }
  });

  it('cancel midway: the run stops, no read starts after it', async () => {
    const { aoi, assets } = seasonal[1];
    const log: ReadBytesParams[] = [];
    const h = await open(log);
    try {
      await h.send({ type: 'seriesStart', requestId: 7, request: request(aoi, assets) });
      await h.waitFor((m) => (m as { type?: string }).type === 'seriesPoint', 60_000);
      await h.send({ type: 'seriesCancel', requestId: 7 });
      const done = await h.waitFor<{ ok: boolean; cancelled?: boolean }>((m) => (m as { type?: string }).type === 'seriesDone', 30_000);
      assert.equal(done.ok, false);
      assert.equal(done.cancelled, true);
      const reads = log.length;
      await new Promise((r) => setTimeout(r, 1000));
      assert.equal(log.length, reads, 'no read after the cancel settled');
      const points = h.posted.filter((m) => (m as { type?: string }).type === 'seriesPoint').length;
      assert.ok(points < assets.length, `stopped after ${points} of ${assets.length}`);
      assert.match((await h.page.textContent('#imagery-series .status')) ?? '', /Cancelled after/);
    } finally {
      await h.close();
    }
  });

  it('a drawn polygon: “Chart Index…” hands the ring to the extension, and its series matches GDAL', async () => {
    const { aoi, assets } = seasonal[0];
    const ring = (aoi.geometry as { coordinates: [number, number][][] }).coordinates[0];
    const xs = ring.map((p) => p[0]);
    const ys = ring.map((p) => p[1]);
    const [cx, cy] = [(Math.min(...xs) + Math.max(...xs)) / 2, (Math.min(...ys) + Math.max(...ys)) / 2];
    const d = 0.005;
    const drawn: [number, number][] = [
      [cx - d, cy - d],
      [cx + d, cy - d * 0.5],
      [cx + d * 0.3, cy + d],
      [cx - d * 0.8, cy + d * 0.6],
      [cx - d, cy - d],
    ];
    const h = await open([]);
    try {
      await h.send({ type: 'connection', connected: true, configured: true });
      await h.page.evaluate((r) => (window as unknown as { eoMap: { onDrawn(s: unknown): void } }).eoMap.onDrawn({ shape: 'polygon', ring: r }), drawn);
      await h.page.locator('#chart-index:not([disabled])').click();
      const asked = await h.waitFor<{ area: { kind: string; ring: [number, number][] } }>((m) => (m as { type?: string }).type === 'chartIndex', 10_000);
      assert.deepEqual(asked.area, { kind: 'polygon', ring: drawn });
      const polygon = { type: 'Polygon', coordinates: [drawn] };
      const some = assets.slice(0, 8);
      const { points, done } = await run(h, 1, request(aoi, some, NDVI, polygon));
      assert.equal(done.ok, true, done.error);
      const truth = await gdal(
        some.map((a) => a.path),
        polygon,
        points[0].level ?? 0,
        some[0].band_list,
      );
      points.forEach((p, i) => {
        const g = truth[i];
        const at = `drawn ${p.date}`;
        assert.equal(p.error, undefined, `${at}: ${p.error}`);
        assert.equal(p.pixels, g.pixels, `${at}: pixels inside`);
        assert.equal(p.valid, g.valid, `${at}: valid pixels`);
        assert.ok(p.pixels >= 1000, `${at}: ${p.pixels} pixels`);
        for (const k of ['mean', 'median', 'p10', 'p90'] as const) {
          if (g[k] === undefined) assert.equal(p[k], undefined, `${at}: ${k}`);
          else assert.ok(Math.abs((p[k] as number) - g[k]) <= 1e-3, `${at}: ${k} ${p[k]} vs GDAL ${g[k]}`);
        }
      });
      assert.deepEqual(h.pageErrors, []);
    } finally {
      await h.close();
    }
  });

  it('a single pixel: its value per date at full resolution, valid or not, as GDAL reads it', async () => {
    const { aoi, assets } = seasonal[0];
    const ring = (aoi.geometry as { coordinates: [number, number][][] }).coordinates[0];
    const lon = ring.reduce((s, p) => s + p[0], 0) / ring.length;
    const lat = ring.reduce((s, p) => s + p[1], 0) / ring.length;
    const point = { type: 'Point', coordinates: [lon, lat] };
    const log: ReadBytesParams[] = [];
    const h = await open(log);
    try {
      const { points, done } = await run(h, 1, { ...request(aoi, assets, NDVI, point), title: 'Pixel' });
      assert.equal(done.ok, true, done.error);
      const truth = await gdal(
        assets.map((a) => a.path),
        point,
        0,
        assets[0].band_list,
      );
      let cloudy = 0;
      points.forEach((p, i) => {
        const g = truth[i];
        const at = `pixel ${p.date}`;
        assert.equal(p.error, undefined, `${at}: ${p.error}`);
        assert.equal(p.level, 0, `${at}: full resolution`);
        assert.equal(p.pixels, 1, at);
        assert.equal(p.valid, g.valid, `${at}: valid`);
        if (g.value === undefined) assert.equal(p.value, undefined, at);
        else assert.ok(Math.abs((p.value as number) - g.value) <= 1e-6, `${at}: ${p.value} vs GDAL ${g.value}`);
        if (!p.valid && p.value !== undefined) cloudy++;
        // one tile per date, nothing more
        assert.ok((p.fetchedBytes ?? 0) <= (p.tileBytes ?? 0) * 1.3 + 64 * 1024, `${at}: read ${p.fetchedBytes} for ${p.tileBytes}`);
      });
      assert.ok(cloudy >= 1, 'a clouded date still gives its value, marked not valid');
      // the chart's readout says so
      await h.page.locator('.eo-series-chart').focus();
      await h.page.keyboard.press('Home');
      assert.match((await h.page.textContent('.eo-series-chart .readout')) ?? '', /^\d{4}-\d{2}-\d{2}: NDVI -?\d\.\d{3} at the pixel/);
    } finally {
      await h.close();
    }
  });

  it('24 dates: n of N while they arrive, the first points on the chart before the last is read; overlays named in the legend', async () => {
    const { aoi, assets } = seasonal[1];
    const dates = assets.slice(0, 24);
    const h = await open([]);
    try {
      await h.send({ type: 'seriesStart', requestId: 1, request: request(aoi, dates) });
      const first = await h.waitFor<{ index: number; point: SeriesPoint }>((m) => (m as { type?: string }).type === 'seriesPoint', 120_000);
      const status = (await h.page.textContent('#imagery-series .status')) ?? '';
      const doneYet = h.posted.some((m) => (m as { type?: string }).type === 'seriesDone');
      assert.equal(doneYet, false, 'the first point came before the series was done');
      assert.match(status, /^(\d+) of 24 dates$/);
      assert.ok(Number(/^(\d+)/.exec(status)?.[1]) < 24, status);
      assert.equal(await h.page.locator('#imagery-series button.cancel').isVisible(), true, 'Cancel is offered while it runs');
      // the arrived date is on the chart already: the keyboard reaches it and reads its median
      await h.page.locator('.eo-series-chart').focus();
      await h.page.keyboard.press('Home');
      const sorted = dates.map((a) => a.date).sort();
      for (let k = 0; k < sorted.indexOf(first.point.date); k++) await h.page.keyboard.press('ArrowRight');
      const readout = (await h.page.textContent('.eo-series-chart .readout')) ?? '';
      assert.ok(readout.startsWith(`${first.point.date}: `) && !/not read yet/.test(readout), readout);
      await h.waitFor((m) => (m as { type?: string }).type === 'seriesDone', 180_000);
      assert.equal((await h.page.textContent('#imagery-series .status')) ?? '', '24 dates');

      // overlaid: another index over the same place, each named in the legend
      await h.send({
        type: 'seriesStart',
        requestId: 2,
        request: { ...request(aoi, dates.slice(0, 4), '(B03-B08)/(B03+B08)'), index: { name: 'NDWI', expression: '(B03-B08)/(B03+B08)' } },
        overlay: true,
      });
      await h.waitFor((m) => (m as { type?: string; requestId?: number }).type === 'seriesDone' && (m as { requestId: number }).requestId === 2, 120_000);
      const legend = await h.page.$$eval('.eo-series-chart .u-legend .u-series:not([hidden]) .u-label', (els) => els.map((e) => e.textContent));
      assert.ok(legend.includes('NDVI') && legend.includes('NDWI'), JSON.stringify(legend));
      assert.equal(await h.page.textContent('#imagery-series h3'), 'Index over time · 2 series');
      assert.equal((await h.page.textContent('#imagery-series .status')) ?? '', '28 dates');
      await h.page.locator('#imagery-series button.close').click();
      await h.waitFor((m) => (m as { type?: string }).type === 'seriesClosed', 5_000);
    } finally {
      await h.close();
    }
  });
});

/** What a saved chart PNG holds, decoded in the page: its size, bytes, and the colours of its rows from `from` down. */
async function savedPng(h: Harness, from: number): Promise<{ width: number; height: number; base64: string; colours: Record<string, number> }> {
  return h.page.evaluate(async (top) => {
    type Tools = { series: { png(): Promise<ArrayBuffer> } };
    const buf = await ((window as unknown as { eoMap: { imageryTools: Tools } }).eoMap.imageryTools as Tools).series.png();
    const bmp = await createImageBitmap(new Blob([buf], { type: 'image/png' }));
    const c = document.createElement('canvas');
    c.width = bmp.width;
    c.height = bmp.height;
    const ctx = c.getContext('2d', { willReadFrequently: true })!;
    ctx.drawImage(bmp, 0, 0);
    const colours: Record<string, number> = {};
    if (top < bmp.height) {
      const d = ctx.getImageData(0, top, bmp.width, bmp.height - top).data;
      for (let i = 0; i < d.length; i += 4) {
        const hex = `#${[d[i], d[i + 1], d[i + 2]].map((v) => v.toString(16).padStart(2, '0')).join('')}`;
        colours[hex] = (colours[hex] ?? 0) + 1;
      }
    }
    let bin = '';
    for (const b of new Uint8Array(buf)) bin += String.fromCharCode(b);
    return { width: bmp.width, height: bmp.height, base64: btoa(bin), colours };
  }, from);
}

describe('chart an index over time: the saved picture', () => {
  it('Save PNG: a legend under the plot names the line, the band and the marks, in the same colours whatever the theme', async () => {
    const { aoi, assets } = seasonal[0];
    const h = await open([]);
    try {
      await run(h, 1, request(aoi, assets.slice(0, 6)));
      // the on-screen plot's height: the legend lies under the title (one line, 28 px, or more) and the plot
      const plotHeight = await h.page.$eval('.eo-series-chart canvas', (c) => (c as HTMLCanvasElement).height);
      const first = await savedPng(h, 28 + plotHeight);
      mkdirSync(join(ROOT, 'test-results', 'screenshots'), { recursive: true });
      writeFileSync(join(ROOT, 'test-results', 'screenshots', 'index-chart-saved.png'), Buffer.from(first.base64, 'base64'));
      const legend = first.colours;
      const count = (pred: (r: number, g: number, b: number) => boolean) =>
        Object.entries(legend)
          .filter(([hex]) => pred(...([1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16)) as [number, number, number])))
          .reduce((n, [, k]) => n + k, 0);
      assert.ok(first.height > 28 + plotHeight, `the picture (${first.width} × ${first.height}) has room under its plot for a legend`);
      // the median line's swatch and the unread mark's, in the picture's fixed colours
      assert.ok((legend['#1a85ff'] ?? 0) >= 20, `the median line's swatch (#1a85ff) is in the legend: ${JSON.stringify(legend).slice(0, 400)}`);
      assert.ok((legend['#c50f1f'] ?? 0) >= 10, "the unread mark's swatch (#c50f1f) is in the legend");
      // its names: dark text on the white background, several rows' worth of glyphs
      assert.ok((legend['#ffffff'] ?? 0) > (first.width * (first.height - 28 - plotHeight)) / 2, 'the legend is on white');
      assert.ok(count((r, g, b) => r < 90 && g < 90 && b < 90) >= 150, 'the legend names its rows in dark text');

      // the theme changes (a light one): the saved picture does not
      const dark = await savedPng(h, 0);
      await h.page.evaluate(() => {
        const vars: Record<string, string> = {
          '--vscode-editor-background': '#ffffff',
          '--vscode-editorWidget-background': '#f8f8f8',
          '--vscode-foreground': '#3b3b3b',
          '--vscode-editorWidget-border': '#c8c8c8',
          '--vscode-charts-blue': '#0066bf',
          '--vscode-errorForeground': '#a1260d',
        };
        for (const [k, v] of Object.entries(vars)) document.documentElement.style.setProperty(k, v);
      });
      const light = await savedPng(h, 0);
      assert.deepEqual(light.colours, dark.colours, 'the same colours in a light theme as in a dark one');
      assert.equal(light.base64, dark.base64, 'the same picture in a light theme as in a dark one');

      // overlaid: a second series (another area) gets its own line in its own colour, named
      const other = seasonal[1];
      await h.send({ type: 'seriesStart', requestId: 2, request: request(other.aoi, other.assets.slice(0, 4)), overlay: true });
      await h.waitFor((m) => (m as { type?: string; requestId?: number }).type === 'seriesDone' && (m as { requestId: number }).requestId === 2, 120_000);
      const two = await savedPng(h, 28 + plotHeight);
      writeFileSync(join(ROOT, 'test-results', 'screenshots', 'index-chart-saved-overlay.png'), Buffer.from(two.base64, 'base64'));
      assert.ok((two.colours['#d18616'] ?? 0) >= 20, "the second series' line (#d18616) is in the legend");
      assert.deepEqual(h.pageErrors, []);
    } finally {
      await h.close();
    }
  });
});
