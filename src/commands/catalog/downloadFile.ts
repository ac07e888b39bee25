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
import type { Dispatcher } from 'undici';
import { PrivateTargetRefused } from '../../api/privateTargets';
import type { OtherHosts } from '../../api';
import { undici } from '../../api/undici';
import { safeFileName, safeName } from '../../fileNames';
import { decodedOr, urlOf } from '../../parse';

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
  /**
   * The name a person gave what they download (place, date, bandset), without extension:
   * used instead of the server's name, which keeps only its extension.
   */
  preferredBase?: string;
  /** Header and body timeouts, ms. Default 60 s each. */
  timeoutMs?: number;
  /**
   * Checks each hop (the link, and every redirect) before it is fetched and the address each
   * connection goes to; a private host the person did not allow is refused (`Connection.otherHosts`).
   * Required, so that a new caller cannot leave the check out by forgetting it: only tests pass
   * undefined.
   */
  otherHosts: OtherHosts | undefined;
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

/** Storage services answer a signed link with a redirect or two (to a region, a CDN). */
export const MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

function httpUrl(href: string, base?: URL): URL {
  // the URL parser's own message would mean nothing to a person
  const u = urlOf(href, base);
  if (!u) throw new DownloadError('The download link is not a valid URL.');
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new DownloadError(`Refusing to download from a ${u.protocol} link.`);
  return u;
}

/**
 * GET `url`, following at most MAX_REDIRECTS redirects to http(s) locations; only a 200 is
 * the file. No Authorization header is ever sent: the link carries its own signature.
 */
async function fetchFile(url: string, opts: DownloadOptions): Promise<{ res: Dispatcher.ResponseData; url: URL }> {
  const timeout = opts.timeoutMs ?? 60_000;
  let current = httpUrl(url);
  for (let hop = 0; ; hop++) {
    let res: Dispatcher.ResponseData;
    try {
      await opts.otherHosts?.check(current);
      res = await undici().request(current, {
        method: 'GET',
        signal: opts.signal,
        headersTimeout: timeout,
        bodyTimeout: timeout,
        dispatcher: opts.otherHosts?.dispatcher(),
      });
    } catch (err) {
      // Recovers the words: refused, cancelled, or why the link could not be fetched, without the link itself.
      if (err instanceof PrivateTargetRefused) throw new DownloadError(`Not downloaded: ${err.message}.`);
      if (opts.signal?.aborted) throw new DownloadError('The download was cancelled.');
      throw new DownloadError(`Could not fetch the download link: ${describe(err)}`);
    }
    if (res.statusCode === 200) return { res, url: current };
    await res.body.dump().catch(() => undefined); // a body we do not read: its loss changes nothing
    const location = res.headers.location;
    if (REDIRECTS.has(res.statusCode) && typeof location === 'string' && location !== '') {
      if (hop >= MAX_REDIRECTS) throw new DownloadError(`The download link redirected more than ${MAX_REDIRECTS} times.`, res.statusCode);
      current = httpUrl(location, current);
      continue;
    }
    if (res.statusCode >= 400) {
      const hint = res.statusCode === 403 || res.statusCode === 410 ? ' The link may have expired: request the download again.' : '';
      throw new DownloadError(`The download link answered ${res.statusCode}.${hint}`, res.statusCode);
    }
    throw new DownloadError(
      `The download link answered ${res.statusCode} instead of the file (expected 200). Request the download again or use Open Link.`,
      res.statusCode,
    );
  }
}

/** Downloads `url` into `folder`; resolves with the final file path. */
export async function downloadToFolder(url: string, folder: string, opts: DownloadOptions): Promise<string> {
  const { res, url: parsed } = await fetchFile(url, opts);
  const served = fileNameFor(headerOf(res, 'content-disposition'), parsed, opts.fallbackName);
  const name = opts.preferredBase ? preferredName(opts.preferredBase, served) : served;
  let final: string;
  try {
    final = await reserveName(folder, name);
  } catch (err) {
    // Recovers the socket: the response is not read, so it is released; rethrown.
    res.body.destroy();
    throw err;
  }
  try {
    await writeWhole(res, final, opts);
  } catch (err) {
    // Recovers the disk: the empty placeholder goes (a failure to remove it changes nothing); rethrown.
    await fs.rm(final, { force: true }).catch(() => undefined);
    throw err;
  }
  return final;
}

