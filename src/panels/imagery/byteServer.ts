/**
 * The extension's side of `readBytes`: checks that the webview asks only for files the
 * extension itself put on the map, reads the range with the client (token only for the
 * service's own host, its timeouts, its request log), and hands back an exact ArrayBuffer
 * (VS Code transfers it to the webview without a JSON copy).
 *
 * Whatever a file or a server does, one panel holds a bounded amount of memory: a few reads in
 * flight within a byte budget (the rest wait their turn), an answer never larger than the
 * read that asked for it. A server that ignores `Range` is remembered for the session; each of
 * its files (at most 50 MB) is then downloaded once, however many reads wait for it, and kept
 * within a byte budget.
 */
import type { EoClient } from '../../api/client';
import { ApiError } from '../../api/errors';
import { RANGE_IGNORED } from '../../api/rangeRead';
import { isWebUrl } from '../protocol';
import { ByteGate } from './byteGate';
import { MAX_READ_BYTES, MAX_WHOLE_FILE_BYTES, type ReadBytesParams, type ReadBytesResult } from './protocol';
import { SharedDownload, WholeFileCache } from './wholeFiles';

export interface ByteServerLimits {
  /** Reads one panel has in flight at once. */
  reads: number;
  /** Bytes those reads may bring in at once; a whole-file download counts `wholeFile`. */
  bytesInFlight: number;
  /** Whole files kept for one panel, in bytes. */
  wholeFileCache: number;
  /** The largest file read whole from a server that ignores `Range`. */
  wholeFile: number;
}

export const BYTE_SERVER_LIMITS: ByteServerLimits = {
  reads: 6,
  bytesInFlight: 64 * 1024 * 1024,
  wholeFileCache: 2 * MAX_WHOLE_FILE_BYTES,
  wholeFile: MAX_WHOLE_FILE_BYTES,
};

/** Hosts (origins) that answered a range request with the whole file, this session. */
const SESSION_RANGE_IGNORING = new Set<string>();

/** What a panel's reads look like, for the log and for tests. */
export interface ByteServerStats {
  /** Most reads and bytes in flight at once. */
  peak: { reads: number; bytes: number };
  /** Bytes of whole files kept now. */
  cachedBytes: number;
  /** Whole-file downloads started. */
  downloads: number;
}

export class ImageryByteServer {
  private readonly allowed = new Set<string>();
  private readonly gate: ByteGate;
  private readonly whole: WholeFileCache;
  private readonly downloads = new Map<string, SharedDownload<Buffer | 'ranges'>>();
  private downloadCount = 0;

  constructor(
    private readonly limits: ByteServerLimits = BYTE_SERVER_LIMITS,
    private readonly rangeIgnoring: Set<string> = SESSION_RANGE_IGNORING,
  ) {
    this.gate = new ByteGate(limits.reads, limits.bytesInFlight);
    this.whole = new WholeFileCache(limits.wholeFileCache);
  }

  allow(url: string): void {
    if (isWebUrl(url)) this.allowed.add(url);
  }

  get stats(): ByteServerStats {
    return { peak: { ...this.gate.peak }, cachedBytes: this.whole.bytes, downloads: this.downloadCount };
  }

  async read(client: EoClient, p: ReadBytesParams, signal?: AbortSignal): Promise<ReadBytesResult> {
    if (!p || typeof p.url !== 'string' || !this.allowed.has(p.url)) throw new Error('That file was not put on the map by the extension.');
    const offset = Number(p.offset);
    const length = Number(p.length);
    if (!Number.isSafeInteger(offset) || offset < 0 || !Number.isSafeInteger(length) || length < 1 || length > MAX_READ_BYTES) {
      throw new Error(`A read must be 1 byte to ${MAX_READ_BYTES / (1024 * 1024)} MB at a non-negative offset.`);
    }
    const url = p.url;
    const host = new URL(url).origin;
    // a server that keeps changing its mind about Range gets two more tries, not a loop
    for (let tries = 0; tries < 3;) {
      const cached = this.whole.get(url);
      if (cached) return slice(cached, offset, length);
      if (this.rangeIgnoring.has(host)) {
        const file = await this.wholeFile(client, url, host, signal);
        if (file !== 'ranges') return slice(file, offset, length);
        tries++;
        continue;
      }
      const release = await this.gate.acquire(length, signal);
      if (this.whole.get(url) || this.rangeIgnoring.has(host)) {
        // learned while this read waited its turn: no range request needed
        release();
        continue;
      }
      tries++;
      try {
        // A whole file is taken only when it is no larger than this read: anything bigger
        // stops at once, and the one shared download fetches it.
        const r = await client.readRange(url, offset, length, { maxWholeFile: length, signal });
        if (r.status === 206) return { bytes: own(r.body), total: r.total };
        this.rangeIgnoring.add(host);
        this.whole.put(url, r.body);
        return slice(r.body, offset, length);
      } catch (e) {
        if (!(e instanceof ApiError && e.code === RANGE_IGNORED)) throw e;
        this.rangeIgnoring.add(host);
      } finally {
        release();
      }
    }
    throw new Error('The server answers range requests for this file one way and then another; it cannot be read.');
  }

  /** The file, downloaded once for every read that waits; `ranges` when the host now honours `Range`. */
  private wholeFile(client: EoClient, url: string, host: string, signal?: AbortSignal): Promise<Buffer | 'ranges'> {
    let d = this.downloads.get(url);
    if (!d || d.abandoned) {
      const started = new SharedDownload(async (dl) => {
        const release = await this.gate.acquire(this.limits.wholeFile, dl);
        try {
          this.downloadCount++;
          // one byte asked: a server that ignores Range sends the file, one that honours it one byte
          const r = await client.readRange(url, 0, 1, { maxWholeFile: this.limits.wholeFile, signal: dl });
          if (r.status === 206 && r.total !== r.body.byteLength) {
            this.rangeIgnoring.delete(host);
            return 'ranges' as const;
          }
          this.whole.put(url, r.body);
          return r.body;
        } finally {
          release();
        }
      });
      d = started;
      this.downloads.set(url, d);
      void d.done.then(
        () => this.forget(url, started),
        () => this.forget(url, started),
      );
    }
    return d.join(signal);
  }

  private forget(url: string, d: SharedDownload<Buffer | 'ranges'>): void {
    if (this.downloads.get(url) === d) this.downloads.delete(url);
  }
}

/** A range's body as an exact ArrayBuffer: its own buffer when it fills one (nothing else holds it), else a copy. */
function own(b: Buffer): ArrayBuffer {
  return b.byteOffset === 0 && b.byteLength === b.buffer.byteLength && b.buffer instanceof ArrayBuffer ? b.buffer : copy(b);
}

function copy(b: Buffer): ArrayBuffer {
  const out = new ArrayBuffer(b.byteLength);
  new Uint8Array(out).set(b);
  return out;
}

/** A copy of part of a kept file (the file itself stays whole for the next read). */
function slice(file: Buffer, offset: number, length: number): ReadBytesResult {
  return { bytes: copy(file.subarray(Math.min(offset, file.byteLength), Math.min(offset + length, file.byteLength))), total: file.byteLength };
}
