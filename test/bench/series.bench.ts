/**
 * "Chart Index Over Time" on 24 dates of a sandbox seasonal AOI: the map webview's series
 * (ranges through the host, the level giving the polygon ≥ 10,000 pixels, only the tiles
 * holding a pixel centre inside, statistics in a worker) against the script an analyst
 * would write instead: test/fixtures/imagery/series_stats.py (Python, GDAL over /vsicurl/,
 * the same level and window per date, numpy statistics), run side by side in the same run,
 * against the same sandbox. Figures: time to the full series, and ours over the analyst's;
 * bytes fetched over the stored bytes of the tiles needed; and the longest stall of this
 * process's event loop while the series runs (it serves the reads, as the extension host
 * does with Try the Sandbox). Prints JSON lines; asserts nothing.
 *   node out/test/bench/series.bench.js
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { EoClient } from '../../src/api/client';
import type { Aoi, Asset } from '../../src/api/records';
import { geodesicArea } from '../../src/geo/area';
import type { ReadBytesParams, SeriesPoint, SeriesRequest } from '../../src/panels/imagery/protocol';
import { aoiAssetSpec } from '../../src/panels/imagery/specs';
import { startSandbox } from '../../src/sandbox';
import { closeBrowser, isType, openWebview, ROOT } from '../webview/harness';

const RUNS = Number(process.env.EO_BENCH_RUNS) || 2;
const DATES = 24;
const NDVI = '(B08-B04)/(B08+B04)';
const SCRIPT = join(ROOT, 'test', 'fixtures', 'imagery', 'series_stats.py');

const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];

/** The longest lateness of a 5 ms timer while `run` runs: what a blocked event loop looks like. */
async function maxStall<T>(run: () => Promise<T>): Promise<{ value: T; stallMs: number }> {
  let last = performance.now();
  let worst = 0;
  const t = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last - 5);
    last = now;
  }, 5);
  try {
    const value = await run();
    return { value, stallMs: worst };
  } finally {
    clearInterval(t);
  }
}

async function main(): Promise<void> {
  const sb = await startSandbox({ port: 0 });
  const client = new EoClient({ baseUrl: sb.url, token: sb.tokens.alice, userAgent: 'eo-imagery-bench' });
  try {
    let aoi: Aoi | undefined;
    for await (const a of client.aois.iterate({}, { pageSize: 100 })) if (a.name.startsWith('Kings River fields')) aoi = a;
    if (!aoi) throw new Error('the seasonal AOI is not seeded');
    const assets: Asset[] = [];
    for await (const a of client.aois.iterateAssets(aoi.aoi_id, { pageSize: 100 })) assets.push(a);
    assets.sort((a, b) => a.date.localeCompare(b.date));
    const dates = assets.slice(0, DATES);
    const request: SeriesRequest = {
      title: aoi.name,
      index: { name: 'NDVI', expression: NDVI },
      polygon: aoi.geometry,
      dates: dates.map((a) => {
        const r = aoiAssetSpec(a);
        if ('note' in r) throw new Error(r.note.text);
        return { date: a.date, spec: r.spec, source: a.id };
      }),
    };
    const ours: { ms: number; stall: number; fetched: number; tiles: number; level: number; pixels: number }[] = [];
    const theirs: { ms: number; stall: number }[] = [];
    for (let run = 0; run < RUNS; run++) {
      // the webview (a fresh page each run: nothing cached between them)
      const h = await openWebview('map', {
        viewport: { width: 1100, height: 760 },
        onRequest: async (req) => {
          const p = (req as { params: ReadBytesParams }).params;
          const got = await client.readRange(p.url, p.offset, p.length, { maxWholeFile: 50 * 1024 * 1024 });
          return { bytes: new Uint8Array(got.body), total: got.total };
        },
      });
      try {
        await h.waitFor(isType('ready'));
        await h.send({ type: 'init', basemaps: [] });
        const t0 = performance.now();
        const { stallMs } = await maxStall(async () => {
          await h.send({ type: 'seriesStart', requestId: 1, request });
          await h.waitFor((m) => (m as { type?: string }).type === 'seriesDone', 600_000);
        });
        const ms = performance.now() - t0;
        const points = (h.posted as { type?: string; point: SeriesPoint }[]).filter((m) => m.type === 'seriesPoint').map((m) => m.point);
        const bad = points.find((p) => p.error);
        if (bad) throw new Error(`${bad.date}: ${bad.error}`);
        ours.push({
          ms,
          stall: stallMs,
          fetched: points.reduce((s, p) => s + (p.fetchedBytes ?? 0), 0),
          tiles: points.reduce((s, p) => s + (p.tileBytes ?? 0), 0),
          level: points[0].level ?? 0,
          pixels: points[0].pixels,
        });
      } finally {
        await h.close();
      }
      // the analyst's script, same files, level and polygon
      const t1 = performance.now();
      const { stallMs } = await maxStall(
        () =>
          new Promise<void>((resolve, reject) => {
            const child = spawn('/usr/bin/python3', [SCRIPT], { stdio: ['pipe', 'ignore', 'inherit'] });
            child.on('error', reject);
            child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`series_stats.py exited ${code}`))));
            child.stdin.end(
              JSON.stringify({
                files: dates.map((a) => a.path),
                header: `Authorization: Bearer ${sb.tokens.alice}`,
                polygon: aoi?.geometry,
                level: ours[ours.length - 1].level,
                expression: NDVI,
                bands: dates[0].band_list,
              }),
            );
          }),
      );
      theirs.push({ ms: performance.now() - t1, stall: stallMs });
    }
    const o = median(ours.map((x) => x.ms));
    const g = median(theirs.map((x) => x.ms));
    console.log(
      JSON.stringify({
        bench: 'index_series_24_dates',
        runs: RUNS,
        dates: DATES,
        area_km2: Math.round(geodesicArea(aoi.geometry as never) / 1e4) / 100,
        level: ours[0].level,
        pixels_inside: ours[0].pixels,
        ours_ms: Math.round(o),
        python_gdal_ms: Math.round(g),
        time_vs_python_gdal: Math.round((o / g) * 100) / 100,
        goal_time_vs_python_gdal: 1.0,
        fetched_over_tile_bytes: Math.round(median(ours.map((x) => x.fetched / x.tiles)) * 1000) / 1000,
        goal_fetched_over_tile_bytes: 1.3,
        host_max_stall_ms: Math.round(Math.max(...ours.map((x) => x.stall))),
        goal_host_max_stall_ms: 50,
      }),
    );
  } finally {
    await closeBrowser();
    await sb.close();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
