/**
 * A download's body taken as it comes, ahead of the disk: chunks queue here (up to `ahead`
 * bytes, then the socket waits) and the writer takes them in batches of a few MiB, one write
 * at a time. The socket keeps flowing while a write is in flight: a stream pipeline that paused
 * the socket whenever the file was 1 MiB behind was a seventh slower on a new connection and a
 * third slower on a kept one (docs/benchmarks.md).
 * A drop is told after the bytes that came before it (`cut`), never as a clean end, so that
 * what had arrived is written and kept for the resume. Pure Node: no `vscode`.
 */
import type { Readable } from 'node:stream';

const AHEAD = 16 << 20;

export class HeldBody {
  private readonly chunks: Buffer[] = [];
  private queued = 0;
  private ended = false;
  private error: Error | undefined;
  private wake: (() => void) | undefined;

  constructor(
    private readonly body: Readable,
    private readonly ahead = AHEAD,
  ) {
    body.on('data', (chunk: Buffer) => {
      this.chunks.push(chunk);
      this.queued += chunk.length;
      if (this.queued >= this.ahead) body.pause();
      this.notify();
    });
    body.once('end', () => this.finish());
    body.once('error', (err) => this.finish(err));
    // Given up on (Cancel, a failed check) while still coming: the connection goes too.
    body.once('close', () => this.finish());
  }

  /** Why the connection dropped before the body's end, once it has; after the bytes that came before. */
  cut(): Error | undefined {
    return this.error;
  }

  /** Gives the body up (and its connection); bytes not yet taken are dropped. */
  destroy(err?: Error): void {
    this.chunks.length = 0;
    this.queued = 0;
    this.body.destroy(err);
    this.finish(err);
  }

  /** The next chunks, at most about `max` bytes together; none once the body has ended or dropped. */
  async next(max: number): Promise<Buffer[]> {
    while (this.chunks.length === 0 && !this.ended) await new Promise<void>((resolve) => (this.wake = resolve));
    const batch: Buffer[] = [];
    let bytes = 0;
    while (this.chunks.length > 0 && bytes < max) {
      const chunk = this.chunks.shift() as Buffer;
      batch.push(chunk);
      bytes += chunk.length;
    }
    this.queued -= bytes;
    if (!this.ended && this.body.isPaused() && this.queued < this.ahead / 2) this.body.resume();
    return batch;
  }

  private finish(err?: Error): void {
    if (err && !this.error) this.error = err;
    this.ended = true;
    this.notify();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
