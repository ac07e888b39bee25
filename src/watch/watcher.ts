/**
 * The one watcher of everything pending: order items not yet fulfilled, deliveries,
 * downloads and insight runs the person started (or saw pending). One loop reads them with a
 * backoff per thing inside one request budget that counts every request the reads cause,
 * retries included, and that the windows of a profile share (./schedule.ts,
 * ./sharedBudget.ts), keeps what it follows in the
 * global state (./followed.ts: kinds and ids, never a token), picks the list up again after a
 * window reload, and stops following each thing when it is final, with one notification that
 * offers the next action (a setting turns them off per kind).
 *
 * Activation builds it and reads the global state (local); the first request goes out only
 * when something is due, a few seconds later at the earliest, and only while signed in.
 */
import vscode = require('vscode');
import { l10n } from 'vscode';
import type { EoClient } from '../api';
import { ApiError, isCancellation, needsSignIn } from '../api/errors';
import { withGate } from '../api/requestGate';
import type { Connection } from '../auth/connection';
import type { Prompts } from '../ui/prompts';
import { runCommand } from '../ui/runCommand';
import { decodeFollowed, encodeFollowed, FOLLOWED_KEY, isFollowableId, onService, refKey, type WatchKind, type WatchRef } from './followed';
import { FOLLOWERS, type Finish, type Hint, type NextAction, type Snapshot } from './followers';
import { StoppedDownloads } from './stoppedDownloads';
import { BACKOFF, chooseDue, firstSlot, holdFor, MemoryBudget, nextSlot, type BackoffOptions, type Slot, type WatchBudget } from './schedule';

/** The settings that turn the finish notifications off, one per kind (package.json). */
export const NOTIFY_SETTINGS: { readonly [K in WatchKind]: string } = {
  orderItem: 'notifications.orderItems',
  delivery: 'notifications.deliveries',
  download: 'notifications.downloads',
  insightRun: 'notifications.insightRuns',
  job: 'notifications.workflowJobs',
};

/** One followed thing as the status bar and the pending list show it. */
export interface Pending {
  readonly ref: WatchRef;
  /** The kind in words. */
  readonly noun: string;
  /** Where it stood at the last read; undefined before the first. */
  readonly snapshot?: Snapshot;
  readonly hint: Hint;
}

/** A record the watcher read: the sidebar shows it on the row it belongs to. */
export interface WatchRead {
  readonly kind: WatchKind;
  readonly id: string;
  readonly record: unknown;
}

export interface WatcherDeps {
  readonly state: vscode.Memento;
  readonly connection: Pick<Connection, 'getClient' | 'onDidChange' | 'baseUrl'>;
  readonly log: Pick<vscode.LogOutputChannel, 'info' | 'warn'>;
  readonly ui: Pick<Prompts, 'message'>;
  readonly backoff?: BackoffOptions;
  /** Every request the watcher causes is taken from it; shared by the windows of a profile (./sharedBudget.ts). Default: this watcher's own. */
  readonly budget?: WatchBudget;
  readonly now?: () => number;
}

interface Entry {
  ref: WatchRef;
  slot: Slot;
  hint: Hint;
  snapshot?: Snapshot;
  /** A command waits for it in the foreground and says the outcome itself. */
  held: boolean;
  /** Failed reads in a row (logged once per streak). */
  failures: number;
}

/** A request the watcher's budget had no room for: not sent. */
class BudgetSpent extends Error {
  constructor() {
    super('the watcher’s request budget is spent for this minute');
  }
}

export class Watcher implements vscode.Disposable {
  private readonly entries = new Map<string, Entry>();
  private readonly budget: WatchBudget;
  /** When the budget said the next request may go (at the last look). */
  private nextFreeAt = 0;
  private readonly backoff: BackoffOptions;
  private readonly now: () => number;
  private timer?: ReturnType<typeof setTimeout>;
  private ticking = false;
  /** Signed out: nothing is read until the connection changes. */
  private paused = false;
  private readonly abort = new AbortController();
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly readEmitter = new vscode.EventEmitter<WatchRead>();
  private readonly subscriptions: vscode.Disposable[] = [];
  /** Fires when what is pending, or where it stands, changed. */
  readonly onDidChange = this.changed.event;
  /** Fires with every record read (the sidebar updates its row from it instead of reading it again). */
  readonly onDidRead = this.readEmitter.event;
  /** Requests made (retries and pages included), for tests and the benchmark. */
  requests = 0;
  /** Downloads that stopped with bytes kept: listed with what is pending, to resume. */
  readonly stopped = new StoppedDownloads();

