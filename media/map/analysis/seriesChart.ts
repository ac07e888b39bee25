/**
 * An index over time: the median per date as a line, the 10–90 % range as a band around it,
 * dates with too few valid pixels as hollow points, dates that could not be read as marks
 * along the bottom (see `seriesPlot`). The readout under the chart names the date under
 * the cursor (median, range, mean, valid share; see `seriesReadout`); the arrow keys move
 * between dates, Enter (or a click) shows that date on the map.
 */
import * as l10n from '@vscode/l10n';
import uPlot from 'uplot';
import { chartPicture } from './seriesPicture';
import { alignSeries, plotOptions, trimLegend, type Aligned, type ChartSeries } from './seriesPlot';
import { describePoint } from './seriesReadout';

export type { ChartSeries } from './seriesPlot';

export interface SeriesChartOptions {
  width: number;
  /** The person picked a date (click, Enter): the series and the date's index in its dates. */
  onPick(series: number, index: number): void;
}

export interface SeriesChart {
  readonly root: HTMLElement;
  /** The series to draw (several overlaid, each in its own colour), as they stand. */
  set(series: ChartSeries[]): void;
  /** The chart drawn again on a canvas in fixed colours, with its title and legend, for "Save PNG". */
  picture(title: string): HTMLCanvasElement;
  destroy(): void;
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
  let aligned: Aligned = { xs: [], dates: [], at: [] };
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
    const hooks: uPlot.Hooks.Arrays = {
      ready: [() => at >= 0 && moveTo(at)],
      setCursor: [
        (u) => {
          if (!placing && u.cursor.idx !== null && u.cursor.idx !== undefined && u.cursor.idx !== at) {
            at = u.cursor.idx;
            say(at);
          }
        },
      ],
    };
    const { options, data } = plotOptions(o.width, series, aligned, hooks);
    plot = new uPlot(options, data, plotBox);
    trimLegend(plot, options.series);
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
      return chartPicture(series, aligned, o.width, title);
    },
    destroy() {
      plot?.destroy();
      root.remove();
    },
  };
}
