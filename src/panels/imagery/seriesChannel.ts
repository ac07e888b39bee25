/**
 * The extension's side of "Chart Index Over Time": starts a series in the map webview, hears
 * each date's point as it arrives, passes a cancel on, asks for the chart as PNG, and keeps
 * the last series (what "Export CSV" writes). The webview plans each date; this side takes
 * the statistics of the dates whose files it decodes (hostStats.ts), the page those of the
 * rest. Its messages are the rows of seriesMessages.ts; the page's side is
 * media/map/channels/series.ts.
 */
import * as l10n from '@vscode/l10n';
import type { Handlers, MessageIn } from '../webview/messages';
import { ByteGate } from './byteGate';
import { runStatsPlan } from './hostStats';
import type { ReadBytesParams, ReadBytesResult } from './protocol';
import type { SERIES_FROM_PAGE, SERIES_TO_PAGE, SeriesPoint, SeriesRequest } from './seriesMessages';

export class SeriesCancelled extends Error {
  constructor() {
    super('Cancelled.');
    this.name = 'Canceled';
  }
}

/** A series as it stands: its request and the points received (undefined: not yet). */
export interface SeriesState {
  request: SeriesRequest;
  points: (SeriesPoint | undefined)[];
  done: boolean;
  cancelled?: boolean;
}

interface Pending {
  state: SeriesState;
  onPoint?(index: number, point: SeriesPoint, state: SeriesState): void;
  resolve(s: SeriesState): void;
  reject(e: Error): void;
}

export class SeriesChannel {
  private next = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly pngs = new Map<number, { resolve(b: Uint8Array): void; reject(e: Error): void }>();
  /** Dates taken at once, as many as the page has in flight (eight), within 256 MB of windows. */
  private readonly windows = new ByteGate(8, 256 * 1024 * 1024);
  /** The statistics being taken for each series (its `requestId`): aborted with it. */
  private readonly taking = new Map<number, Set<AbortController>>();
  /** The series on the map's chart, in the order they were added (one, unless overlaid). */
  chart: SeriesState[] = [];

  /** The last series started on this map (done or not), while the chart is open. */
  get last(): SeriesState | undefined {
    return this.chart.at(-1);
  }

  constructor(
    private readonly post: (m: MessageIn<typeof SERIES_TO_PAGE>) => void,
    /** The person pressed Export CSV or Save PNG on the chart. */
    private readonly onExport: (format: 'csv' | 'png') => void,
    /** The panel's byte reads (the files the extension put on the map, its byte budget). */
    private readonly read: (p: ReadBytesParams, signal?: AbortSignal) => Promise<ReadBytesResult>,
  ) {}

  private stopTaking(requestId: number): void {
    for (const a of this.taking.get(requestId) ?? []) a.abort();
    this.taking.delete(requestId);
  }

  /** A series will be asked for soon (the person is picking its dates): the page loads its imagery code now. */
  prepare(): void {
    this.post({ type: 'seriesPrepare' });
  }

  /**
   * Runs a series; resolves with every point once all dates are done. Aborting cancels the
   * reads. `overlay`: added to the chart beside the series already on it, else replacing them.
   */
  start(request: SeriesRequest, o: { onPoint?: Pending['onPoint']; signal?: AbortSignal; overlay?: boolean } = {}): Promise<SeriesState> {
    const requestId = this.next++;
    const state: SeriesState = { request, points: request.dates.map(() => undefined), done: false };
    this.chart = o.overlay ? [...this.chart, state] : [state];
    return new Promise<SeriesState>((resolve, reject) => {
      if (o.signal?.aborted) return reject(new SeriesCancelled());
      this.pending.set(requestId, { state, onPoint: o.onPoint, resolve, reject });
      o.signal?.addEventListener(
        'abort',
        () => {
          if (!this.pending.has(requestId)) return;
          this.post({ type: 'seriesCancel', requestId });
          this.pending.delete(requestId);
          this.stopTaking(requestId);
          state.done = true;
          state.cancelled = true;
          reject(new SeriesCancelled());
        },
        { once: true },
      );
      this.post({ type: 'seriesStart', requestId, request, host: true, ...(o.overlay ? { overlay: true } : {}) });
    });
  }

  /** The chart as the webview draws it, PNG bytes. */
  png(): Promise<Uint8Array> {
    const requestId = this.next++;
    return new Promise<Uint8Array>((resolve, reject) => {
      this.pngs.set(requestId, { resolve, reject });
      this.post({ type: 'seriesPng', requestId });
    });
  }

  /** One handler per message the page sends (seriesMessages.ts, their fields checked). */
  readonly handlers: Handlers<typeof SERIES_FROM_PAGE> = {
    seriesPoint: (m) => {
      const p = this.pending.get(m.requestId);
      if (!p || m.index < 0 || m.index >= p.state.points.length) return;
      p.state.points[m.index] = m.point;
      p.onPoint?.(m.index, m.point, p.state);
    },
    seriesStats: (m) => {
      // only for a series this side started and still waits for
      if (!this.pending.has(m.requestId)) return;
      const abort = new AbortController();
      const taking = this.taking.get(m.requestId) ?? new Set();
      this.taking.set(m.requestId, taking.add(abort));
      const url = m.plan.url;
      void runStatsPlan(m.plan, async (offset, length, signal) => (await this.read({ url, offset, length }, signal)).bytes, {
        signal: abort.signal,
        windows: this.windows,
      })
        .then(
          (result) => this.post({ type: 'seriesStatsReply', statsId: m.statsId, ok: true, result }),
          (e: unknown) => this.post({ type: 'seriesStatsReply', statsId: m.statsId, ok: false, error: e instanceof Error ? e.message : String(e) }),
        )
        .finally(() => taking.delete(abort));
    },
    seriesDone: (m) => {
      this.stopTaking(m.requestId);
      const p = this.pending.get(m.requestId);
      if (!p) return;
      this.pending.delete(m.requestId);
      p.state.done = true;
      if (m.ok) p.resolve(p.state);
      else if (m.cancelled) {
        p.state.cancelled = true;
        p.reject(new SeriesCancelled());
      } else p.reject(new Error(m.error));
    },
    seriesPngReply: (m) => {
      const p = this.pngs.get(m.requestId);
      this.pngs.delete(m.requestId);
      if (!p) return;
      if (m.ok) p.resolve(m.bytes instanceof Uint8Array ? m.bytes : new Uint8Array(m.bytes));
      else p.reject(new Error(m.error));
    },
    seriesExport: (m) => this.onExport(m.format),
    seriesClosed: () => void (this.chart = []),
  };

  /** The page went away (hidden, or the map closed): nothing pending will be answered. */
  dropAll(why: 'hidden' | 'closed'): void {
    const reason =
      why === 'hidden'
        ? l10n.t('The map was hidden while the chart was being computed; keep it visible and chart again.')
        : l10n.t('The map was closed before the chart was ready.');
    for (const id of [...this.taking.keys()]) this.stopTaking(id);
    for (const p of this.pending.values()) p.reject(new Error(reason));
    for (const p of this.pngs.values()) p.reject(new Error(reason));
    this.pending.clear();
    this.pngs.clear();
  }
}
