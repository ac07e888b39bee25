/**
 * Saves a signed download URL into a folder. The signed URL is not an API path (no token is
 * sent to it), so this uses undici directly. Bytes go to a temporary name beside the final
 * one and are renamed only when complete: an interrupted or failed download leaves no half
 * file under the final name. Pure Node: no `vscode`.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import { undici } from '../../api/undici';

export interface DownloadProgress {
  received: number;
  /** From Content-Length; undefined when the server did not say. */
  total?: number;
}

export interface DownloadOptions {
  signal?: AbortSignal;
  onProgress?: (p: DownloadProgress) => void;
  /** Name to use when neither the response nor the URL gives one. */
  fallbackName: string;
  /** Header and body timeouts, ms. Default 60 s each. */
  timeoutMs?: number;
}

export class DownloadError extends Error {
  override readonly name = 'DownloadError';
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** Downloads `url` into `folder`; resolves with the final file path. */
export async function downloadToFolder(url: string, folder: string, opts: DownloadOptions): Promise<string> {
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new DownloadError(`Refusing to download from a ${parsed.protocol} link.`);
  const timeout = opts.timeoutMs ?? 60_000;
  let res;
  try {
    res = await undici().request(url, { method: 'GET', signal: opts.signal, headersTimeout: timeout, bodyTimeout: timeout });
  } catch (err) {
    throw new DownloadError(`Could not fetch the download link: ${describe(err)}`);
  }
  if (res.statusCode >= 400) {
    await res.body.dump().catch(() => undefined);
    const hint = res.statusCode === 403 || res.statusCode === 410 ? ' The link may have expired: request the download again.' : '';
    throw new DownloadError(`The download link answered ${res.statusCode}.${hint}`, res.statusCode);
  }
  const header = (name: string): string | undefined => {
    const v = res.headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
  const lengthHeader = header('content-length');
  const total = lengthHeader !== undefined && /^\d+$/.test(lengthHeader) ? Number(lengthHeader) : undefined;
  const name = fileNameFor(header('content-disposition'), parsed, opts.fallbackName);
  const final = await freeName(folder, name);
  const temp = path.join(path.dirname(final), `.${path.basename(final)}.${randomBytes(4).toString('hex')}.part`);
  let received = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      received += chunk.length;
      opts.onProgress?.({ received, total });
      done(null, chunk);
    },
  });
  try {
    await pipeline(res.body, counter, createWriteStream(temp, { flags: 'wx' }), { signal: opts.signal });
    if (total !== undefined && received !== total) throw new DownloadError(`The download stopped after ${received} of ${total} bytes.`);
    await fs.rename(temp, final);
  } catch (err) {
    await fs.rm(temp, { force: true }).catch(() => undefined);
    if (err instanceof DownloadError) throw err;
    if (opts.signal?.aborted) throw new DownloadError('The download was cancelled.');
    throw new DownloadError(`The download failed: ${describe(err)}`);
  }
  return final;
}

/** A safe file name from Content-Disposition, else the URL's last segment, else the fallback. */
export function fileNameFor(contentDisposition: string | undefined, url: URL, fallback: string): string {
  let name: string | undefined;
  if (contentDisposition) {
    const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(contentDisposition);
    const plain = /filename\s*=\s*"?([^";]+)"?/.exec(contentDisposition);
    try {
      name = star ? decodeURIComponent(star[1].trim()) : plain?.[1].trim();
    } catch {
      name = plain?.[1].trim();
    }
  }
  if (!name) {
    const last = url.pathname.split('/').filter(Boolean).pop();
    try {
      name = last ? decodeURIComponent(last) : undefined;
    } catch {
      name = last;
    }
  }
  const clean = sanitize(name ?? '');
  return clean || sanitize(fallback) || 'download';
}

function sanitize(name: string): string {
  // Keep the base name only: a server must not be able to write outside the chosen folder.
  const base = name.split(/[\\/]/).pop() ?? '';
  const printable = [...base].map((c) => (c.charCodeAt(0) < 0x20 ? '_' : c)).join('');
  return printable.replace(/[<>:"|?*]/g, '_').replace(/^\.+/, '').trim().slice(0, 200);
}

/** `name`, or `name (1).ext`, … whichever does not exist yet in `folder`. */
async function freeName(folder: string, name: string): Promise<string> {
  const ext = path.extname(name);
  const stem = name.slice(0, name.length - ext.length);
  for (let i = 0; i < 1000; i++) {
    const candidate = path.join(folder, i === 0 ? name : `${stem} (${i})${ext}`);
    try {
      await fs.access(candidate);
    } catch {
      return candidate;
    }
  }
  throw new DownloadError(`Too many files named ${name} in ${folder}.`);
}

function describe(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    return typeof code === 'string' ? `${err.message} (${code})` : err.message;
  }
  return String(err);
}
