/**
 * Where a job or a task stands, from the status words the service uses (the OpenAPI lists
 * none), and its other loosely typed numbers: `progress` as text, `time_taken` as a duration
 * in text. Pure: no I/O, no vscode.
 */
import { runState, type RunState } from './insightRunState';

/** A run's states, and `skipped`: a task that never ran because a task it waits for failed. */
export type WorkState = RunState | 'skipped';

const SKIPPED = new Set(['skipped', 'upstream_failed', 'not_run', 'cancelled_upstream']);
/** Tasks wait for their dependencies in these; they are followed like a pending run. */
const WAITING = new Set(['waiting', 'blocked', 'ready', 'new', 'initialized', 'initialised', 'dispatched', 'sent', 'received']);

export function workState(status: string | undefined | null): WorkState {
  const s = (status ?? '').trim().toLowerCase();
  if (SKIPPED.has(s)) return 'skipped';
  if (WAITING.has(s)) return 'pending';
  return runState(s);
}

/** Unknown statuses count as final: a job is never polled blindly. */
export function isWorkPending(status: string | undefined | null): boolean {
  return workState(status) === 'pending';
}

/**
 * A percentage from a number or text: `45`, `"45"`, `"45%"`, `" 45.5 % "`; clamped to 0..100.
 * Undefined when it says nothing readable.
 */
export function percentOf(v: unknown): number | undefined {
  let n: number | undefined;
  if (typeof v === 'number') n = v;
  else if (typeof v === 'string') {
    const m = /^\s*(-?\d+(?:\.\d+)?)\s*%?\s*$/.exec(v);
    n = m ? Number(m[1]) : undefined;
  }
  if (n === undefined || !Number.isFinite(n)) return undefined;
  return Math.max(0, Math.min(100, n));
}

const UNIT_SECONDS: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 0.001, us: 1e-6, µs: 1e-6, ns: 1e-9 };

/**
 * Seconds from a duration as text: Go's form (`1h2m3.5s`, `850ms`), a clock (`01:02:03`,
 * `02:03`), or a bare number of seconds. A number is taken as seconds. Undefined otherwise.
 */
export function durationSeconds(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) && v >= 0 ? v : undefined;
  if (typeof v !== 'string') return undefined;
  const s = v.trim();
  if (s === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(s)) return Number(s);
  const clock = /^(?:(\d+):)?(\d{1,2}):(\d{2}(?:\.\d+)?)$/.exec(s);
  if (clock) return Number(clock[1] ?? 0) * 3600 + Number(clock[2]) * 60 + Number(clock[3]);
  if (!/^(\d+(\.\d+)?(h|ms|us|µs|ns|m|s))+$/.test(s)) return undefined;
  let total = 0;
  for (const m of s.matchAll(/(\d+(?:\.\d+)?)(h|ms|us|µs|ns|m|s)/g)) total += Number(m[1]) * UNIT_SECONDS[m[2]];
  return total;
}

/** The part of `vscode.l10n` the wording uses. */
export interface StateL10n {
  t(message: string, ...args: (string | number | boolean)[]): string;
}

/**
 * A task's `failure_type` in words. The OpenAPI lists no values; the sandbox's (and the
 * usual ones) read as a sentence part, anything else as its own words.
 */
export function failureTypeText(l10n: StateL10n, type: string | undefined | null): string | undefined {
  if (!type) return undefined;
  const key = type
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  switch (key) {
    case 'input_error':
    case 'invalid_input':
    case 'user_error':
      return l10n.t('a problem with its inputs');
    case 'block_error':
    case 'model_error':
    case 'runtime_error':
      return l10n.t('the block itself failed');
    case 'timeout':
    case 'deadline_exceeded':
      return l10n.t('it ran out of time');
    case 'oom':
    case 'out_of_memory':
      return l10n.t('it ran out of memory');
    case 'infrastructure':
    case 'system_error':
    case 'internal_error':
      return l10n.t('a failure of the platform, not of the task');
    default:
      return key.replace(/_+/g, ' ').trim();
  }
}

/** "the block failed: out of memory" — a failed task's reason in words. */
export function taskFailureText(l10n: StateL10n, t: { err_msg?: string; failure_type?: string }): string {
  const kind = failureTypeText(l10n, t.failure_type);
  const msg = t.err_msg?.trim();
  if (kind && msg) return l10n.t('{0}: {1}', kind, msg);
  return msg || kind || l10n.t('the service gave no reason');
}

/** A task's block as people read it: "water-extent 0.9.1". */
export function taskBlock(t: { block_info?: { name?: string; version?: string } }): string {
  return [t.block_info?.name, t.block_info?.version].filter(Boolean).join(' ');
}
