/**
 * A caller's say over every HTTP request its work causes: the first attempt, each retry, each
 * page of a listing and the reads a helper makes several calls down. The watcher counts them
 * against its budget, and opening a shared view against the view's; both refuse once it is
 * spent. The gate rides along the work's async calls (Node's AsyncLocalStorage), so the
 * methods of the client need no extra parameter and none can be forgotten.
 *
 * Scope a gate to reads only: a timer or a poller started inside `withGate` would carry it for
 * its whole life (the callers end their gate's say when the work returns, see `closed`).
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** One HTTP request about to go out. */
export interface GatedRequest {
  readonly method: string;
  /** The path below the base URL with its query, or a file's absolute URL (query cut). */
  readonly path: string;
  /** 1 for the first try, 2 for the first retry, … */
  readonly attempt: number;
}

export interface RequestGate {
  /**
   * Called before each request made inside `withGate`; throws (or rejects) to send nothing.
   * A refused first attempt ends the call with the gate's error; a refused retry ends it with
   * the error that asked for the retry (what the service answered).
   */
  beforeRequest(request: GatedRequest): void | Promise<void>;
}

const current = new AsyncLocalStorage<RequestGate>();

/** Runs `work` with every request it causes passed through `gate` (and any gate already around it). */
export function withGate<T>(gate: RequestGate, work: () => Promise<T>): Promise<T> {
  const outer = current.getStore();
  const both: RequestGate = outer
    ? {
        async beforeRequest(r) {
          await outer.beforeRequest(r);
          await gate.beforeRequest(r);
        },
      }
    : gate;
  return current.run(both, work);
}

/** Asks the gate around the current work, if any, whether `request` may go. */
export async function passGate(request: GatedRequest): Promise<void> {
  await current.getStore()?.beforeRequest(request);
}
