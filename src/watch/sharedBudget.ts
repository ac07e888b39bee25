/**
 * The watcher's request budget, one for every window of a profile: the requests of the last
 * minute and any hold, kept in a small file in the extension's global storage folder (one
 * per profile, like the followed list), changed only under a lock file that one window at a
 * time can create. Two windows racing for the last request of a minute: one creates the lock,
 * takes it and writes; the other waits for the lock, reads the request taken, and is refused.
 *
 * Not the global state: each window's extension host holds the extension's whole global
 * state as one value and writes all of it back on every update, so two windows writing at
 * once lose one write (and may put back a followed list the other had changed), with no step
 * that reads and writes at once.
 *
 * A lock is held for one read and one write of a file of a few hundred bytes. One left behind
 * by a window that died holding it is removed after `STALE_LOCK_MS` (two windows removing the
 * same stale lock at the same moment could both go on: one request too many, once, after a
 * crash). A take that cannot get the lock within `LOCK_WAIT_MS` is refused (the watcher reads
 * later), never granted blind. A folder that cannot be written leaves each window its own budget.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { isObj } from '../api/shape';
import { BUDGET, HOLD, RequestBudget, type BudgetOptions, type WatchBudget } from './schedule';

const LEDGER = 'watch-requests.json';
const LOCK = 'watch-requests.lock';
const STALE_LOCK_MS = 10_000;
const LOCK_WAIT_MS = 2_000;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export class SharedBudget implements WatchBudget {
  private readonly ledger: string;
  private readonly lock: string;
  /** Used once the folder cannot be (a read-only profile): this window's own budget, still bounded. */
  private alone?: RequestBudget;
  private queue: Promise<unknown> = Promise.resolve();

  /**
   * `dir`: the folder the windows share (the extension's global storage), made when first
   * used; `warn` hears once why the budget is this window's alone from then on.
   */
  constructor(
    private readonly dir: string,
    private readonly o: BudgetOptions = BUDGET,
    private readonly warn: (message: string) => void = () => undefined,
  ) {
    this.ledger = path.join(dir, LEDGER);
    this.lock = path.join(dir, LOCK);
  }

  take(now: number): Promise<boolean> {
    return this.locked(now, (b) => b.take(now), false);
  }

  peek(now: number): Promise<{ free: number; nextFreeAt: number }> {
    return this.locked(now, (b) => ({ free: b.free(now), nextFreeAt: b.nextFreeAt(now) }), { free: 0, nextFreeAt: now + 1_000 }, false);
  }

  async hold(until: number, now: number): Promise<void> {
    await this.locked(now, (b) => b.hold(until), undefined);
  }

  /**
   * Reads the state, runs `f` on it and (`write`) writes it back, under the lock; `busy` when
   * the lock could not be had in time.
   */
  private locked<T>(now: number, f: (b: RequestBudget) => T, busy: T, write = true): Promise<T> {
    // One at a time in this window: the lock file is for the other windows.
    const turn = this.queue.then(() => this.lockedNow(now, f, busy, write));
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  private async lockedNow<T>(now: number, f: (b: RequestBudget) => T, busy: T, write: boolean): Promise<T> {
    if (this.alone) return f(this.alone);
    try {
      await fs.mkdir(this.dir, { recursive: true });
      if (!(await this.acquire())) return busy;
      try {
        const b = await this.read(now);
        const result = f(b);
        if (write) await this.write(b.state(now));
        return result;
      } finally {
        await fs.rm(this.lock, { force: true });
      }
    } catch (e) {
      if (!this.alone) {
        this.warn(`Watcher: the request budget cannot be shared with other windows (${e instanceof Error ? e.message : String(e)}); this window keeps its own`);
        this.alone = new RequestBudget(this.o);
      }
      return f(this.alone);
    }
  }

  private async acquire(): Promise<boolean> {
    const deadline = Date.now() + LOCK_WAIT_MS;
    for (;;) {
      try {
        // 'wx' fails when the file exists: the one atomic step two processes can race on.
        await (await fs.open(this.lock, 'wx')).close();
        return true;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      const age = await fs.stat(this.lock).then(
        (s) => Date.now() - s.mtimeMs,
        () => 0,
      );
      if (age > STALE_LOCK_MS) await fs.rm(this.lock, { force: true });
      else if (Date.now() > deadline) return false;
      else await sleep(5 + Math.random() * 15);
    }
  }

  /** The stored state, read defensively: a missing or damaged file is an unused budget. */
  private async read(now: number): Promise<RequestBudget> {
    let stored: unknown;
    try {
      stored = JSON.parse(await fs.readFile(this.ledger, 'utf8'));
    } catch {
      stored = undefined;
    }
    if (!isObj(stored) || stored.v !== 1) return new RequestBudget(this.o);
    // A time far ahead (a clock set back, a hand-edited file) must not hold the budget for ever.
    const sane = (t: unknown): t is number => typeof t === 'number' && Number.isFinite(t) && t <= now + HOLD.maxMs;
    const sent = Array.isArray(stored.sent) ? stored.sent.filter(sane).slice(-1000) : [];
    return new RequestBudget(this.o, sent, sane(stored.heldUntil) ? stored.heldUntil : 0);
  }

  /** Written beside and renamed over: a window that dies mid-write leaves the last whole state. */
  private async write(state: { sent: number[]; heldUntil: number }): Promise<void> {
    const tmp = `${this.ledger}.${process.pid}.tmp`;
    await fs.writeFile(tmp, JSON.stringify({ v: 1, ...state }));
    await fs.rename(tmp, this.ledger);
  }
}
