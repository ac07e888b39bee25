/**
 * The extension asking the map webview for a clip: one request id per question, progress
 * reported on the way, cancel passed on. A GeoTIFF clip of a file the host decodes comes back
 * as a plan, which this side executes where the bytes arrive (hostClip.ts, reading through the
 * panel's byte server); any other comes back as the bytes the webview encoded. The command
 * writes them (src/commands/imagery).
 */
import { runClipPlan } from './hostClip';
import type { ReadBytesParams, ReadBytesResult } from './protocol';
import type { ClipLayerInfo, ClipPlan, ClipRequest, ClipResult, FromMapClipMessage, ToMapClipMessage } from './clipMessages';

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
    private readonly post: (m: ToMapClipMessage) => void,
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

  private ask<T>(make: (id: number) => ToMapClipMessage, o: { onProgress?(done: number, total: number): void; signal?: AbortSignal } = {}): Promise<T> {
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

  receive(m: FromMapClipMessage): void {
    const p = this.pending.get(m.requestId);
    if (!p) return;
    if (m.type === 'clipProgress') {
      p.onProgress?.(m.done, m.total);
      return;
    }
    this.pending.delete(m.requestId);
    if (m.ok) p.resolve(m.result);
    else p.reject(m.cancelled ? new ClipCancelled() : new Error(m.error));
  }

  /** The webview went away (closed or reloaded): nothing pending will be answered. */
  dropAll(reason: string): void {
    for (const p of this.pending.values()) p.reject(new Error(reason));
    this.pending.clear();
  }
}
