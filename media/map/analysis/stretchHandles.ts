/**
 * The stretch's two ends as handles over a histogram: sliders a person drags or moves with the
 * arrow keys (Shift for bigger steps, Home/End for the data's ends).
 */
import * as l10n from '@vscode/l10n';
import type uPlot from 'uplot';

/** What the handles move: the chart's stretch over its data. */
export interface StretchTarget {
  /** The data's ends (steps are a hundredth of the range; Home and End go there). */
  range(): { lo: number; hi: number };
  stretch(): [number, number];
  /** Moves handle `k` (0: minimum, 1: maximum) to `v`; `commit`: the move is done (not mid-drag). */
  move(k: number, v: number, commit: boolean): void;
  /** The plot drawn now, to turn a pointer's position into a value. */
  plot(): uPlot | undefined;
  /** A drag ended. */
  done(): void;
}

function fmt(v: number): string {
  return Math.abs(v) >= 100 ? String(Math.round(v)) : String(Math.round(v * 1e4) / 1e4);
}

/** The minimum and maximum handles for the histogram of `label`. */
export function stretchHandles(label: string, t: StretchTarget): HTMLElement[] {
  const handles = [0, 1].map((k) => {
    const h = document.createElement('div');
    h.className = `handle ${k === 0 ? 'lo' : 'hi'}`;
    h.tabIndex = 0;
    h.setAttribute('role', 'slider');
    h.setAttribute('aria-label', k === 0 ? l10n.t('{0}: stretch minimum', label) : l10n.t('{0}: stretch maximum', label));
    return h;
  });
  handles.forEach((h, k) => {
    h.addEventListener('keydown', (e) => {
      const { lo, hi } = t.range();
      const at = t.stretch()[k];
      const step = ((hi - lo) / 100) * (e.shiftKey ? 10 : 1);
      const to =
        e.key === 'ArrowLeft' || e.key === 'ArrowDown'
          ? at - step
          : e.key === 'ArrowRight' || e.key === 'ArrowUp'
            ? at + step
            : e.key === 'Home'
              ? lo
              : e.key === 'End'
                ? hi
                : undefined;
      if (to === undefined) return;
      e.preventDefault();
      t.move(k, to, true);
    });
    h.addEventListener('pointerdown', (e) => drag(h, k, e, t));
  });
  return handles;
}

/** Handle `k` follows the pointer until it is let go. */
function drag(h: HTMLElement, k: number, e: PointerEvent, t: StretchTarget): void {
  e.preventDefault();
  h.setPointerCapture(e.pointerId);
  h.focus();
  const onMove = (ev: PointerEvent) => {
    const plot = t.plot();
    if (!plot) return;
    const x = ev.clientX - plot.over.getBoundingClientRect().left;
    t.move(k, plot.posToVal(x, 'x'), false);
  };
  const onUp = () => {
    h.removeEventListener('pointermove', onMove);
    h.removeEventListener('pointerup', onUp);
    h.removeEventListener('pointercancel', onUp);
    t.done();
  };
  h.addEventListener('pointermove', onMove);
  h.addEventListener('pointerup', onUp);
  h.addEventListener('pointercancel', onUp);
}

/** Puts the handles on `u`'s x scale at `stretch`, with their values for screen readers and the hover. */
export function placeHandles(handles: HTMLElement[], u: uPlot, stretch: [number, number], data: { lo: number; hi: number }): void {
  handles.forEach((h, k) => {
    const v = stretch[k];
    h.style.left = `${u.valToPos(v, 'x')}px`;
    h.setAttribute('aria-valuenow', fmt(v));
    h.setAttribute('aria-valuetext', fmt(v));
    h.setAttribute('aria-valuemin', fmt(Math.min(data.lo, stretch[0])));
    h.setAttribute('aria-valuemax', fmt(Math.max(data.hi, stretch[1])));
    h.title = fmt(v);
  });
}
