/**
 * Two imagery layers already on the map, compared: side by side with a swipe divider (drag it,
 * or focus it and use the arrow keys), sides swapped with a button, or flickered (one layer at
 * a time, toggled with a button or the F key). Each layer keeps the tiles it painted: a drag
 * frame only slides the two layers' clips (slidingClip.ts), which the compositor does without
 * repainting either layer.
 */
import type * as Leaflet from 'leaflet';
import * as l10n from '@vscode/l10n';
import { append, button, clear, el } from '../../shared/dom';
import { SlidingClip } from './slidingClip';
import { dockSlot } from '../frame';
import { keepEventsInside } from '../toolEvents';
import { showNotice } from '../../shared/notice';

export interface CompareDeps {
  L: typeof Leaflet;
  map: Leaflet.Map;
  /** The drawn layer of an id on the map (undefined when it has none). */
  layer(id: string): Leaflet.GridLayer | undefined;
  /** The layers that can be compared, in list order. */
  layers(): { id: string; title: string }[];
  /** The pair, the divider or the mode changed (a shared view carries them). */
  onChange?(): void;
  /** A compare starts (the time slider, drawn in the same pane, gives way). */
  onStart?(): void;
}

export type CompareMode = 'swipe' | 'flicker';

export interface CompareState {
  left: string;
  right: string;
  /** Divider position as a share of the map's width, 0 to 1. */
  position: number;
  mode: CompareMode;
  /** In flicker mode, the side shown. */
  showing: 'left' | 'right';
}

const KEY_STEP = 0.02;
const KEY_STEP_LARGE = 0.1;

export class SwipeCompare {
  private current?: CompareState;
  private clips?: { left: SlidingClip; right: SlidingClip };
  private readonly root: HTMLElement;
  private readonly divider: HTMLElement;
  private readonly bar: HTMLElement;
  private readonly live: HTMLElement;
  private picker?: HTMLElement;
  private dragging = false;
  /** The pane's other layers, hidden while comparing. */
  private hidden: HTMLElement[] = [];
  private corners?: ResizeObserver;
  /** Where the compared layers were (z-index and place in the pane) before the compare. */
  private order: { layer: Leaflet.GridLayer; zIndex?: number; box: HTMLElement; next: ChildNode | null }[] = [];
  private readonly onMove = () => this.apply();
  private readonly onRemoved = () => this.stop(l10n.t('Compare ended: a compared layer was hidden or removed.'));
  private readonly onKey = (e: KeyboardEvent) => this.key(e);

  constructor(private readonly deps: CompareDeps) {
    const { L } = deps;
    this.divider = el(
      'div',
      {
        class: 'eo-swipe-divider',
        role: 'slider',
        tabindex: 0,
        'aria-orientation': 'horizontal',
        'aria-valuemin': 0,
        'aria-valuemax': 100,
        'aria-label': l10n.t('Swipe divider'),
        title: l10n.t('Drag, or use the arrow keys (Shift for larger steps); F flickers'),
      },
      el('div', { class: 'handle', 'aria-hidden': 'true' }, '⇔'),
    );
    this.bar = el('div', { class: 'eo-compare-bar', role: 'toolbar', 'aria-label': l10n.t('Compare'), hidden: true });
    this.live = el('div', { class: 'eo-sr-only', 'aria-live': 'polite' });
    this.root = el('div', { class: 'eo-compare', hidden: true }, this.divider);
    // the compare's read-outs; why it ended is a notice (showNotice), seen as well as heard
    deps.map.getContainer().append(this.root, this.live);
    // the bar sits in the dock beside the map (media/map/dock.ts)
    dockSlot(deps.map, 'compare').append(this.bar);
    keepEventsInside(L, this.root, this.bar);
    // the press also focuses the divider (it is focusable), so the arrow keys work after a drag
    this.divider.addEventListener('pointerdown', (e) => {
      this.dragging = true;
      this.divider.setPointerCapture(e.pointerId);
    });
    this.divider.addEventListener('pointermove', (e) => {
      if (!this.dragging) return;
      const r = this.deps.map.getContainer().getBoundingClientRect();
      this.setPosition((e.clientX - r.left) / r.width);
    });
    const end = () => {
      if (this.dragging) this.announce();
      this.dragging = false;
    };
    this.divider.addEventListener('pointerup', end);
    this.divider.addEventListener('pointercancel', end);
    this.divider.addEventListener('keydown', (e) => this.dividerKey(e));
  }

