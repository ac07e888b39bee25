/**
 * How long the main thread's event loop stalls, and which requests were being served then.
 * Shared by the route fuzz (routeFuzz.ts), its benchmark and the imagery and series benches.
 *
 * Two signals, both of the thread that calls watchLoop only (the main thread, where the sandbox
 * and the extension host's code run, or a worker standing in for the host):
 * - a ticker every `intervalMs`: a tick that comes late is a stall; its CPU time is the main
 *   thread's own run time meanwhile (Linux: `/proc/thread-self/schedstat`), so neither
 *   GC helper threads, nor a client in a worker, nor time the scheduler gave other processes
 *   of a shared machine are counted;
 * - `perf_hooks.monitorEventLoopDelay`: the wall-clock delay, which on a loaded machine also
 *   holds time the process was not scheduled at all.
 * Requests in flight are followed through Node's `http.server.request.start` diagnostics
 * channel (no change to the server): a stall is charged to every request in flight then, so a
 * route's maximum is an upper bound for it; a request run alone gives the exact figure.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';

export interface Stall {
  /** How long the loop did not turn (wall clock, past the tick's interval). */
  ms: number;
  /** The main thread's CPU time meanwhile: how long our code held the loop. */
  cpuMs: number;
  /** The requests in flight when the loop stalled (one of them held it). */
  during: string[];
  /** Their `x-fuzz-job` headers, where sent. */
  jobs: string[];
  /** When the stall ended, ms since the process started (as `--trace-gc` counts). */
  at: number;
}

export interface RouteMax {
  /** Longest stall, in main-thread CPU time, while a request of this route was in flight. */
  cpuMs: number;
  wallMs: number;
  requests: number;
}

export interface LoopReport {
  /** Where CPU time was read: the watching thread (Linux) or the whole process (elsewhere). */
  cpuSource: 'this thread' | 'process';
  maxStallCpuMs: number;
  maxStallWallMs: number;
  /** The worst stalls by CPU time, longest first. */
  stalls: Stall[];
  /** Per route (the `x-fuzz-route` header, else method and path): the longest stall while in flight. */
  perRoute: Record<string, RouteMax>;
  /** perf_hooks.monitorEventLoopDelay over the same time, ms. */
  delayMaxMs: number;
  delayP99Ms: number;
}

/** The calling thread's run time (the ticker runs on the thread it watches: main or a worker). */
const SCHEDSTAT = '/proc/thread-self/schedstat';

function readThreadNs(): number | undefined {
  try {
    return Number(readFileSync(SCHEDSTAT, 'latin1').split(' ')[0]);
  } catch {
    return undefined;
  }
}

/** CPU time used so far, ms: the main thread's where Linux says it, else the whole process's. */
export function cpuClock(): { source: LoopReport['cpuSource']; now: () => number } {
  if (readThreadNs() !== undefined) return { source: 'this thread', now: () => readThreadNs()! / 1e6 };
  return {
    source: 'process',
    now: () => {
      const c = process.cpuUsage();
      return (c.user + c.system) / 1000;
    },
  };
}

const round1 = (x: number): number => Math.round(x * 10) / 10;

interface RequestStart {
  request: IncomingMessage;
  response: ServerResponse;
}

/** Starts watching; `stop()` returns the report. */
export function watchLoop(opts: { intervalMs?: number; keepStalls?: number; stallFloorMs?: number } = {}): { stop(): LoopReport } {
  const interval = opts.intervalMs ?? 10;
  const keep = opts.keepStalls ?? 8;
  const floor = opts.stallFloorMs ?? 20;
  const clock = cpuClock();
  const inFlight = new Map<number, { label: string; job?: string }>();
  // Requests that ended since the last tick: a stall can end with the request that caused it.
  let ended: { label: string; job?: string }[] = [];
  const perRoute: Record<string, RouteMax> = {};
  let seq = 0;
  const onStart = (message: unknown): void => {
    const { request, response } = message as RequestStart;
    const header = request.headers['x-fuzz-route'];
    const label = typeof header === 'string' ? header : `${request.method ?? 'GET'} ${(request.url ?? '/').split('?')[0].slice(0, 120)}`;
    const job = request.headers['x-fuzz-job'];
    const entry = { label, job: typeof job === 'string' ? job : undefined };
    const id = seq++;
    inFlight.set(id, entry);
    (perRoute[label] ??= { cpuMs: 0, wallMs: 0, requests: 0 }).requests++;
    response.once('close', () => {
      inFlight.delete(id);
      ended.push(entry);
    });
  };
  subscribe('http.server.request.start', onStart);

  const stalls: Stall[] = [];
  let maxCpu = 0;
  let maxWall = 0;
  let last = performance.now();
  let lastCpu = clock.now();
  const ticker = setInterval(() => {
    const now = performance.now();
    const cpu = clock.now();
    const lag = Math.max(0, now - last - interval);
    const cpuMs = Math.min(lag, cpu - lastCpu);
    last = now;
    lastCpu = cpu;
    maxCpu = Math.max(maxCpu, cpuMs);
    maxWall = Math.max(maxWall, lag);
    const current = [...inFlight.values(), ...ended];
    ended = [];
    const during = [...new Set(current.map((e) => e.label))];
    for (const label of during) {
      const r = perRoute[label];
      r.cpuMs = Math.max(r.cpuMs, cpuMs);
      r.wallMs = Math.max(r.wallMs, lag);
    }
    if (cpuMs >= floor) {
      stalls.push({ ms: round1(lag), cpuMs: round1(cpuMs), at: Math.round(now), during, jobs: current.flatMap((e) => (e.job === undefined ? [] : [e.job])) });
      stalls.sort((a, b) => b.cpuMs - a.cpuMs);
      stalls.length = Math.min(stalls.length, keep);
    }
  }, interval);
  const histogram = monitorEventLoopDelay({ resolution: interval });
  histogram.enable();
  return {
    stop() {
      clearInterval(ticker);
      histogram.disable();
      unsubscribe('http.server.request.start', onStart);
      for (const r of Object.values(perRoute)) {
        r.cpuMs = round1(r.cpuMs);
        r.wallMs = round1(r.wallMs);
      }
      return {
        cpuSource: clock.source,
        maxStallCpuMs: round1(maxCpu),
        maxStallWallMs: round1(maxWall),
        stalls,
        perRoute,
        delayMaxMs: round1(histogram.max / 1e6),
        delayP99Ms: round1(histogram.percentile(99) / 1e6),
      };
    },
  };
}
