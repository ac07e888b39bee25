/**
 * Sandbox imagery figures: synthesizing one 512 × 512 tile of the full-size Sentinel-2 scene
 * (4 bands, uint16, 2 MiB), against reading the same bytes from a file on disk (what a
 * pre-generated file would cost: the design this one replaces); how long a range read holds
 * the event loop (the sandbox runs inside the extension host for "Try the Sandbox"); and the
 * first header read after start-up (nothing is generated at start). Reports; does not assert.
 * The event loop while serving range reads: the reads come from a worker thread (a client
 * outside the sandbox's thread, as the webview or GDAL is outside the extension host), the
 * stalls are the main thread's (loopMonitor.ts: its CPU time, and monitorEventLoopDelay),
 * start-up is not counted, and the same monitor over as many `/ping` requests is the baseline.
 */
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { loadavg } from 'node:os';
import { startSandbox } from '../../src/sandbox';
import { byteChunks, cogLayout, synthesizeTile } from '../../src/sandbox/imagery/cogWriter';
import { dataCogSpec } from '../../src/sandbox/imagery/scene';
import { isFullSizeItem, itemScene } from '../../src/sandbox/imagery/scenes';
import { generateArchive } from '../../src/sandbox/world/archive';
import type { FuzzJob } from '../unit/sandbox/fuzzClient';
import { watchLoop } from '../unit/sandbox/loopMonitor';
import { FuzzClient } from '../unit/sandbox/routeFuzz';

const round = (x: number): number => Math.round(x * 100) / 100;
const emit = (o: Record<string, unknown>): void => console.log(JSON.stringify(o));
const quantile = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

function tileSynthesis(): void {
  const row = generateArchive(42, 1).find(isFullSizeItem)!;
  const layout = cogLayout(dataCogSpec(itemScene(row)));
  const dir = mkdtempSync(path.join(tmpdir(), 'eo-bench-'));
  const file = path.join(dir, 'tiles.bin');
  const N = 24;
  const tiles: [number, number][] = Array.from({ length: N }, (_, k) => [(k * 5) % layout.levels[0].tilesX, (k * 7 + 3) % layout.levels[0].tilesY]);
  // The baseline's file: the same tiles' bytes, written once, read back at their offsets.
  writeFileSync(file, Buffer.concat(tiles.slice(0, 4).map(([x, y]) => synthesizeTile(layout, 0, x, y))));
  const wall: number[] = [];
  const cpu: number[] = [];
  const disk: number[] = [];
  const fd = openSync(file, 'r');
  const buf = Buffer.alloc(layout.tileBytes);
  try {
    for (const [x, y] of tiles) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      synthesizeTile(layout, 0, x, y);
      wall.push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      cpu.push((c.user + c.system) / 1000);
      const t1 = performance.now();
      readSync(fd, buf, 0, buf.length, (disk.length % 4) * layout.tileBytes);
      disk.push(performance.now() - t1);
    }
  } finally {
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  }
  const m = quantile(wall, 0.5);
  const d = quantile(disk, 0.5);
  emit({
    bench: 'sandbox-imagery-tile',
    figure: 'tile_512_4band_median_ms',
    value: round(m),
    baseline: 'read the same 2 MiB from a file on disk',
    baseline_value: round(d),
    ratio: round(m / d),
  });
  emit({ bench: 'sandbox-imagery-tile', figure: 'tile_512_4band_p95_ms', value: round(quantile(wall, 0.95)), target: 100 });
  // CPU time too: wall time swings with the load of a shared 2-core machine.
  emit({ bench: 'sandbox-imagery-tile', figure: 'tile_512_4band_median_cpu_ms', value: round(quantile(cpu, 0.5)) });
  // What one range read holds the event loop for: the longest synchronous step of the chunk
  // generator the server streams from (tiles are computed in strips, one per step).
  const steps: number[] = [];
  const l0 = layout.levels[0];
  for (let k = 0; k < 8; k++) {
    const index = (k * 53 + 7) % (l0.tilesX * l0.tilesY);
    const start = l0.dataStart + index * layout.slotBytes + 4;
    const it = byteChunks(layout, start, start + layout.tileBytes);
    for (;;) {
      const c1 = process.cpuUsage();
      const r = it.next();
      const d1 = process.cpuUsage(c1);
      if (r.done) break;
      steps.push((d1.user + d1.system) / 1000);
    }
  }
  emit({
    bench: 'sandbox-imagery-tile',
    figure: 'range_read_longest_step_cpu_ms',
    value: round(Math.max(...steps)),
    p95_ms: round(quantile(steps, 0.95)),
    target: 100,
  });
}

