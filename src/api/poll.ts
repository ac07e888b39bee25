/**
 * Watch a resource until it reaches a final status. The service sends no events: progress
 * is only visible by reading the resource again (docs/service-interface.md, Events).
 */
import { ApiError } from './errors';
import { sleep } from './retry';

export interface PollOptions<T> {
  /** Stop when this is true for the latest value. */
  isFinal: (value: T) => boolean;
  /** Called with every value read, including the final one. */
  onProgress?: (value: T, attempt: number) => void;
  signal?: AbortSignal;
  /** First wait between reads. Default 500 ms. */
  initialDelayMs?: number;
  /** Longest wait between reads. Default 5 s. */
  maxDelayMs?: number;
  /** Growth of the wait after each read. Default 1.5. */
  factor?: number;
  /** Give up (ApiError kind `timeout`) after this long. Default 10 min. */
  timeoutMs?: number;
  /** What is being watched, for the timeout message, e.g. "download 42". */
  what?: string;
  /** Used in error messages. */
  method?: string;
  path?: string;
  /** Clock, replaceable in tests. */
  now?: () => number;
}

/**
 * How a record that is still changing is followed live (the sidebar's rows, the job graph):
 * read after `baseMs`, the wait doubling up to `maxMs` while nothing changes, back to `baseMs`
 * when something does.
 */
export const LIVE_FOLLOW = { baseMs: 2000, maxMs: 30_000 } as const;

/** Final statuses per resource kind, from docs/service-interface.md ("States"). */
export const FINAL_STATUSES = {
  download: ['success', 'failed'],
  delivery: ['SUCCESS', 'FAILED'],
  order: ['PAID', 'REFUND'],
  orderItem: ['FULFILLED', 'CANCELLED', 'FAILED', 'PARTIALLY_FULFILLED'],
  /**
   * AOIs, visualizations, assets, insights. `started`, `running`, `updating`, `creating`
   * and `partial_success` are not final: they are polled.
   */
  processing: ['success', 'failed', 'SUCCESS', 'FAILED', 'error'],
} as const satisfies Record<string, readonly string[]>;

export type PolledKind = keyof typeof FINAL_STATUSES;

export function isFinalStatus(kind: PolledKind, status: string | undefined): boolean {
  return status !== undefined && (FINAL_STATUSES[kind] as readonly string[]).includes(status);
}

/** A 0–100 progress figure from a record, when it has one. */
export function progressOf(v: unknown): number | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const p = (v as { progress?: unknown }).progress;
  return typeof p === 'number' && Number.isFinite(p) ? Math.max(0, Math.min(100, p)) : undefined;
}

/**
 * Read `read()` until `isFinal`, waiting with capped exponential backoff. Errors from
 * `read` propagate (its GETs already retry transient faults); cancellation rejects with an
 * `ApiError` of kind `aborted`; running past `timeoutMs` rejects with kind `timeout`.
 */
export async function poll<T>(read: (signal?: AbortSignal) => Promise<T>, opts: PollOptions<T>): Promise<T> {
  const now = opts.now ?? Date.now;
  const started = now();
  const timeoutMs = opts.timeoutMs ?? 10 * 60_000;
  const maxDelay = opts.maxDelayMs ?? 5_000;
  const factor = opts.factor ?? 1.5;
  let delay = opts.initialDelayMs ?? 500;
  const method = opts.method ?? 'GET';
  const path = opts.path ?? opts.what ?? 'poll';
  const aborted = (): ApiError => new ApiError({ kind: 'aborted', method, path, detailMessage: 'polling cancelled' });
  for (let attempt = 1; ; attempt++) {
    if (opts.signal?.aborted) throw aborted();
    const value = await read(opts.signal);
    opts.onProgress?.(value, attempt);
    if (opts.isFinal(value)) return value;
    const elapsed = now() - started;
    if (elapsed + delay > timeoutMs) {
      const status = (value as { status?: unknown })?.status;
      throw new ApiError({
        kind: 'timeout',
        method,
        path,
        detailMessage: `${opts.what ?? 'the resource'} is still ${typeof status === 'string' ? `"${status}"` : 'not done'} after ${Math.round(elapsed / 1000)} s`,
        userMessage: `Still waiting for ${opts.what ?? 'the service'} after ${Math.round(elapsed / 1000)} s; try again later.`,
      });
    }
    try {
      await sleep(delay, opts.signal);
    } catch {
      throw aborted();
    }
    delay = Math.min(maxDelay, Math.round(delay * factor));
  }
}
