/**
 * What the index-over-time chart draws, as uPlot series: the series on one time axis, and for
 * each the 10–90 % band, the median line, hollow points for dates with too few valid pixels
 * and marks along the bottom for dates that could not be read.
 */
import * as l10n from '@vscode/l10n';
import type uPlot from 'uplot';
import type { SeriesPoint } from '../../../src/panels/imagery/seriesMessages';
import { dateTicks } from './dateTicks';
import { themeColour } from './spectralChart';

/** One series on the chart: its name in the legend, its dates (request order) and points so far. */
export interface ChartSeries {
  label: string;
  dates: string[];
  points: (SeriesPoint | undefined)[];
  /** A date's share of valid pixels below this draws it hollow. */
  minValidShare: number;
}

export type Aligned = { xs: number[]; dates: string[]; at: (number | undefined)[][] };

/** uPlot series per chart series: band low, band high, median, too few valid, could not be read. */
const ROLES = 5;

/**
 * The series on one time axis: every date of every series once, oldest first (a series with
 * two scenes on one day gets both, an hour apart), and for each series its point's index
 * at each place (undefined where it has no date there). Pure.
 */
export function alignSeries(series: readonly { dates: readonly string[] }[]): Aligned {
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

export function css(name: string, fallback: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

/** The colours the chart draws with: the theme's on screen, fixed ones in a saved picture (seriesPicture.ts). */
export interface ChartPalette {
  /** Axis text and ticks. */
  fg: string;
  grid: string;
  /** Behind the plot: the fill of a hollow point. */
  bg: string;
  /** Dates that could not be read. */
  err: string;
  /** Series j's line. */
  line(j: number): string;
}

export function themePalette(): ChartPalette {
  return {
    fg: css('--vscode-foreground', '#ccc'),
    grid: css('--vscode-editorWidget-border', 'rgba(128,128,128,0.3)'),
    bg: css('--vscode-editorWidget-background', css('--vscode-editor-background', '#1e1e1e')),
    err: css('--vscode-errorForeground', '#f14c4c'),
    line: themeColour,
  };
}

/** Series j's line in the legend: the index's median when it is alone, else the series' name. */
export function lineLabel(series: readonly ChartSeries[], j: number): string {
  return series.length === 1 ? l10n.t('{0} median', series[j].label) : series[j].label;
}

/** The legend's names of the band and the marks (told once, for the first series). */
export function markLabels(): { band: string; fewValid: string; unread: string } {
  return { band: l10n.t('10–90 %'), fewValid: l10n.t('Too few valid pixels'), unread: l10n.t('Could not be read') };
}

/** The chart's uPlot options and data for `series` aligned as `aligned`; `hooks` are the chart's cursor hooks. */
export function plotOptions(
  width: number,
  series: ChartSeries[],
  aligned: Aligned,
  hooks: uPlot.Hooks.Arrays,
  palette: ChartPalette = themePalette(),
): { options: uPlot.Options; data: uPlot.AlignedData } {
  const { opts, data, bands, bottom, hi, pad } = plotData(series, aligned, palette);
  const axis = { stroke: palette.fg, grid: { stroke: palette.grid, width: 1 }, ticks: { stroke: palette.grid, width: 1 } };
  const options: uPlot.Options = {
    width,
    height: 200,
    legend: { show: true, live: false },
    cursor: { drag: { x: false, y: false }, points: { size: 9 } },
    scales: { x: { time: true }, y: { range: () => [bottom - pad * 0.3, hi + pad] } },
    axes: [
      // room for an ISO day under each tick (uPlot's default is 50 px between ticks)
      { ...axis, space: 80, values: (u, vals) => dateTicks(vals, (u.scales.x.max ?? 0) - (u.scales.x.min ?? 0)) },
      { ...axis, size: 46 },
    ],
    bands,
    hooks,
    series: opts,
  };
  return { options, data: [aligned.xs, ...data] as uPlot.AlignedData };
}

/** The uPlot series, their data and bands for `series` aligned as `aligned`, and the y range they need. */
function plotData(
  series: ChartSeries[],
  aligned: Aligned,
  palette: ChartPalette,
): { opts: uPlot.Series[]; data: (number | null)[][]; bands: uPlot.Band[]; bottom: number; hi: number; pad: number } {
  const ok = (p: SeriesPoint | undefined) => !!p && !p.error && p.median !== undefined;
  const good = (p: SeriesPoint | undefined, min: number) => ok(p) && (p as SeriesPoint).validShare >= min && !(p as SeriesPoint).overCloudLimit;
  const got = series.map((s, j) => aligned.at[j].map((i) => (i === undefined ? undefined : s.points[i])));
  const ys = got.flat().flatMap((p) => (ok(p) ? [p?.p10 as number, p?.p90 as number] : p?.value !== undefined ? [p.value] : []));
  const lo = ys.length ? Math.min(...ys) : 0;
  const hi = ys.length ? Math.max(...ys) : 1;
  const pad = Math.max(0.02, (hi - lo) * 0.08);
  const bottom = lo - pad;
  const { bg, err } = palette;
  const marks = markLabels();
  const none = () => null;
  const opts: uPlot.Series[] = [{}];
  const data: (number | null)[][] = [];
  const bands: uPlot.Band[] = [];
  series.forEach((s, j) => {
    const line = palette.line(j);
    const base = opts.length;
    const g = got[j];
    opts.push(
      { label: marks.band, stroke: 'transparent', points: { show: false }, spanGaps: true },
      { label: l10n.t('90th percentile'), stroke: 'transparent', points: { show: false }, spanGaps: true },
      {
        label: lineLabel(series, j),
        stroke: line,
        width: 2,
        spanGaps: true,
        points: { show: true, size: 7, fill: line, stroke: line },
      },
      { label: marks.fewValid, stroke: line, paths: none, points: { show: true, size: 8, width: 1.5, fill: bg, stroke: line } },
      { label: marks.unread, stroke: err, paths: none, points: { show: true, size: 7, fill: err, stroke: err } },
    );
    data.push(
      g.map((p) => (good(p, s.minValidShare) ? (p?.p10 as number) : null)),
      g.map((p) => (good(p, s.minValidShare) ? (p?.p90 as number) : null)),
      g.map((p) => (good(p, s.minValidShare) ? (p?.median as number) : null)),
      // too few valid pixels: hollow at its median (a pixel's value, valid or not); none at all: along the bottom
      g.map((p) => (ok(p) && !good(p, s.minValidShare) ? (p?.median as number) : p && !p.error && p.median === undefined ? (p.value ?? bottom) : null)),
      g.map((p) => (p?.error ? bottom : null)),
    );
    bands.push({ series: [base + 1, base], fill: bandFill(line, series.length) });
  });
  return { opts, data, bands, bottom, hi, pad };
}

/** The 10–90 % band's fill: the line's colour, lighter when several series overlap. */
export function bandFill(line: string, count: number): string {
  return `color-mix(in srgb, ${line} ${count > 1 ? 15 : 25}%, transparent)`;
}

/** The legend names each series once (its line); the band and the marks are told once, for the first. */
export function trimLegend(plot: uPlot, opts: uPlot.Series[]): void {
  const rows = Array.from(plot.root.querySelectorAll<HTMLElement>('.u-legend .u-series'));
  const shift = rows.length === opts.length ? 0 : -1;
  opts.forEach((_, i) => {
    if (i === 0) return;
    const role = (i - 1) % ROLES;
    const first = i <= ROLES;
    const row = rows[i + shift];
    if (row) row.hidden = role === 1 || (!first && role !== 2);
  });
}
