/**
 * When the watcher reads each thing it follows, and how many reads it may make: a wait per
 * thing that doubles while nothing changes (reset when something does), and one request
 * budget for the whole window, so that twenty pending things cost no more than two.
 * Pure: the clock is passed in.
 */

export interface BackoffOptions {
  /** First wait, and the wait after a read that saw a change. */
  readonly baseMs: number;
  /** Longest wait between two reads of one thing. */
  readonly maxMs: number;
}

/** Orders take days, downloads seconds: start quick, settle at a few minutes. */
export const BACKOFF: BackoffOptions = { baseMs: 3_000, maxMs: 5 * 60_000 };

/** The wait before read number `unchanged + 1` of a thing whose last `unchanged` reads saw nothing new. */
export function backoffDelay(unchanged: number, o: BackoffOptions = BACKOFF): number {
  const n = Math.max(0, Math.floor(unchanged));
  // 2^n overflows nothing here: past 30 doublings the cap has long been reached.
  return Math.min(o.maxMs, o.baseMs * 2 ** Math.min(n, 30));
}

export interface BudgetOptions {
  /** Requests per minute, at most, over any minute. */
  readonly perMinute: number;
}

/** The README states this figure: the watcher makes at most 20 requests a minute. */
export const BUDGET: BudgetOptions = { perMinute: 20 };

/**
 * A sliding one-minute window of the requests made: `take` grants one while fewer than
 * `perMinute` were made in the last 60 s, and `nextFreeAt` says when the next one may go.
 * A sliding window (not a refilling bucket) keeps the promise for every minute, bursts included.
 */
export class RequestBudget {
  private readonly sent: number[] = [];

  constructor(private readonly o: BudgetOptions = BUDGET) {}

  /** Requests granted in the minute before `now`. */
  used(now: number): number {
    this.forget(now);
    return this.sent.length;
  }

  take(now: number): boolean {
    this.forget(now);
    if (this.sent.length >= this.o.perMinute) return false;
    this.sent.push(now);
    return true;
  }

  /** The earliest time at or after `now` when `take` succeeds. */
  nextFreeAt(now: number): number {
    this.forget(now);
    if (this.sent.length < this.o.perMinute) return now;
    return this.sent[this.sent.length - this.o.perMinute] + 60_000;
  }

  private forget(now: number): void {
    while (this.sent.length && this.sent[0] <= now - 60_000) this.sent.shift();
  }
}

/** One followed thing's place in the schedule. */
export interface Slot {
  /** When it should be read next. */
  due: number;
  /** Reads in a row that saw nothing new. */
  unchanged: number;
}

export function firstSlot(now: number, o: BackoffOptions = BACKOFF): Slot {
  return { due: now + o.baseMs, unchanged: 0 };
}

/** The slot after a read: back to the base wait when it changed, one doubling further when not. */
export function nextSlot(slot: Slot, changed: boolean, now: number, o: BackoffOptions = BACKOFF): Slot {
  const unchanged = changed ? 0 : slot.unchanged + 1;
  return { due: now + backoffDelay(unchanged, o), unchanged };
}

/**
 * Which of the due groups to read now, oldest due first, as far as the budget reaches (one
 * request per group: things read by one request share it). `take` is called once per group chosen.
 */
export function chooseDue<G extends { due: number }>(groups: readonly G[], now: number, budget: RequestBudget): G[] {
  const due = groups.filter((g) => g.due <= now).sort((a, b) => a.due - b.due);
  const chosen: G[] = [];
  for (const g of due) {
    if (!budget.take(now)) break;
    chosen.push(g);
  }
  return chosen;
}
