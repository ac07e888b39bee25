/**
 * The extension host's stand-in for series.bench.ts, in a worker thread: the sandbox (Try the
 * Sandbox runs it inside the extension host), the host's byte relay (the client's range read,
 * then the bytes handed to another thread, as the host hands a webview message's buffer to
 * VS Code's IPC) and the statistics the host takes itself (hostStats.ts). The webview harness (Playwright, Chromium) stays on the bench's main
 * thread: it is not the extension host. This thread's loop is watched (loopMonitor.ts) between
 * `watch` and `stop`.
 */
import { parentPort } from 'node:worker_threads';
import { EoClient } from '../../src/api/client';
import { runStatsPlan } from '../../src/panels/imagery/hostStats';
import type { HostStats, StatsPlan } from '../../src/panels/imagery/seriesMessages';
import { startSandbox } from '../../src/sandbox';
import { type LoopReport, watchLoop } from '../unit/sandbox/loopMonitor';

export type HostRequest =
  | { type: 'read'; id: number; url: string; offset: number; length: number }
  | { type: 'stats'; id: number; plan: StatsPlan }
  | { type: 'watch' }
  | { type: 'stop' }
  | { type: 'close' };

export type HostReply =
  | { type: 'ready'; url: string; token: string }
  | { type: 'bytes'; id: number; bytes: Uint8Array; total?: number }
  | { type: 'stats'; id: number; result: HostStats }
  | { type: 'failed'; id: number; message: string }
  | { type: 'report'; report: LoopReport }
  | { type: 'closed' };

async function main(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('seriesHost runs as a worker');
  const sb = await startSandbox({ port: 0 });
  const client = new EoClient({ baseUrl: sb.url, token: sb.tokens.alice, userAgent: 'eo-imagery-bench' });
  let watch: { stop(): LoopReport } | undefined;
  const reply = (m: HostReply, transfer: ArrayBuffer[] = []): void => port.postMessage(m, transfer);
  port.on('message', (m: HostRequest) => {
    if (m.type === 'read') {
      client.readRange(m.url, m.offset, m.length, { maxWholeFile: 50 * 1024 * 1024 }).then(
        (got) => {
          // The host's copy of the answer into the message it sends (VS Code's IPC writes it out).
          const bytes = new Uint8Array(got.body);
          reply({ type: 'bytes', id: m.id, bytes, total: got.total }, [bytes.buffer as ArrayBuffer]);
        },
        (e: unknown) => reply({ type: 'failed', id: m.id, message: e instanceof Error ? e.message : String(e) }),
      );
    } else if (m.type === 'stats') {
      // a date's statistics taken here, as the extension host takes them (hostStats.ts)
      const read = async (offset: number, length: number, signal?: AbortSignal) =>
        new Uint8Array((await client.readRange(m.plan.url, offset, length, { maxWholeFile: 50 * 1024 * 1024, signal })).body);
      runStatsPlan(m.plan, read).then(
        (result) => reply({ type: 'stats', id: m.id, result }),
        (e: unknown) => reply({ type: 'failed', id: m.id, message: e instanceof Error ? e.message : String(e) }),
      );
    } else if (m.type === 'watch') watch = watchLoop({ intervalMs: 5 });
    else if (m.type === 'stop' && watch) {
      reply({ type: 'report', report: watch.stop() });
      watch = undefined;
    } else if (m.type === 'close') void sb.close().then(() => reply({ type: 'closed' }));
  });
  reply({ type: 'ready', url: sb.url, token: sb.tokens.alice });
}

void main();
