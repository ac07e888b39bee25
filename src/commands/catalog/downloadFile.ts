/**
 * Saves a signed download URL into a folder. The signed URL is not an API path (no token is
 * sent to it), so this uses undici directly. Bytes go to a `.part` file beside the final one
 * and are renamed only when complete and verified: an interrupted download resumes from its
 * last byte (Range with If-Range), and nothing half-written is left under the final name.
 * Pure Node: no `vscode`.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Dispatcher } from 'undici';
import { PrivateTargetRefused } from '../../api/privateTargets';
import type { OtherHosts } from '../../api';
import { undici } from '../../api/undici';
import { safeFileName, safeName } from '../../fileNames';
import { decodedOr, urlOf } from '../../parse';
import { HeldBody } from './heldBody';
import { askRest, dropPart, ifRangeOf, keptBytes, notePart, partFileOf, partSize, targetOfPart, type Validator } from './partFile';

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
  /** Further tries after a dropped connection or a passing error (default 5), each resuming. */
  retries?: number;
  /** The first pause between tries, doubled each time (default 1 s). */
  backoffMs?: number;
  /** Told, in words, when a resume had to start over from the beginning. */
  onRestart?: (why: string) => void;
  /**
   * Asks the service again for a signed link to the same file, when the one in use expired
   * (403 or 410: while the person picked a folder, or mid-download): the download goes on from
   * its last byte with the fresh link. Once per request: a fresh link refused too ends it.
   */
  renewLink?: () => Promise<string>;
  /**
   * The `.part` file an earlier try of this same download left (its Resume): the first request
   * asks only for the bytes it lacks, and they go on into it, under its name.
   */
  resume?: string;
}

export class DownloadError extends Error {
  override readonly name = 'DownloadError';
  constructor(
    message: string,
    readonly status?: number,
    /** A dropped connection, a timeout or a passing server error: worth asking again. */
    readonly passing = false,
    /** Bytes kept in the `.part` file for a later try. */
    readonly kept = 0,
    /** That `.part` file, when bytes were kept. */
    readonly part?: string,
  ) {
    super(message);
  }
}

/**
 * A `renewLink` from a read of the record that carries the link (a download, a package): a
 * record without one ends the download, in words.
 */
