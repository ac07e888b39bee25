/**
 * "Chart Index Over Time" on 24 dates of a sandbox seasonal AOI: the map webview's series
 * (ranges through the host, the level giving the polygon ≥ 10,000 pixels, only the tiles
 * holding a pixel centre inside, statistics in a worker) against the script an analyst
 * would write instead: test/fixtures/imagery/series_stats.py (Python, GDAL over /vsicurl/,
 * the same level and window per date, numpy statistics), run side by side in the same run,
 * against the same sandbox. Figures: time to the full series, and ours over the analyst's;
 * bytes fetched over the stored bytes of the tiles needed; and the longest stall of the
 * extension host's event loop while the series runs. The host is a worker thread
 * (seriesHost.ts: the sandbox, as Try the Sandbox runs it inside the host, and the host's
 * byte relay: the client's range read, then the bytes handed to another thread); the webview
 * harness (Playwright and Chromium) stays on this thread, as it is no part of the host. The
 * host's stalls are its own thread's CPU time (loopMonitor.ts) and monitorEventLoopDelay;
 * baseline: the same monitor while the analyst's script reads the same files from the host.
 * Two states are compared: cold (a map page that has not loaded its imagery code, against the
 * script's whole process: Python, GDAL and numpy loaded first) and warm (the page told while
 * the person picks, `seriesPrepare`, against the script's own time once its imports ran, as a
 * notebook's kernel runs it a second time with fresh caches).
 * Where the time goes (the last run): a breakdown from the reads the page asks the host for and
 * the points it posts (seriesTimeline.ts), and the CPU time of each process and thread
 * (processCpu.ts: the bench's own threads, the host worker among them, and Chromium's).
 * Prints JSON lines; asserts nothing.
 *   node out/test/bench/series.bench.js
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { EoClient } from '../../src/api/client';
import { geodesicArea } from '../../src/geo/area';
import { aoiAssetSpec } from '../../src/panels/imagery/specs';
import type { LoopReport } from '../unit/sandbox/loopMonitor';
import { Host, openMapPage, seasonalAoi } from './hostWorker';
import { closeBrowser, ROOT } from '../webview/harness';
import type { SeriesPoint, SeriesRequest } from '../../src/panels/imagery/seriesMessages';
import { median } from './measure';
import { cpuSnapshot, cpuSpent } from './processCpu';
import { seriesBreakdown, type SeriesBreakdown, type TimedRead } from './seriesTimeline';
import { waitUntil } from '../support/waitUntil';

const RUNS = Number(process.env.EO_BENCH_RUNS) || 2;
const DATES = 24;
/** The analyst's thread pool: what `concurrent.futures` users reach for on a laptop. */
const POOL = 8;
const NDVI = '(B08-B04)/(B08+B04)';
const SCRIPT = join(ROOT, 'test', 'fixtures', 'imagery', 'series_stats.py');

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

/** The page's busiest functions by self time (ms), from a CDP CPU profile. */
function printSelfTime(p: CpuProfile): void {
  const byId = new Map(p.nodes.map((n) => [n.id, n.callFrame]));
  const self = new Map<string, number>();
  p.samples.forEach((id, i) => {
    const f = byId.get(id);
    const key = f ? `${f.functionName || '(anonymous)'} ${f.url.split('/').pop() ?? ''}:${f.lineNumber}` : '?';
    self.set(key, (self.get(key) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000);
  });
  const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 15);
  console.log(JSON.stringify({ bench: 'index_series_24_dates', figure: 'page_self_ms', value: top.map(([k, v]) => [k, Math.round(v)]) }));
}

/**
 * The series as a person meets it with the map open: the extension tells the page while the
 * dates and the index are picked (`seriesPrepare`), so the imagery code is loaded by the time
 * the series starts. Timed from `seriesStart`, the same as the cold runs.
 */
async function preparedRun(host: Host, request: SeriesRequest): Promise<number> {
  const h = await openMapPage(host);
  try {
    await h.send({ type: 'seriesPrepare' });
    await waitUntil(h.page, () => '__eoImageryChunk' in window && '__eoAnalysisChunk' in window, undefined, { timeout: 60_000 });
    const t0 = performance.now();
    await h.send({ type: 'seriesStart', requestId: 1, request, host: true });
    await h.waitFor((m) => (m as { type?: string }).type === 'seriesDone', 600_000);
    return performance.now() - t0;
  } finally {
    await h.close();
  }
}

