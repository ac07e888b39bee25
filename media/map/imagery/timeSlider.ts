/**
 * A time slider: the dates of one place (an AOI's assets, or search results over it) shown one
 * at a time. The dates on either side of the shown one are drawn ahead, invisible (opacity 0),
 * in the same pane, so a step only swaps which layer is opaque: no read, decode or repaint
 * waits for it. Dates whose footprint misses the view are skipped by steps and play.
 */
import type * as Leaflet from 'leaflet';
import type { Pool } from 'geotiff';
import * as l10n from '@vscode/l10n';
import type { ImageryStatusReport, TimeFrame } from '../../../src/panels/imagery/protocol';
import { dockSlot } from '../frame';
import { button, clear, el } from '../../shared/dom';
import type { ReadBytes } from './byteSource';
import { createImageryLayer, type ImageryLayerHandle } from './imageryLayer';
import { seriesStretch } from './autoStretch';
import type { Range } from './stretch';
import { keepEventsInside } from '../toolEvents';

export interface TimeSliderDeps {
  L: typeof Leaflet;
  map: Leaflet.Map;
  read: ReadBytes;
  pool?: Pool;
  pane: string;
  /** A date's layer settled (its visible tiles drawn, or failed), as the layer list reports its layers. */
  onSettled?(id: string, report: ImageryStatusReport): void;
  /** The slider's "Export Timelapse…" button: the extension asks the size and rate. */
  onExport?(): void;
  /** The dates or the date shown changed (a shared view carries them). */
  onChange?(): void;
  /** The slider opens on some dates (a compare, drawn in the same pane, gives way). */
  onStart?(title: string): void;
}

/** Milliseconds each date stays on screen while playing (once its tiles are drawn). */
const PLAY_MS = 1200;
/** Longest a play step waits for the next date's tiles before moving on anyway. */
const PLAY_WAIT_MS = 15000;

interface Drawn {
  layer: ImageryLayerHandle;
  error?: string;
  drawn?: boolean;
  reported?: string;
}

export class TimeSlider {
  private frames: TimeFrame[] = [];
  private title = '';
  private shown = -1;
  private readonly drawn = new Map<number, Drawn>();
  private readonly root: HTMLElement;
  private readonly live: HTMLElement;
  private range?: HTMLInputElement;
  private label?: HTMLElement;
  private status?: HTMLElement;
  private ticks?: HTMLElement;
  private playButton?: HTMLButtonElement;
  private playing?: { timer?: ReturnType<typeof setTimeout> };
  /** One stretch for every date (worked out over their clear pixels together), and what stops its reads. */
  private sharedStretch?: Promise<Range[] | undefined>;
  private stretchReads?: AbortController;
  private readonly onView = () => this.viewChanged();

  constructor(private readonly deps: TimeSliderDeps) {
    this.root = el('section', { class: 'eo-timeline', 'aria-label': l10n.t('Time slider'), hidden: true });
    this.live = el('div', { class: 'eo-sr-only eo-timeline-live', 'aria-live': 'polite' });
    // in the dock beside the map (media/map/dock.ts)
    dockSlot(deps.map, 'timeline').append(this.root);
    deps.map.getContainer().append(this.live);
    keepEventsInside(deps.L, this.root);
  }

  get active(): boolean {
    return this.shown >= 0;
  }

  /** The date shown, its index and the frames drawn ahead (tests and the benchmark read it). */
  get state(): { index: number; date?: string; prefetched: number[]; playing: boolean } {
    return {
      index: this.shown,
      date: this.frames[this.shown]?.date,
      prefetched: [...this.drawn.keys()].filter((k) => k !== this.shown).sort((a, b) => a - b),
      playing: !!this.playing,
    };
  }

  /** The dates the slider steps through, oldest first, and its title; undefined when closed. */
  get dates(): { title: string; frames: TimeFrame[] } | undefined {
    return this.active ? { title: this.title, frames: [...this.frames] } : undefined;
  }

  /** The layer drawing a date, once created (tests and the benchmark). */
  layerOf(index: number): ImageryLayerHandle | undefined {
    return this.drawn.get(index)?.layer;
  }

  /**
   * Starts on `date` when it is one of the dates (a shared view), else on the latest date in
   * view (else the latest); dates sorted oldest first. `fit` first moves the map over all the
   * dates' footprints.
   */
  start(title: string, frames: TimeFrame[], fit = true, date?: string): void {
    this.stop();
    this.frames = [...frames].sort((a, b) => a.date.localeCompare(b.date));
    this.title = title;
    if (!this.frames.length) return;
    this.deps.onStart?.(title);
    this.stretchReads = new AbortController();
    this.sharedStretch = seriesStretch(
      this.frames.map((f) => f.spec),
      this.deps.read,
      this.deps.pool,
      this.stretchReads.signal,
    );
    const boxes = this.frames.map((f) => f.spec.bbox).filter((b): b is [number, number, number, number] => !!b);
    if (fit && boxes.length) {
      const bounds = this.deps.L.latLngBounds(
        boxes.flatMap(
          ([w, s, e, n]) =>
            [
              [s, w],
              [n, e],
            ] as [number, number][],
        ),
      );
      this.deps.map.fitBounds(bounds, { padding: [24, 24], maxZoom: 14, animate: false });
    }
    this.build();
    this.root.hidden = false;
    this.deps.map.on('moveend', this.onView);
    const asked = date === undefined ? -1 : this.frames.findIndex((f) => f.date === date);
    if (asked >= 0) {
      this.show(asked);
      return;
    }
    let first = this.frames.length - 1;
    while (first > 0 && !this.inView(first)) first--;
    this.show(this.inView(first) ? first : this.frames.length - 1);
  }

