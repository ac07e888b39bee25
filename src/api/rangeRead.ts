/**
 * The body of a byte-range GET, read with limits: a 206 must hold what `Content-Range` says
 * (no more than asked), a 200 means the server ignored `Range` and is taken only up to a
 * limit, and an error status becomes a sentence naming the status.
 */
import type { Dispatcher } from 'undici';
import { decodeErrorBody, statusTitle } from './errors';

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

type Fail = (e: { kind: 'http' | 'protocol'; message: string }) => void;

export async function readRangeBody(
  res: Dispatcher.ResponseData,
  offset: number,
  length: number,
  opts: RangeOptions,
  fail: Fail,
): Promise<RangeResult | undefined> {
  const status = res.statusCode;
  const header = (name: string): string | undefined => {
    const v = res.headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
  if (status !== 200 && status !== 206) {
    const text = await readCapped(res, 16 * 1024).then(
      (b) => b.toString('utf8'),
      () => '',
    );
    const d = decodeErrorBody(status, header('content-type'), text);
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
    const body = await readCapped(res, length);
    if (body.byteLength > length) {
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
      message: `The server ignores range requests and the file is ${mb(declared)}; files are read whole only up to ${mb(opts.maxWholeFile)}.`,
    });
    return undefined;
  }
  let body: Buffer;
  try {
    body = await readCapped(res, opts.maxWholeFile, true);
  } catch {
    fail({ kind: 'protocol', message: `The server ignores range requests and sent more than ${mb(opts.maxWholeFile)}; reading stopped there.` });
    return undefined;
  }
  return { status: 200, body, total: body.byteLength };
}

/** Reads at most `cap` bytes (+1 to detect overflow); with `strict`, overflow throws and closes the stream. */
async function readCapped(res: Dispatcher.ResponseData, cap: number, strict = false): Promise<Buffer> {
  const parts: Buffer[] = [];
  let n = 0;
  for await (const chunk of res.body) {
    const b = chunk as Buffer;
    n += b.byteLength;
    parts.push(b);
    if (n > cap) {
      res.body.destroy();
      if (strict) throw new RangeError('over the limit');
      break;
    }
  }
  return Buffer.concat(parts, n);
}
