/**
 * A 1 GiB download through the extension's downloader (src/commands/catalog/downloadFile.ts, as
 * "Save to Folder…" runs it) against `curl -o` of the same file from the same server, in the
 * same run, rounds alternating which goes first after an untimed one, each download on a new
 * connection. The server is an object store's answer (test/bench/downloadServer.ts) in a
 * process of its own. Figures: throughput of each, their
 * ratio (goal ≥ 0.9× curl), and this process's memory during ours (flat: the file is streamed
 * to disk, never held). Then a resume: the connection cut by the fault proxy at half the file,
 * and what the second request moved (goal: only the missing half). Prints JSON lines.
 *   node out/test/bench/download.bench.js        (EO_BENCH_RUNS, EO_BENCH_DOWNLOAD_BYTES)
 */
import { execFile, fork } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Agent, setGlobalDispatcher } from 'undici';
import { downloadToFile } from '../../src/commands/catalog/downloadFile';
import { FaultProxy } from '../support/faultProxy';
import { DOWNLOAD_BYTES } from './downloadServer';
import { median } from './measure';

const RUNS = Number(process.env.EO_BENCH_RUNS) || 3;
const MB = 1024 * 1024;
const run = promisify(execFile);
const round = (n: number, d = 2): number => Math.round(n * 10 ** d) / 10 ** d;

async function startServer(): Promise<{ url: string; stop: () => void }> {
  const child = fork(join(__dirname, 'downloadServer.js'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`the file server exited (${code})`)));
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

/** Peak growth of this process's memory over `work`, sampled every 50 ms. */
async function withMemory<T>(work: () => Promise<T>): Promise<{ value: T; rssMb: number; heapMb: number }> {
  global.gc?.();
  const start = process.memoryUsage();
  let rss = start.rss;
  let heap = start.heapUsed;
  const timer = setInterval(() => {
    const m = process.memoryUsage();
    rss = Math.max(rss, m.rss);
    heap = Math.max(heap, m.heapUsed);
  }, 50);
  try {
    return { value: await work(), rssMb: round((rss - start.rss) / MB, 1), heapMb: round((heap - start.heapUsed) / MB, 1) };
  } finally {
    clearInterval(timer);
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'eo-bench-download-'));
  const server = await startServer();
  const file = `${server.url}/big.bin`;
  try {
    const ours: number[] = [];
    const curl: number[] = [];
    const rss: number[] = [];
    const heap: number[] = [];
    const cold: Record<string, number> = {};
    // Round 0 is untimed: this process's first download (module loading, JIT, the allocator) and
    // curl's first, told apart as `cold_*`.
    for (let r = 0; r <= RUNS; r++) {
      const oursFirst = r % 2 === 0;
      for (const who of oursFirst ? ['ours', 'curl'] : ['curl', 'ours']) {
        const target = join(dir, `${who}.bin`);
        // A new connection each time for both, as a signed link's host is met: curl opens one
        // per run, and a connection kept alive from the round before would favour ours.
        setGlobalDispatcher(new Agent());
        const t0 = performance.now();
        if (who === 'curl') await run('curl', ['-sS', '--fail', '-o', target, file]);
        else {
          const m = await withMemory(() => downloadToFile(file, target, { otherHosts: undefined }));
          rss.push(m.rssMb);
          heap.push(m.heapMb);
        }
        const s = (performance.now() - t0) / 1000;
        if (statSync(target).size !== DOWNLOAD_BYTES) throw new Error(`${who} saved ${statSync(target).size} bytes of ${DOWNLOAD_BYTES}`);
        if (r === 0) cold[who] = round(DOWNLOAD_BYTES / MB / s, 0);
        else (who === 'curl' ? curl : ours).push(DOWNLOAD_BYTES / MB / s);
        rmSync(target);
      }
    }
    console.log(
      JSON.stringify({
        bench: 'download',
        figure: 'throughput_mb_s',
        value: round(median(ours), 0),
        baseline: 'curl -o of the same file from the same server, same run, a new connection each',
        baseline_value: round(median(curl), 0),
        ratio: round(median(ours) / median(curl)),
        goal: '>= 0.9',
        bytes: DOWNLOAD_BYTES,
        ours_runs: ours.map((x) => round(x, 0)),
        curl_runs: curl.map((x) => round(x, 0)),
        cold_ours: cold.ours,
        cold_curl: cold.curl,
        peak_rss_growth_mb: Math.max(...rss),
        peak_heap_growth_mb: Math.max(...heap),
        runs: RUNS,
      }),
    );

    // A cut at half the file, then the resume: the second request should move only the rest.
    const proxy = await FaultProxy.start({ upstream: server.url, seed: 7, announceSeed: false });
    try {
      proxy.add({ path: '/big.bin', times: 1, toxic: { kind: 'limitData', bytes: DOWNLOAD_BYTES / 2 } });
      const target = join(dir, 'resumed.bin');
      await downloadToFile(`${proxy.url}/big.bin`, target, { otherHosts: undefined, backoffMs: 10 });
      const asks = proxy.log.filter((e) => e.path === '/big.bin');
      const moved = asks.reduce((n, e) => n + e.bodyBytes, 0);
      const from = Number(/^bytes=(\d+)-$/.exec(asks[1]?.range ?? '')?.[1] ?? NaN);
      console.log(
        JSON.stringify({
          bench: 'download',
          figure: 'resume_after_cut_at_half',
          requests: asks.length,
          second_request_from_byte: from,
          second_request_moved_mb: round((asks[1]?.bodyBytes ?? 0) / MB, 1),
          total_moved_over_file: round(moved / DOWNLOAD_BYTES, 3),
          whole: statSync(target).size === DOWNLOAD_BYTES,
        }),
      );
    } finally {
      await proxy.close();
    }
  } finally {
    server.stop();
    if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
