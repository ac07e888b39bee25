/**
 * The map's tools in one dock beside the map, as QGIS and EO Browser keep theirs: compare, the
 * time slider, the imagery layers, legends, the pixel inspector, the histogram and the index
 * chart each get a section of their own, in one column that scrolls. Nothing floats over the
 * map but its own small controls, so no tool can cover another, and no press inside a tool can
 * reach the map (the dock is not inside the map's element).
 *
 * A section shows while its tool is open (map.css, `:has`), and its heading is a button that
 * folds it away (the disclosure pattern: Tab reaches it, Enter or Space folds, aria-expanded says).
 * The tools find their section by name (media/map/frame.ts `dockSlot`): the imagery chunk is a
 * bundle of its own and shares the DOM only.
 */
import * as l10n from '@vscode/l10n';
import { button, el } from '../shared/dom';
import type { DockSlot } from './frame';

function titles(): Record<DockSlot, string> {
  return {
    compare: l10n.t('Compare'),
    timeline: l10n.t('Time slider'),
    layers: l10n.t('Imagery layers'),
    legend: l10n.t('Legend'),
    inspector: l10n.t('Pixel inspector'),
    histogram: l10n.t('Histogram and stretch'),
    series: l10n.t('Index over time'),
  };
}

function section(slot: DockSlot, title: string): HTMLElement {
  const body = el('div', { class: 'body', id: `dock-${slot}`, role: 'region', 'aria-labelledby': `dock-${slot}-head` });
  const fold = button(title, () => {
    const folded = fold.getAttribute('aria-expanded') === 'true';
    fold.setAttribute('aria-expanded', String(!folded));
    box.classList.toggle('folded', folded);
  });
  fold.id = `dock-${slot}-head`;
  fold.className = 'fold';
  fold.setAttribute('aria-expanded', 'true');
  fold.setAttribute('aria-controls', body.id);
  const box = el('section', { class: 'eo-dock-section', 'data-slot': slot }, el('h2', {}, fold), body);
  return box;
}

/** A section shows while its tool does (the rule map.css hides it by). */
const SHOWN = ':has(> .body > :not([hidden]):not(:empty))';

/**
 * Brings a section whose tool just opened into the dock's view, unfolded: the dock keeps its
 * scroll, so a chart opened below the fold, or a time slider above it, showed nowhere a person
 * was looking. Not wholly in view, its heading goes to the dock's top: a tool grows after it
 * opens (a chart is drawn once its code loads), so the room below the heading is what counts.
 */
function reveal(dock: HTMLElement, box: HTMLElement): void {
  box.classList.remove('folded');
  box.querySelector('button.fold')?.setAttribute('aria-expanded', 'true');
  const d = dock.getBoundingClientRect();
  const b = box.getBoundingClientRect();
  if (b.top < d.top || b.bottom > d.bottom) dock.scrollTop += b.top - d.top;
}

/**
 * Reveals each section as its tool opens (the first in the dock's order when several open at
 * once), and again as it grows, until the person scrolls, clicks or types in the dock.
 * `onShown` as the dock comes into view (its first tool opens).
 */
function revealOpened(dock: HTMLElement, onShown?: () => void): void {
  const boxes = Array.from(dock.querySelectorAll<HTMLElement>('.eo-dock-section'));
  const shown = new Set<HTMLElement>();
  let opened: HTMLElement | undefined;
  const grown = new ResizeObserver(() => opened && reveal(dock, opened));
  for (const box of boxes) grown.observe(box);
  for (const type of ['wheel', 'pointerdown', 'keydown']) dock.addEventListener(type, () => (opened = undefined), { passive: true });
  new MutationObserver(() => {
    let first: HTMLElement | undefined;
    const wasShown = shown.size > 0;
    for (const box of boxes) {
      const now = box.matches(SHOWN);
      if (now && !shown.has(box)) first ??= box;
      if (now) shown.add(box);
      else shown.delete(box);
    }
    if (!first) return;
    if (!wasShown) onShown?.();
    opened = first;
    reveal(dock, first);
  }).observe(dock, { subtree: true, childList: true, attributes: true, attributeFilter: ['hidden'] });
}

/** The dock, empty (and so not shown) until a tool opens in it; `onShown` as it comes into view. */
export function createDock(onShown?: () => void): HTMLElement {
  const dock = el('aside', { id: 'eo-dock', 'aria-label': l10n.t('Map tools') });
  for (const [slot, title] of Object.entries(titles()) as [DockSlot, string][]) dock.append(section(slot, title));
  revealOpened(dock, onShown);
  return dock;
}
