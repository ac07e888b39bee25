/**
 * A signed file link answered the way an object store (S3, GCS) answers one: `Accept-Ranges`,
 * a strong `ETag` (the MD5 of the bytes, as S3 gives for an object uploaded whole; an opaque
 * tag for a body made as it is streamed, as for an S3 multipart upload), `Last-Modified`, and
 * the conditional headers a client resumes with: `Range: bytes=N-` gives 206 with
 * `Content-Range`; `If-Range` with a validator that no longer matches gives the whole file
 * (200); `If-None-Match`/`If-Match` give 304/412; a range past the end gives 416.
 */
import { createHash } from 'node:crypto';
import { HttpError } from './errors';
import { contentRange, parseRange } from './imagery/ranges';
import type { Res } from './router';

type Headers = Record<string, string | string[] | undefined>;

export interface ObjectIdentity {
  /** The strong ETag, quoted. Raw bodies get the MD5 of their bytes when this is absent. */
  etag?: string;
  /** When the object was written, ms since the epoch. */
  modified: number;
}

function header(h: Headers, name: string): string | undefined {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
}

/** An opaque strong ETag for a streamed object: S3's "<md5 of part md5s>-<parts>" shape. */
export function streamedEtag(identity: string, size: number): string {
  const digest = createHash('md5').update(`${identity}:${size}`).digest('hex');
  return `"${digest}-${Math.max(1, Math.ceil(size / (8 * 1024 * 1024)))}"`;
}

/** The whole file `whole` (a 200 with `raw` or `stream`) as the object store serves it for `headers`. */
export function asStoredObject(headers: Headers, whole: Res, id: ObjectIdentity): Res {
  const raw = whole.raw === undefined ? undefined : Buffer.isBuffer(whole.raw) ? whole.raw : Buffer.from(whole.raw);
  const size = raw?.length ?? whole.stream?.length ?? 0;
  const etag = id.etag ?? (raw ? `"${createHash('md5').update(raw).digest('hex')}"` : streamedEtag('object', size));
  const lastModified = new Date(Math.floor(id.modified / 1000) * 1000).toUTCString();
  const common = { ...(whole.headers ?? {}), 'accept-ranges': 'bytes', etag, 'last-modified': lastModified };
  const ifMatch = header(headers, 'if-match');
  if (ifMatch !== undefined && ifMatch.trim() !== '*' && !tags(ifMatch).includes(etag)) {
    throw new HttpError(412, 'the file changed since the ETag given in If-Match', 'if-match', common);
  }
  const ifNoneMatch = header(headers, 'if-none-match');
  if (ifNoneMatch !== undefined && (ifNoneMatch.trim() === '*' || tags(ifNoneMatch).some((t) => t.replace(/^W\//, '') === etag))) {
    return { status: 304, headers: common };
  }
  const range = header(headers, 'range');
  const ifRange = header(headers, 'if-range');
  // If-Range: a strong ETag equal to the current one, or the exact Last-Modified date; else the whole file.
  const rangeHolds = ifRange === undefined || ifRange.trim() === etag || ifRange.trim() === lastModified;
  const answer = rangeHolds ? parseRange(range, size) : ({ kind: 'whole' } as const);
  if (answer.kind === 'unsatisfiable') {
    throw new HttpError(416, `range ${JSON.stringify(range?.slice(0, 100))} is outside the file's ${size} bytes`, 'range', {
      ...common,
      'content-range': `bytes */${size}`,
    });
  }
  // One span only: object stores answer several with the whole file (S3 ignores multi-range).
  if (answer.kind === 'whole' || answer.spans.length > 1) return { ...whole, raw: raw ?? whole.raw, headers: common };
  const [s] = answer.spans;
  const partHeaders = { ...common, 'content-range': contentRange(s, size) };
  if (raw) return { status: 206, raw: raw.subarray(s.start, s.end), contentType: whole.contentType, headers: partHeaders };
  const chunks = whole.stream?.chunks ?? (() => []);
  return {
    status: 206,
    contentType: whole.contentType,
    headers: partHeaders,
    stream: { length: s.end - s.start, chunks: () => slice(chunks(), s.start, s.end) },
  };
}

function tags(list: string): string[] {
  return list.split(',').map((t) => t.trim());
}

/** Bytes [start, end) of a chunked body: what comes before is produced and skipped. */
function* slice(chunks: Iterable<Buffer>, start: number, end: number): Iterable<Buffer> {
  let at = 0;
  for (const c of chunks) {
    const from = Math.max(start - at, 0);
    const to = Math.min(end - at, c.length);
    if (to > from) yield c.subarray(from, to);
    at += c.length;
    if (at >= end) return;
  }
}