export function freshLink(read: () => Promise<string | undefined>): () => Promise<string> {
  return async () => {
    const link = await read();
    if (!link) throw new DownloadError('The link expired and the service gave no fresh one: request the download again.');
    return link;
  };
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

/** A file's answer whose body is being taken already, ahead of the disk (HeldBody). */
interface FileAnswer {
  statusCode: number;
  headers: Dispatcher.ResponseData['headers'];
  body: HeldBody;
}

/**
 * GET `url`, following at most MAX_REDIRECTS redirects to http(s) locations; a 200 is the
 * file, a 206 its rest when `range` was sent. No Authorization header is ever sent: the link
 * carries its own signature.
 */
async function fetchFile(link: string, opts: DownloadOptions, range?: { from: number; ifRange: string }): Promise<{ res: FileAnswer; url: URL; link: string }> {
  const timeout = opts.timeoutMs ?? 60_000;
  const headers: Record<string, string> = range ? { range: `bytes=${range.from}-`, 'if-range': range.ifRange } : {};
  let current = httpUrl(link);
  let renewed = false;
  for (let hop = 0; ; hop++) {
    let res: Dispatcher.ResponseData;
    try {
      await opts.otherHosts?.check(current);
      res = await undici().request(current, {
        method: 'GET',
        headers,
        signal: opts.signal,
        headersTimeout: timeout,
        bodyTimeout: timeout,
        dispatcher: opts.otherHosts?.dispatcher(),
      });
    } catch (err) {
      // Recovers the words: refused, cancelled, or why the link could not be fetched, without the link itself.
      if (err instanceof PrivateTargetRefused) throw new DownloadError(`Not downloaded: ${err.message}.`);
      if (opts.signal?.aborted) throw new DownloadError('The download was cancelled.');
      throw new DownloadError(`Could not fetch the download link: ${describe(err)}`, undefined, true);
    }
    if (res.statusCode === 200 || (range && res.statusCode === 206))
      return { res: { statusCode: res.statusCode, headers: res.headers, body: new HeldBody(res.body) }, url: current, link };
    await res.body.dump().catch(() => undefined); // a body we do not read: its loss changes nothing
    if ((res.statusCode === 403 || res.statusCode === 410) && opts.renewLink && !renewed) {
      // The signed link expired: a fresh one from the service, and the same request again.
      link = await opts.renewLink();
      current = httpUrl(link);
      renewed = true;
      hop = -1;
      continue;
    }
    const location = res.headers.location;
    if (REDIRECTS.has(res.statusCode) && typeof location === 'string' && location !== '') {
      if (hop >= MAX_REDIRECTS) throw new DownloadError(`The download link redirected more than ${MAX_REDIRECTS} times.`, res.statusCode);
      current = httpUrl(location, current);
      continue;
    }
    if (res.statusCode >= 400) {
      const hint = res.statusCode === 403 || res.statusCode === 410 ? ' The link may have expired: request the download again.' : '';
      const passing = res.statusCode === 408 || res.statusCode === 429 || res.statusCode >= 500;
      throw new DownloadError(`The download link answered ${res.statusCode}.${hint}`, res.statusCode, passing);
    }
    throw new DownloadError(
      `The download link answered ${res.statusCode} instead of the file (expected 200). Request the download again or use Open Link.`,
      res.statusCode,
    );
  }
}

/** Downloads `url` into `folder`; resolves with the final file path. */
export async function downloadToFolder(url: string, folder: string, opts: DownloadOptions): Promise<string> {
  const earlier = opts.resume && path.dirname(opts.resume) === path.resolve(folder) ? targetOfPart(opts.resume) : undefined;
  const { res, url: parsed, link } = await fetchFile(url, opts, earlier ? await askRest(partFileOf(earlier)) : undefined);
  let final: string;
  try {
    // the rest of a stopped try's file goes on under the name that try chose, when still free
    final = earlier && res.statusCode === 206 && (await takeName(earlier)) ? earlier : await reserveName(folder, servedName(res, parsed, opts));
  } catch (err) {
    // Recovers the socket: the response is not read, so it is released; rethrown.
    res.body.destroy();
    throw err;
  }
  try {
    await writeResumable(link, res, final, opts);
  } catch (err) {
    // Recovers the disk: the empty placeholder goes (a failure to remove it changes nothing); rethrown.
    // The `.part` file stays for a later try only when it holds something.
    await fs.rm(final, { force: true }).catch(() => undefined);
    throw err;
  }
  return final;
}

/** The name to save an answer under: the person's (with the server's extension), else the server's. */
function servedName(res: FileAnswer, url: URL, opts: DownloadOptions): string {
  const served = fileNameFor(headerOf(res, 'content-disposition'), url, opts.fallbackName);
  return opts.preferredBase ? preferredName(opts.preferredBase, served) : served;
}

/**
 * Downloads `url` to `file`, a path the person chose in a save dialog (which asked before
 * replacing): bytes go to `file.part` beside it, renamed over it only when complete.
 */
export async function downloadToFile(url: string, file: string, opts: Omit<DownloadOptions, 'fallbackName'>): Promise<string> {
  const named = { ...opts, fallbackName: path.basename(file) };
  // an earlier try of this file (a Resume, a reload) left bytes: only the rest is asked for
  const { res, link } = await fetchFile(url, named, await askRest(partFileOf(file)));
  await writeResumable(link, res, file, named);
  return file;
}

/** Where a 206's part begins, from its Content-Range. */
function rangeStart(res: FileAnswer): number | undefined {
  const from = /^bytes\s+(\d+)-/.exec(headerOf(res, 'content-range') ?? '');
  return from ? Number(from[1]) : undefined;
}

function headerOf(res: Pick<FileAnswer, 'headers'>, name: string): string | undefined {
  const v = res.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function validatorOf(res: FileAnswer): Validator {
  const range = /\/(\d+)\s*$/.exec(headerOf(res, 'content-range') ?? '');
  const length = headerOf(res, 'content-length');
  const size = range ? Number(range[1]) : length !== undefined && /^\d+$/.test(length) ? Number(length) : undefined;
  // Content-MD5 (base64, RFC 1864) is the whole file's only on a whole answer; a part's is its own.
  const md5 = res.statusCode === 200 ? Buffer.from(headerOf(res, 'content-md5') ?? '', 'base64') : undefined;
  return { etag: headerOf(res, 'etag'), lastModified: headerOf(res, 'last-modified'), size, ...(md5?.length === 16 ? { md5: md5.toString('hex') } : {}) };
}

const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });

/**
 * Writes the file whose first answer is `res` to `target` through `target`'s `.part` file. A
 * dropped connection, a timeout or a passing server error keeps the part and asks again (up
 * to `retries` times, with backoff) for `Range: bytes=N-` with `If-Range`, appending what
 * comes; a 200 instead (the server ignores ranges, or the file changed) starts over and says
 * so through `onRestart`. The whole file is checked against its size and, when its ETag is an
 * MD5, its checksum; a file that fails is kept under a name that says so and reported.
 */
async function writeResumable(url: string, first: FileAnswer, target: string, opts: DownloadOptions): Promise<void> {
  const part = partFileOf(target);
  const retries = opts.retries ?? 5;
  let res: FileAnswer | undefined = first;
  let validator = validatorOf(first);
  let lastError: DownloadError | undefined;
  // What an earlier try (another window, before a reload) left of this same file goes on from its last byte.
  const kept = await keptBytes(part, validator);
  let have = kept.have;
  if (kept.discarded) opts.onRestart?.(`The bytes kept from an earlier try do not continue the file the server has now, so the download starts over.`);
  if (first.statusCode === 206 && have > 0 && rangeStart(first) === have) {
    // the answer to asking for the rest: the whole file's checksum is the one noted with the first bytes
    validator = { ...validator, md5: kept.noted?.md5 };
  } else if (have > 0 || first.statusCode === 206) {
    first.body.destroy(); // its bytes are on disk already, or continue bytes that are not: their loss changes nothing
    res = undefined;
  }
  for (let attempt = 1; ; attempt++) {
    try {
      if (!res) {
        const ifRange = ifRangeOf(validator);
        if (!ifRange) have = 0;
        const answer = await fetchFile(url, opts, have > 0 && ifRange ? { from: have, ifRange } : undefined);
        res = answer.res;
        url = answer.link;
        const now = validatorOf(res);
        if (have > 0 && res.statusCode === 200) {
          const changed = validator.etag !== undefined && now.etag !== undefined && now.etag !== validator.etag;
          opts.onRestart?.(
            changed
              ? `The file changed on the server since the download began, so it starts over from the beginning.`
              : `The server sent the whole file again instead of the missing part, so the download starts over.`,
          );
          have = 0;
        }
        if (res.statusCode === 206) {
          if (rangeStart(res) !== have) {
            res.body.destroy();
            throw new DownloadError(`The server sent a different part of the file than asked for.`);
          }
          validator = { ...now, etag: now.etag ?? validator.etag, lastModified: now.lastModified ?? validator.lastModified, md5: validator.md5 };
        } else validator = now;
      }
      if (have === 0) await notePart(part, validator);
      have = await appendBody(res, part, have, validator.size, opts);
      res = undefined;
      if (validator.size !== undefined && have !== validator.size) {
        throw new DownloadError(`The download stopped after ${have} of ${validator.size} bytes.`, undefined, true);
      }
      break;
    } catch (err) {
      res = undefined;
      // Recovers from a dropped or failed try: the part is kept (good up to its last byte) for the next.
      const before = have;
      have = await partSize(part);
      lastError = err instanceof DownloadError ? err : new DownloadError(`The download failed: ${describe(err)}`, undefined, true);
      if (!ifRangeOf(validator)) {
        // Without an ETag or a date nothing can tell a later answer continues these bytes.
        await dropPart(part);
        have = 0;
      }
      // A try that moved bytes kept on disk ends a streak: the bound and the backoff count tries
      // that moved none (bytes thrown away move nothing, or a server that always cuts loops forever).
      if (have > before) attempt = 1;
      if (opts.signal?.aborted) throw new DownloadError('The download was cancelled.', undefined, false, have, part);
      if (!lastError.passing || attempt > retries) {
        throw new DownloadError(lastError.message, lastError.status, lastError.passing, have, part);
      }
      await sleep(Math.min(30_000, (opts.backoffMs ?? 1000) * 2 ** (attempt - 1)), opts.signal);
    }
  }
  await verify(part, target, validator);
  await fs.rename(part, target);
  await dropPart(part);
}