  get state(): CompareState | undefined {
    return this.current ? { ...this.current } : undefined;
  }

  /** Starts comparing two layers of the map (both must be drawn); `at`: the divider's place (0 to 1). */
  start(left: string, right: string, mode: CompareMode = 'swipe', at?: number): boolean {
    const a = this.deps.layer(left);
    const b = this.deps.layer(right);
    if (!a || !b || left === right) return false;
    const position = Math.min(1, Math.max(0, at ?? this.current?.position ?? 0.5));
    this.stop();
    this.closePicker();
    this.deps.onStart?.();
    this.current = { left, right, position, mode, showing: 'left' };
    for (const l of [a, b]) l.on('remove', this.onRemoved);
    // the right-hand layer draws above the left one, so the flicker's hidden side never shows
    // through; the order they had comes back when the compare ends
    this.order = [a, b].map((l) => ({
      layer: l,
      zIndex: (l.options as Leaflet.GridLayerOptions).zIndex,
      box: l.getContainer()!,
      next: l.getContainer()!.nextSibling,
    }));
    a.bringToBack();
    b.bringToFront();
    this.clips = { left: new SlidingClip(a.getContainer()!), right: new SlidingClip(b.getContainer()!) };
    const { map } = this.deps;
    map.on('move zoomend resize viewreset', this.onMove);
    map.getContainer().addEventListener('keydown', this.onKey);
    this.hideOthers(left, right);
    this.root.hidden = false;
    this.bar.hidden = false;
    // the handle moves out of the way when a control grows or shrinks (a layer's settings appear)
    this.corners = new ResizeObserver(() => this.placeHandle());
    for (const e of Array.from(map.getContainer().querySelectorAll<HTMLElement>('.leaflet-control-container > *'))) this.corners.observe(e);
    this.buildBar();
    this.apply();
    this.announce();
    return true;
  }

  /** Ends the comparison: both layers show whole again; a `reason` is shown (nothing ends unsaid). */
  stop(reason?: string): void {
    const c = this.current;
    if (!c) return;
    this.current = undefined;
    this.clips?.left.release();
    this.clips?.right.release();
    this.clips = undefined;
    for (const o of this.order.reverse()) {
      if (o.next && o.next.parentNode === o.box.parentNode) o.box.parentNode?.insertBefore(o.box, o.next);
      if (o.zIndex !== undefined) o.layer.setZIndex(o.zIndex);
      else {
        (o.layer.options as Leaflet.GridLayerOptions).zIndex = undefined;
        o.box.style.zIndex = '';
      }
    }
    this.order = [];
    for (const id of [c.left, c.right]) {
      const l = this.deps.layer(id);
      l?.off('remove', this.onRemoved);
      const box = l?.getContainer();
      if (box) box.style.visibility = '';
    }
    this.deps.map.off('move zoomend resize viewreset', this.onMove);
    this.deps.map.getContainer().removeEventListener('keydown', this.onKey);
    this.showOthers();
    this.corners?.disconnect();
    this.corners = undefined;
    this.root.hidden = true;
    this.bar.hidden = true;
    // the notice is read out too (role status): the live region stays quiet then
    this.live.textContent = '';
    if (reason) showNotice(reason);
    this.deps.onChange?.();
  }

  /**
   * The imagery pane's other layers (and previews) are hidden while two are compared: one drawn
   * above both would fill the sides, and the left side would show whatever lies on top rather
   * than the layer its label names.
   */
  private hideOthers(left: string, right: string): void {
    const keep = [this.deps.layer(left)?.getContainer(), this.deps.layer(right)?.getContainer()];
    const pane = keep[0]?.closest('.leaflet-pane');
    if (!pane) return;
    for (const child of Array.from(pane.children) as HTMLElement[]) {
      if (keep.some((k) => k && (child === k || child.contains(k)))) continue;
      if (child.style.visibility === 'hidden') continue;
      child.style.visibility = 'hidden';
      this.hidden.push(child);
    }
  }

  private showOthers(): void {
    for (const e of this.hidden) e.style.visibility = '';
    this.hidden = [];
  }

  setPosition(fraction: number): void {
    const c = this.current;
    if (!c) return;
    c.position = Math.min(1, Math.max(0, fraction));
    this.apply();
  }

  swap(): void {
    const c = this.current;
    if (!c) return;
    this.start(c.right, c.left, c.mode);
  }

