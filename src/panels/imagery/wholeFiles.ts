/**
 * Whole files from servers that ignore `Range`: kept within a byte budget (least recently
 * read dropped first), and downloaded once per URL however many reads wait for one.
 */

/** A least-recently-used map of files whose sizes add up to at most `budget` bytes. */
export class WholeFileCache {
  private readonly files = new Map<string, Buffer>();
  private total = 0;

  constructor(readonly budget: number) {}

  get bytes(): number {
    return this.total;
  }

  get(url: string): Buffer | undefined {
    const hit = this.files.get(url);
    if (hit) {
      this.files.delete(url);
      this.files.set(url, hit);
    }
    return hit;
  }

  put(url: string, file: Buffer): void {
    this.drop(url);
    if (file.byteLength > this.budget) return;
    for (const [k] of this.files) {
      if (this.total + file.byteLength <= this.budget) break;
      this.drop(k);
    }
    this.files.set(url, file);
    this.total += file.byteLength;
  }

  private drop(url: string): void {
    const old = this.files.get(url);
    if (!old) return;
    this.files.delete(url);
    this.total -= old.byteLength;
  }
}

/**
 * One download shared by every read that waits for it. A read that is cancelled stops
 * waiting; the download itself is cancelled when no read waits for it any more.
 */
export class SharedDownload<T> {
  private readonly abort = new AbortController();
  private waiting = 0;
  private settled = false;
  readonly done: Promise<T>;

  constructor(run: (signal: AbortSignal) => Promise<T>) {
    this.done = run(this.abort.signal);
    // a download nobody waits for any more must not become an unhandled rejection
    this.done.then(
      () => (this.settled = true),
      () => (this.settled = true),
    );
  }

  /** Cancelled because every read stopped waiting: a new read needs a new download. */
  get abandoned(): boolean {
    return this.abort.signal.aborted;
  }

  async join(signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) throw cancelled();
    this.waiting++;
    let onAbort: (() => void) | undefined;
    try {
      return await Promise.race([
        this.done,
        new Promise<never>((_, reject) => {
          onAbort = () => reject(cancelled());
          signal?.addEventListener('abort', onAbort, { once: true });
        }),
      ]);
    } finally {
      if (onAbort) signal?.removeEventListener('abort', onAbort);
      if (--this.waiting === 0 && !this.settled) this.abort.abort();
    }
  }
}

function cancelled(): Error {
  return Object.assign(new Error('The read was cancelled.'), { name: 'AbortError' });
}
