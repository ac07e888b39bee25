/**
 * The body of a byte-range GET, read with limits: a 206 must hold what `Content-Range` says
 * (no more than asked), a 200 means the server ignored `Range` and is taken only up to a
 * limit, and an error status becomes a sentence naming the status (its body redacted before
 * anything clips it).
 */
import type { Dispatcher } from 'undici';
import { decodeErrorBody, statusTitle } from './errors';

/** `ApiError.code` of a 200 answer to a range request whose whole file is over `maxWholeFile`. */
export const RANGE_IGNORED = 'range_ignored';

export interface RangeOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Largest body taken when the server ignores `Range` and sends the whole file. */
  maxWholeFile: number;
}

export interface RangeResult {
  /** 206: the range; 200: the whole file (the server ignored `Range`; at most `maxWholeFile`). */
  status: 200 | 206;
  body: Buffer;
  /** The file's size, from `Content-Range` or the whole body. */
  total?: number;
}

type Fail = (e: { kind: 'http' | 'protocol'; message: string; code?: string }) => void;

/** How much of an error body is read: enough for any message, never a whole file. */
const ERROR_BODY_BYTES = 16 * 1024;

export async function readRangeBody(
  res: Dispatcher.ResponseData,
  offset: number,
  length: number,
  opts: RangeOptions,
  fail: Fail,
  /** Strings the error text must not show (the token, a pre-signed URL's signature). */
  secrets: readonly string[] = [],
): Promise<RangeResult | undefined> {
  const status = res.statusCode;
  const header = (name: string): string | undefined => {
    const v = res.headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
  if (status !== 200 && status !== 206) {
    const { body, cutShort } = await readCapped(res, ERROR_BODY_BYTES).catch(() => ({ body: Buffer.alloc(0), cutShort: true }));
    const d = decodeErrorBody(status, header('content-type'), body.toString('utf8'), secrets, { cutShort });
    const hint =
      status === 416
        ? 'the range lies beyond the end of the file (is the file truncated?)'
        : status === 401 || status === 403
          ? 'access to the file was refused'
          : status === 404
            ? 'the file does not exist (any more)'
            : d.message || statusTitle(status);
    fail({ kind: 'http', message: `${statusTitle(status)} (${status}): ${hint}.` });
    return undefined;
  }
  if (status === 206) {
    const m = /^bytes\s+(\d+)-(\d+)\/(\d+|\*)$/i.exec(header('content-range') ?? '');
    const declared = Number(header('content-length'));
    if (declared > length) res.body.destroy();
    const { body, cutShort } =
      declared > length ? { body: Buffer.alloc(0), cutShort: true } : await readCapped(res, length, Number.isSafeInteger(declared) ? declared : undefined);
    if (cutShort) {
      fail({ kind: 'protocol', message: `The server sent more bytes than the ${length} asked for.` });
      return undefined;
    }
    if (m && Number(m[1]) !== offset) {
      fail({ kind: 'protocol', message: `The server sent bytes from ${m[1]} when asked for ${offset}.` });
      return undefined;
    }
    return { status: 206, body, total: m && m[3] !== '*' ? Number(m[3]) : undefined };
  }
  // 200: the whole file, despite the Range header
  const declared = Number(header('content-length'));
  const mb = (n: number) => `${Math.round(n / 1e5) / 10} MB`;
  if (Number.isFinite(declared) && declared > opts.maxWholeFile) {
    res.body.destroy();
    fail({
      kind: 'protocol',
      code: RANGE_IGNORED,
      message: `The server ignores range requests and the file is ${mb(declared)}; files are read whole only up to ${mb(opts.maxWholeFile)}.`,
    });
    return undefined;
  }
  const { body, cutShort } = await readCapped(res, opts.maxWholeFile, Number.isSafeInteger(declared) ? declared : undefined);
  if (cutShort) {
    fail({
      kind: 'protocol',
      code: RANGE_IGNORED,
      message: `The server ignores range requests and sent more than ${mb(opts.maxWholeFile)}; reading stopped there.`,
    });
    return undefined;
  }
  return { status: 200, body, total: body.byteLength };
}

/**
 * Reads at most `cap` bytes; past that the stream is closed and `cutShort` set. With the
 * declared length (within the cap) the body goes into one buffer of that size, so a large
 * body is never held twice (parts and their concatenation).
 */
async function readCapped(res: Dispatcher.ResponseData, cap: number, declared?: number): Promise<{ body: Buffer; cutShort: boolean }> {
  const one = declared !== undefined && declared <= cap ? Buffer.allocUnsafe(declared) : undefined;
  const parts: Buffer[] = [];
  let n = 0;
  for await (const chunk of res.body) {
    const b = chunk as Buffer;
    const room = (one ? one.byteLength : cap) - n;
    if (b.byteLength > room) {
      res.body.destroy();
      if (one) {
        b.copy(one, n, 0, room);
        return { body: one, cutShort: true };
      }
      parts.push(b.subarray(0, room));
      return { body: Buffer.concat(parts, cap), cutShort: true };
    }
    if (one) b.copy(one, n);
    else parts.push(b);
    n += b.byteLength;
  }
  return { body: one ? one.subarray(0, n) : Buffer.concat(parts, n), cutShort: false };
}
