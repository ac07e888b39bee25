/**
 * The "index over time" panel at the bottom of the map: progress (n of N dates) with Cancel,
 * the chart as points arrive, the dates that could not be read, and Export CSV / Save PNG
 * (the extension writes the files). The extension starts a series with `seriesStart`; each
 * date's point goes back as `seriesPoint` as soon as it is ready, then `seriesDone`.
 */
import * as l10n from '@vscode/l10n';
import type * as Leaflet from 'leaflet';
import type { FromMapSeriesMessage, SeriesPoint, SeriesRequest, ToMapSeriesMessage } from '../../../src/panels/imagery/protocol';
import { button, clear, el } from '../../shared/dom';
import type { SeriesChart } from '../analysis/seriesChart';
import { loadAnalysisChunk } from './analysisLoader';
import type { TimeSlider } from './timeSlider';
import { runSeries, type SeriesDeps } from './series';

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
  private run?: Run;
  /** The run whose dates the time slider holds now. */
  private timelineOf?: number;

  constructor(private readonly deps: SeriesPanelDeps) {
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
    const Box = deps.L.Control.extend({ onAdd: () => this.root });
    new Box({ position: 'bottomleft' }).addTo(deps.map);
    deps.L.DomEvent.disableClickPropagation(this.root);
    deps.L.DomEvent.disableScrollPropagation(this.root);
  }

  /** The points so far of the current series (tests read them). */
  get points(): (SeriesPoint | undefined)[] {
    return this.run?.points ?? [];
  }

  get running(): boolean {
    return !!this.run && !this.run.done;
  }

  async onMessage(m: ToMapSeriesMessage): Promise<void> {
    if (m.type === 'seriesCancel') {
      if (this.run?.requestId === m.requestId) this.cancel();
      return;
    }
    if (m.type === 'seriesPng') {
      try {
        const blob = await new Promise<Blob | null>((resolve) => this.picture().toBlob(resolve, 'image/png'));
        if (!blob) throw new Error(l10n.t('The chart could not be encoded as PNG.'));
        this.deps.post({ type: 'seriesPngReply', requestId: m.requestId, ok: true, bytes: await blob.arrayBuffer() });
      } catch (e) {
        this.deps.post({ type: 'seriesPngReply', requestId: m.requestId, ok: false, error: (e as Error).message || String(e) });
      }
      return;
    }
    await this.start(m.requestId, m.request);
  }

  private heading(r: SeriesRequest): string {
    return l10n.t('{0} over time · {1}', r.index.name, r.title);
  }

  private picture(): HTMLCanvasElement {
    if (!this.chart || !this.run) throw new Error(l10n.t('No chart is open on the map.'));
    return this.chart.picture(this.heading(this.run.request));
  }

  private async start(requestId: number, request: SeriesRequest): Promise<void> {
    this.cancel();
    const run: Run = { requestId, request, points: request.dates.map(() => undefined), abort: new AbortController(), done: false };
    this.run = run;
    this.title.textContent = this.heading(request);
    clear(this.problems);
    this.root.hidden = false;
    this.cancelButton.hidden = false;
    this.progress();
    const post = this.deps.post;
    try {
      const charts = await loadAnalysisChunk();
      this.chart?.destroy();
      this.chart = charts.seriesChart(this.chartBox, {
        // under half the map: the bottom-left cell shares its row with the notices and legends
        // (media/map/frame.ts), and a wider chart squeezed them into a sliver
        width: Math.round(Math.min(560, Math.max(320, this.deps.map.getSize().x * 0.45))),
        label: request.index.name,
        minValidShare: request.minValidShare ?? 0.5,
        onPick: (i) => this.showDate(run, i),
      });
      this.chart.set(
        request.dates.map((d) => d.date),
        run.points,
      );
      await runSeries(request, this.deps, run.abort.signal, (i, point) => {
        // a date still finishing after a cancel is not reported
        if (this.run !== run || run.abort.signal.aborted) return;
        run.points[i] = point;
        post({ type: 'seriesPoint', requestId, index: i, point });
        if (point.error) this.problems.append(el('li', {}, l10n.t('{0}: {1}', point.date, point.error)));
        this.progress();
        this.chart?.set(
          request.dates.map((d) => d.date),
          run.points,
        );
      });
      run.done = true;
      this.progress();
      post({ type: 'seriesDone', requestId, ok: true });
    } catch (e) {
      run.done = true;
      const cancelled = run.abort.signal.aborted || (e as Error)?.name === 'AbortError';
      run.cancelled = cancelled;
      if (this.run === run) this.progress();
      post({ type: 'seriesDone', requestId, ok: false, error: (e as Error)?.message || String(e), cancelled });
    }
  }

  private progress(): void {
    const run = this.run;
    if (!run) return;
    const cancelled = run.cancelled;
    const n = run.points.filter((p) => p).length;
    const failed = run.points.filter((p) => p?.error).length;
    const total = run.request.dates.length;
    this.status.textContent = cancelled
      ? l10n.t('Cancelled after {0} of {1} dates', n, total)
      : run.done
        ? failed
          ? l10n.t('{0} dates, {1} could not be read', total, failed)
          : l10n.t('{0} dates', total)
        : l10n.t('{0} of {1} dates', n, total);
    this.cancelButton.hidden = run.done;
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
    if (this.run && !this.run.done) this.run.abort.abort();
  }

  close(): void {
    this.cancel();
    this.chart?.destroy();
    this.chart = undefined;
    this.root.hidden = true;
  }
}
