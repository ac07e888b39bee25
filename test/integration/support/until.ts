// Waiting in integration suites: what the extension does in answer to a command or a webview
// message lands a moment later (a panel opening, a row refreshing, a file written).

/**
 * Resolves with the first value of `probe` that is neither undefined nor false, polling every
 * 100 ms; rejects naming `what` after `ms`.
 */
export async function until<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
