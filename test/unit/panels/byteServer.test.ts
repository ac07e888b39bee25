/**
 * The extension host's byte server (`readBytes`) against loopback servers, with the process's
 * memory sampled throughout and printed: a host that ignores `Range` (each file downloaded
 * once for every read that waits on it, the whole-file cache within its byte budget, the host
 * remembered for the session) and a host that honours it but is asked for a flood of 16 MiB
 * reads (a few in flight within the byte budget). RSS growth stays under 300 MB in both.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EoClient } from '../../../src/api';
import { ByteGate } from '../../../src/panels/imagery/byteGate';
import { BYTE_SERVER_LIMITS, ImageryByteServer } from '../../../src/panels/imagery/byteServer';
import type { ReadBytesResult } from '../../../src/panels/imagery/protocol';

const MiB = 1024 * 1024;
const byteAt = (i: number) => (i * 7 + (i >>> 16)) & 255;

function sampleRss(): { stop(): { base: number; peak: number } } {
  const base = process.memoryUsage().rss;
  let peak = base;
  const t = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  return {
    stop() {
      clearInterval(t);
      return { base, peak: Math.max(peak, process.memoryUsage().rss) };
    },
  };
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function client(origin: string): EoClient {
  return new EoClient({
    baseUrl: `${origin}/api`,
    token: 'tok_test_1234',
    userAgent: 'eo-imagery-test',
    timeoutMs: 60_000,
    retry: { retries: 0, baseDelayMs: 1, maxDelayMs: 1 },
  });
}

function checkBytes(r: ReadBytesResult, offset: number, length: number, what: string): void {
  const b = new Uint8Array(r.bytes as ArrayBuffer);
  assert.equal(b.length, length, `${what}: length`);
  for (const k of [0, length >> 1, length - 1]) assert.equal(b[k], byteAt(offset + k), `${what}: byte ${offset + k}`);
}

describe('ByteGate', () => {
  it('lets in a few reads within a byte budget, first come first served, and drops a cancelled wait', async () => {
    const gate = new ByteGate(2, 100);
    const a = await gate.acquire(60);
    const b = gate.acquire(60); // over the byte budget: waits
    const c = gate.acquire(10);
    const abort = new AbortController();
    const d = gate.acquire(10, abort.signal);
    abort.abort();
    await assert.rejects(d, { name: 'AbortError' });
    let bIn = false;
    void b.then(() => (bIn = true));
    await new Promise((r) => setImmediate(r));
    assert.equal(bIn, false, 'waits while the bytes do not fit');
    a();
    (await b)();
    (await c)();
    assert.deepEqual(gate.peak, { reads: 2, bytes: 70 });
    // alone, a read larger than the whole budget goes
    (await gate.acquire(500))();
  });
});

describe('ImageryByteServer against a host that ignores Range', () => {
  const FILE = 45 * 1000 * 1000;
  let file: Buffer;
  let server: Server;
  let origin: string;
  const requests: string[] = [];
  before(async () => {
    file = Buffer.alloc(FILE);
    for (let i = 0; i < FILE; i++) file[i] = byteAt(i);
    server = createServer((req, res) => {
      requests.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'image/tiff', 'content-length': file.length });
      res.end(file);
    });
    origin = await listen(server);
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  it('downloads each file once for every read waiting on it, keeps files within the byte budget, and stays under +300 MB', async () => {
    const c = client(origin);
    const hosts = new Set<string>();
    const bytes = new ImageryByteServer(undefined, hosts);
    const urls = ['a', 'b', 'c'].map((n) => `${origin}/files/${n}.tif`);
    for (const u of urls) bytes.allow(u);
    const rss = sampleRss();
    const t0 = performance.now();
    try {
      // ten reads of each file at once, 64 KiB to 4 MiB each
      await Promise.all(
        urls.flatMap((url, f) =>
          Array.from({ length: 10 }, async (_, i) => {
            const offset = ((i * 4_100_000 + f * 777) % (FILE - 5 * MiB)) >>> 0;
            const length = 64 * 1024 * (1 + ((i * 13) % 64));
            checkBytes(await bytes.read(c, { url, offset, length }), offset, length, `${url} read ${i}`);
          }),
        ),
      );
      const { base, peak } = rss.stop();
      const per = (u: string) => requests.filter((r) => origin + r === u).length;
      console.log(
        `# 30 reads of 3 files of 45 MB from a host that ignores Range: ${Math.round(performance.now() - t0)} ms, ${requests.length} requests (${urls.map(per).join(', ')}); ` +
          `RSS ${Math.round(base / MiB)} → peak ${Math.round(peak / MiB)} MiB (+${Math.round((peak - base) / MiB)} MiB)`,
      );
      assert.ok(peak - base < 300 * MiB, `RSS grew ${Math.round((peak - base) / MiB)} MiB`);
      assert.ok(requests.length <= 3 + BYTE_SERVER_LIMITS.reads, `downloads and a few first reads: ${requests.length} requests`);
      console.log(
        `# ${bytes.stats.downloads} downloads, ${Math.round(bytes.stats.cachedBytes / MiB)} MiB kept, peak ${bytes.stats.peak.reads} reads / ${Math.round(bytes.stats.peak.bytes / MiB)} MiB in flight`,
      );
      assert.equal(bytes.stats.downloads, 3, 'one download per file');
      assert.ok(bytes.stats.cachedBytes <= BYTE_SERVER_LIMITS.wholeFileCache, `kept ${bytes.stats.cachedBytes} B`);
      assert.ok(bytes.stats.peak.reads <= BYTE_SERVER_LIMITS.reads);
      assert.ok(bytes.stats.peak.bytes <= BYTE_SERVER_LIMITS.bytesInFlight, `${bytes.stats.peak.bytes} B in flight`);
      assert.deepEqual([...hosts], [origin], 'the host is remembered');

      // another panel of the same session goes straight to one download
      const before = requests.length;
      const other = new ImageryByteServer(undefined, hosts);
      other.allow(urls[0]);
      checkBytes(await other.read(c, { url: urls[0], offset: 100, length: 1000 }), 100, 1000, 'second panel');
      assert.equal(requests.length - before, 1, 'one request: the download, no range read first');
      // and serves the next read from memory
      checkBytes(await other.read(c, { url: urls[0], offset: 5000, length: 1000 }), 5000, 1000, 'second panel, again');
      assert.equal(requests.length - before, 1);
    } finally {
      rss.stop();
      await c.close();
    }
  });

  it('cancels a shared download when every read waiting on it is cancelled', async () => {
    const c = client(origin);
    const bytes = new ImageryByteServer(undefined, new Set([origin]));
    const url = `${origin}/files/d.tif`;
    bytes.allow(url);
    try {
      const aborts = [new AbortController(), new AbortController()];
      const reads = aborts.map((a) => bytes.read(c, { url, offset: 0, length: 10 }, a.signal));
      for (const a of aborts) a.abort();
      for (const r of reads) await assert.rejects(r, { name: 'AbortError' });
      // a new read starts a new download and gets its bytes
      checkBytes(await bytes.read(c, { url, offset: 7, length: 10 }), 7, 10, 'after the cancelled download');
    } finally {
      await c.close();
    }
  });
});

describe('ImageryByteServer against a host that honours Range, flooded with 16 MiB reads', () => {
  const SIZE = 2 * 1024 * MiB; // a file the server makes up as it goes
  let server: Server;
  let origin: string;
  let active = 0;
  let peakActive = 0;
  before(async () => {
    const chunk = (from: number, n: number) => {
      const b = Buffer.allocUnsafe(n);
      for (let i = 0; i < n; i++) b[i] = byteAt(from + i);
      return b;
    };
    server = createServer((req, res) => {
      const m = /bytes=(\d+)-(\d+)/.exec(req.headers.range ?? '');
      if (!m) return void res.writeHead(400).end();
      const from = Number(m[1]);
      const to = Math.min(Number(m[2]), SIZE - 1);
      active++;
      peakActive = Math.max(peakActive, active);
      res.on('close', () => active--);
      res.writeHead(206, { 'content-type': 'image/tiff', 'content-length': to - from + 1, 'content-range': `bytes ${from}-${to}/${SIZE}` });
      let at = from;
      const pump = () => {
        while (at <= to) {
          const n = Math.min(MiB, to - at + 1);
          const ok = res.write(chunk(at, n));
          at += n;
          if (!ok) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    });
    origin = await listen(server);
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  it('keeps a few reads and at most 64 MiB in flight, and RSS under +300 MB', async () => {
    const c = client(origin);
    const bytes = new ImageryByteServer(undefined, new Set());
    const url = `${origin}/files/big.tif`;
    bytes.allow(url);
    const rss = sampleRss();
    const t0 = performance.now();
    try {
      await Promise.all(
        Array.from({ length: 40 }, async (_, i) => {
          const offset = i * 16 * MiB + 13;
          checkBytes(await bytes.read(c, { url, offset, length: 16 * MiB }), offset, 16 * MiB, `read ${i}`);
        }),
      );
      const { base, peak } = rss.stop();
      console.log(
        `# 40 reads of 16 MiB at once: ${Math.round(performance.now() - t0)} ms; at most ${peakActive} at the server; ` +
          `RSS ${Math.round(base / MiB)} → peak ${Math.round(peak / MiB)} MiB (+${Math.round((peak - base) / MiB)} MiB)`,
      );
      assert.ok(peak - base < 300 * MiB, `RSS grew ${Math.round((peak - base) / MiB)} MiB`);
      assert.ok(peakActive <= BYTE_SERVER_LIMITS.reads, `${peakActive} reads at the server at once`);
      assert.ok(bytes.stats.peak.bytes <= BYTE_SERVER_LIMITS.bytesInFlight, `${bytes.stats.peak.bytes} B in flight`);
    } finally {
      rss.stop();
      await c.close();
    }
  });
});