  /** Swipe ↔ flicker; in flicker mode, shows the other side. */
  flicker(): void {
    const c = this.current;
    if (!c) return;
    if (c.mode === 'swipe') c.mode = 'flicker';
    else c.showing = c.showing === 'left' ? 'right' : 'left';
    this.apply();
    this.buildBar();
    this.announce();
  }

  /** Back from flicker to the swipe divider. */
  swipe(): void {
    const c = this.current;
    if (!c || c.mode === 'swipe') return;
    c.mode = 'swipe';
    this.apply();
    this.buildBar();
    this.announce();
  }

  /** The layer list's button that opens the picker below `anchor`. */
  pickerButton(anchor: HTMLElement): HTMLButtonElement {
    return button('⇆', () => (this.picker ? this.closePicker() : this.openPicker(anchor)), {
      class: 'icon compare',
      title: l10n.t('Compare two layers (swipe or flicker)'),
      'aria-label': l10n.t('Compare two layers'),
    });
  }

  /**
   * The layer list's "Compare…": picks two of the map's layers. With fewer than two, says how
   * to get them.
   */
  openPicker(anchor: HTMLElement): void {
    this.closePicker();
    const layers = this.deps.layers().filter((l) => this.deps.layer(l.id));
    const box = el('div', { class: 'eo-compare-picker', role: 'group', 'aria-label': l10n.t('Compare two layers') });
    if (layers.length < 2) {
      box.append(
        el('div', { class: 'muted' }, l10n.t('Add two imagery layers to the map to compare them.')),
        button(l10n.t('Close'), () => this.closePicker(), { class: 'secondary' }),
      );
    } else {
      const pick = (label: string, chosen: number) => {
        const s = el('select', { 'aria-label': label }) as HTMLSelectElement;
        layers.forEach((l, i) => s.appendChild(el('option', { value: String(i) }, l.title)));
        s.value = String(chosen);
        return s;
      };
      const left = pick(l10n.t('Left layer'), 0);
      const right = pick(l10n.t('Right layer'), 1);
      const hint = el('div', { class: 'muted hint', role: 'alert' });
      const go = button(
        l10n.t('Compare'),
        () => {
          const a = layers[Number(left.value)];
          const b = layers[Number(right.value)];
          if (a.id === b.id) {
            hint.textContent = l10n.t('Pick two different layers.');
            return;
          }
          this.start(a.id, b.id);
        },
        { class: 'start' },
      );
      box.append(
        el('label', { class: 'field-inline' }, l10n.t('Left'), left),
        el('label', { class: 'field-inline' }, l10n.t('Right'), right),
        el(
          'div',
          { class: 'actions' },
          go,
          button(l10n.t('Cancel'), () => this.closePicker(), { class: 'secondary' }),
        ),
        hint,
      );
    }
    anchor.after(box);
    this.picker = box;
    (box.querySelector('select, button') as HTMLElement | null)?.focus();
  }

  private closePicker(): void {
    this.picker?.remove();
    this.picker = undefined;
  }

  private titleOf(id: string): string {
    return this.deps.layers().find((l) => l.id === id)?.title ?? id;
  }

  /** Moves the clips (and the divider) to the current position: the whole cost of a drag frame. */
  private apply(): void {
    const c = this.current;
    const clips = this.clips;
    if (!c || !clips) return;
    const a = this.deps.layer(c.left)?.getContainer();
    const b = this.deps.layer(c.right)?.getContainer();
    if (!a || !b) return;
    const { map } = this.deps;
    const size = map.getSize();
    // the layers sit in the map pane, which pans: the clips follow the map's corner in its coordinates
    const nw = map.containerPointToLayerPoint([0, 0]);
    if (c.mode === 'flicker') {
      clips.left.showAll(nw, size);
      clips.right.showAll(nw, size);
      a.style.visibility = c.showing === 'left' ? '' : 'hidden';
      b.style.visibility = c.showing === 'right' ? '' : 'hidden';
      this.divider.hidden = true;
      return;
    }
    a.style.visibility = '';
    b.style.visibility = '';
    this.divider.hidden = false;
    clips.left.show('left', size.x * c.position, nw, size);
    clips.right.show('right', size.x * c.position, nw, size);
    this.divider.style.transform = `translateX(${Math.round(size.x * c.position)}px)`;
    const pct = Math.round(c.position * 100);
    this.divider.setAttribute('aria-valuenow', String(pct));
    this.divider.setAttribute(
      'aria-valuetext',
      l10n.t('{0} % from the left: {1} on the left, {2} on the right', pct, this.titleOf(c.left), this.titleOf(c.right)),
    );
  }

