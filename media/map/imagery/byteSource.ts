/**
 * geotiff.js reads through this source: every byte comes from the extension over postMessage
 * (`readBytes`), which holds the token and applies the client's timeouts and limits. Small reads
 * (headers, IFDs, tile offset tables) are rounded to 16 KiB blocks and cached, so the scattered
 * reads of a header cost a few round trips; tile reads go out exactly as asked and are not
 * kept here (decoded tiles are cached by the renderer instead). A reader that knows which
 * tiles it is about to read (a saved view's strip) asks for them ahead (`prefetch`): they go
 * out merged into a few range requests (src/raster/coalesce.ts), and each tile's read is then served
 * once from its request.
 */
import type { ReadBytesParams, ReadBytesResult } from '../../../src/panels/imagery/protocol';
import { coalesce, COALESCE_LIMITS, type CoalesceLimits } from '../../../src/raster/coalesce';

export type ReadBytes = (p: ReadBytesParams, signal?: AbortSignal) => Promise<ReadBytesResult>;

const BLOCK = 16 * 1024;
/** Reads at least this long are tile data: sent exactly, not cached. */
const DIRECT = 48 * 1024;
const MAX_BLOCKS = 512;

export interface ByteStats {
  requests: number;
  bytes: number;
}

interface Slice {
  offset: number;
  length: number;
}

function toArrayBuffer(b: ArrayBuffer | Uint8Array): ArrayBuffer {
  if (b instanceof ArrayBuffer) return b;
  return b.byteOffset === 0 && b.byteLength === b.buffer.byteLength && b.buffer instanceof ArrayBuffer ? b.buffer : (b.slice().buffer as ArrayBuffer);
}

export class RpcByteSource {
  readonly stats: ByteStats = { requests: 0, bytes: 0 };
  private size: number | null = null;
  private readonly blocks = new Map<number, Promise<ArrayBuffer>>();
  /** Reads asked for ahead, by `offset:length`, until fetch() takes them (once) or they are dropped. */
  private readonly ahead = new Map<string, Promise<ArrayBuffer>>();

  constructor(
    private readonly url: string,
    private readonly read: ReadBytes,
  ) {}

  get fileSize(): number | null {
    return this.size;
  }

  async fetch(slices: Slice[], signal?: AbortSignal): Promise<ArrayBuffer[]> {
    return Promise.all(slices.map((s) => this.takeAhead(s) ?? (s.length >= DIRECT ? this.direct(s, signal) : this.viaBlocks(s, signal))));
  }

  /**
   * Starts reading these slices as few requests as `limits` allow; fetch() then serves each of
   * them once from its request. Returns what drops the slices not fetched by then (a reader
   * that stopped early), so the bytes do not outlive it.
   */
  prefetch(slices: Slice[], signal?: AbortSignal, limits: CoalesceLimits = COALESCE_LIMITS): () => void {
    const keys: string[] = [];
    for (const run of coalesce(slices, limits)) {
      const whole = this.raw(run.offset, run.length, signal);
      for (const part of run.parts) {
        const from = part.offset - run.offset;
        // a copy per tile: the decoder's worker takes the tile's buffer (transferred), not the run's
        const p = whole.then((buf) => buf.slice(from, from + part.length));
        // a failed request fails the fetch() that takes it; dropped unread, it is nobody's failure
        p.catch(() => undefined);
        const key = `${part.offset}:${part.length}`;
        this.ahead.set(key, p);
        keys.push(key);
      }
    }
    return () => {
      for (const k of keys) this.ahead.delete(k);
    };
  }

  async close(): Promise<void> {
    this.blocks.clear();
    this.ahead.clear();
  }

  private takeAhead(s: Slice): Promise<ArrayBuffer> | undefined {
    const key = `${s.offset}:${s.length}`;
    const p = this.ahead.get(key);
    if (p) this.ahead.delete(key);
    return p;
  }

  private async raw(offset: number, length: number, signal?: AbortSignal): Promise<ArrayBuffer> {
    if (this.size !== null) length = Math.max(0, Math.min(length, this.size - offset));
    if (length === 0) return new ArrayBuffer(0);
    this.stats.requests++;
    const r = await this.read({ url: this.url, offset, length }, signal);
    const buf = toArrayBuffer(r.bytes);
    this.stats.bytes += buf.byteLength;
    if (typeof r.total === 'number') this.size = r.total;
    return buf;
  }

  private direct(s: Slice, signal?: AbortSignal): Promise<ArrayBuffer> {
    return this.raw(s.offset, s.length, signal);
  }

  private async viaBlocks(s: Slice, signal?: AbortSignal): Promise<ArrayBuffer> {
    const first = Math.floor(s.offset / BLOCK);
    const last = Math.floor((s.offset + s.length - 1) / BLOCK);
    // missing blocks in runs, each run one request
    let runStart = -1;
    const startRun = (i: number) => (runStart = runStart < 0 ? i : runStart);
    const endRun = (end: number) => {
      if (runStart < 0) return;
      const from = runStart;
      const run = this.raw(from * BLOCK, (end - from) * BLOCK, signal);
      for (let b = from; b < end; b++) {
        const k = b - from;
        const p = run.then((buf) => buf.slice(k * BLOCK, (k + 1) * BLOCK));
        p.catch(() => this.blocks.delete(b));
        this.blocks.set(b, p);
      }
      runStart = -1;
    };
    for (let b = first; b <= last; b++) {
      if (this.blocks.has(b)) endRun(b);
      else startRun(b);
    }
    endRun(last + 1);
    if (this.blocks.size > MAX_BLOCKS) {
      for (const k of this.blocks.keys()) {
        if (this.blocks.size <= MAX_BLOCKS / 2) break;
        if (k < first || k > last) this.blocks.delete(k);
      }
    }
    const parts = await Promise.all(Array.from({ length: last - first + 1 }, (_, i) => this.blocks.get(first + i) as Promise<ArrayBuffer>));
    const out = new Uint8Array(s.length);
    let written = 0;
    for (let i = 0; i < parts.length; i++) {
      const blockStart = (first + i) * BLOCK;
      const from = Math.max(s.offset, blockStart) - blockStart;
      const to = Math.min(s.offset + s.length - blockStart, parts[i].byteLength);
      if (to <= from) break;
      out.set(new Uint8Array(parts[i], from, to - from), written);
      written += to - from;
    }
    return written === s.length ? out.buffer : out.buffer.slice(0, written);
  }
}
