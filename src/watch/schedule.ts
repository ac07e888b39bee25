/**
 * When the watcher reads each thing it follows, and how many requests it may make: a wait per
 * thing that doubles while nothing changes (reset when something does), and one request
 * budget (every request counted, retries included) shared by the windows of a profile, so
 * that twenty pending things cost no more than two. Pure: the clock is passed in.
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
 * A service's `Retry-After` (429, 503) holds every read of the watcher: at least `minMs`, so a
 * storm of `Retry-After: 0` is not answered at once, and at most `maxMs`, so a date a year
 * ahead does not stop the watcher for a year.
 */
export const HOLD = { minMs: 3_000, maxMs: 10 * 60_000 } as const;

/** How long the watcher holds its reads after a service asked for `retryAfterMs`. */
export function holdFor(retryAfterMs: number): number {
  return Math.min(HOLD.maxMs, Math.max(HOLD.minMs, Number.isFinite(retryAfterMs) ? retryAfterMs : HOLD.maxMs));
}

/**
 * A sliding one-minute window of the requests made: `take` grants one while fewer than
 * `perMinute` were made in the last 60 s (and no hold is on), and `nextFreeAt` says when the
 * next one may go. A sliding window (not a refilling bucket) keeps the promise for every
 * minute, bursts included. `sent` and `heldUntil` are its whole state, so the windows of a
 * profile can keep one between them (./sharedBudget.ts).
 */
export class RequestBudget {
  private readonly sent: number[];

  constructor(
    private readonly o: BudgetOptions = BUDGET,
    sent: readonly number[] = [],
    private heldUntil = 0,
  ) {
    this.sent = [...sent].sort((a, b) => a - b);
  }

  /** Requests granted in the minute before `now`. */
  used(now: number): number {
    this.forget(now);
    return this.sent.length;
  }

  /** How many requests may go at `now`. */
  free(now: number): number {
    if (now < this.heldUntil) return 0;
    return Math.max(0, this.o.perMinute - this.used(now));
  }

  take(now: number): boolean {
    if (this.free(now) === 0) return false;
    this.sent.push(now);
    return true;
  }

  /** No request before `until` (a service's `Retry-After`); a longer hold already on stays. */
  hold(until: number): void {
    this.heldUntil = Math.max(this.heldUntil, until);
  }

  /** The earliest time at or after `now` when `take` succeeds. */
  nextFreeAt(now: number): number {
    this.forget(now);
    const byCount = this.sent.length < this.o.perMinute ? now : this.sent[this.sent.length - this.o.perMinute] + 60_000;
    return Math.max(byCount, this.heldUntil);
  }

  /** The state to keep: the requests of the last minute, and the hold. */
  state(now: number): { sent: number[]; heldUntil: number } {
    this.forget(now);
    return { sent: [...this.sent], heldUntil: this.heldUntil > now ? this.heldUntil : 0 };
  }

  private forget(now: number): void {
    while (this.sent.length && this.sent[0] <= now - 60_000) this.sent.shift();
  }
}

/**
 * The budget a watcher reads under: every request it causes, retries and pages included, is
 * taken from it (./watcher.ts passes them through a request gate). One window's alone
 * (`MemoryBudget`), or shared by the windows of a profile (./sharedBudget.ts).
 */
export interface WatchBudget {
  /** Grants one request at `now`, or refuses. */
  take(now: number): Promise<boolean>;
  /** How many requests may go at `now`, and when the next may go. */
  peek(now: number): Promise<{ free: number; nextFreeAt: number }>;
  /** No request before `until` (`now`: the caller's clock). */
  hold(until: number, now: number): Promise<void>;
}

/** A budget of one window (tests, benchmarks, and a profile whose storage is not a local folder). */
export class MemoryBudget implements WatchBudget {
  private readonly b: RequestBudget;

  constructor(o: BudgetOptions = BUDGET) {
    this.b = new RequestBudget(o);
  }

  take(now: number): Promise<boolean> {
    return Promise.resolve(this.b.take(now));
  }

  peek(now: number): Promise<{ free: number; nextFreeAt: number }> {
    return Promise.resolve({ free: this.b.free(now), nextFreeAt: this.b.nextFreeAt(now) });
  }

  hold(until: number): Promise<void> {
    this.b.hold(until);
    return Promise.resolve();
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
 * Which of the due groups to read now: the oldest due first, at most `free` of them (a read is
 * one request when nothing fails; things read by one request share it).
 */
export function chooseDue<G extends { due: number }>(groups: readonly G[], now: number, free: number): G[] {
  return groups
    .filter((g) => g.due <= now)
    .sort((a, b) => a.due - b.due)
    .slice(0, Math.max(0, free));
}
