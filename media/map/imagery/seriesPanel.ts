/**
 * The "index over time" panel at the bottom of the map: progress (n of N dates) with Cancel,
 * the chart as points arrive, the dates that could not be read, and Export CSV / Save PNG
 * (the extension writes the files). Several series may be overlaid (`overlay` on start: other
 * areas or indices), each named in the legend. The extension's messages reach it through
 * media/map/channels/series.ts.
 */
import * as l10n from '@vscode/l10n';
import type * as Leaflet from 'leaflet';
import { button, clear, el } from '../../shared/dom';
import type { SeriesChart } from '../analysis/seriesChart';
import { loadAnalysisChunk } from './analysisLoader';
import type { TimeSlider } from './timeSlider';
import { runSeries, type SeriesDeps } from './series';
import type { FromMapSeriesMessage, SeriesPoint, SeriesRequest } from '../../../src/panels/imagery/seriesMessages';
import { keepEventsInside } from '../toolEvents';
import { dockSlot } from '../frame';
import { HostStatsRequests } from './hostStatsAsk';

/** The chart is drawn at most this often while the dates arrive, ms. */
const REDRAW_EVERY_MS = 250;

export interface SeriesPanelDeps extends SeriesDeps {
  L: typeof Leaflet;
  map: Leaflet.Map;
  timeline: TimeSlider;
  post(m: FromMapSeriesMessage): void;
}

interface Run {
  requestId: number;
  request: SeriesRequest;
  points: (SeriesPoint | undefined)[];
  abort: AbortController;
  done: boolean;
  cancelled?: boolean;
}

export class SeriesPanel {
  readonly root: HTMLElement;
  private readonly title: HTMLElement;
  private readonly status: HTMLElement;
  private readonly cancelButton: HTMLButtonElement;
  private readonly actions: HTMLElement;
  private readonly chartBox: HTMLElement;
  private readonly problems: HTMLElement;
  private chart?: SeriesChart;
  /** The series on the chart, in the order they were added. */
  private runs: Run[] = [];
  /** The run whose dates the time slider holds now. */
  private timelineOf?: number;
  /** A redraw asked for and not yet drawn: cancels its timer or frame. */
  private redrawPending?: () => void;
  /** When the chart was last drawn (performance.now()). */
  private drawnAt = -Infinity;

  /** Dates whose statistics the host takes, waiting for its answer. */
  private readonly hostStats: HostStatsRequests;

  constructor(private readonly deps: SeriesPanelDeps) {
    this.hostStats = new HostStatsRequests((m) => deps.post(m));
    this.title = el('h3', {});
    this.status = el('span', { class: 'status muted', 'aria-live': 'polite' });
    this.cancelButton = button(l10n.t('Cancel'), () => this.cancel(), { class: 'secondary cancel' });
    this.actions = el(
      'div',
      { class: 'actions' },
      button(l10n.t('Export CSV…'), () => deps.post({ type: 'seriesExport', format: 'csv' }), {
        class: 'secondary csv',
        title: l10n.t('Save the series as CSV'),
      }),
      button(l10n.t('Save PNG…'), () => deps.post({ type: 'seriesExport', format: 'png' }), { class: 'secondary png', title: l10n.t('Save the chart as PNG') }),
    );
    this.chartBox = el('div', { class: 'chart' });
    this.problems = el('ul', { class: 'problems' });
    this.root = el(
      'section',
      { class: 'eo-series-panel leaflet-bar', id: 'imagery-series', 'aria-label': l10n.t('Index over time'), hidden: true },
      el(
        'div',
        { class: 'head' },
        this.title,
        this.status,
        this.cancelButton,
        button('✕', () => this.close(), { class: 'icon close', title: l10n.t('Close the chart'), 'aria-label': l10n.t('Close the chart') }),
      ),
      this.chartBox,
      this.actions,
      this.problems,
    );
    dockSlot(deps.map, 'series').append(this.root);
    keepEventsInside(deps.L, this.root);
  }

  /** The points so far of the last series added (tests read them). */
  get points(): (SeriesPoint | undefined)[] {
    return this.runs.at(-1)?.points ?? [];
  }

  get running(): boolean {
    return this.runs.some((r) => !r.done);
  }

