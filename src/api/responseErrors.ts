/**
 * What went wrong with a request, as an `ApiError`: a body past the size cap, an HTTP error
 * status, a cancellation, and undici's and Node's network failures in words.
 */
import type { Dispatcher } from 'undici';
import { ApiError, decodeErrorBody, statusTitle } from './errors';
import type { RawResponse } from './requestTypes';
import { PrivateTargetRefused } from './privateTargets';
import { parseRetryAfter } from './retry';

/** The body as text, refusing (and dropping the connection) past `max` bytes. */
export async function readBody(
  res: Dispatcher.ResponseData,
  max: number,
  method: string,
  path: string,
): Promise<{ text: string; bytes: number; buffer: Buffer }> {
  const tooLarge = (): ApiError => {
    res.body.destroy();
    const mb = Math.round((max / (1024 * 1024)) * 10) / 10;
    return new ApiError({
      kind: 'protocol',
      method,
      path,
      detailMessage: `the response is larger than ${mb} MB, the most one answer may be (setting eoImagery.maxResponseMegabytes)`,
    });
  };
  const declared = res.headers['content-length'];
  if (typeof declared === 'string' && /^\d+$/.test(declared) && Number(declared) > max) throw tooLarge();
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of res.body as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes > max) throw tooLarge();
    chunks.push(chunk);
  }
  const buffer = Buffer.concat(chunks, bytes);
  return { text: buffer.toString('utf8'), bytes, buffer };
}

export function httpError(method: string, path: string, res: RawResponse & { retryAfter?: string | string[] }, secrets: readonly string[]): ApiError {
  // Secrets go before the decoder clips the text: a secret cut in half would survive.
  const d = decodeErrorBody(res.status, res.contentType, res.text, secrets);
  return new ApiError({
    kind: 'http',
    method,
    path,
    status: res.status,
    code: d.code,
    detailMessage: d.message || statusTitle(res.status),
    details: d.details,
    retryAfterMs: parseRetryAfter(res.retryAfter),
  });
}

export function abortedError(method: string, path: string): ApiError {
  return new ApiError({ kind: 'aborted', method, path, detailMessage: 'cancelled by the caller' });
}

export function transportError(e: unknown, origin: string, method: string, path: string, signal: AbortSignal | undefined, timeoutMs: number): ApiError {
  if (e instanceof ApiError) return e;
  if (signal?.aborted) return abortedError(method, path);
  // A private host the person did not allow: the refusal says so, in words they can act on.
  if (e instanceof PrivateTargetRefused) return new ApiError({ kind: 'protocol', method, path, detailMessage: e.message, userMessage: e.message });
  const err = e as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
  const code = err?.code ?? err?.cause?.code;
  const host = origin.replace(/^https?:\/\//, '');
  const secs = timeoutMs >= 1000 ? `${Math.round(timeoutMs / 100) / 10} s` : `${timeoutMs} ms`;
  const mk = (kind: ApiError['kind'], message: string): ApiError => new ApiError({ kind, method, path, code, detailMessage: message, cause: e });
  switch (code) {
    case 'UND_ERR_HEADERS_TIMEOUT':
      return mk('timeout', `no response within ${secs}`);
    case 'UND_ERR_BODY_TIMEOUT':
      return mk('timeout', `the response stalled for more than ${secs}`);
    case 'UND_ERR_CONNECT_TIMEOUT':
      return mk('timeout', `could not connect to ${host} within ${secs}`);
    case 'ECONNREFUSED':
      return mk('network', `connection refused by ${host}`);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return mk('network', `host ${host.replace(/:\d+$/, '')} not found`);
    case 'ECONNRESET':
    case 'EPIPE':
      return mk('network', `the connection to ${host} was reset`);
    case 'UND_ERR_SOCKET':
      return mk('network', `the connection to ${host} closed before the response was complete`);
    case 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH':
      return mk('network', 'the response was cut short (fewer bytes than announced)');
    case 'UND_ERR_CLOSED':
    case 'UND_ERR_DESTROYED':
      return mk('network', 'the client was closed');
    default:
      return mk('network', err?.message ? `${err.message}${code ? ` (${code})` : ''}` : String(e));
  }
}