async function main(): Promise<void> {
  const host = new Host();
  const sb = await host.ready;
  const client = new EoClient({ baseUrl: sb.url, token: sb.token, userAgent: 'eo-imagery-bench' });
  try {
    const { aoi, assets } = await seasonalAoi(client);
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
    /** Runs the analyst's script; resolves with its own time for the job once its imports are loaded (a notebook's warm kernel), ms. */
    const runScript = (level: number, threads: number) =>
      new Promise<number>((resolve, reject) => {
        const child = spawn('/usr/bin/python3', [SCRIPT], { stdio: ['pipe', 'pipe', 'inherit'] });
        let out = '';
        child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
        child.on('error', reject);
        child.on('close', (code) => {
          const last = JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as { total_seconds?: number };
          if (code === 0 && typeof last.total_seconds === 'number') resolve(last.total_seconds * 1000);
          else reject(new Error(`series_stats.py exited ${code}`));
        });
        child.stdin.end(
          JSON.stringify({
            files: dates.map((a) => a.path),
            header: `Authorization: Bearer ${sb.token}`,
            polygon: aoi?.geometry,
            level,
            expression: NDVI,
            bands: dates[0].band_list,
            threads,
            timing: true,
          }),
        );
      });
    const ours: { ms: number; loop: LoopReport; fetched: number; tiles: number; level: number; pixels: number }[] = [];
    const theirs: { ms: number; loop: LoopReport }[] = [];
    const pooled: number[] = [];
    const prepared: number[] = [];
    // the scripts' own time for the job, their imports done: a notebook's kernel that ran them already
    const theirsWarm: number[] = [];
    const pooledWarmRuns: number[] = [];
    let breakdown: { timeline: SeriesBreakdown; cpu_ms: [string, number][] } | undefined;
    // The sandbox computes a mosaic's tiles on first read and keeps them (a real service reads
    // stored files): whichever side ran first paid for that. Run -1 is an untimed pass of ours
    // that makes every tile both sides read (the same level and window).
    for (let run = -1; run < RUNS; run++) {
      // the page's reads through the host and its points, timed from the start (the breakdown)
      let t0 = 0;
      const reads: TimedRead[] = [];
      const pointAt = new Map<number, number>();
      const asked: Omit<TimedRead, 'length'>[] = [];
      const relay = {
        stats: async (plan: Parameters<Host['stats']>[0]) => {
          const a = { url: plan.url, start: performance.now() - t0, end: NaN };
          asked.push(a);
          const got = await host.stats(plan);
          a.end = performance.now() - t0;
          return got;
        },
        read: async (p: Parameters<Host['read']>[0]) => {
          const r: TimedRead = { url: p.url, length: p.length, start: performance.now() - t0, end: NaN };
          reads.push(r);
          const got = await host.read(p);
          r.end = performance.now() - t0;
          return got;
        },
      };
      const h = await openMapPage(relay, (m) => {
        const p = m as { type?: string; index?: number };
        if (p?.type === 'seriesPoint' && typeof p.index === 'number') pointAt.set(p.index, performance.now() - t0);
      });
      try {
        // EO_BENCH_PROFILE: the page's main thread profiled on the last run, its self time printed by function
        const cdp = process.env.EO_BENCH_PROFILE && run === RUNS - 1 ? await h.page.context().newCDPSession(h.page) : undefined;
        if (cdp) {
          await cdp.send('Profiler.enable');
          await cdp.send('Profiler.start');
        }
        const cpu0 = cpuSnapshot();
        t0 = performance.now();
        reads.length = 0;
        asked.length = 0;
        const { loop } = await host.watched(async () => {
          // as the extension starts it: the host takes the statistics of the files it decodes
          await h.send({ type: 'seriesStart', requestId: 1, request, host: true });
          await h.waitFor((m) => (m as { type?: string }).type === 'seriesDone', 600_000);
        });
        const ms = performance.now() - t0;
        const cpu = cpuSpent(cpu0, cpuSnapshot());
        if (cdp) printSelfTime((await cdp.send('Profiler.stop')).profile as CpuProfile);
        const points = (h.posted as { type?: string; point: SeriesPoint }[]).filter((m) => m.type === 'seriesPoint').map((m) => m.point);
        const bad = points.find((p) => p.error);
        if (bad) throw new Error(`${bad.date}: ${bad.error}`);
        if (run < 0) continue;
        breakdown = {
          timeline: seriesBreakdown(
            request.dates.map((d) => d.spec.url),
            reads,
            pointAt,
            asked,
          ),
          cpu_ms: cpu,
        };
        ours.push({
          ms,
          loop,
          fetched: points.reduce((s, p) => s + (p.fetchedBytes ?? 0), 0),
          tiles: points.reduce((s, p) => s + (p.tileBytes ?? 0), 0),
          level: points[0].level ?? 0,
          pixels: points[0].pixels,
        });
      } finally {
        await h.close();
      }
      if (run >= 0) prepared.push(await preparedRun(host, request));
      // the analyst's script, same files, level and polygon
      const t1 = performance.now();
      const { value: warm, loop } = await host.watched(() => runScript(ours[ours.length - 1].level, 1));
      theirs.push({ ms: performance.now() - t1, loop });
      if (run >= 0) theirsWarm.push(warm);
      // the same script with the dates on a thread pool of POOL (concurrent.futures)
      const t2 = performance.now();
      const pooledWarm = await runScript(ours[ours.length - 1].level, POOL);
      pooled.push(performance.now() - t2);
      if (run >= 0) pooledWarmRuns.push(pooledWarm);
    }
    const o = median(ours.map((x) => x.ms));
    const g = median(theirs.map((x) => x.ms));
    const gp = median(pooled);
    const op = median(prepared);
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
        python_gdal_pool_ms: Math.round(gp),
        python_gdal_pool_threads: POOL,
        time_vs_python_gdal_pool: Math.round((o / gp) * 100) / 100,
        goal_time_vs_faster_script: 1.0,
        ours_prepared_ms: Math.round(op),
        ours_prepared_of: 'the map told while the dates are picked (seriesPrepare): its imagery code loaded before seriesStart',
        ours_prepared_runs_ms: prepared.map((x) => Math.round(x)),
        python_gdal_warm_ms: Math.round(median(theirsWarm)),
        python_gdal_pool_warm_ms: Math.round(median(pooledWarmRuns)),
        warm_of: "the scripts' own time once Python, GDAL and numpy are loaded (a notebook whose imports ran)",
        time_prepared_vs_warm_faster_script: Math.round((op / Math.min(median(theirsWarm), median(pooledWarmRuns))) * 100) / 100,
        ours_runs_ms: ours.map((x) => Math.round(x.ms)),
        python_gdal_runs_ms: theirs.map((x) => Math.round(x.ms)),
        python_gdal_pool_runs_ms: pooled.map((x) => Math.round(x)),
        fetched_over_tile_bytes: Math.round(median(ours.map((x) => x.fetched / x.tiles)) * 1000) / 1000,
        goal_fetched_over_tile_bytes: 1.3,
        host_max_stall_cpu_ms: Math.max(...ours.map((x) => x.loop.maxStallCpuMs)),
        host_max_stall_wall_ms: Math.max(...ours.map((x) => x.loop.maxStallWallMs)),
        host_delay_max_ms: Math.max(...ours.map((x) => x.loop.delayMaxMs)),
        host_delay_p99_ms: Math.max(...ours.map((x) => x.loop.delayP99Ms)),
        host_cpu_of: ours[0].loop.cpuSource,
        host_baseline: 'the same monitor while the analyst script reads the same files from the host',
        host_baseline_max_stall_cpu_ms: Math.max(...theirs.map((x) => x.loop.maxStallCpuMs)),
        host_baseline_delay_max_ms: Math.max(...theirs.map((x) => x.loop.delayMaxMs)),
        goal_host_max_stall_ms: 50,
        load_average: loadavg().map((x) => Math.round(x * 10) / 10),
      }),
    );
    console.log(JSON.stringify({ bench: 'index_series_24_dates', figure: 'breakdown_last_run', value: breakdown }));
    console.log(JSON.stringify({ bench: 'index_series_24_dates', figure: 'host_worst_stalls', value: ours.flatMap((x) => x.loop.stalls).slice(0, 5) }));
  } finally {
    await closeBrowser();
    await host.close();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
