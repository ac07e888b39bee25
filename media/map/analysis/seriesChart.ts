/**
 * An index over time: the median per date as a line, the 10–90 % range as a band around it,
 * dates with too few valid pixels as hollow points, dates that could not be read as marks
 * along the bottom. The readout under the chart names the date under the cursor (median,
 * range, mean, valid share); the arrow keys move between dates, Enter (or a click) shows
 * that date on the map.
 */
import * as l10n from '@vscode/l10n';
import uPlot from 'uplot';
import { dateTicks } from './dateTicks';
import { themeColour } from './spectralChart';
import type { SeriesPoint } from '../../../src/panels/imagery/seriesMessages';

export interface SeriesChartOptions {
  width: number;
  /** The person picked a date (click, Enter): the series and the date's index in its dates. */
  onPick(series: number, index: number): void;
}

/** One series on the chart: its name in the legend, its dates (request order) and points so far. */
export interface ChartSeries {
  label: string;
  dates: string[];
  points: (SeriesPoint | undefined)[];
  /** A date's share of valid pixels below this draws it hollow. */
  minValidShare: number;
}

export interface SeriesChart {
  readonly root: HTMLElement;
  /** The series to draw (several overlaid, each in its own colour), as they stand. */
  set(series: ChartSeries[]): void;
  /** The chart drawn on a canvas with a background and title, for "Save PNG". */
  picture(title: string): HTMLCanvasElement;
  destroy(): void;
}

/**
 * The series on one time axis: every date of every series once, oldest first (a series with
 * two scenes on one day gets both, an hour apart), and for each series its point's index
 * at each place (undefined where it has no date there). Pure.
 */
export function alignSeries(series: readonly { dates: readonly string[] }[]): { xs: number[]; dates: string[]; at: (number | undefined)[][] } {
  const keys = new Map<string, { x: number; date: string }>();
  const keyOf = series.map((s) => {
    const seen = new Map<string, number>();
    return s.dates.map((d) => {
      const j = seen.get(d) ?? 0;
      seen.set(d, j + 1);
      const key = `${d}#${j}`;
      if (!keys.has(key)) keys.set(key, { x: Date.parse(`${d}T00:00:00Z`) / 1000 + j * 3600, date: d });
      return key;
    });
  });
  const order = [...keys.entries()].sort((a, b) => a[1].x - b[1].x);
  const place = new Map(order.map(([k], i) => [k, i]));
  const at = series.map((_, k) => {
    const row: (number | undefined)[] = order.map(() => undefined);
    keyOf[k].forEach((key, i) => (row[place.get(key) as number] = i));
    return row;
  });
  return { xs: order.map(([, v]) => v.x), dates: order.map(([, v]) => v.date), at };
}

