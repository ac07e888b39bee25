/**
 * The extension asking the map webview for a clip: one request id per question, progress
 * reported on the way, cancel passed on. A GeoTIFF clip of a file the host decodes comes back
 * as a plan, which this side executes where the bytes arrive (hostClip.ts, reading through the
 * panel's byte server); any other comes back as the bytes the webview encoded. The command
 * writes them (src/commands/imagery). Its messages are the rows of clipMessages.ts; the page's
 * side is media/map/channels/clip.ts.
 */
import * as l10n from '@vscode/l10n';
import type { Handlers, MessageIn } from '../webview/messages';
import { runClipPlan } from './hostClip';
import type { ReadBytesParams, ReadBytesResult } from './protocol';
import type { CLIP_FROM_PAGE, CLIP_TO_PAGE, ClipLayerInfo, ClipPlan, ClipRequest, ClipResult } from './clipMessages';

interface Pending {
  resolve(v: unknown): void;
  reject(e: Error): void;
  onProgress?(done: number, total: number): void;
}

export class ClipCancelled extends Error {
  constructor() {
    super('Cancelled.');
    this.name = 'Canceled';
  }
}

export class ClipChannel {
  private next = 1;
  private readonly pending = new Map<number, Pending>();

  constructor(
    private readonly post: (m: MessageIn<typeof CLIP_TO_PAGE>) => void,
    /** The panel's byte reads (the files the extension put on the map, its byte budget). */
    private readonly read: (p: ReadBytesParams, signal?: AbortSignal) => Promise<ReadBytesResult>,
  ) {}

  info(): Promise<ClipLayerInfo[]> {
    return this.ask<{ layers: ClipLayerInfo[] }>((requestId) => ({ type: 'clipInfo', requestId })).then((r) => r.layers);
  }

  async clip(request: ClipRequest, o: { onProgress?(done: number, total: number): void; signal?: AbortSignal } = {}): Promise<ClipResult> {
    const asked = request.format === 'geotiff' ? { ...request, host: true } : request;
    const r = await this.ask<ClipResult | { plan: ClipPlan }>((requestId) => ({ type: 'clip', requestId, request: asked }), o);
    if (!('plan' in r)) return r;
    const url = r.plan.url;
    try {
      return await runClipPlan(r.plan, async (offset, length, signal) => (await this.read({ url, offset, length }, signal)).bytes, o);
    } catch (e) {
      if (o.signal?.aborted) throw new ClipCancelled();
      throw e;
    }
  }

  private ask<T>(
    make: (id: number) => MessageIn<typeof CLIP_TO_PAGE>,
    o: { onProgress?(done: number, total: number): void; signal?: AbortSignal } = {},
  ): Promise<T> {
    const id = this.next++;
    return new Promise<T>((resolve, reject) => {
      if (o.signal?.aborted) return reject(new ClipCancelled());
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, onProgress: o.onProgress });
      o.signal?.addEventListener(
        'abort',
        () => {
          if (!this.pending.has(id)) return;
          this.post({ type: 'clipCancel', requestId: id });
          this.pending.delete(id);
          reject(new ClipCancelled());
        },
        { once: true },
      );
      this.post(make(id));
    });
  }

  /** One handler per message the page sends (clipMessages.ts, their fields checked). */
  readonly handlers: Handlers<typeof CLIP_FROM_PAGE> = {
    clipReply: (m) => {
      const p = this.pending.get(m.requestId);
      if (!p) return;
      this.pending.delete(m.requestId);
      if (m.ok) p.resolve(m.result);
      else p.reject(m.cancelled ? new ClipCancelled() : new Error(m.error));
    },
    clipProgress: (m) => this.pending.get(m.requestId)?.onProgress?.(m.done, m.total),
  };

  /** The page went away (hidden, or the map closed): nothing pending will be answered. */
  dropAll(why: 'hidden' | 'closed'): void {
    const reason =
      why === 'hidden'
        ? l10n.t('The map was hidden before the clip was ready; show it and save again.')
        : l10n.t('The map was closed before the clip was ready.');
    for (const p of this.pending.values()) p.reject(new Error(reason));
    this.pending.clear();
  }
}