  /**
   * Puts the divider's handle where no control covers the divider: the middle of the longest
   * stretch of it left free by the map's floating parts (the imagery list, the tools, the bars).
   * Done when the divider settles (start, drag end, keys, resize), not on every drag frame.
   */
  private placeHandle(): void {
    const c = this.current;
    const handle = this.divider.querySelector<HTMLElement>('.handle');
    if (!c || !handle || c.mode !== 'swipe') return;
    const box = this.deps.map.getContainer().getBoundingClientRect();
    const x = box.left + box.width * c.position;
    const taken = Array.from(this.deps.map.getContainer().querySelectorAll<HTMLElement>('.leaflet-control, .eo-top-centre > *, .eo-bottom-centre > *'))
      .map((e) => e.getBoundingClientRect())
      .filter((r) => r.width > 0 && r.height > 0 && r.left <= x + 16 && r.right >= x - 16)
      .map((r) => [Math.max(0, r.top - box.top), Math.min(box.height, r.bottom - box.top)] as const)
      .sort((p, q) => p[0] - q[0]);
    let best: [number, number] = [0, 0];
    let from = 0;
    for (const [top, bottom] of [...taken, [box.height, box.height] as const]) {
      if (top - from > best[1] - best[0]) best = [from, top];
      from = Math.max(from, bottom);
    }
    handle.style.top = `${Math.round((best[0] + best[1]) / 2)}px`;
  }

  /** After each settled change (start, drag end, keys, mode): read out, and the map's state saved. */
  private announce(): void {
    const c = this.current;
    if (!c) return;
    this.deps.onChange?.();
    this.placeHandle();
    this.live.textContent =
      c.mode === 'swipe'
        ? l10n.t('Comparing {0} (left) with {1} (right), divider at {2} %.', this.titleOf(c.left), this.titleOf(c.right), Math.round(c.position * 100))
        : l10n.t('Showing {0}.', this.titleOf(c.showing === 'left' ? c.left : c.right));
  }

  private buildBar(): void {
    const c = this.current;
    if (!c) return;
    clear(this.bar);
    const shown = c.showing === 'left' ? c.left : c.right;
    const flicker = button(c.mode === 'flicker' ? l10n.t('Flicker: {0}', this.titleOf(shown)) : l10n.t('Flicker'), () => this.flicker(), {
      class: 'secondary flicker',
      'aria-pressed': String(c.mode === 'flicker'),
      title: l10n.t('Show one layer at a time; press again (or F) to show the other'),
    });
    append(
      this.bar,
      el('span', { class: 'side left', title: this.titleOf(c.left) }, this.titleOf(c.left)),
      button('⇄', () => this.swap(), { class: 'secondary swap', title: l10n.t('Swap sides'), 'aria-label': l10n.t('Swap sides') }),
      el('span', { class: 'side right', title: this.titleOf(c.right) }, this.titleOf(c.right)),
      flicker,
      c.mode === 'flicker' ? button(l10n.t('Swipe'), () => this.swipe(), { class: 'secondary swipe', title: l10n.t('Back to the swipe divider') }) : null,
      button('✕', () => this.stop(), { class: 'secondary end', title: l10n.t('End compare'), 'aria-label': l10n.t('End compare') }),
    );
  }

  private dividerKey(e: KeyboardEvent): void {
    const c = this.current;
    if (!c) return;
    const step = e.shiftKey ? KEY_STEP_LARGE : KEY_STEP;
    const moves: Record<string, number> = {
      ArrowLeft: -step,
      ArrowDown: -step,
      ArrowRight: step,
      ArrowUp: step,
      PageDown: -KEY_STEP_LARGE,
      PageUp: KEY_STEP_LARGE,
    };
    if (e.key in moves) this.setPosition(c.position + moves[e.key]);
    else if (e.key === 'Home') this.setPosition(0);
    else if (e.key === 'End') this.setPosition(1);
    else return;
    e.preventDefault();
    e.stopPropagation();
    this.announce();
  }

  /** F anywhere on the map (not while typing) flickers. */
  private key(e: KeyboardEvent): void {
    const t = e.target as HTMLElement | null;
    if (e.ctrlKey || e.metaKey || e.altKey || (t && /^(INPUT|SELECT|TEXTAREA)$/.test(t.tagName))) return;
    if (e.key === 'f' || e.key === 'F') {
      e.preventDefault();
      this.flicker();
    }
  }
}
