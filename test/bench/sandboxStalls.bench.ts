/**
 * Sandbox stalls: every route fuzzed (test/unit/sandbox/routeFuzz.ts: real ids and junk,
 * mutated and deeply nested bodies, huge geometries, whole-file and 16 MiB range reads of the
 * full-size scene) while the sandbox runs on this process's main thread, as it runs inside the
 * extension host for Try the Sandbox. The fuzzing client runs in a worker thread, so that its
 * reads and its garbage collection are not charged to the sandbox. Baseline, side by side in
 * the same process: the same monitor over the same number of `/ping` requests from the same
 * worker, the floor this machine gives any server.
 * The stall figure is the main thread's CPU time while the loop did not turn (on a busy
 * machine the wall-clock gap also holds time the thread was not scheduled at all); the
 * second signal is perf_hooks.monitorEventLoopDelay. Per route: the longest stall while one
 * of its requests was in flight (an upper bound), and each request in flight during a stall
 * of 50 ms or more sent again alone (its own figure).
 * Every request is sent (the time limit is far: under a load of 13 the fuzz takes 3 minutes).
 * Goal: no stall over 100 ms. Prints JSON lines; it reports, it does not assert.
 */
import { loadavg } from 'node:os';
import { startSandbox, type SandboxHandle } from '../../src/sandbox';
import { FuzzClient, fuzzEveryRoute } from '../unit/sandbox/routeFuzz';
import { watchLoop } from '../unit/sandbox/loopMonitor';

const REQUESTS = Number(process.env.EO_BENCH_FUZZ_REQUESTS ?? 300);

async function pings(sb: SandboxHandle, n: number): Promise<{ maxDelayMs: number; p99DelayMs: number; maxStallCpuMs: number }> {
  const client = new FuzzClient(sb);
  try {
    const jobs = Array.from({ length: n }, (_, id) => ({ method: 'GET', path: '/ping', headers: {}, what: 'GET /ping', route: 'GET /ping', id }));
    await client.load(jobs);
    const w = watchLoop({ intervalMs: 10 });
    await client.run(jobs, 4, 60_000);
    const r = w.stop();
    return { maxDelayMs: r.delayMaxMs, p99DelayMs: r.delayP99Ms, maxStallCpuMs: r.maxStallCpuMs };
  } finally {
    await client.close();
  }
}

async function main(): Promise<void> {
  const sb = await startSandbox({ port: 0, seed: 11 });
  try {
    const base = await pings(sb, REQUESTS);
    const r = await fuzzEveryRoute(sb, { seed: 20250101, requests: REQUESTS, timeLimitMs: 900_000, concurrency: 4 });
    const worst = r.stalls[0];
    const load = loadavg().map((x) => Math.round(x * 10) / 10);
    console.log(
      JSON.stringify({
        bench: 'sandbox-stalls',
        figure: 'longest_stall_cpu_ms',
        value: r.maxStallCpuMs,
        cpu_of: r.cpuSource,
        load_average: load,
        baseline: `the same monitor over ${REQUESTS} /ping requests`,
        baseline_value: base.maxStallCpuMs,
        target: '< 100',
        meets_target: r.maxStallCpuMs < 100,
        ratio_to_baseline: base.maxStallCpuMs > 0 ? Math.round((r.maxStallCpuMs / base.maxStallCpuMs) * 100) / 100 : undefined,
        worst_wall_ms: worst?.ms,
        worst_during: worst?.during.slice(0, 4),
        longest_alone: r.alone.slice(0, 6),
        sent: r.sent,
        routes: `${r.routesAsked}/${r.routesTotal}`,
        elapsed_ms: r.elapsedMs,
        failures: r.failures.length,
        oversized_bodies_closed_while_sent: r.oversizedClosed,
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
        load_average: load,
      }),
    );
    const routes = Object.entries(r.perRoute).sort((a, b) => b[1].cpuMs - a[1].cpuMs);
    console.log(
      JSON.stringify({
        bench: 'sandbox-stalls',
        figure: 'per_route_longest_stall_in_flight_cpu_ms',
        note: 'the longest stall while a request of the route was in flight: an upper bound for the route',
        value: Object.fromEntries(routes.slice(0, 12).map(([k, v]) => [k, v.cpuMs])),
        routes_over_100_ms: routes.filter(([, v]) => v.cpuMs >= 100).length,
        routes_over_50_ms: routes.filter(([, v]) => v.cpuMs >= 50).length,
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
