/**
 * How many reads one map panel has in flight and how many bytes they may hold: a read waits
 * its turn (first come, first served) until both fit. A read larger than the whole byte
 * budget goes alone, when nothing else is in flight. Waiting ends early when the read is
 * cancelled.
 */
export class ByteGate {
  private active = 0;
  private bytes = 0;
  private readonly queue: { n: number; grant: () => void }[] = [];
  /** The most reads and bytes that were in flight at once. */
  readonly peak = { reads: 0, bytes: 0 };

  constructor(
    readonly maxReads: number,
    readonly maxBytes: number,
  ) {}

  /** Resolves with the function that gives the turn back, once `n` bytes fit. */
  acquire(n: number, signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(aborted());
    return new Promise((resolve, reject) => {
      const entry = {
        n,
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          this.active++;
          this.bytes += n;
          this.peak.reads = Math.max(this.peak.reads, this.active);
          this.peak.bytes = Math.max(this.peak.bytes, this.bytes);
          let given = false;
          resolve(() => {
            if (given) return;
            given = true;
            this.active--;
            this.bytes -= n;
            this.pump();
          });
        },
      };
      const onAbort = () => {
        const i = this.queue.indexOf(entry);
        if (i >= 0) this.queue.splice(i, 1);
        reject(aborted());
        this.pump();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(entry);
      this.pump();
    });
  }

  private pump(): void {
    while (this.queue.length > 0) {
      const head = this.queue[0];
      const fits = this.active < this.maxReads && (this.active === 0 || this.bytes + head.n <= this.maxBytes);
      if (!fits) return;
      this.queue.shift();
      head.grant();
    }
  }
}

function aborted(): Error {
  return Object.assign(new Error('The read was cancelled.'), { name: 'AbortError' });
}
