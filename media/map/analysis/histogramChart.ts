/**
 * One band's histogram with the stretch's two ends as handles on it: drag them, or focus one
 * and use the arrow keys (Shift for bigger steps, Home/End for the data's ends; see
 * `stretchHandles`). `onChange` fires when a drag ends or a key moves a handle. With a colour
 * map (an index layer), each bar takes the colour its values are drawn in, following the
 * handles as they move.
 */
import uPlot from 'uplot';
import { themeColour } from './spectralChart';
import { placeHandles, stretchHandles } from './stretchHandles';

export interface HistogramData {
  lo: number;
  hi: number;
  counts: number[];
  /** 256 RGB entries: values at the stretch's minimum take the first, at its maximum the last. */
  colormap?: Uint8ClampedArray;
}

export interface HistogramChart {
  set(data: HistogramData, stretch: [number, number]): void;
  readonly root: HTMLElement;
  destroy(): void;
}

export function histogramChart(
  host: HTMLElement,
  o: { label: string; colour: number; width: number; onChange(stretch: [number, number]): void },
): HistogramChart {
  const root = document.createElement('div');
  root.className = 'eo-histogram';
  host.appendChild(root);
  let plot: uPlot | undefined;
  let data: HistogramData = { lo: 0, hi: 1, counts: [] };
  let stretch: [number, number] = [0, 1];
  /** Puts the handles on the x scale (`u` while uPlot is still being built: its first draw comes after). */
  const place = (u: uPlot | undefined = plot) => {
    if (u) placeHandles(handles, u, stretch, data);
  };
  // a handle's value to a thousandth of the data's range, so the legend shows 0.794, not 0.7940000000000001
  const tidy = (v: number) => {
    const digits = Math.ceil(-Math.log10((data.hi - data.lo) / 1000));
    return digits > 0 ? Number(v.toFixed(Math.min(digits, 12))) : v;
  };
  const move = (k: number, v: number, commit: boolean) => {
    const next: [number, number] = [...stretch];
    v = tidy(v);
    next[k] = v;
    if (k === 0) next[0] = Math.min(v, next[1] - (data.hi - data.lo) / 1000);
    else next[1] = Math.max(v, next[0] + (data.hi - data.lo) / 1000);
    stretch = next;
    place();
    // the bars' colours follow the colour map's range
    if (data.colormap) plot?.redraw(false, false);
    if (commit) o.onChange(stretch);
  };
  const handles = stretchHandles(o.label, {
    range: () => data,
    stretch: () => stretch,
    move,
    plot: () => plot,
    done: () => o.onChange(stretch),
  });
  const build = () => {
    // rebuilding the plot moves the handles: the one with the keyboard focus keeps it
    const focused = handles.find((h) => h === document.activeElement);
    plot?.destroy();
    const n = data.counts.length;
    const w = (data.hi - data.lo) / Math.max(1, n);
    const xs = data.counts.map((_, i) => data.lo + (i + 0.5) * w);
    const min = Math.min(data.lo, stretch[0]);
    const max = Math.max(data.hi, stretch[1]);
    const pad = (max - min) * 0.02;
    const fg = getComputedStyle(document.documentElement).getPropertyValue('--vscode-foreground').trim() || '#ccc';
    const bars = data.colormap ? (u: uPlot) => ramp(u, data.colormap as Uint8ClampedArray, stretch) : themeColour(o.colour);
    plot = new uPlot(
      {
        width: o.width,
        height: 90,
        legend: { show: false },
        cursor: { show: false },
        // the scales are known once drawn: place the handles then (and on every redraw)
        hooks: { draw: [(u) => place(u)] },
        scales: { x: { time: false, range: [min - pad, max + pad] }, y: { range: (_u, _lo, hi) => [0, Math.max(1, hi)] } },
        axes: [{ stroke: fg, size: 24, grid: { show: false } }, { show: false }],
        series: [{}, { label: o.label, stroke: bars, fill: bars, paths: uPlot.paths.bars?.({ size: [1, Infinity], gap: 0 }) }],
      },
      [xs, data.counts] as uPlot.AlignedData,
      root,
    );
    for (const h of handles) plot.over.appendChild(h);
    place();
    focused?.focus();
  };
  return {
    root,
    set(d, s) {
      data = d;
      stretch = [...s];
      build();
    },
    destroy() {
      plot?.destroy();
      root.remove();
    },
  };
}

/** The colour map `lut` across the plot, from the minimum handle to the maximum one (its ends beyond). */
function ramp(u: uPlot, lut: Uint8ClampedArray, stretch: [number, number]): CanvasGradient | string {
  const a = u.valToPos(stretch[0], 'x', true);
  const b = u.valToPos(stretch[1], 'x', true);
  if (!(b > a)) return `rgb(${lut[0]}, ${lut[1]}, ${lut[2]})`;
  const g = u.ctx.createLinearGradient(a, 0, b, 0);
  for (let i = 0; i <= 16; i++) {
    const k = Math.round((i / 16) * 255) * 3;
    g.addColorStop(i / 16, `rgb(${lut[k]}, ${lut[k + 1]}, ${lut[k + 2]})`);
  }
  return g;
}
