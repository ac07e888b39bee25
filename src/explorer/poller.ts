import vscode = require('vscode');
import { isCancellation } from '../api';
import { LIVE_FOLLOW } from '../api/poll';
import type { Connection } from '../auth/connection';
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

  constructor(
    private readonly connection: Connection,
    private readonly log: vscode.LogOutputChannel,
    readonly options: PollerOptions = DEFAULT_POLLING,
  ) {}

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
        else if (entry.due <= now && entry.host.visible && node.shown) due.push([node, entry]);
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
      const changed = JSON.stringify(fresh) !== JSON.stringify(node.record);
      if (changed) {
        node.record = fresh;
        node.recordChanged();
        entry.host.changed(node);
        this.emitter.fire(node);
      }
      if (isFinalStatus(node.status())) {
        this.entries.delete(node);
        return;
      }
      entry.delay = changed ? this.options.baseMs : Math.min(entry.delay * 2, this.options.maxMs);
    } catch (err) {
      if (isCancellation(err)) return;
      this.log.warn(`Live progress: could not read ${node.kind} ${node.recordId}: ${err instanceof Error ? err.message : String(err)}`);
      entry.delay = Math.min(entry.delay * 2, this.options.maxMs);
    }
    entry.due = Date.now() + entry.delay;
  }
}
