/**
 * The extension's side of `readBytes`: checks that the webview asks only for files the
 * extension itself put on the map, reads the range with the client (token only for the
 * service's own host, its timeouts, its request log), and hands back an exact ArrayBuffer
 * (VS Code transfers it to the webview without a JSON copy). A server that ignores `Range`
 * and sends a file of at most 50 MB is read once and served from memory.
 */
import type { EoClient } from '../../api/client';
import { isWebUrl } from '../protocol';
import { MAX_READ_BYTES, MAX_WHOLE_FILE_BYTES, type ReadBytesParams, type ReadBytesResult } from './protocol';

export class ImageryByteServer {
  private readonly allowed = new Set<string>();
  /** Whole files from servers that ignore `Range` (most recent last; at most two kept). */
  private readonly whole = new Map<string, Buffer>();

  allow(url: string): void {
    if (isWebUrl(url)) this.allowed.add(url);
  }

  async read(client: EoClient, p: ReadBytesParams, signal?: AbortSignal): Promise<ReadBytesResult> {
    if (!p || typeof p.url !== 'string' || !this.allowed.has(p.url)) throw new Error('That file was not put on the map by the extension.');
    const offset = Number(p.offset);
    const length = Number(p.length);
    if (!Number.isSafeInteger(offset) || offset < 0 || !Number.isSafeInteger(length) || length < 1 || length > MAX_READ_BYTES) {
      throw new Error(`A read must be 1 byte to ${MAX_READ_BYTES / (1024 * 1024)} MB at a non-negative offset.`);
    }
    const cached = this.whole.get(p.url);
    if (cached) return slice(cached, offset, length);
    const r = await client.readRange(p.url, offset, length, { maxWholeFile: MAX_WHOLE_FILE_BYTES, signal });
    if (r.status === 200) {
      this.whole.set(p.url, r.body);
      while (this.whole.size > 2) this.whole.delete(this.whole.keys().next().value as string);
      return slice(r.body, offset, length);
    }
    return { bytes: exact(r.body), total: r.total };
  }
}

function exact(b: Buffer): ArrayBuffer {
  const out = new ArrayBuffer(b.byteLength);
  new Uint8Array(out).set(b);
  return out;
}

function slice(file: Buffer, offset: number, length: number): ReadBytesResult {
  return { bytes: exact(file.subarray(Math.min(offset, file.byteLength), Math.min(offset + length, file.byteLength))), total: file.byteLength };
}
