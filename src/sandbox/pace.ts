/**
 * Long computations of one request (a tile, a thumbnail, a PNG, a streamed file) let the event
 * loop run every few milliseconds: the sandbox can run inside the extension host (Try the
 * Sandbox), where a request that holds the loop freezes the editor.
 */
import { performance } from 'node:perf_hooks';

/** The longest a request computes before letting other work run. */
export const TURN_MS = 8;

/**
 * A function to call between steps of a loop: it returns a promise (await it) when the loop
 * has run for TURN_MS since the last turn, else undefined (no wait).
 */
export function pacer(): () => Promise<void> | undefined {
  let since = performance.now();
  return () => {
    if (performance.now() - since < TURN_MS) return undefined;
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        since = performance.now();
        resolve();
      }),
    );
  };
}