  /** The host's answer to a date it was asked for (`seriesStatsReply`). */
  statsReply(m: Parameters<HostStatsRequests['answer']>[0]): void {
    this.hostStats.answer(m);
  }

  /** Stops the run of request `requestId` (the extension's `seriesCancel`). */
  cancelRun(requestId: number): void {
    const run = this.runs.find((r) => r.requestId === requestId);
    if (run && !run.done) run.abort.abort();
  }

  /** The chart as a PNG (for "Save Chart as PNG…"). */
  async png(): Promise<ArrayBuffer> {
    const blob = await new Promise<Blob | null>((resolve) => this.picture().toBlob(resolve, 'image/png'));
    if (!blob) throw new Error(l10n.t('The chart could not be encoded as PNG.'));
    return blob.arrayBuffer();
  }

  /** The chart's title: its one series, or how many are overlaid. */
  private heading(): string {
    const r = this.runs[0]?.request;
    if (!r) return '';
    return this.runs.length === 1 ? l10n.t('{0} over time · {1}', r.index.name, r.title) : l10n.t('Index over time · {0} series', this.runs.length);
  }

  /**
   * Each series' name in the legend: the index when every series covers the same place, the
   * place when every series charts the same index, else both.
   */
  private labels(): string[] {
    const same = (f: (r: Run) => string) => this.runs.every((r) => f(r) === f(this.runs[0]));
    const sameTitle = same((r) => r.request.title);
    const sameIndex = same((r) => r.request.index.name);
    return this.runs.map((r) =>
      this.runs.length === 1 || sameTitle ? r.request.index.name : sameIndex ? r.request.title : l10n.t('{0} · {1}', r.request.index.name, r.request.title),
    );
  }

  private redraw(): void {
    const labels = this.labels();
    this.title.textContent = this.heading();
    this.chart?.set(
      this.runs.map((r, j) => ({
        label: labels[j],
        dates: r.request.dates.map((d) => d.date),
        points: r.points,
        minValidShare: r.request.minValidShare ?? 0.5,
      })),
    );
  }

  /**
   * Redraws on a coming frame, at most every `REDRAW_EVERY_MS` while dates arrive: a drawing
   * of the chart (its band, lines, points and axes) cost the page's thread about 15 ms, and a
   * drawing for each date that came, a third of the page's work in a series of 24 dates; a
   * few drawings a second show the series growing as well. The first date is drawn at once.
   */
  private redrawSoon(): void {
    if (this.redrawPending) return;
    let frame: number | undefined;
    const timer = setTimeout(
      () => {
        frame = requestAnimationFrame(() => {
          this.redrawPending = undefined;
          this.drawnAt = performance.now();
          this.redraw();
        });
      },
      Math.max(0, this.drawnAt + REDRAW_EVERY_MS - performance.now()),
    );
    this.redrawPending = () => {
      clearTimeout(timer);
      if (frame !== undefined) cancelAnimationFrame(frame);
      this.redrawPending = undefined;
    };
  }

  private picture(): HTMLCanvasElement {
    if (!this.chart || !this.runs.length) throw new Error(l10n.t('No chart is open on the map.'));
    // every point received is in the picture, even one whose frame has not come yet
    if (this.redrawPending) {
      this.redrawPending();
      this.redraw();
    }
    return this.chart.picture(this.heading());
  }

  /**
   * Runs a series (the extension's `seriesStart`): each date's point goes back as
   * `seriesPoint` as soon as it is ready, then `seriesDone`. `overlay`: beside the series on the chart.
   */
  async start(requestId: number, request: SeriesRequest, overlay: boolean, host = false): Promise<void> {
    const run: Run = { requestId, request, points: request.dates.map(() => undefined), abort: new AbortController(), done: false };
    if (!overlay || !this.chart) {
      this.cancel();
      this.runs = [];
      clear(this.problems);
    }
    this.runs.push(run);
    this.root.hidden = false;
    this.progress();
    const post = this.deps.post;
    try {
      // the chart's code loads while the first dates are read; the points that came before it are drawn once it is there
      const chartOpen = this.openChart().then(() => this.redraw());
      chartOpen.catch(() => undefined); // awaited below, after the dates
      // `host`: the extension takes the statistics of the dates whose files it decodes
      const deps: SeriesDeps = host ? { ...this.deps, hostStats: (plan, signal) => this.hostStats.ask(requestId, plan, signal) } : this.deps;
      await runSeries(request, deps, run.abort.signal, (i, point) => {
        // a date still finishing after a cancel, or after its chart was replaced, is not reported
        if (!this.runs.includes(run) || run.abort.signal.aborted) return;
        run.points[i] = point;
        post({ type: 'seriesPoint', requestId, index: i, point });
        if (point.error) {
          const where = this.runs.length > 1 ? l10n.t('{0} · {1}', request.title, point.date) : point.date;
          this.problems.append(el('li', {}, l10n.t('{0}: {1}', where, point.error)));
        }
        this.progress();
        this.redrawSoon();
      });
      await chartOpen;
      run.done = true;
      this.progress();
      post({ type: 'seriesDone', requestId, ok: true });
    } catch (e) {
      run.done = true;
      const cancelled = run.abort.signal.aborted || (e as Error)?.name === 'AbortError';
      run.cancelled = cancelled;
      if (this.runs.includes(run)) this.progress();
      post({ type: 'seriesDone', requestId, ok: false, error: (e as Error)?.message || String(e), cancelled });
    }
  }