/**
 * Downloads `url` to `file`, a path the person chose in a save dialog (which asked before
 * replacing): bytes go to a temporary name beside it, renamed over it only when complete.
 */
export async function downloadToFile(url: string, file: string, opts: Omit<DownloadOptions, 'fallbackName'>): Promise<string> {
  const { res } = await fetchFile(url, { ...opts, fallbackName: path.basename(file) });
  await writeWhole(res, file, opts);
  return file;
}

function headerOf(res: Dispatcher.ResponseData, name: string): string | undefined {
  const v = res.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * Streams the body to a temporary name beside `target`, renamed over it only once whole (as
 * long as Content-Length said); a failure removes the temporary file and says what happened.
 */
async function writeWhole(res: Dispatcher.ResponseData, target: string, opts: Pick<DownloadOptions, 'onProgress' | 'signal'>): Promise<void> {
  const lengthHeader = headerOf(res, 'content-length');
  const total = lengthHeader !== undefined && /^\d+$/.test(lengthHeader) ? Number(lengthHeader) : undefined;
  const temp = path.join(path.dirname(target), `.${path.basename(target)}.${randomBytes(4).toString('hex')}.part`);
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
    await fs.rename(temp, target);
  } catch (err) {
    // Recovers the disk and the words: nothing half-written is left, and the failure is worded.
    await fs.rm(temp, { force: true }).catch(() => undefined);
    if (err instanceof DownloadError) throw err;
    if (opts.signal?.aborted) throw new DownloadError('The download was cancelled.');
    throw new DownloadError(`The download failed: ${describe(err)}`);
  }
}

/** `base` with the extension of the name the server gave (`.zip`, `.tif`, `.tar.gz`), made safe. */
export function preferredName(base: string, served: string): string {
  const ext = /(\.tar)?\.[A-Za-z0-9]{1,8}$/.exec(served)?.[0] ?? '';
  return safeFileName(base, ext) || served;
}

/** A safe file name from Content-Disposition, else the URL's last segment, else the fallback. */
export function fileNameFor(contentDisposition: string | undefined, url: URL, fallback: string): string {
  let name: string | undefined;
  if (contentDisposition) {
    const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(contentDisposition);
    const plain = /filename\s*=\s*"?([^";]+)"?/.exec(contentDisposition);
    // a malformed percent-encoding: the plain name serves
    name = star ? decodedOr(star[1].trim(), plain?.[1].trim()) : plain?.[1].trim();
  }
  if (!name) {
    const last = url.pathname.split('/').filter(Boolean).pop();
    name = last ? decodedOr(last) : undefined;
  }
  const clean = sanitize(name ?? '');
  return clean || sanitize(fallback) || 'download';
}

/** The base name only (a server must not write outside the chosen folder), made safe (src/fileNames.ts). */
function sanitize(name: string): string {
  return safeName(name.split(/[\\/]/).pop() ?? '');
}

/**
 * `name`, or `name (1).ext`, … whichever can be created in `folder`: the name is reserved by
 * creating it exclusively (an empty placeholder the finished download is renamed over), so
 * two downloads at once cannot pick the same name and overwrite each other.
 */
async function reserveName(folder: string, name: string): Promise<string> {
  const ext = path.extname(name);
  const stem = name.slice(0, name.length - ext.length);
  for (let i = 0; i < 1000; i++) {
    const candidate = path.join(folder, i === 0 ? name : `${stem} (${i})${ext}`);
    try {
      await (await fs.open(candidate, 'wx')).close();
      return candidate;
    } catch (err) {
      // Recovers from a taken name by trying the next one.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw new DownloadError(`Cannot create ${candidate}: ${describe(err)}`);
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
