/**
 * "Export Timelapse…" as a GIF of the sandbox's seasonal AOI (Kings River fields): 26 frames
 * of 480 × 480 and 24 of 1280 × 720, drawn by the map webview (ranges through the host's byte
 * relay, seriesHost.ts in a worker; one stretch across the dates; outline and date burnt in;
 * the encoder chunk) against the script an analyst would write instead:
 * test/fixtures/imagery/timelapse_gif.py (Debian's Python, GDAL warping each date over
 * /vsicurl/ to the frame, one 2–98 % stretch over all frames, PNGs, ImageMagick's convert),
 * serially and with the dates on a thread pool of 8, side by side in the same run against the
 * same sandbox. Figures: seconds to the GIF's bytes, and ours over the faster script. Prints
 * JSON lines; asserts nothing.
 *   node out/test/bench/timelapse.bench.js        (EO_BENCH_RUNS, default 2)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { EoClient } from '../../src/api/client';
import { aoiAssetSpec } from '../../src/panels/imagery/specs';
import type { TimelapseRequest } from '../../src/panels/imagery/timelapseMessages';
import { closeBrowser, ROOT } from '../webview/harness';
import { decode, runTimelapse } from '../webview/timelapseRun';
import { Host, openMapPage, seasonalAoi } from './hostWorker';
import { median } from './measure';

const RUNS = Number(process.env.EO_BENCH_RUNS) || 2;
const POOL = 8;
const SCRIPT = join(ROOT, 'test', 'fixtures', 'imagery', 'timelapse_gif.py');
/** Debian's ImageMagick: a stand-in named `convert` may come first on PATH. */
const CONVERT = '/usr/bin/convert';
const SIZES = [
  { frames: 26, width: 480, height: 480 },
  { frames: 24, width: 1280, height: 720 },
];

function bboxOf(geometry: unknown): [number, number, number, number] {
  const points =
    JSON.stringify(geometry)
      .match(/-?\d+(\.\d+)?(e-?\d+)?/g)
      ?.map(Number) ?? [];
  const lon = points.filter((_, i) => i % 2 === 0);
  const lat = points.filter((_, i) => i % 2 === 1);
  return [Math.min(...lon), Math.min(...lat), Math.max(...lon), Math.max(...lat)];
}

function runScript(job: object): Promise<{ seconds: number; frames: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/python3', [SCRIPT], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(JSON.parse(out) as { seconds: number; frames: number }) : reject(new Error(`timelapse_gif.py exited ${code}`)),
    );
    child.stdin.end(JSON.stringify(job));
  });
}

async function main(): Promise<void> {
  const host = new Host();
  const sb = await host.ready;
  const client = new EoClient({ baseUrl: sb.url, token: sb.token, userAgent: 'eo-imagery-bench' });
  const dir = mkdtempSync(join(tmpdir(), 'eo-bench-timelapse-'));
  try {
    const { aoi, assets } = await seasonalAoi(client);
    const bbox = bboxOf(aoi.geometry);
    const rgb = ['B04', 'B03', 'B02'].map((b) => assets[0].band_list.indexOf(b) + 1);
    if (rgb.some((b) => b < 1)) throw new Error(`the seasonal AOI's assets lack B04/B03/B02: ${assets[0].band_list.join(', ')}`);

    for (const size of SIZES) {
      const dates = assets.slice(0, size.frames);
      const request: TimelapseRequest = {
        title: aoi.name,
        frames: dates.map((a) => {
          const r = aoiAssetSpec(a);
          if ('note' in r) throw new Error(r.note.text);
          return { date: a.date.slice(0, 10), spec: r.spec };
        }),
        bbox,
        outline: aoi.geometry,
        width: size.width,
        height: size.height,
        fps: 2,
        format: 'gif',
      };
      const job = (threads: number) => ({
        files: dates.map((a) => a.path),
        header: `Authorization: Bearer ${sb.token}`,
        bbox,
        width: size.width,
        height: size.height,
        bands: rgb,
        delay: 50,
        out: join(dir, `gdal-${threads}.gif`),
        convert: CONVERT,
        threads,
      });
      const ours: number[] = [];
      const serial: number[] = [];
      const pooled: number[] = [];
      let frames = 0;
      // Run -1 is untimed: the sandbox makes each tile on its first read (a real service reads stored files).
      for (let run = -1; run < RUNS; run++) {
        const h = await openMapPage(host);
        try {
          const t0 = performance.now();
          const { reply } = await runTimelapse(h, request);
          const ms = performance.now() - t0;
          if (!reply.ok || !reply.result?.b64) throw new Error(`the timelapse failed: ${reply.error ?? 'no bytes'}`);
          frames = decode(reply.result.b64).gif.numFrames();
          if (run >= 0) ours.push(ms);
        } finally {
          await h.close();
        }
        if (run < 0) continue;
        serial.push((await runScript(job(1))).seconds * 1000);
        pooled.push((await runScript(job(POOL))).seconds * 1000);
      }
      const o = median(ours);
      const faster = Math.min(median(serial), median(pooled));
      console.log(
        JSON.stringify({
          bench: 'timelapse_gif',
          figure: `${size.frames}_frames_${size.width}x${size.height}`,
          frames,
          ours_ms: Math.round(o),
          gdal_imagemagick_ms: Math.round(median(serial)),
          gdal_imagemagick_pool_ms: Math.round(median(pooled)),
          pool_threads: POOL,
          ratio_vs_faster: Math.round((o / faster) * 100) / 100,
          goal: '<= 1.0',
          ours_runs_ms: ours.map(Math.round),
          serial_runs_ms: serial.map(Math.round),
          pool_runs_ms: pooled.map(Math.round),
          load_average: loadavg().map((x) => Math.round(x * 10) / 10),
        }),
      );
    }
  } finally {
    await closeBrowser();
    await host.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