  /** A series is being asked for: the chart's code loads now, not as its first dates are read. */
  prepare(): void {
    loadAnalysisChunk().catch(() => undefined); // a failure is said when the series opens its chart
  }

  /** The chart, its code loaded on the first series. */
  private async openChart(): Promise<void> {
    if (this.chart) return;
    const charts = await loadAnalysisChunk();
    // two series started at once both waited for the chunk: one chart
    this.chart ??= charts.seriesChart(this.chartBox, {
      // the dock's width (media/map/dock.ts): a wider chart would scroll sideways
      width: Math.round(Math.min(560, Math.max(200, (this.root.parentElement?.clientWidth ?? 336) - 16))),
      onPick: (j, i) => this.runs[j] && this.showDate(this.runs[j], i),
    });
  }

  /** n of N over every series on the chart; the outcome once all are done. */
  private progress(): void {
    if (!this.runs.length) return;
    const cancelled = this.runs.some((r) => r.cancelled);
    const points = this.runs.flatMap((r) => r.points);
    const n = points.filter((p) => p).length;
    const failed = points.filter((p) => p?.error).length;
    const total = points.length;
    const done = this.runs.every((r) => r.done);
    this.status.textContent = cancelled
      ? l10n.t('Cancelled after {0} of {1} dates', n, total)
      : done
        ? failed
          ? l10n.t('{0} dates, {1} could not be read', total, failed)
          : l10n.t('{0} dates', total)
        : l10n.t('{0} of {1} dates', n, total);
    this.cancelButton.hidden = done;
  }

  /** A date picked on the chart: the time slider over the series' dates, on that date. */
  private showDate(run: Run, index: number): void {
    // each date drawn as the charted index, coloured over the range the chart shows
    const known = run.points.filter((p): p is SeriesPoint => p?.p10 !== undefined && p.p90 !== undefined);
    const lo = known.length ? Math.min(...known.map((p) => p.p10 as number)) : -1;
    const hi = known.length ? Math.max(...known.map((p) => p.p90 as number)) : 1;
    const render = {
      kind: 'index' as const,
      expression: run.request.index.expression,
      rescale: (hi > lo ? [lo, hi] : [-1, 1]) as [number, number],
      colormap: 'rdylgn',
      legendTitle: run.request.index.name,
    };
    const frames = run.request.dates.map((d) => ({ spec: { ...d.spec, render }, date: d.date, cloudCover: d.cloudCover }));
    if (this.timelineOf !== run.requestId || !this.deps.timeline.active) {
      this.deps.timeline.start(run.request.title, frames, false);
      this.timelineOf = run.requestId;
    }
    // the slider sorts its frames by date: find the picked one there
    const sorted = [...frames].sort((a, b) => a.date.localeCompare(b.date));
    const k = sorted.findIndex((f) => f === frames[index]);
    if (k >= 0) this.deps.timeline.show(k);
  }

  cancel(): void {
    for (const r of this.runs) if (!r.done) r.abort.abort();
  }

  close(): void {
    this.cancel();
    this.chart?.destroy();
    this.chart = undefined;
    this.runs = [];
    this.root.hidden = true;
    // nothing left to export or to add to
    this.deps.post({ type: 'seriesClosed' });
  }
}
