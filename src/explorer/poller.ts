import vscode = require('vscode');
import { isCancellation } from '../api';
import { LIVE_FOLLOW } from '../api/poll';
import type { Connection } from '../auth/connection';
import { isWatchKind } from '../watch/followed';
import type { WatchRead, Watcher } from '../watch/watcher';
import { isFinalStatus } from './status';
import type { RecordNode } from './tree';

/** Where a polled node lives: the poller asks whether its view is on screen. */
export interface PollHost {
  readonly visible: boolean;
  changed(node: RecordNode): void;
}

export interface PollerOptions {
  /** First wait, and the wait after a read that saw a change. */
  baseMs: number;
  /** Longest wait between reads of one node. */
  maxMs: number;
  /** How often due nodes are looked at. */
  tickMs: number;
}

export const DEFAULT_POLLING: PollerOptions = { ...LIVE_FOLLOW, tickMs: 500 };

interface Entry {
  host: PollHost;
  delay: number;
  due: number;
}

/**
 * Live progress: every node that was rendered in a status that can still change is read
 * again, with a wait that doubles while nothing changes and is reset when something does.
 * Only nodes on screen are read (their view visible, their ancestors expanded); a node whose
 * list was reloaded is dropped; the timer stops when nothing is left to watch.
 *
 * A row of something the watcher follows (src/watch) is not read here: the watcher's one
 * loop reads it within its budget, and its reads update the row.
 */
export class Poller implements vscode.Disposable {
  private readonly entries = new Map<RecordNode, Entry>();
  private timer?: ReturnType<typeof setTimeout>;
  private ticking = false;
  private readonly abort = new AbortController();
  private readonly emitter = new vscode.EventEmitter<RecordNode>();
  /** Fires after a node got a fresher record. */
  readonly onDidUpdate = this.emitter.event;
  /** Reads made, for tests. */
  reads = 0;

  private readonly watched?: vscode.Disposable;

  constructor(
    private readonly connection: Connection,
    private readonly log: vscode.LogOutputChannel,
    readonly options: PollerOptions = DEFAULT_POLLING,
    private readonly watcher?: Pick<Watcher, 'isFollowing' | 'onDidRead'>,
  ) {
    this.watched = watcher?.onDidRead((r) => this.absorb(r));
  }

  get watching(): number {
    return this.entries.size;
  }

  /** Called for every rendered record row. */
  consider(host: PollHost, node: RecordNode): void {
    if (!node.refetch || isFinalStatus(node.status())) {
      this.entries.delete(node);
      return;
    }
    if (!this.entries.has(node)) {
      this.entries.set(node, { host, delay: this.options.baseMs, due: Date.now() + this.options.baseMs });
    }
    this.schedule();
  }

  isWatching(node: RecordNode): boolean {
    return this.entries.has(node);
  }

  dispose(): void {
    this.watched?.dispose();
    this.abort.abort();
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.entries.clear();
    this.emitter.dispose();
  }

  private schedule(): void {
    if (this.timer || this.ticking || this.entries.size === 0 || this.abort.signal.aborted) return;
    this.timer = setTimeout(() => void this.tick(), this.options.tickMs);
  }

  private async tick(): Promise<void> {
    this.timer = undefined;
    this.ticking = true;
    try {
      const now = Date.now();
      const due: [RecordNode, Entry][] = [];
      for (const [node, entry] of this.entries) {
        if (!node.attached) this.entries.delete(node);
        else if (entry.due <= now && entry.host.visible && node.shown && !this.followed(node)) due.push([node, entry]);
      }
      if (due.length === 0) return;
      let client;
      try {
        client = await this.connection.getClient();
      } catch {
        this.entries.clear(); // signed out: the views are reset anyway
        return;
      }
      await Promise.all(due.map(([node, entry]) => this.read(client, node, entry)));
    } finally {
      this.ticking = false;
      this.schedule();
    }
  }

  private async read(client: Parameters<NonNullable<RecordNode['refetch']>>[0], node: RecordNode, entry: Entry): Promise<void> {
    const refetch = node.refetch;
    if (!refetch) return;
    try {
      this.reads++;
      const fresh = await refetch.call(node, client, this.abort.signal);
      if (!node.attached) return;
      const changed = this.apply(node, entry, fresh);
      if (!this.entries.has(node)) return;
      entry.delay = changed ? this.options.baseMs : Math.min(entry.delay * 2, this.options.maxMs);
    } catch (err) {
      if (isCancellation(err)) return;
      this.log.warn(`Live progress: could not read ${node.kind} ${node.recordId}: ${err instanceof Error ? err.message : String(err)}`);
      entry.delay = Math.min(entry.delay * 2, this.options.maxMs);
    }
    entry.due = Date.now() + entry.delay;
  }

  /** A fresher record on the row; a final one ends its live progress. Says whether it changed. */
  private apply(node: RecordNode, entry: Entry, fresh: object): boolean {
    const changed = JSON.stringify(fresh) !== JSON.stringify(node.record);
    if (changed) {
      node.record = fresh;
      node.recordChanged();
      entry.host.changed(node);
      this.emitter.fire(node);
    }
    if (isFinalStatus(node.status())) this.entries.delete(node);
    return changed;
  }

  private followed(node: RecordNode): boolean {
    return this.watcher !== undefined && isWatchKind(node.kind) && this.watcher.isFollowing(node.kind, node.recordId);
  }

  /** The watcher read a record: the rows that show it take it. */
  private absorb(r: WatchRead): void {
    if (typeof r.record !== 'object' || r.record === null) return;
    for (const [node, entry] of this.entries) {
      if (node.kind === r.kind && node.recordId === r.id && node.attached) this.apply(node, entry, r.record);
    }
  }
}
