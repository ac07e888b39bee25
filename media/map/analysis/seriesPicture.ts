/**
 * The index-over-time chart as a picture for "Save PNG": the plot drawn again in fixed colours
 * on white (a saved picture goes into reports and slides, whatever the editor's theme), under
 * its title and over a legend that names what each line, band and point is, as the on-screen
 * legend does.
 */
import * as l10n from '@vscode/l10n';
import uPlot from 'uplot';
import { lineLabel, markLabels, plotOptions, type Aligned, type ChartPalette, type ChartSeries } from './seriesPlot';

/** Black on white, and VS Code's light-theme chart colours, which read on white. */
const LINES = ['#1a85ff', '#d18616', '#388a34', '#652d90', '#e51400', '#bf8803'];
export const PICTURE_PALETTE: ChartPalette = {
  fg: '#1f1f1f',
  grid: '#d4d4d4',
  bg: '#ffffff',
  err: '#c50f1f',
  line: (j) => LINES[j % LINES.length],
};

interface LegendItem {
  label: string;
  draw(ctx: CanvasRenderingContext2D, x: number, y: number, unit: number): void;
}

/** The legend's rows: each series' line, then the band and the two kinds of mark (drawn in the first series' colour). */
function legendItems(series: readonly ChartSeries[], p: ChartPalette): LegendItem[] {
  const marks = markLabels();
  const first = p.line(0);
  const dot = (ctx: CanvasRenderingContext2D, x: number, y: number, r: number) => {
    ctx.beginPath();
    ctx.arc(x, y, r, 0, Math.PI * 2);
  };
  return [
    ...series.map((_, j) => ({
      label: lineLabel(series, j),
      draw(ctx: CanvasRenderingContext2D, x: number, y: number, u: number) {
        ctx.fillStyle = p.line(j);
        ctx.fillRect(x, y - u, 16 * u, 2 * u);
        dot(ctx, x + 8 * u, y, 3.5 * u);
        ctx.fill();
      },
    })),
    {
      label: marks.band,
      draw(ctx, x, y, u) {
        ctx.globalAlpha = series.length > 1 ? 0.15 : 0.25;
        ctx.fillStyle = first;
        ctx.fillRect(x, y - 5 * u, 16 * u, 10 * u);
        ctx.globalAlpha = 1;
      },
    },
    {
      label: marks.fewValid,
      draw(ctx, x, y, u) {
        dot(ctx, x + 8 * u, y, 4 * u);
        ctx.fillStyle = p.bg;
        ctx.fill();
        ctx.lineWidth = 1.5 * u;
        ctx.strokeStyle = first;
        ctx.stroke();
      },
    },
    {
      label: marks.unread,
      draw(ctx, x, y, u) {
        dot(ctx, x + 8 * u, y, 3.5 * u);
        ctx.fillStyle = p.err;
        ctx.fill();
      },
    },
  ];
}

/** `text` in lines no wider than `width` (a word wider than that gets a line of its own). */
function wrap(ctx: CanvasRenderingContext2D, text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if (line && ctx.measureText(next).width > width) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  return line ? [...lines, line] : lines;
}

/** `series` plotted `width` CSS px wide under `title`, with its legend. */
export function chartPicture(series: ChartSeries[], aligned: Aligned, width: number, title: string): HTMLCanvasElement {
  const u = devicePixelRatio || 1;
  const p = PICTURE_PALETTE;
  const { options, data } = plotOptions(width, series, aligned, {}, p);
  // off the page, drawn at once (batch), and thrown away: no cursor, no DOM legend
  const plot = new uPlot({ ...options, legend: { show: false }, cursor: { show: false } }, data, (self, init) => self.batch(() => init()));
  try {
    const src = plot.ctx.canvas;
    const c = document.createElement('canvas');
    const ctx = c.getContext('2d');
    if (!ctx) throw new Error(l10n.t('The chart could not be drawn.'));
    const font = `${Math.round(12 * u)}px sans-serif`;
    const titleFont = `${Math.round(13 * u)}px sans-serif`;
    const rowHeight = Math.round(18 * u);
    const pad = 8 * u;
    // the title on as many lines as it needs: a long area name is not cut off at the edge
    ctx.font = titleFont;
    const titleLines = wrap(ctx, title, src.width - 2 * pad);
    const head = Math.round(10 * u) + titleLines.length * rowHeight;
    // the legend's items left to right, a new row where the next would not fit
    ctx.font = font;
    const items = legendItems(series, p);
    const places: { x: number; row: number }[] = [];
    let x = pad;
    let row = 0;
    for (const item of items) {
      const w = 22 * u + ctx.measureText(item.label).width;
      if (x > pad && x + w > src.width - pad) {
        row++;
        x = pad;
      }
      places.push({ x, row });
      x += w + 14 * u;
    }
    const legendTop = head + src.height + Math.round(6 * u);
    c.width = src.width;
    c.height = legendTop + (row + 1) * rowHeight + Math.round(4 * u);
    ctx.fillStyle = p.bg;
    ctx.fillRect(0, 0, c.width, c.height);
    ctx.fillStyle = p.fg;
    ctx.font = titleFont;
    ctx.textBaseline = 'middle';
    titleLines.forEach((line, i) => ctx.fillText(line, pad, Math.round(4 * u) + i * rowHeight + rowHeight / 2));
    ctx.drawImage(src, 0, head);
    ctx.font = font;
    items.forEach((item, i) => {
      const y = legendTop + places[i].row * rowHeight + rowHeight / 2;
      item.draw(ctx, places[i].x, y, u);
      ctx.fillStyle = p.fg;
      ctx.fillText(item.label, places[i].x + 22 * u, y);
    });
    return c;
  } finally {
    plot.destroy();
  }
}
