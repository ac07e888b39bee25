/**
 * What the map page's channels (Save View, Chart Index Over Time, Export Timelapse) need of the
 * page: the imagery tools, which live in the imagery chunk (loaded on first use), and a way to
 * answer the extension. Each channel's handlers (one per row of its table, in
 * src/panels/imagery/*Messages.ts) are spread into the page's one dispatcher (app.ts).
 */
import type { FromMapMessage } from '../../../src/panels/mapMessages';
import type { ImageryTools } from '../imagery/tools';

export interface ChannelPage {
  /** The imagery tools, the chunk loaded first if need be; rejects when it cannot load. */
  tools(): Promise<ImageryTools>;
  /** Whether imagery was ever asked for: if not, there is no layer or slider, and no reason to load the chunk. */
  imageryAsked(): boolean;
  /** `transfer`: buffers handed over rather than copied (a saved clip's tens of MB). */
  post(m: FromMapMessage, transfer?: ArrayBuffer[]): void;
}

/** A failed reply's fields: the error in words, and whether the person cancelled it. */
export function failure(e: unknown, abort?: AbortController): { ok: false; error: string; cancelled: boolean } {
  const err = e as Error;
  return { ok: false, error: err?.message || String(e), cancelled: abort?.signal.aborted === true || err?.name === 'AbortError' };
}

/** The requests a channel is answering, by id, so that a cancel aborts its own. */
export class Running {
  private readonly aborts = new Map<number, AbortController>();

  /** Runs `work` for request `id`; its signal aborts on `cancel(id)`. */
  async run<T>(id: number, work: (abort: AbortController) => Promise<T>): Promise<T> {
    const abort = new AbortController();
    this.aborts.set(id, abort);
    try {
      return await work(abort);
    } finally {
      this.aborts.delete(id);
    }
  }

  cancel(id: number): void {
    this.aborts.get(id)?.abort();
  }
}
