/**
 * Downloads that stopped with bytes kept in their `.part` file (their tries used up, a refusal,
 * Cancel), listed beside what the watcher follows so that Resume stays within reach after the
 * notification that offered it is gone. Held by this window only: the way to go on is the
 * command that started the download, which a reload forgets; started again after a reload, the
 * same download goes on from its kept bytes anyway (src/commands/catalog/partFile.ts).
 */
import vscode = require('vscode');

export interface StoppedDownload {
  readonly id: number;
  /** What was being saved, as the progress notification named it ("the download of Berlin"). */
  readonly what: string;
  /** Bytes kept in the part file. */
  readonly kept: number;
  /** Why it stopped, in words. */
  readonly reason: string;
  /** When it stopped (ms since the epoch). */
  readonly at: number;
  /** Goes on from the last byte, in a progress notification of its own. */
  readonly resume: () => Promise<unknown>;
  /** Deletes the kept bytes. */
  readonly discard: () => Promise<void>;
}

export class StoppedDownloads implements vscode.Disposable {
  private readonly items = new Map<number, StoppedDownload>();
  private nextId = 1;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  add(d: Omit<StoppedDownload, 'id'>): number {
    const id = this.nextId++;
    this.items.set(id, { ...d, id });
    this.changed.fire();
    return id;
  }

  /** Takes one off the list; false when it was not there (resumed or discarded elsewhere already). */
  take(id: number): boolean {
    const had = this.items.delete(id);
    if (had) this.changed.fire();
    return had;
  }

  /** Oldest first. */
  list(): StoppedDownload[] {
    return [...this.items.values()];
  }

  dispose(): void {
    this.changed.dispose();
  }
}