/** At most this much is written in one call: few, large writes keep pace with the network. */
const WRITE_BATCH = 4 << 20;

/** Appends `res`'s body to `part` (which holds `have` bytes); resolves with the bytes on disk. */
async function appendBody(res: FileAnswer, part: string, have: number, total: number | undefined, opts: DownloadOptions): Promise<number> {
  let received = have;
  const cancel = (): void => res.body.destroy();
  opts.signal?.addEventListener('abort', cancel, { once: true });
  // The file is open before the first byte is written; what comes meanwhile waits in the body.
  const file = await fs.open(part, have === 0 ? 'w' : 'a');
  try {
    // a cancel gives the body up: what it held is dropped and the loop ends at the next batch
    for (let batch = await res.body.next(WRITE_BATCH); batch.length > 0; batch = await res.body.next(WRITE_BATCH)) {
      received += await writeAll(file, batch);
      opts.onProgress?.({ received, total });
    }
    if (opts.signal?.aborted) throw new DownloadError('The download was cancelled.');
    const cut = res.body.cut();
    if (cut) throw cut;
  } finally {
    opts.signal?.removeEventListener('abort', cancel);
    res.body.destroy();
    await file.close();
    received = await partSize(part);
  }
  return received;
}

/** Writes every byte of `chunks` at the file's end (a write may take fewer bytes than given). */
async function writeAll(file: fs.FileHandle, chunks: Buffer[]): Promise<number> {
  const bytes = chunks.reduce((n, c) => n + c.length, 0);
  let written = (await file.writev(chunks)).bytesWritten;
  if (written < bytes) {
    const rest = Buffer.concat(chunks).subarray(written);
    for (let at = 0; at < rest.length;) at += (await file.write(rest, at)).bytesWritten;
    written = bytes;
  }
  return written;
}

/** Checks the size and, when the server gave one (Content-MD5, or an ETag that is a plain MD5 as S3's for a whole upload), the checksum. */
async function verify(part: string, target: string, v: Validator): Promise<void> {
  const size = (await fs.stat(part)).size;
  let problem: string | undefined;
  if (v.size !== undefined && size !== v.size) problem = `it has ${size} bytes where the server said ${v.size}`;
  const md5 = v.md5 ?? /^"([0-9a-f]{32})"$/i.exec(v.etag ?? '')?.[1];
  if (!problem && md5) {
    const hash = createHash('md5');
    await pipeline(createReadStream(part), hash);
    const got = hash.digest('hex');
    if (got !== md5.toLowerCase()) problem = `its MD5 checksum is ${got} where the server's is ${md5}`;
  }
  if (!problem) return;
  const ext = path.extname(target);
  const kept = `${target.slice(0, target.length - ext.length)} (failed verification)${ext}`;
  await fs.rename(part, kept);
  await dropPart(part);
  throw new DownloadError(`The downloaded file failed verification: ${problem}. It was kept as ${kept}; download it again.`);
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
    if (await takeName(candidate)) return candidate;
  }
  throw new DownloadError(`Too many files named ${name} in ${folder}.`);
}

/** Creates `file` empty, so that its name is ours; false when a file has the name already. */
async function takeName(file: string): Promise<boolean> {
  try {
    await (await fs.open(file, 'wx')).close();
    return true;
  } catch (err) {
    // Recovers from a taken name: the caller tries another.
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw new DownloadError(`Cannot create ${file}: ${describe(err)}`);
    return false;
  }
}

function describe(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    return typeof code === 'string' ? `${err.message} (${code})` : err.message;
  }
  return String(err);
}
