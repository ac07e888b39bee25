/**
 * Runs `load` once, in a timer `afterMs` from now or at the first `get()` if that comes sooner.
 *
 * Why main.js loads the bundle in a timer rather than as VS Code requires it: in the same task,
 * the extension host asks the workbench for the extension's storage (the context activate()
 * is given), and it sends that request from a timer of its own, after the require returns
 * (code-server also compresses it on the thread pool before it leaves). A bundle compiled and
 * run inside the require holds the request back until it is done, so the round trip starts
 * after it. Loaded a little later, compiling and running the bundle overlap the round trip;
 * when the context comes first, activate() loads it then, as before.
 */
export interface LoadSoon<T> {
  /** The loaded value, loading it now if the timer has not; throws what loading threw. */
  get(): T;
  /** Drops the timer (nothing loads unless `get()` is called). */
  cancel(): void;
  /** Whether `load` has run (by the timer or by `get()`). */
  readonly loaded: boolean;
}

export function loadSoon<T>(load: () => T, afterMs: number): LoadSoon<T> {
  let outcome: { value: T } | { error: unknown } | undefined;
  const run = (): { value: T } | { error: unknown } => {
    if (!outcome) {
      try {
        outcome = { value: load() };
      } catch (error) {
        // Kept for get(): in the timer it would be an uncaught exception, not a failed activation.
        outcome = { error };
      }
    }
    return outcome;
  };
  let timer: ReturnType<typeof setTimeout> | undefined = setTimeout(() => {
    timer = undefined;
    run();
  }, afterMs);
  const cancel = (): void => {
    if (timer) clearTimeout(timer);
    timer = undefined;
  };
  return {
    get: () => {
      cancel();
      const done = run();
      if ('error' in done) throw done.error;
      return done.value;
    },
    cancel,
    get loaded() {
      return outcome !== undefined;
    },
  };
}
