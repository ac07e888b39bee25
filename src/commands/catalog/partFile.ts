/**
 * The `.part` file a download writes before it is complete, and beside it what its bytes are a
 * prefix of (the server's ETag or date, and the whole size): a later try, in another window or
 * after a reload, continues those bytes with a ranged request instead of starting over. The
 * signed link is never written down: it is asked for again. Pure Node: no `vscode`.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { parseJson } from '../../parse';

/** What the bytes on disk are a prefix of, and what the next ranged request sends. */
export interface Validator {
  etag?: string;
  lastModified?: string;
  /** The whole file's size, from Content-Length or Content-Range. */
  size?: number;
  /** The whole file's MD5 (hex) from Content-MD5, when the server sent one. */
  md5?: string;
}

/** The `.part` file a download of `target` writes to, beside it. */
export function partFileOf(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.part`);
}

/** The file a `.part` file becomes when complete (the inverse of `partFileOf`). */
export function targetOfPart(part: string): string | undefined {
  const m = /^\.(.+)\.part$/.exec(path.basename(part));
  return m ? path.join(path.dirname(part), m[1]) : undefined;
}

const sidecarOf = (part: string): string => `${part}.json`;

/** The bytes `part` holds; 0 when there is no such file. */
export function partSize(part: string): Promise<number> {
  return fs.stat(part).then(
    (s) => s.size,
    () => 0,
  );
}

/** `If-Range` takes a strong ETag or a date (RFC 9110 §13.1.5): a weak ETag cannot resume. */
export function ifRangeOf(v: Validator): string | undefined {
  if (v.etag && !v.etag.startsWith('W/')) return v.etag;
  return v.lastModified;
}

/** Notes what `part` holds a prefix of, for a later try. */
export async function notePart(part: string, v: Validator): Promise<void> {
  await fs.writeFile(sidecarOf(part), JSON.stringify({ etag: v.etag, lastModified: v.lastModified, size: v.size, md5: v.md5 }));
}

/**
 * The ranged ask that goes on from what `part` holds (`Range: bytes=from-` with `If-Range`):
 * the server itself then answers the rest, or the whole file when it changed. Undefined when
 * nothing can be resumed (no bytes, no note, nothing to tell a later answer by, or complete).
 */
export async function askRest(part: string): Promise<{ from: number; ifRange: string } | undefined> {
  const [was, from] = await Promise.all([readNote(part), partSize(part)]);
  const ifRange = was && ifRangeOf(was);
  if (!was || !ifRange || from === 0 || (was.size !== undefined && from >= was.size)) return undefined;
  return { from, ifRange };
}

/** Removes the part and its note (a failure to remove changes nothing: a later try checks the note). */
export async function dropPart(part: string): Promise<void> {
  await Promise.all([fs.rm(part, { force: true }), fs.rm(sidecarOf(part), { force: true })]);
}

/** The file's note, read as data: any field not of its type is left out. */
async function readNote(part: string): Promise<Validator | undefined> {
  // a missing or damaged note: nothing can be resumed, so nothing is
  const read = await fs.readFile(sidecarOf(part), 'utf8').then(
    (t) => parseJson(t),
    () => undefined,
  );
  const raw = read && 'value' in read ? read.value : undefined;
  if (typeof raw !== 'object' || raw === null) return undefined;
  const r = raw as Record<string, unknown>;
  const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length <= 200 ? v : undefined);
  const md5 = typeof r.md5 === 'string' && /^[0-9a-f]{32}$/.test(r.md5) ? r.md5 : undefined;
  return { etag: str(r.etag), lastModified: str(r.lastModified), size: Number.isSafeInteger(r.size) ? (r.size as number) : undefined, md5 };
}

/**
 * The bytes an earlier try left in `part` that continue the file the server now describes as
 * `now` (the same ETag or date, the same size), and what its note says of the whole file (its
 * MD5 comes only with a whole answer); 0, with the part removed, when there are none, and
 * `discarded` when bytes were there that do not continue it.
 */
export async function keptBytes(part: string, now: Validator): Promise<{ have: number; noted?: Validator; discarded: boolean }> {
  const [was, size] = await Promise.all([readNote(part), partSize(part)]);
  const same = was !== undefined && ifRangeOf(was) !== undefined && ifRangeOf(was) === ifRangeOf(now) && was.size === now.size;
  if (same && size > 0 && (now.size === undefined || size < now.size)) return { have: size, noted: was, discarded: false };
  await dropPart(part);
  return { have: 0, discarded: size > 0 };
}