  stop(): void {
    this.pause();
    this.stretchReads?.abort();
    this.stretchReads = undefined;
    this.sharedStretch = undefined;
    for (const d of this.drawn.values()) this.drop(d);
    this.drawn.clear();
    this.shown = -1;
    this.deps.map.off('moveend', this.onView);
    clear(this.root);
    this.root.hidden = true;
    this.deps.onChange?.();
  }

  /** Shows a date: the prefetched layer becomes opaque, its neighbours start drawing. */
  show(index: number): void {
    if (index < 0 || index >= this.frames.length) return;
    const prev = this.drawn.get(this.shown);
    const next = this.ensure(index);
    this.shown = index;
    next.layer.setOpacity(this.frames[index].spec.opacity ?? 1);
    next.layer.bringToFront();
    if (prev && prev !== next) prev.layer.setOpacity(0);
    this.prefetch();
    this.updateUi();
    this.deps.onChange?.();
  }

  /** The next date in view in a direction; false when there is none. */
  step(dir: 1 | -1): boolean {
    const i = this.neighbour(this.shown, dir);
    if (i === undefined) return false;
    this.show(i);
    return true;
  }

  play(): void {
    if (this.playing || !this.active) return;
    this.playing = {};
    this.updatePlayButton();
    const tick = async () => {
      const p = this.playing;
      if (!p) return;
      // from the last date in view, start again at the first
      const target = this.neighbour(this.shown, 1) ?? this.neighbour(-1, 1);
      if (target === undefined) {
        this.pause();
        return;
      }
      await this.whenDrawn(target);
      if (this.playing !== p) return;
      this.show(target);
      p.timer = setTimeout(() => void tick(), PLAY_MS);
    };
    this.playing.timer = setTimeout(() => void tick(), PLAY_MS);
  }

  pause(): void {
    if (!this.playing) return;
    clearTimeout(this.playing.timer);
    this.playing = undefined;
    this.updatePlayButton();
  }

  private inView(index: number): boolean {
    const b = this.frames[index]?.spec.bbox;
    if (!b) return true;
    const [w, s, e, n] = b;
    return this.deps.map.getBounds().intersects([
      [s, w],
      [n, e],
    ]);
  }

  private neighbour(from: number, dir: 1 | -1): number | undefined {
    for (let i = from + dir; i >= 0 && i < this.frames.length; i += dir) if (this.inView(i)) return i;
    return undefined;
  }

  private ensure(index: number): Drawn {
    let d = this.drawn.get(index);
    if (d) return d;
    const { L, map, read, pool, pane } = this.deps;
    const frame = this.frames[index];
    const entry: Drawn = {} as Drawn;
    entry.layer = createImageryLayer(
      { ...frame.spec, opacity: 0 },
      {
        L,
        read,
        pool,
        pane,
        onStatus: (s) => {
          entry.error = s.state === 'error' ? s.text : undefined;
          if (this.shown === index) this.updateStatus();
          const key = s.state === 'error' ? `error:${s.text}` : s.state;
          if ((s.state === 'ready' || s.state === 'error') && entry.reported !== key) {
            entry.reported = key;
            this.deps.onSettled?.(frame.spec.id, { state: s.state, text: entry.error, drawn: !!entry.drawn });
          }
        },
        onFirstPixels: () => (entry.drawn = true),
        sharedStretch: this.sharedStretch,
      },
    );
    entry.layer.addTo(map);
    d = entry;
    this.drawn.set(index, d);
    return d;
  }

  private drop(d: Drawn): void {
    d.layer.cancel();
    d.layer.remove();
  }

  /** Draws the dates either side of the shown one; forgets the rest. */
  private prefetch(): void {
    const keep = new Set([this.shown, this.neighbour(this.shown, 1), this.neighbour(this.shown, -1)].filter((i): i is number => i !== undefined));
    for (const i of keep) this.ensure(i);
    for (const [i, d] of [...this.drawn]) {
      if (keep.has(i)) continue;
      this.drop(d);
      this.drawn.delete(i);
    }
  }

  private whenDrawn(index: number): Promise<void> {
    const { layer } = this.ensure(index);
    if (!layer.isLoading()) return Promise.resolve();
    return new Promise((resolve) => {
      const t = setTimeout(done, PLAY_WAIT_MS);
      function done() {
        clearTimeout(t);
        layer.off('load', done);
        resolve();
      }
      layer.on('load', done);
    });
  }

