/**
 * Sandbox stalls: every route fuzzed (test/unit/sandbox/routeFuzz.ts: real ids and junk,
 * mutated and deeply nested bodies, huge geometries, whole-file and 16 MiB range reads of the
 * full-size scene) under an event-loop monitor, in this process, as the sandbox runs inside the
 * extension host for Try the Sandbox. Baseline, side by side in the same process: the same
 * monitor over the same number of `/ping` requests, the floor this machine gives any server.
 * The stall figure is the CPU time the process used while the loop did not turn (on a busy
 * machine the wall-clock gap also holds time the process was not scheduled at all).
 * Goal: no stall over 100 ms. Prints JSON lines; it reports, it does not assert.
 */
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { startSandbox, type SandboxHandle } from '../../src/sandbox';
import { fuzzEveryRoute } from '../unit/sandbox/routeFuzz';

const REQUESTS = Number(process.env.EO_BENCH_FUZZ_REQUESTS ?? 300);

async function pings(sb: SandboxHandle, n: number): Promise<{ maxDelayMs: number; p99DelayMs: number; maxStallCpuMs: number }> {
  const h = monitorEventLoopDelay({ resolution: 10 });
  let last = performance.now();
  let lastCpu = process.cpuUsage();
  let maxStallCpuMs = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    const cpu = process.cpuUsage(lastCpu);
    maxStallCpuMs = Math.max(maxStallCpuMs, Math.min(now - last - 10, (cpu.user + cpu.system) / 1000));
    last = now;
    lastCpu = process.cpuUsage();
  }, 10);
  h.enable();
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next++ < n) await (await fetch(`${sb.url}/ping`)).text();
    }),
  );
  h.disable();
  clearInterval(ticker);
  return { maxDelayMs: Math.round(h.max / 1e5) / 10, p99DelayMs: Math.round(h.percentile(99) / 1e5) / 10, maxStallCpuMs: Math.round(maxStallCpuMs) };
}

async function main(): Promise<void> {
  const sb = await startSandbox({ port: 0, seed: 11 });
  try {
    const base = await pings(sb, REQUESTS);
    const r = await fuzzEveryRoute(sb, { seed: 20250101, requests: REQUESTS, timeLimitMs: 180_000, concurrency: 4 });
    const worst = r.stalls[0];
    console.log(
      JSON.stringify({
        bench: 'sandbox-stalls',
        figure: 'longest_stall_cpu_ms',
        value: r.maxStallCpuMs,
        baseline: `the same monitor over ${REQUESTS} /ping requests`,
        baseline_value: base.maxStallCpuMs,
        target: '< 100',
        meets_target: r.maxStallCpuMs < 100,
        worst_wall_ms: worst?.ms,
        worst_during: worst?.during.slice(0, 4),
        sent: r.sent,
        routes: `${r.routesAsked}/${r.routesTotal}`,
        elapsed_ms: r.elapsedMs,
        failures: r.failures.length,
        statuses: r.statuses,
      }),
    );
    console.log(
      JSON.stringify({
        bench: 'sandbox-stalls',
        figure: 'event_loop_delay_max_ms',
        value: r.maxDelayMs,
        p99_ms: r.p99DelayMs,
        baseline: `/ping only`,
        baseline_value: base.maxDelayMs,
        baseline_p99_ms: base.p99DelayMs,
      }),
    );
  } finally {
    await sb.close();
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
