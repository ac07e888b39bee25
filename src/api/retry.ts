/**
 * When a failed request may be sent again. Only idempotent reads are retried: a POST that
 * timed out may still have created an order, a store or a delivery, so it is never resent.
 */
import { ApiError } from './errors';

export interface RetryOptions {
  /** Extra attempts after the first (0 disables retries). Default 3. */
  retries?: number;
  /** First backoff delay. Default 250 ms. */
  baseDelayMs?: number;
  /** Cap on one backoff delay. Default 5 s. */
  maxDelayMs?: number;
  /** A `Retry-After` longer than this is not waited for: the error is thrown instead. Default 30 s. */
  maxRetryAfterMs?: number;
}

export const DEFAULT_RETRY: Required<RetryOptions> = {
  retries: 3,
  baseDelayMs: 250,
  maxDelayMs: 5_000,
  maxRetryAfterMs: 30_000,
};

const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS']);
const RETRY_STATUSES = new Set([429, 502, 503, 504]);

/** Network error codes that mean the connection broke under us (not "nobody is listening"). */
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'ECONNABORTED']);

export function isIdempotent(method: string): boolean {
  return IDEMPOTENT.has(method.toUpperCase());
}

/** Whether `err` (from one attempt of `method`) is worth another attempt. */
export function isRetryable(method: string, err: ApiError): boolean {
  if (!isIdempotent(method)) return false;
  switch (err.kind) {
    case 'http':
      return err.status !== undefined && RETRY_STATUSES.has(err.status);
    case 'timeout':
      return true;
    case 'network':
      return err.code !== undefined && RESET_CODES.has(err.code);
    default:
      return false;
  }
}

/**
 * Delay before attempt `attempt` (1 = first retry): exponential backoff with jitter, capped,
 * or the server's `Retry-After` when it asks for longer. The backoff is the floor: a
 * `Retry-After: 0` on every answer (a 503 storm) must not make retries back to back.
 * `undefined` means "do not retry" (the server asked for longer than we are willing to wait).
 */
export function retryDelayMs(attempt: number, opts: Required<RetryOptions>, retryAfterMs?: number, random: () => number = Math.random): number | undefined {
  if (retryAfterMs !== undefined && retryAfterMs > opts.maxRetryAfterMs) return undefined;
  const ceiling = Math.min(opts.maxDelayMs, opts.baseDelayMs * 2 ** (attempt - 1));
  // Half fixed, half random: never zero (a tight retry loop helps nobody), still spread out.
  const backoff = Math.round(ceiling / 2 + (random() * ceiling) / 2);
  return Math.max(backoff, retryAfterMs ?? 0);
}

/** `Retry-After` is either delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | string[] | undefined, now: number = Date.now()): number | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (v === undefined || v.trim() === '') return undefined;
  const trimmed = v.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/** setTimeout that an AbortSignal can cut short (rejects with the signal's reason). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