  constructor(private readonly deps: WatcherDeps) {
    this.budget = deps.budget ?? new MemoryBudget();
    this.backoff = deps.backoff ?? BACKOFF;
    this.now = deps.now ?? Date.now;
    for (const ref of decodeFollowed(deps.state.get(FOLLOWED_KEY), this.now())) this.add(ref, {}, false);
    this.subscriptions.push(
      this.stopped,
      this.stopped.onDidChange(() => this.changed.fire()),
      deps.connection.onDidChange(() => {
        // What is pending is the signed-in service's (here()): another service, or signing
        // out, changes it. A change of state alone redraws the same count, which costs nothing.
        this.changed.fire();
        this.paused = false;
        this.schedule();
      }),
    );
    // After activate() returns: scheduling reads the service URL (the settings) when anything is followed.
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.schedule();
    }, 0);
  }

  /** What is pending now on the service signed in, oldest first. */
  pending(): Pending[] {
    return this.here().map((e) => ({ ref: e.ref, noun: FOLLOWERS[e.ref.kind].noun(), snapshot: e.snapshot, hint: e.hint }));
  }

  /** How many things are pending on the service signed in. */
  get size(): number {
    return this.here().length;
  }

  /** The entries of the service signed in; the others wait, stored, until it is signed in again. */
  private here(): Entry[] {
    if (this.entries.size === 0) return [];
    const service = this.deps.connection.baseUrl;
    return [...this.entries.values()].filter((e) => onService(e.ref, service));
  }

  isFollowing(kind: WatchKind, id: string): boolean {
    return this.entries.has(refKey({ kind, id }));
  }

  /**
   * Follows a thing until it is final. `record`: the caller's copy, shown until the first read. `held`: a command waits for it in the foreground and
   * will say the outcome itself (`release` afterwards); the watcher only takes over when it
   * does not (cancelled, or the window reloaded).
   */
  follow(kind: WatchKind, id: string, options: { parent?: string; hint?: Hint; held?: boolean; record?: unknown } = {}): void {
    if (!isFollowableId(id) || (options.parent !== undefined && !isFollowableId(options.parent))) {
      this.deps.log.warn(`Watcher: not following ${kind} "${id.slice(0, 40)}": not an id`);
      return;
    }
    const key = refKey({ kind, id });
    const known = this.entries.get(key);
    if (known) {
      known.held ||= options.held === true;
      if (options.hint) known.hint = { ...known.hint, ...options.hint };
      if (!known.snapshot && options.record !== undefined) {
        known.snapshot = FOLLOWERS[kind].snapshot(options.record);
        this.changed.fire();
      }
      return;
    }
    const service = this.deps.connection.baseUrl;
    const ref: WatchRef = { kind, id, ...(options.parent ? { parent: options.parent } : {}), ...(service ? { service } : {}), since: this.now() };
    this.add(ref, options.hint ?? {}, options.held === true);
    // The caller's record says where it stands until the first read.
    if (options.record !== undefined) this.entries.get(key)!.snapshot = FOLLOWERS[kind].snapshot(options.record);
    void this.persist({ add: ref });
    this.changed.fire();
    this.schedule();
  }

  /**
   * The foreground command is done with it. `told`: it showed the final outcome, so the
   * watcher stops following without a notification; otherwise the watcher goes on as usual.
   */
  release(kind: WatchKind, id: string, told: boolean): void {
    const key = refKey({ kind, id });
    const e = this.entries.get(key);
    if (!e) return;
    if (told) {
      this.entries.delete(key);
      void this.persist({ remove: key });
      this.changed.fire();
      return;
    }
    e.held = false;
    e.slot = { ...e.slot, due: Math.min(e.slot.due, this.now()) };
    this.schedule();
  }

  /** Stops following one thing (the pending list's "Stop Following"). */
  unfollow(kind: WatchKind, id: string): void {
    this.release(kind, id, true);
  }

  /** Reads everything due now or later at once, as far as the budget allows ("Check Now"). */
  checkNow(): void {
    const now = this.now();
    for (const e of this.here()) e.slot = { ...e.slot, due: Math.min(e.slot.due, now) };
    this.paused = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.schedule(0);
  }

  dispose(): void {
    this.abort.abort();
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    for (const d of this.subscriptions.splice(0)) d.dispose();
    this.changed.dispose();
    this.readEmitter.dispose();
  }

  private add(ref: WatchRef, hint: Hint, held: boolean): void {
    this.entries.set(refKey(ref), { ref, slot: firstSlot(this.now(), this.backoff), hint, held, failures: 0 });
  }

  /**
   * One change to the stored list as it is now: another window may have added to it since this
   * one last read it, and writing this window's copy back would drop what it added (its
   * followed job never announced, or a finish said twice).
   */
  private persist(change: { add: WatchRef } | { remove: string }): Thenable<void> {
    const stored = decodeFollowed(this.deps.state.get(FOLLOWED_KEY), this.now());
    const next =
      'add' in change
        ? stored.some((r) => refKey(r) === refKey(change.add))
          ? stored
          : [...stored, change.add]
        : stored.filter((r) => refKey(r) !== change.remove);
    return this.deps.state.update(FOLLOWED_KEY, encodeFollowed(next));
  }

  /**
   * Things another window added to the stored list are followed here too; things it finished
   * (gone from the list) are dropped, so each finish is announced by one window only.
   */
  private mergeStored(): void {
    const stored = decodeFollowed(this.deps.state.get(FOLLOWED_KEY), this.now());
    const keys = new Set(stored.map(refKey));
    let changed = false;
    for (const [key, e] of this.entries) {
      if (!keys.has(key) && !e.held) {
        this.entries.delete(key);
        changed = true;
      }
    }
    for (const ref of stored) {
      if (!this.entries.has(refKey(ref))) {
        this.add(ref, {}, false);
        changed = true;
      }
    }
    if (changed) this.changed.fire();
  }

  private schedule(delayMs?: number): void {
    if (this.timer || this.ticking || this.paused || this.abort.signal.aborted) return;
    const here = this.here();
    if (here.length === 0) return;
    const now = this.now();
    const firstDue = Math.min(...here.map((e) => e.slot.due));
    const at = Math.max(firstDue, this.nextFreeAt);
    const wait = delayMs ?? Math.max(250, at - now);
    this.timer = setTimeout(() => void this.tick(), wait);
  }

  private async tick(): Promise<void> {
    this.timer = undefined;
    this.ticking = true;
    try {
      this.mergeStored();
      const now = this.now();
      const groups = new Map<string, { due: number; entries: Entry[] }>();
      for (const e of this.here()) {
        const key = FOLLOWERS[e.ref.kind].shareKey(e.ref);
        const g = groups.get(key) ?? { due: Infinity, entries: [] };
        g.due = Math.min(g.due, e.slot.due);
        g.entries.push(e);
        groups.set(key, g);
      }
      if (![...groups.values()].some((g) => g.due <= now)) return;
      const { free, nextFreeAt } = await this.budget.peek(now);
      this.nextFreeAt = nextFreeAt;
      const chosen = chooseDue([...groups.values()], now, free);
      if (chosen.length === 0) return;
      let client: EoClient;
      try {
        client = await this.deps.connection.getClient();
      } catch {
        // Signed out: keep the list, read again when the connection changes.
        this.paused = true;
        return;
      }
      await Promise.all(chosen.map((g) => this.readGroup(client, g.entries)));
      this.nextFreeAt = (await this.budget.peek(this.now())).nextFreeAt;
    } finally {
      this.ticking = false;
      this.schedule();
    }
  }

  /**
   * Runs a read with every request it causes (its retries and pages too) taken from the
   * budget; a request the budget refuses is not sent (`BudgetSpent` when it was the first).
   */
  private async counted<T>(read: () => Promise<T>): Promise<T> {
    let reading = true;
    const gate = {
      beforeRequest: async (): Promise<void> => {
        // A continuation that outlives the read is not the watcher's.
        if (!reading || this.abort.signal.aborted) return;
        if (!(await this.budget.take(this.now()))) throw new BudgetSpent();
        this.requests++;
      },
    };
    try {
      return await withGate(gate, read);
    } finally {
      reading = false;
    }
  }

  private async readGroup(client: EoClient, group: Entry[]): Promise<void> {
    const follower = FOLLOWERS[group[0].ref.kind];
    const refs = group.map((e) => e.ref);
    let records: Map<string, unknown>;
    try {
      records = await this.counted(() => follower.read(client, refs, this.abort.signal));
    } catch (err) {
      // Not sent: still due, read when the budget has room again.
      if (err instanceof BudgetSpent || isCancellation(err)) return;
      if (needsSignIn(err)) {
        this.paused = true;
        return;
      }
      if (err instanceof ApiError && err.status === 404 && group.length === 1) {
        records = new Map();
      } else {
        if (err instanceof ApiError && err.retryAfterMs !== undefined) {
          // The service asked for a pause (429, 503): no window reads before it is over.
          const now = this.now();
          const until = now + holdFor(err.retryAfterMs);
          await this.budget.hold(until, now);
          this.nextFreeAt = Math.max(this.nextFreeAt, until);
        }
        for (const e of group) {
          if (e.failures++ === 0) this.deps.log.warn(`Watcher: could not read ${e.ref.kind} ${e.ref.id}: ${err instanceof Error ? err.message : String(err)}`);
          e.slot = nextSlot(e.slot, false, this.now(), this.backoff);
        }
        return;
      }
    }
    let changed = false;
    for (const e of group) {
      if (!this.entries.has(refKey(e.ref))) continue;
      const record = records.get(e.ref.id);
      if (record === undefined) {
        this.gone(e);
        changed = true;
        continue;
      }
      e.failures = 0;
      this.readEmitter.fire({ kind: e.ref.kind, id: e.ref.id, record });
      const snap = follower.snapshot(record);
      const moved = JSON.stringify(snap) !== JSON.stringify(e.snapshot);
      e.snapshot = snap;
      changed ||= moved;
      e.slot = nextSlot(e.slot, moved, this.now(), this.backoff);
      if (snap.outcome !== 'pending' && !e.held) await this.finish(e, follower.finish(record, snap, e.ref, e.hint));
    }
    if (changed) this.changed.fire();
  }

  /** The service no longer has it: stop, and say so when a name is known. */
  private gone(e: Entry): void {
    this.entries.delete(refKey(e.ref));
    void this.persist({ remove: refKey(e.ref) });
    this.deps.log.info(`Watcher: ${e.ref.kind} ${e.ref.id} is no longer on the service; stopped following it`);
    if (e.snapshot && this.notifies(e.ref.kind))
      void this.deps.ui.message(
        'warning',
        l10n.t('{0} {1} is no longer on the service; it is no longer followed.', FOLLOWERS[e.ref.kind].noun(), e.snapshot.name),
        {},
      );
  }

  /**
   * Final: drop it from the stored list first. Only the window that still found it there
   * announces it, so a second window (or a watcher resumed after a reload) stays quiet.
   */
  private async finish(e: Entry, f: Finish): Promise<void> {
    const key = refKey(e.ref);
    this.entries.delete(key);
    const stored = decodeFollowed(this.deps.state.get(FOLLOWED_KEY), this.now());
    const ours = stored.some((r) => refKey(r) === key);
    await this.persist({ remove: key });
    this.changed.fire();
    this.deps.log.info(`Watcher: ${e.ref.kind} ${e.ref.id} is ${e.snapshot?.words ?? 'final'}; stopped following it`);
    if (!ours || !this.notifies(e.ref.kind)) return;
    void this.announce(f);
  }

  private notifies(kind: WatchKind): boolean {
    return vscode.workspace.getConfiguration('eoImagery').get<boolean>(NOTIFY_SETTINGS[kind], true) !== false;
  }

  private async announce(f: Finish): Promise<void> {
    const choice = await this.deps.ui.message(f.severity, f.text, {}, ...f.actions.map((a) => a.title));
    const action = f.actions.find((a) => a.title === choice);
    if (action) await run(action);
  }
}

/** Runs a notification's next action: the command with its arguments. */
function run(a: NextAction): Thenable<unknown> {
  return (runCommand as (name: NextAction['command'], ...args: unknown[]) => Thenable<unknown>)(a.command, ...a.args);
}