async function overHttp(): Promise<void> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const sb = await startSandbox({ port: 0 });
  const started = performance.now() - t0;
  const c = process.cpuUsage(c0);
  try {
    const row = generateArchive(42, 1).find(isFullSizeItem)!;
    const url = `${sb.url}/assets/sentinel-2-l2a/${row.id}/data.tif`;
    const auth = { authorization: `Bearer ${sb.tokens.alice}` };
    const t1 = performance.now();
    const head = await fetch(url, { headers: { ...auth, range: 'bytes=0-16383' } });
    await head.arrayBuffer();
    emit({ bench: 'sandbox-imagery-startup', figure: 'start_ms', value: round(started), cpu_ms: round((c.user + c.system) / 1000), target: 500 });
    emit({ bench: 'sandbox-imagery-startup', figure: 'first_header_range_ms', value: round(performance.now() - t1) });
    const layout = cogLayout(dataCogSpec(itemScene(row)));
    const l0 = layout.levels[0];
    const path = url.slice(sb.url.length);
    const reads: FuzzJob[] = Array.from({ length: 16 }, (_, k) => {
      const index = (k * 37 + 11) % (l0.tilesX * l0.tilesY);
      const start = l0.dataStart + index * layout.slotBytes + 4;
      const range = `bytes=${start}-${start + layout.tileBytes - 1}`;
      return { method: 'GET', path, headers: { range }, what: `GET data.tif [${range}]`, route: 'GET /assets/:cid/:id/data.tif', id: k };
    });
    const pings: FuzzJob[] = reads.map((_, k) => ({ method: 'GET', path: '/ping', headers: {}, what: 'GET /ping', route: 'GET /ping', id: 100 + k }));
    const client = new FuzzClient(sb);
    try {
      await client.load([...reads, ...pings]);
      const wp = watchLoop({ intervalMs: 5 });
      await client.run(pings, 1, 60_000);
      const base = wp.stop();
      const wr = watchLoop({ intervalMs: 5 });
      const r = await client.run(reads, 1, 300_000);
      const served = wr.stop();
      const load = loadavg().map((x) => round(x));
      emit({ bench: 'sandbox-imagery-range', figure: 'tile_range_read_mean_ms', value: round(r.elapsedMs / reads.length), statuses: r.statuses });
      emit({
        bench: 'sandbox-imagery-range',
        figure: 'event_loop_delay_max_ms',
        note: 'while serving 16 cold tile reads (2 MiB each) of the full-size scene to a client in a worker; start-up not counted',
        value: served.delayMaxMs,
        p99_ms: served.delayP99Ms,
        baseline: 'the same monitor over 16 /ping requests',
        baseline_value: base.delayMaxMs,
        ratio_to_baseline: base.delayMaxMs > 0 ? round(served.delayMaxMs / base.delayMaxMs) : undefined,
        target: 100,
        load_average: load,
      });
      emit({
        bench: 'sandbox-imagery-range',
        figure: 'longest_stall_main_thread_cpu_ms',
        value: served.maxStallCpuMs,
        cpu_of: served.cpuSource,
        wall_ms: served.maxStallWallMs,
        baseline: 'the same monitor over 16 /ping requests',
        baseline_value: base.maxStallCpuMs,
        target: 100,
        load_average: load,
      });
    } finally {
      await client.close();
    }
  } finally {
    await sb.close();
  }
}

async function main(): Promise<void> {
  tileSynthesis();
  await overHttp();
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
