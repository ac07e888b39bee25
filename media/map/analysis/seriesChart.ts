/**
 * An index over time: the median per date as a line, the 10–90 % range as a band around it,
 * dates with too few valid pixels as hollow points, dates that could not be read as marks
 * along the bottom. The readout under the chart names the date under the cursor (median,
 * range, mean, valid share); the arrow keys move between dates, Enter (or a click) shows
 * that date on the map.
 */
import * as l10n from '@vscode/l10n';
import uPlot from 'uplot';
import type { SeriesPoint } from '../../../src/panels/imagery/protocol';
import { themeColour } from './spectralChart';

export interface SeriesChartOptions {
  width: number;
  /** The index's name, e.g. `NDVI`. */
  label: string;
  /** A date's share of valid pixels below this draws it hollow. */
  minValidShare: number;
  /** The person picked a date (click, Enter): its index in the dates. */
  onPick(index: number): void;
}

export interface SeriesChart {
  readonly root: HTMLElement;
  /** The dates (`YYYY-MM-DD`, in request order) and the points known so far. */
  set(dates: string[], points: (SeriesPoint | undefined)[]): void;
  /** The chart drawn on a canvas with a background and title, for "Save PNG". */
  picture(title: string): HTMLCanvasElement;
  destroy(): void;
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
  root.setAttribute('aria-label', l10n.t('{0} over time: arrow keys move between dates, Enter shows the date on the map', o.label));
  const plotBox = document.createElement('div');
  const readout = document.createElement('div');
  readout.className = 'readout';
  readout.setAttribute('aria-live', 'polite');
  root.append(plotBox, readout);
  host.appendChild(root);
  let plot: uPlot | undefined;
  let dates: string[] = [];
  let points: (SeriesPoint | undefined)[] = [];
  /** Indices of the dates, oldest first (the request may not be sorted). */
  let order: number[] = [];
  let at = -1;

  const say = (k: number) => {
    const i = order[k];
    readout.textContent = i === undefined ? '' : describePoint(points[i], dates[i], o.label);
  };
  const moveTo = (k: number) => {
    if (!plot || !order.length) return;
    at = Math.max(0, Math.min(order.length - 1, k));
    const x = plot.data[0][at];
    const y = (plot.data[3][at] ?? plot.data[4][at] ?? plot.data[5][at]) as number | null | undefined;
    plot.setCursor({ left: plot.valToPos(x, 'x'), top: y === null || y === undefined ? plot.bbox.height / devicePixelRatio / 2 : plot.valToPos(y, 'y') });
    say(at);
  };

