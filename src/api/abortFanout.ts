/**
 * One listener per caller signal, however many requests share it. A view or the progress
 * poller passes one AbortSignal to dozens of concurrent requests; handing it to undici as is
 * adds an `abort` listener per request (Node warns past 10, and a long-lived signal keeps
 * every listener until it fires). Each request gets its own controller instead, and the
 * caller's signal carries a single listener that aborts whichever requests are in flight.
 */
interface Fanout {
  readonly children: Set<AbortController>;
  readonly onAbort: () => void;
}

const fanouts = new WeakMap<AbortSignal, Fanout>();

export interface LinkedSignal {
  readonly signal: AbortSignal;
  /** Aborts this request only (e.g. its own deadline passed). */
  abort(reason?: unknown): void;
  /** The request is over: forget it (and drop the caller's listener when it was the last). */
  release(): void;
}

export function linkSignal(parent: AbortSignal | undefined): LinkedSignal {
  const own = new AbortController();
  if (!parent) return { signal: own.signal, abort: (r) => own.abort(r), release: () => undefined };
  if (parent.aborted) {
    own.abort(parent.reason);
    return { signal: own.signal, abort: () => undefined, release: () => undefined };
  }
  let fanout = fanouts.get(parent);
  if (!fanout) {
    const children = new Set<AbortController>();
    const created: Fanout = {
      children,
      onAbort: () => {
        fanouts.delete(parent);
        for (const c of children) c.abort(parent.reason);
        children.clear();
      },
    };
    fanout = created;
    fanouts.set(parent, created);
    parent.addEventListener('abort', created.onAbort, { once: true });
  }
  const f = fanout;
  f.children.add(own);
  let released = false;
  return {
    signal: own.signal,
    abort: (reason) => own.abort(reason),
    release: () => {
      if (released) return;
      released = true;
      f.children.delete(own);
      if (f.children.size === 0 && fanouts.get(parent) === f) {
        fanouts.delete(parent);
        parent.removeEventListener('abort', f.onAbort);
      }
    },
  };
}
