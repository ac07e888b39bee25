/**
 * The route fuzz's client, in a worker thread: its own reads (up to MAX_READ_BYTES of each
 * answer, then the connection is dropped) and its garbage collection run on another thread,
 * so that the main thread's stalls are the sandbox's alone, as in the extension host, where
 * the client is a webview or GDAL in another process. Driven by routeFuzz.ts.
 */
import { parentPort } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import { MAX_BODY } from '../../../src/sandbox/server';

const MAX_READ_BYTES = 24 * 1024 * 1024;

export interface FuzzJob {
  method: string;
  path: string;
  body?: string;
  headers: Record<string, string>;
  /** What the request is, for reports. */
  what: string;
  /** `METHOD /pattern` of the route it asks, sent as `x-fuzz-route` for the monitor. */
  route: string;
  /** Sent as `x-fuzz-job`: which job a stall was charged to. */
  id: number;
}

/**
 * `load` hands the jobs over (a structured clone of megabytes of hostile bodies, done before
 * any measurement starts); `run` sends the loaded jobs with these ids and answers a RunResult.
 */
export type ClientMessage =
  { type: 'load'; jobs: FuzzJob[] } | { type: 'run'; url: string; token: string; ids: number[]; concurrency: number; timeLimitMs: number };
type RunMessage = Extract<ClientMessage, { type: 'run' }>;

export interface RunResult {
  sent: number;
  elapsedMs: number;
  statuses: Record<number, number>;
  failures: string[];
  /**
   * Bodies over the sandbox's limit whose connection was closed while they were still being
   * sent: the server answers 413 with `connection: close` without reading them, and a client
   * that is still writing sees the socket close (EPIPE) before it reads the answer.
   */
  oversizedClosed: number;
}

async function send(m: RunMessage, j: FuzzJob, out: RunResult): Promise<void> {
  const ac = new AbortController();
  try {
    const res = await fetch(m.url + j.path, {
      method: j.method,
      headers: { authorization: `Bearer ${m.token}`, 'x-fuzz-route': j.route, 'x-fuzz-job': String(j.id), ...j.headers },
      body: j.body,
      signal: ac.signal,
    });
    out.statuses[res.status] = (out.statuses[res.status] ?? 0) + 1;
    if (res.status >= 500) out.failures.push(`${res.status} ${j.what}: ${(await res.text()).slice(0, 200)}`);
    else if (res.body) {
      const reader = res.body.getReader();
      for (let read = 0; ;) {
        const { done, value } = await reader.read();
        if (done) break;
        read += value.length;
        if (read > MAX_READ_BYTES) {
          ac.abort();
          break;
        }
      }
    }
  } catch (e) {
    const cause = String((e as Error & { cause?: unknown }).cause ?? '');
    if (j.body !== undefined && Buffer.byteLength(j.body) > MAX_BODY && /EPIPE|ECONNRESET|other side closed/.test(cause)) out.oversizedClosed++;
    else if (!ac.signal.aborted)
      out.failures.push(`network error ${j.what}: ${(e as Error).message} ${String((e as Error & { cause?: unknown }).cause ?? '')}`);
  }
}

const loaded = new Map<number, FuzzJob>();

async function run(m: RunMessage): Promise<RunResult> {
  const jobs = m.ids.map((id) => loaded.get(id)).filter((j) => j !== undefined);
  const out: RunResult = { sent: 0, elapsedMs: 0, statuses: {}, failures: [], oversizedClosed: 0 };
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: m.concurrency }, async () => {
      while (next < jobs.length && performance.now() - t0 < m.timeLimitMs) {
        const j = jobs[next++];
        out.sent++;
        await send(m, j, out);
      }
    }),
  );
  out.elapsedMs = Math.round(performance.now() - t0);
  return out;
}

parentPort?.on('message', (m: ClientMessage) => {
  if (m.type === 'load') {
    for (const j of m.jobs) loaded.set(j.id, j);
    parentPort?.postMessage({ sent: 0, elapsedMs: 0, statuses: {}, failures: [], oversizedClosed: 0 } satisfies RunResult);
  } else void run(m).then((r) => parentPort?.postMessage(r));
});
