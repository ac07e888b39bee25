/**
 * One band's histogram with the stretch's two ends as handles on it: drag them, or focus one
 * and use the arrow keys (Shift for bigger steps, Home/End for the data's ends). `onChange`
 * fires when a drag ends or a key moves a handle.
 */
import * as l10n from '@vscode/l10n';
import uPlot from 'uplot';
import { themeColour } from './spectralChart';

export interface HistogramData {
  lo: number;
  hi: number;
  counts: number[];
}

export interface HistogramChart {
  set(data: HistogramData, stretch: [number, number]): void;
  readonly root: HTMLElement;
  destroy(): void;
}

function fmt(v: number): string {
  return Math.abs(v) >= 100 ? String(Math.round(v)) : String(Math.round(v * 1e4) / 1e4);
}

export function histogramChart(
  host: HTMLElement, o: { label: string; colour: number; width: number; onChange(stretch: [number, number]): void },
): HistogramChart {
  const root = document.createElement('div');
  root.className = 'eo-histogram';
  host.appendChild(root);
  let plot: uPlot | undefined;
  let data: HistogramData = { lo: 0, hi: 1, counts: [] };
  let stretch: [number, number] = [0, 1];
  const handles = [0, 1].map((k) => {
    const h = document.createElement('div');
    h.className = `handle ${k === 0 ? 'lo' : 'hi'}`;
    h.tabIndex = 0;
    h.setAttribute('role', 'slider');
    h.setAttribute('aria-label', k === 0 ? l10n.t('{0}: stretch minimum', o.label) : l10n.t('{0}: stretch maximum', o.label));
    return h;
  });
  const place = () => {
    if (!plot) return;
    handles.forEach((h, k) => {
      const v = stretch[k];
      h.style.left = `${plot?.valToPos(v, 'x') ?? 0}px`;
      h.setAttribute('aria-valuenow', fmt(v));
      h.setAttribute('aria-valuetext', fmt(v));
      h.setAttribute('aria-valuemin', fmt(Math.min(data.lo, stretch[0])));
      h.setAttribute('aria-valuemax', fmt(Math.max(data.hi, stretch[1])));
      h.title = fmt(v);
    });
  };
  const move = (k: number, v: number, commit: boolean) => {
    const next: [number, number] = [...stretch];
    next[k] = v;
    if (k === 0) next[0] = Math.min(v, next[1] - (data.hi - data.lo) / 1000);
    else next[1] = Math.max(v, next[0] + (data.hi - data.lo) / 1000);
    stretch = next;
    place();
    if (commit) o.onChange(stretch);
  };
  handles.forEach((h, k) => {
    h.addEventListener('keydown', (e) => {
      const step = ((data.hi - data.lo) / 100) * (e.shiftKey ? 10 : 1);
      const to = e.key === 'ArrowLeft' || e.key === 'ArrowDown' ? stretch[k] - step
        : e.key === 'ArrowRight' || e.key === 'ArrowUp' ? stretch[k] + step
          : e.key === 'Home' ? data.lo : e.key === 'End' ? data.hi : undefined;
      if (to === undefined) return;
      e.preventDefault();
      move(k, to, true);
    });
    h.addEventListener('pointerdown', (e) => {
      e.preventDefault();
      h.setPointerCapture(e.pointerId);
      h.focus();
      const onMove = (ev: PointerEvent) => {
        if (!plot) return;
        const x = ev.clientX - plot.over.getBoundingClientRect().left;
        move(k, plot.posToVal(x, 'x'), false);
      };
      const onUp = () => {
        h.removeEventListener('pointermove', onMove);
        h.removeEventListener('pointerup', onUp);
        h.removeEventListener('pointercancel', onUp);
        o.onChange(stretch);
      };
      h.addEventListener('pointermove', onMove);
      h.addEventListener('pointerup', onUp);
      h.addEventListener('pointercancel', onUp);
    });
  });
  const build = () => {
    plot?.destroy();
    const n = data.counts.length;
    const w = (data.hi - data.lo) / Math.max(1, n);
    const xs = data.counts.map((_, i) => data.lo + (i + 0.5) * w);
    const min = Math.min(data.lo, stretch[0]);
    const max = Math.max(data.hi, stretch[1]);
    const pad = (max - min) * 0.02;
    const fg = getComputedStyle(document.documentElement).getPropertyValue('--vscode-foreground').trim() || '#ccc';
    plot = new uPlot({
      width: o.width, height: 90,
      legend: { show: false },
      cursor: { show: false },
      scales: { x: { time: false, range: [min - pad, max + pad] }, y: { range: (_u, _lo, hi) => [0, Math.max(1, hi)] } },
      axes: [{ stroke: fg, size: 24, grid: { show: false } }, { show: false }],
      series: [{}, { label: o.label, stroke: themeColour(o.colour), fill: themeColour(o.colour), paths: uPlot.paths.bars?.({ size: [1, Infinity], gap: 0 }) }],
    }, [xs, data.counts] as uPlot.AlignedData, root);
    for (const h of handles) plot.over.appendChild(h);
    place();
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