function css(name: string, fallback: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

function num(v: number | undefined): string {
  return v === undefined ? '–' : v.toFixed(3);
}

/** The sentence the readout shows for one date. */
export function describePoint(p: SeriesPoint | undefined, date: string, label: string): string {
  if (!p) return l10n.t('{0}: not read yet', date);
  if (p.error) return l10n.t('{0}: {1}', date, p.error);
  if (p.value !== undefined && p.pixels === 1) {
    return p.valid
      ? l10n.t('{0}: {1} {2} at the pixel{3}', date, label, num(p.value), p.overCloudLimit ? l10n.t(', above the cloud limit') : '')
      : l10n.t('{0}: {1} {2} at the pixel, not valid ({3})', date, label, num(p.value), p.cloudyPixels ? l10n.t('cloud') : l10n.t('no data'));
  }
  const share = Math.round(p.validShare * 100);
  if (p.median === undefined) return l10n.t('{0}: no valid pixels ({1} % valid)', date, share);
  return l10n.t(
    '{0}: {1} median {2} (10–90 %: {3} to {4}), mean {5}, {6} % of {7} pixels valid{8}',
    date,
    label,
    num(p.median),
    num(p.p10),
    num(p.p90),
    num(p.mean),
    share,
    p.pixels,
    p.overCloudLimit ? l10n.t(', above the cloud limit') : '',
  );
}

export function seriesChart(host: HTMLElement, o: SeriesChartOptions): SeriesChart {
  const root = document.createElement('div');
  root.className = 'eo-series-chart';
  root.tabIndex = 0;
  root.setAttribute('role', 'group');
  const plotBox = document.createElement('div');
  const readout = document.createElement('div');
  readout.className = 'readout';
  readout.setAttribute('aria-live', 'polite');
  root.append(plotBox, readout);
  host.appendChild(root);
  let plot: uPlot | undefined;
  let series: ChartSeries[] = [];
  let aligned: ReturnType<typeof alignSeries> = { xs: [], dates: [], at: [] };
  let at = -1;

  const say = (k: number) => {
    const lines = series.flatMap((s, j) => {
      const i = aligned.at[j]?.[k];
      return i === undefined ? [] : [describePoint(s.points[i], s.dates[i], s.label)];
    });
    readout.textContent = lines.join('\n');
  };
  /** Our own cursor move: the hook must not read it back as a pointer's. */
  let placing = false;
  const moveTo = (k: number) => {
    if (!plot || !aligned.xs.length) return;
    at = Math.max(0, Math.min(aligned.xs.length - 1, k));
    say(at);
    // A plot built this task has no scales yet (uPlot sets them in a microtask): a position
    // from it lands on the wrong date, and the readout jumped to the last date while the
    // series arrived. Its `ready` hook places the cursor instead.
    if (plot.status !== 1) return;
    const x = plot.data[0][at];
    const y = plot.data
      .slice(1)
      .map((d) => d[at])
      .find((v) => v !== null && v !== undefined) as number | undefined;
    placing = true;
    try {
      plot.setCursor({ left: plot.valToPos(x, 'x'), top: y === undefined ? plot.bbox.height / devicePixelRatio / 2 : plot.valToPos(y, 'y') });
    } finally {
      placing = false;
    }
  };
  /** The first series with a point at place k, and that point's index in its dates. */
  const pick = (k: number) => {
    const j = aligned.at.findIndex((row) => row[k] !== undefined);
    if (j >= 0) o.onPick(j, aligned.at[j][k] as number);
  };

  const build = () => {
    plot?.destroy();
    aligned = alignSeries(series);
    const ok = (p: SeriesPoint | undefined) => !!p && !p.error && p.median !== undefined;
    const good = (p: SeriesPoint | undefined, min: number) => ok(p) && (p as SeriesPoint).validShare >= min && !(p as SeriesPoint).overCloudLimit;
    const got = series.map((s, j) => aligned.at[j].map((i) => (i === undefined ? undefined : s.points[i])));
    const ys = got.flat().flatMap((p) => (ok(p) ? [p?.p10 as number, p?.p90 as number] : p?.value !== undefined ? [p.value] : []));
    const lo = ys.length ? Math.min(...ys) : 0;
    const hi = ys.length ? Math.max(...ys) : 1;
    const pad = Math.max(0.02, (hi - lo) * 0.08);
    const bottom = lo - pad;
    const fg = css('--vscode-foreground', '#ccc');
    const bg = css('--vscode-editorWidget-background', css('--vscode-editor-background', '#1e1e1e'));
    const grid = css('--vscode-editorWidget-border', 'rgba(128,128,128,0.3)');
    const err = css('--vscode-errorForeground', '#f14c4c');
    const axis = { stroke: fg, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
    const none = () => null;
    const opts: uPlot.Series[] = [{}];
    const data: (number | null)[][] = [];
    const bands: uPlot.Band[] = [];
    series.forEach((s, j) => {
      const line = themeColour(j);
      const base = opts.length;
      const g = got[j];
      opts.push(
        { label: l10n.t('10–90 %'), stroke: 'transparent', points: { show: false }, spanGaps: true },
        { label: l10n.t('90th percentile'), stroke: 'transparent', points: { show: false }, spanGaps: true },
        {
          label: series.length === 1 ? l10n.t('{0} median', s.label) : s.label,
          stroke: line,
          width: 2,
          spanGaps: true,
          points: { show: true, size: 7, fill: line, stroke: line },
        },
        { label: l10n.t('Too few valid pixels'), stroke: line, paths: none, points: { show: true, size: 8, width: 1.5, fill: bg, stroke: line } },
        { label: l10n.t('Could not be read'), stroke: err, paths: none, points: { show: true, size: 7, fill: err, stroke: err } },
      );
      data.push(
        g.map((p) => (good(p, s.minValidShare) ? (p?.p10 as number) : null)),
        g.map((p) => (good(p, s.minValidShare) ? (p?.p90 as number) : null)),
        g.map((p) => (good(p, s.minValidShare) ? (p?.median as number) : null)),
        // too few valid pixels: hollow at its median (a pixel's value, valid or not); none at all: along the bottom
        g.map((p) => (ok(p) && !good(p, s.minValidShare) ? (p?.median as number) : p && !p.error && p.median === undefined ? (p.value ?? bottom) : null)),
        g.map((p) => (p?.error ? bottom : null)),
      );
      bands.push({ series: [base + 1, base], fill: `color-mix(in srgb, ${line} ${series.length > 1 ? 15 : 25}%, transparent)` });
    });
    plot = new uPlot(
      {
        width: o.width,
        height: 200,
        legend: { show: true, live: false },
        cursor: { drag: { x: false, y: false }, points: { size: 9 } },
        scales: { x: { time: true }, y: { range: () => [bottom - pad * 0.3, hi + pad] } },
        axes: [
          // room for an ISO day under each tick (uPlot's default is 50 px between ticks)
          { ...axis, space: 80, values: (_u, vals) => dateTicks(vals) },
          { ...axis, size: 46 },
        ],
        bands,
        hooks: {
          ready: [() => at >= 0 && moveTo(at)],
          setCursor: [
            (u) => {
              if (!placing && u.cursor.idx !== null && u.cursor.idx !== undefined && u.cursor.idx !== at) {
                at = u.cursor.idx;
                say(at);
              }
            },
          ],
        },
        series: opts,
      },
      [aligned.xs, ...data] as uPlot.AlignedData,
      plotBox,
    );
    // the legend names each series once (its line); the band and the marks are told once, for the first
    const rows = Array.from(plot.root.querySelectorAll<HTMLElement>('.u-legend .u-series'));
    const shift = rows.length === opts.length ? 0 : -1;
    opts.forEach((_, i) => {
      if (i === 0) return;
      const role = (i - 1) % 5;
      const first = i <= 5;
      const row = rows[i + shift];
      if (row) row.hidden = role === 1 || (!first && role !== 2);
    });
    plot.over.addEventListener('click', () => {
      const k = plot?.cursor.idx;
      if (k !== null && k !== undefined) pick(k);
    });
    if (at >= 0) say(at);
  };

  root.addEventListener('keydown', (e) => {
    const n = aligned.xs.length;
    const k = e.key === 'ArrowLeft' ? at - 1 : e.key === 'ArrowRight' ? at + 1 : e.key === 'Home' ? 0 : e.key === 'End' ? n - 1 : undefined;
    if (k !== undefined) {
      e.preventDefault();
      moveTo(k);
    } else if ((e.key === 'Enter' || e.key === ' ') && at >= 0 && at < n) {
      e.preventDefault();
      pick(at);
    }
  });

  return {
    root,
    set(s) {
      series = s;
      const names = s.map((x) => x.label).join(', ');
      root.setAttribute('aria-label', l10n.t('{0} over time: arrow keys move between dates, Enter shows the date on the map', names));
      build();
    },
    picture(title) {
      const src = plot?.ctx.canvas;
      const ratio = devicePixelRatio || 1;
      const c = document.createElement('canvas');
      const head = Math.round(28 * ratio);
      const legend = series.length > 1 ? Math.round(18 * ratio * series.length) : 0;
      c.width = src?.width ?? 1;
      c.height = (src?.height ?? 1) + head + legend;
      const ctx = c.getContext('2d');
      if (!ctx) throw new Error(l10n.t('The chart could not be drawn.'));
      ctx.fillStyle = css('--vscode-editor-background', '#1e1e1e');
      ctx.fillRect(0, 0, c.width, c.height);
      ctx.fillStyle = css('--vscode-foreground', '#ccc');
      ctx.font = `${Math.round(13 * ratio)}px sans-serif`;
      ctx.fillText(title, 8 * ratio, 18 * ratio);
      if (src) ctx.drawImage(src, 0, head);
      // overlaid: the names under the chart, each in its colour (the DOM legend is not on the canvas)
      if (legend) {
        series.forEach((s, j) => {
          const y = head + (src?.height ?? 0) + Math.round(14 * ratio) + j * Math.round(18 * ratio);
          ctx.fillStyle = themeColour(j);
          ctx.fillRect(8 * ratio, y - 9 * ratio, 14 * ratio, 4 * ratio);
          ctx.fillStyle = css('--vscode-foreground', '#ccc');
          ctx.fillText(s.label, 28 * ratio, y);
        });
      }
      return c;
    },
    destroy() {
      plot?.destroy();
      root.remove();
    },
  };
}
