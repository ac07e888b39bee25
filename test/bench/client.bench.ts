/**
 * List 10,000 order items in pages of 100 from the sandbox: the client (`orderItems.iterate`,
 * with shape checks and paging guards) against a bare undici loop doing the same requests
 * and JSON.parse. Runs interleaved, median of several rounds. Also samples the heap while
 * the client iterates, to show it stays flat (pages are not retained).
 *
 * The sandbox runs in a child process so that its CPU and heap are not counted here.
 */
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { Pool } from 'undici';
import { EoClient } from '../../src/api';

const TOTAL = 10_000;
const PAGE = 100;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
/** The sandbox seeds 25 orders × 5 items per user per unit of scale: 81 → 10,125 items. */
const SCALE = Math.ceil(TOTAL / 125) + 1;

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

interface Sandbox {
  url: string;
  token: string;
  stop(): void;
}

function startSandboxChild(): Promise<Sandbox> {
  const entry = path.resolve(__dirname, '../../src/sandbox');
  const script = `require(${JSON.stringify(entry)}).startSandbox({ port: 0, scale: ${SCALE} })
    .then((s) => { process.stdout.write(JSON.stringify({ url: s.url, token: s.tokens.alice }) + '\\n'); })
    .catch((e) => { console.error(e); process.exit(1); });`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let buf = '';
    child.stdout.on('data', (c: Buffer) => {
      buf += c.toString();
      const nl = buf.indexOf('\n');
      if (nl >= 0) {
        const { url, token } = JSON.parse(buf.slice(0, nl)) as { url: string; token: string };
        resolve({ url, token, stop: () => child.kill() });
      }
    });
    child.on('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
  });
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

function emit(figure: string, value: number, extra: Record<string, unknown> = {}): void {
  console.log(JSON.stringify({ bench: 'client-order-items', figure, value: Math.round(value * 100) / 100, ...extra }));
}

async function main(): Promise<void> {
  const sb = await startSandboxChild();
  const client = new EoClient({ baseUrl: sb.url, token: sb.token, authScheme: 'bearer', timeoutMs: 30_000, userAgent: 'eo-imagery-bench/0' });
  const origin = new URL(sb.url).origin;
  const pool = new Pool(origin, { connections: 6, keepAliveTimeout: 30_000 });
  const headers = { authorization: `Bearer ${sb.token}`, accept: 'application/json', 'user-agent': 'bare-undici' };

  try {
    const first = await client.orderItems.listPage({ offset: 0, limit: 1 });
    if ((first.total ?? 0) < TOTAL) throw new Error(`the sandbox holds ${first.total} order items, fewer than ${TOTAL}`);

    const viaClient = async (sampleHeap?: number[]): Promise<number> => {
      let n = 0;
      for await (const item of client.orderItems.iterate({}, { pageSize: PAGE, cap: TOTAL })) {
        if (item.id === '') throw new Error('empty id');
        n++;
        if (sampleHeap && n % PAGE === 0) sampleHeap.push(process.memoryUsage().heapUsed);
      }
      return n;
    };
    const bare = async (): Promise<number> => {
      let n = 0;
      for (let offset = 0; offset < TOTAL; offset += PAGE) {
        const res = await pool.request({ path: `/v0/order-items?offset=${offset}&limit=${PAGE}`, method: 'GET', headers });
        const body = JSON.parse(await res.body.text()) as { order_items: { id: string }[] };
        if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}`);
        for (const item of body.order_items) {
          if (item.id === '') throw new Error('empty id');
          n++;
        }
      }
      return n;
    };
    // Wall time is what a person waits; CPU time of this process (the sandbox is another
    // process) is the client's own work, and is steadier on a busy machine.
    const cpu: { client: number[]; bare: number[] } = { client: [], bare: [] };
    const time = async (f: () => Promise<number>, cpuInto?: number[]): Promise<number> => {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const n = await f();
      const ms = performance.now() - t0;
      const c1 = process.cpuUsage(c0);
      cpuInto?.push((c1.user + c1.system) / 1000);
      if (n !== TOTAL) throw new Error(`listed ${n} items, expected ${TOTAL}`);
      return ms;
    };

    // Warm both paths (JIT, connections, the sandbox's own caches).
    await time(() => viaClient());
    await time(bare);

    const clientMs: number[] = [];
    const bareMs: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      // Alternate who goes first so drift (GC, the sandbox warming up) hits both alike.
      if (r % 2 === 0) {
        clientMs.push(await time(() => viaClient(), cpu.client));
        bareMs.push(await time(bare, cpu.bare));
      } else {
        bareMs.push(await time(bare, cpu.bare));
        clientMs.push(await time(() => viaClient(), cpu.client));
      }
    }
    const c = median(clientMs);
    const b = median(bareMs);
    emit('median_ms', c, {
      baseline: 'bare undici loop + JSON.parse',
      baseline_value: Math.round(b * 100) / 100,
      ratio: Math.round((c / b) * 1000) / 1000,
      rounds: ROUNDS,
      items: TOTAL,
      page_size: PAGE,
    });
    const cc = median(cpu.client);
    const cb = median(cpu.bare);
    emit('median_cpu_ms', cc, {
      baseline: 'bare undici loop + JSON.parse',
      baseline_value: Math.round(cb * 100) / 100,
      ratio: Math.round((cc / cb) * 1000) / 1000,
      note: 'CPU time of the listing process only (sandbox excluded)',
    });

    // Heap while iterating: one sample per page, after a full GC before the walk.
    gc();
    const before = process.memoryUsage().heapUsed;
    const samples: number[] = [];
    await viaClient(samples);
    const mb = (x: number): number => x / (1024 * 1024);
    // Least-squares slope of heap over items: ~0 when pages are not retained (the young
    // generation's sawtooth averages out; a leak of one page per page would show ~2 MB/1k).
    const xs = samples.map((_, i) => (i + 1) * PAGE);
    const mx = xs.reduce((a, x) => a + x, 0) / xs.length;
    const my = samples.reduce((a, y) => a + y, 0) / samples.length;
    const slope = xs.reduce((a, x, i) => a + (x - mx) * (samples[i] - my), 0) / xs.reduce((a, x) => a + (x - mx) ** 2, 0);
    emit('heap_peak_mb', mb(Math.max(...samples)), { heap_before_mb: Math.round(mb(before) * 100) / 100, samples: samples.length });
    emit('heap_slope_mb_per_1k_items', mb(slope * 1000), { note: 'least-squares slope of heapUsed sampled after every page; ~0 means flat' });
    gc();
    emit('heap_after_gc_growth_mb', mb(process.memoryUsage().heapUsed - before), { note: 'heap after a full GC at the end minus before the walk' });
  } finally {
    await client.close();
    await pool.close();
    sb.stop();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
