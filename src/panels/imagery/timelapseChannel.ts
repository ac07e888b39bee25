/**
 * The extension asking the map webview for a timelapse: what its time slider shows
 * (`timelapseSource`), then the frames drawn and encoded there (`timelapse`, with
 * `timelapseProgress` per date and `timelapseCancel`). The webview reads and paints; this side
 * only waits for the bytes (written by src/commands/imagery/timelapse.ts). Its messages are the
 * rows of timelapseMessages.ts; the page's side is media/map/channels/timelapse.ts.
 */
import * as l10n from '@vscode/l10n';
import type { Handlers, MessageIn } from '../webview/messages';
import type { TIMELAPSE_FROM_PAGE, TIMELAPSE_TO_PAGE, TimelapseRequest, TimelapseResult, TimelapseSource } from './timelapseMessages';

export class TimelapseCancelled extends Error {
  constructor() {
    super('Cancelled.');
    this.name = 'Canceled';
  }
}

interface Pending {
  resolve(v: unknown): void;
  reject(e: Error): void;
  onProgress?(done: number, total: number, date: string): void;
}

export class TimelapseChannel {
  private next = 1;
  private readonly pending = new Map<number, Pending>();

  /**
   * @param post sends to the webview
   * @param onExport the time slider's "Export Timelapse…" button was pressed
   */
  constructor(
    private readonly post: (m: MessageIn<typeof TIMELAPSE_TO_PAGE>) => void,
    private readonly onExport: () => void,
  ) {}

  /** One handler per message the page sends (timelapseMessages.ts, their fields checked). */
  readonly handlers: Handlers<typeof TIMELAPSE_FROM_PAGE> = {
    timelapseReply: (m) => {
      const p = this.pending.get(m.requestId);
      if (!p) return;
      this.pending.delete(m.requestId);
      if (m.ok) p.resolve(m.result);
      else p.reject(m.cancelled ? new TimelapseCancelled() : new Error(m.error));
    },
    timelapseProgress: (m) => this.pending.get(m.requestId)?.onProgress?.(m.done, m.total, m.date),
    exportTimelapse: () => this.onExport(),
  };

  /** The time slider's title and dates, or undefined when no slider is open. */
  source(): Promise<TimelapseSource | undefined> {
    return this.ask<{ source?: TimelapseSource }>((requestId) => ({ type: 'timelapseSource', requestId })).then((r) => r.source);
  }

  render(request: TimelapseRequest, o: { onProgress?(done: number, total: number, date: string): void; signal?: AbortSignal } = {}): Promise<TimelapseResult> {
    return this.ask<TimelapseResult>((requestId) => ({ type: 'timelapse', requestId, request }), o);
  }

  /** The page went away (hidden, or the map closed): nothing pending will be answered. */
  dropAll(why: 'hidden' | 'closed'): void {
    const reason =
      why === 'hidden'
        ? l10n.t('The map was hidden while the timelapse was being drawn; keep it visible and export again.')
        : l10n.t('The map was closed before the timelapse was ready.');
    for (const p of this.pending.values()) p.reject(new Error(reason));
    this.pending.clear();
  }

  private ask<T>(make: (id: number) => MessageIn<typeof TIMELAPSE_TO_PAGE>, o: { onProgress?: Pending['onProgress']; signal?: AbortSignal } = {}): Promise<T> {
    const id = this.next++;
    return new Promise<T>((resolve, reject) => {
      if (o.signal?.aborted) return reject(new TimelapseCancelled());
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, onProgress: o.onProgress });
      o.signal?.addEventListener(
        'abort',
        () => {
          if (!this.pending.delete(id)) return;
          // the webview stops reading and encoding; its late reply finds nothing pending
          this.post({ type: 'timelapseCancel', requestId: id });
          reject(new TimelapseCancelled());
        },
        { once: true },
      );
      this.post(make(id));
    });
  }
}