  private viewChanged(): void {
    if (!this.active) return;
    this.prefetch();
    this.updateUi();
  }

  // ------------------------------------------------------------ the control

  private build(): void {
    clear(this.root);
    const n = this.frames.length;
    this.range = el('input', {
      type: 'range',
      min: 0,
      max: n - 1,
      step: 1,
      class: 'date',
      'aria-label': l10n.t('Date'),
      title: l10n.t('Arrow keys step through the dates in view; Space plays or pauses'),
    }) as HTMLInputElement;
    this.range.addEventListener('input', () => this.show(Number(this.range?.value)));
    this.range.addEventListener('keydown', (e) => this.key(e));
    this.playButton = button('▶', () => (this.playing ? this.pause() : this.play()), { class: 'secondary play' });
    this.label = el('span', { class: 'when' });
    this.status = el('span', { class: 'status muted' });
    this.ticks = el('div', { class: 'ticks', 'aria-hidden': 'true' });
    this.frames.forEach((f, i) => {
      const cloud = f.cloudCover;
      const bar = el('span', { class: 'cloud' });
      // through the CSSOM: the page's CSP has no 'unsafe-inline' for style attributes
      bar.style.height = `${cloud === undefined ? 0 : Math.max(2, Math.min(100, cloud))}%`;
      const tick = el('button', { type: 'button', class: 'tick', tabindex: -1, title: this.describe(i) }, bar);
      tick.addEventListener('click', () => this.show(i));
      this.ticks?.appendChild(tick);
    });
    this.root.append(
      el(
        'div',
        { class: 'head' },
        el('span', { class: 'title', title: this.title }, this.title),
        ...(this.deps.onExport
          ? [
              button('⤓', () => this.deps.onExport?.(), {
                class: 'secondary export',
                title: l10n.t('Export Timelapse… (an animated GIF or WebM of these dates)'),
                'aria-label': l10n.t('Export Timelapse…'),
              }),
            ]
          : []),
        button('✕', () => this.stop(), { class: 'secondary end', title: l10n.t('Close the time slider'), 'aria-label': l10n.t('Close the time slider') }),
      ),
      el(
        'div',
        { class: 'row' },
        button('‹', () => this.step(-1), { class: 'secondary prev', title: l10n.t('Previous date in view'), 'aria-label': l10n.t('Previous date in view') }),
        this.playButton,
        button('›', () => this.step(1), { class: 'secondary next', title: l10n.t('Next date in view'), 'aria-label': l10n.t('Next date in view') }),
        el('div', { class: 'track' }, this.range, this.ticks),
      ),
      el('div', { class: 'row info' }, this.label, this.status),
    );
    this.updatePlayButton();
  }

  private describe(i: number): string {
    const f = this.frames[i];
    const cloud = f.cloudCover === undefined ? l10n.t('cloud cover not given') : l10n.t('{0} % cloud', Math.round(f.cloudCover));
    return this.inView(i) ? `${f.date}: ${cloud}` : l10n.t('{0}: {1}, outside this view', f.date, cloud);
  }

  private key(e: KeyboardEvent): void {
    const steps: Record<string, 1 | -1> = { ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1, PageUp: 1, PageDown: -1 };
    if (e.key in steps) this.step(steps[e.key]);
    else if (e.key === 'Home') {
      const i = this.neighbour(-1, 1);
      if (i !== undefined) this.show(i);
    } else if (e.key === 'End') {
      const i = this.neighbour(this.frames.length, -1);
      if (i !== undefined) this.show(i);
    } else if (e.key === ' ') {
      if (this.playing) this.pause();
      else this.play();
    } else return;
    e.preventDefault();
  }

  private updatePlayButton(): void {
    const b = this.playButton;
    if (!b) return;
    b.textContent = this.playing ? '⏸' : '▶';
    b.title = this.playing ? l10n.t('Pause') : l10n.t('Play through the dates in view');
    b.setAttribute('aria-label', this.playing ? l10n.t('Pause') : l10n.t('Play'));
    b.setAttribute('aria-pressed', String(!!this.playing));
  }

  private updateStatus(): void {
    if (!this.status) return;
    const d = this.drawn.get(this.shown);
    this.status.textContent = d?.error ?? '';
    this.status.classList.toggle('error', !!d?.error);
  }

  private updateUi(): void {
    const i = this.shown;
    const f = this.frames[i];
    if (!f || !this.range || !this.label || !this.ticks) return;
    const text = this.describe(i);
    this.range.value = String(i);
    this.range.setAttribute('aria-valuetext', text);
    this.label.textContent = l10n.t('{0} of {1}: {2}', i + 1, this.frames.length, text);
    Array.from(this.ticks.children).forEach((t, k) => {
      t.classList.toggle('current', k === i);
      t.classList.toggle('miss', !this.inView(k));
      (t as HTMLElement).title = this.describe(k);
    });
    this.live.textContent = text;
    this.updateStatus();
  }
}