  const build = () => {
    plot?.destroy();
    order = dates.map((_, i) => i).sort((a, b) => dates[a].localeCompare(dates[b]));
    const xs = order.map((i) => Date.parse(`${dates[i]}T00:00:00Z`) / 1000);
    const got = order.map((i) => points[i]);
    const ok = (p: SeriesPoint | undefined) => !!p && !p.error && p.median !== undefined;
    const good = (p: SeriesPoint | undefined) => ok(p) && (p as SeriesPoint).validShare >= o.minValidShare && !(p as SeriesPoint).overCloudLimit;
    const ys = got.filter(ok).flatMap((p) => [p?.p10 as number, p?.p90 as number]);
    const lo = ys.length ? Math.min(...ys) : 0;
    const hi = ys.length ? Math.max(...ys) : 1;
    const pad = Math.max(0.02, (hi - lo) * 0.08);
    const bottom = lo - pad;
    const line = themeColour(0);
    const fg = css('--vscode-foreground', '#ccc');
    const bg = css('--vscode-editorWidget-background', css('--vscode-editor-background', '#1e1e1e'));
    const grid = css('--vscode-editorWidget-border', 'rgba(128,128,128,0.3)');
    const err = css('--vscode-errorForeground', '#f14c4c');
    const axis = { stroke: fg, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
    const none = () => null;
    plot = new uPlot(
      {
        width: o.width,
        height: 200,
        legend: { show: true, live: false },
        cursor: { drag: { x: false, y: false }, points: { size: 9 } },
        scales: { x: { time: true }, y: { range: () => [bottom - pad * 0.3, hi + pad] } },
        axes: [
          { ...axis, values: (_u, vals) => vals.map((v) => new Date(v * 1000).toISOString().slice(0, 7)) },
          { ...axis, size: 46 },
        ],
        bands: [{ series: [2, 1], fill: `color-mix(in srgb, ${line} 25%, transparent)` }],
        hooks: {
          setCursor: [
            (u) => {
              if (u.cursor.idx !== null && u.cursor.idx !== undefined && u.cursor.idx !== at) {
                at = u.cursor.idx;
                say(at);
              }
            },
          ],
        },
        series: [
          {},
          { label: l10n.t('10–90 %'), stroke: 'transparent', points: { show: false }, spanGaps: true },
          { label: l10n.t('90th percentile'), stroke: 'transparent', points: { show: false }, spanGaps: true },
          { label: l10n.t('{0} median', o.label), stroke: line, width: 2, spanGaps: true, points: { show: true, size: 7, fill: line, stroke: line } },
          { label: l10n.t('Too few valid pixels'), stroke: line, paths: none, points: { show: true, size: 8, width: 1.5, fill: bg, stroke: line } },
          { label: l10n.t('Could not be read'), stroke: err, paths: none, points: { show: true, size: 7, fill: err, stroke: err } },
        ],
      },
      [
        xs,
        got.map((p) => (good(p) ? (p?.p10 as number) : null)),
        got.map((p) => (good(p) ? (p?.p90 as number) : null)),
        got.map((p) => (good(p) ? (p?.median as number) : null)),
        // too few valid pixels: hollow at its median; none at all: hollow along the bottom
        got.map((p) => (ok(p) && !good(p) ? (p?.median as number) : p && !p.error && p.median === undefined ? bottom : null)),
        got.map((p) => (p?.error ? bottom : null)),
      ] as uPlot.AlignedData,
      plotBox,
    );
    plot.over.addEventListener('click', () => {
      const k = plot?.cursor.idx;
      if (k !== null && k !== undefined && order[k] !== undefined) o.onPick(order[k]);
    });
    if (at >= 0) moveTo(at);
  };

  root.addEventListener('keydown', (e) => {
    const k = e.key === 'ArrowLeft' ? at - 1 : e.key === 'ArrowRight' ? at + 1 : e.key === 'Home' ? 0 : e.key === 'End' ? order.length - 1 : undefined;
    if (k !== undefined) {
      e.preventDefault();
      moveTo(k);
    } else if ((e.key === 'Enter' || e.key === ' ') && at >= 0 && order[at] !== undefined) {
      e.preventDefault();
      o.onPick(order[at]);
    }
  });

  return {
    root,
    set(d, p) {
      dates = d;
      points = p;
      build();
    },
    picture(title) {
      const src = plot?.ctx.canvas;
      const ratio = devicePixelRatio || 1;
      const c = document.createElement('canvas');
      const head = Math.round(28 * ratio);
      c.width = src?.width ?? 1;
      c.height = (src?.height ?? 1) + head;
      const ctx = c.getContext('2d');
      if (!ctx) throw new Error(l10n.t('The chart could not be drawn.'));
      ctx.fillStyle = css('--vscode-editor-background', '#1e1e1e');
      ctx.fillRect(0, 0, c.width, c.height);
      ctx.fillStyle = css('--vscode-foreground', '#ccc');
      ctx.font = `${Math.round(13 * ratio)}px sans-serif`;
      ctx.fillText(title, 8 * ratio, 18 * ratio);
      if (src) ctx.drawImage(src, 0, head);
      return c;
    },
    destroy() {
      plot?.destroy();
      root.remove();
    },
  };
}
