/**
 * What the browser benchmarks read from Chromium the same way for every contender: the JS
 * heap of a page and of each of its workers (over the DevTools protocol: `performance.memory`
 * does not exist in workers), the switches Chromium runs with and its WebGL renderer, and the
 * baselines' page scripts bundled by esbuild.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { build } from 'esbuild';
import type { Browser, CDPSession, Page } from 'playwright-core';

export interface HeapFigures {
  /** V8 heap in use, page plus workers, after a garbage collection, MB. */
  jsMb: number;
  /** Of which in workers, MB. */
  workersMb: number;
  /** Workers counted. */
  workers: number;
  /** Backing stores of ArrayBuffers (typed arrays: decoded pixels) and external strings, page plus workers, MB. */
  arrayBuffersMb: number;
}

type Usage = { usedSize: number; backingStorageSize?: number };

/**
 * Heap of the page and every dedicated worker it runs, each collected first. Workers are
 * reached by attaching to them from the page's DevTools session (non-flattened sessions, so
 * Playwright's own session is left alone).
 */
export async function heapOf(page: Page): Promise<HeapFigures> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const workers = await attachWorkers(cdp);
    await cdp.send('HeapProfiler.collectGarbage');
    const pageUse = (await cdp.send('Runtime.getHeapUsage')) as Usage;
    let workersUsed = 0;
    let backing = pageUse.backingStorageSize ?? 0;
    for (const w of workers) {
      await w('HeapProfiler.collectGarbage');
      const u = (await w('Runtime.getHeapUsage')) as Usage;
      workersUsed += u.usedSize;
      backing += u.backingStorageSize ?? 0;
    }
    const mb = (b: number) => b / 1048576;
    return { jsMb: mb(pageUse.usedSize + workersUsed), workersMb: mb(workersUsed), workers: workers.length, arrayBuffersMb: mb(backing) };
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}

type Send = (method: string, params?: object) => Promise<unknown>;

/** A sender per worker of the page, through `Target.sendMessageToTarget`. */
async function attachWorkers(cdp: CDPSession): Promise<Send[]> {
  const sessions: string[] = [];
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  let nextId = 1;
  cdp.on('Target.attachedToTarget', (e: { sessionId: string; targetInfo: { type: string } }) => {
    if (e.targetInfo.type === 'worker') sessions.push(e.sessionId);
  });
  cdp.on('Target.receivedMessageFromTarget', (e: { message: string }) => {
    const m = JSON.parse(e.message) as { id?: number; result?: unknown; error?: { message: string } };
    const p = m.id === undefined ? undefined : pending.get(m.id);
    if (!p) return;
    pending.delete(m.id as number);
    if (m.error) p.reject(new Error(m.error.message));
    else p.resolve(m.result);
  });
  // the attach events for workers already running arrive before this call returns
  await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
  return sessions.map(
    (sessionId): Send =>
      (method, params = {}) =>
        new Promise((resolve, reject) => {
          const id = nextId++;
          pending.set(id, { resolve, reject });
          cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) }).catch(reject);
        }),
  );
}

/**
 * The switches Chromium runs with (Playwright's and the harness's): the command line of the
 * browser process this process started (Linux's /proc; DevTools gives it only with
 * --enable-automation, which headless runs lack). And what renders WebGL.
 */
export async function chromiumInfo(browser: Browser, page: Page): Promise<{ version: string; flags: string[]; webgl: string }> {
  const flags = new Set<string>();
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const ppid = Number(/\) \S+ (\d+)/.exec(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.[1]);
      if (ppid !== process.pid) continue;
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (/chrom/i.test(argv[0])) for (const a of argv.slice(1)) if (a.startsWith('--')) flags.add(a);
    } catch {
      // a process that ended meanwhile
    }
  }
  const webgl = await page.evaluate(() => {
    const gl = document.createElement('canvas').getContext('webgl2');
    if (!gl) return 'no WebGL 2';
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    return String(info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER));
  });
  return { version: browser.version(), flags: [...flags], webgl };
}

/** One browser script (IIFE, minified) from a TypeScript entry, as the page loads it. */
export async function bundle(entry: string): Promise<string> {
  const r = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'warning',
  });
  return r.outputFiles[0].text;
}
