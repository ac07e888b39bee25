/**
 * A layer's status line: "Loading tiles: n of m" while tiles are drawn, then ready or the last
 * error. The count changes with every tile, so it is written once a frame, not once a tile (a
 * zoom step starts dozens); ready and errors are told at once.
 */

export type LayerStatus = { state: 'opening' } | { state: 'loading'; done: number; total: number } | { state: 'ready' } | { state: 'error'; text: string };

export class LayerProgress {
  pending = 0;
  done = 0;
  lastError: string | undefined;
  private frame: number | undefined;

  constructor(
    private readonly onStatus: (status: LayerStatus) => void,
    private readonly cancelled: () => boolean,
  ) {}

  /** A new round of tiles (Leaflet's `loading`): the count and the last error start over. */
  restart(): void {
    this.done = 0;
    this.lastError = undefined;
  }

  tileStarted(): void {
    this.pending++;
    this.report();
  }

  tileFinished(): void {
    this.pending--;
    this.done++;
    this.report();
  }

  fail(text: string): void {
    this.lastError = text;
    this.report();
  }

  report(): void {
    if (this.cancelled()) return;
    if (this.pending > 0) {
      this.frame ??= requestAnimationFrame(() => {
        this.frame = undefined;
        if (!this.cancelled() && this.pending > 0) this.onStatus({ state: 'loading', done: this.done, total: this.done + this.pending });
      });
      return;
    }
    if (this.frame !== undefined) cancelAnimationFrame(this.frame);
    this.frame = undefined;
    if (this.lastError) this.onStatus({ state: 'error', text: this.lastError });
    else this.onStatus({ state: 'ready' });
  }
}
