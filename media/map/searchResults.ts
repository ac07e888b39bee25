/**
 * The search panel's results: the list (a listbox the keyboard walks), its count line, "Load
 * more" and "Order…", and what of them survives a webview reload. The list and the map share
 * one selection, kept by the app: a row asks for it, `markSelected` shows it.
 */
import type { MapFeature, SavedResults, SearchPage } from '../../src/panels/protocol';
import * as l10n from '@vscode/l10n';
import { button, clear, el } from '../shared/dom';

export interface ResultsHost {
  /** "Open details" of a result (Enter on its row). */
  openResult(feature: MapFeature): void;
  selectResult(id: string | undefined, from: 'list' | 'map'): void;
  /** "Order…": the selected result rows go to the extension's archive order flow. */
  orderResults(items: { collection: string; id: string }[]): void;
}

/** Beyond this many rows the results are not kept across a webview reload. */
const MAX_SAVED_RESULTS = 1000;

export class SearchResults {
  /** The count line and "Order…", above the list. */
  readonly head: HTMLElement;
  readonly list: HTMLElement;
  readonly more: HTMLButtonElement;
  private readonly status: HTMLElement;
  private readonly orderBtn: HTMLButtonElement;
  private loadedPage?: SearchPage;
  private rows = new Map<string, HTMLElement>();
  /** The rows' features, in list order, kept for `setState` (see `savedResults`). */
  private loadedFeatures = new Map<string, MapFeature>();
  private selectedId?: string;

  constructor(
    private readonly host: ResultsHost,
    loadMore: () => void,
    /** The line for a search that found nothing (it depends on the form). */
    private readonly noResults: () => string,
  ) {
    this.status = el('div', { class: 'status', id: 'status', role: 'status' });
    this.list = el('ul', { class: 'results', id: 'results', role: 'listbox', 'aria-label': l10n.t('Search results') });
    this.more = button(l10n.t('Load more'), loadMore, { id: 'load-more', class: 'secondary', hidden: true });
    this.orderBtn = button(l10n.t('Order…'), () => this.order(), {
      id: 'order-results',
      hidden: true,
      disabled: true,
      title: l10n.t('Order the selected result (priced before anything is placed)'),
    });
    // "Order…" above the list, where it stays in sight however long the list grows
    this.head = el('div', { class: 'row results-head' }, this.status, this.orderBtn);
  }

  /** The last page read (its search id and whether there is more). */
  get page(): SearchPage | undefined {
    return this.loadedPage;
  }

  /** Whether the list shows results (a search's rows, or a restored list's). */
  get shown(): boolean {
    return this.rows.size > 0;
  }

  /** A new search: no rows, no selection. */
  reset(): void {
    this.loadedPage = undefined;
    this.rows.clear();
    this.loadedFeatures.clear();
    clear(this.list);
    this.more.hidden = true;
    this.selectedId = undefined;
    this.updateOrder();
  }

  /** A page of results read: its rows below the others, and the count. */
  add(page: SearchPage): void {
    this.loadedPage = page;
    for (const f of page.features) this.addRow(f);
    this.showSummary(page);
  }

  setConnected(connected: boolean): void {
    this.more.disabled = !connected;
    this.orderBtn.disabled = !connected || !(this.selectedId && this.rows.has(this.selectedId));
  }

  private showSummary(page: Omit<SearchPage, 'features'>): void {
    const n = page.loaded.toLocaleString();
    const count =
      page.matched !== undefined
        ? l10n.t('{0} of {1} results', n, page.matched.toLocaleString())
        : page.loaded === 1
          ? l10n.t('1 result')
          : l10n.t('{0} results', n);
    const notes: string[] = [];
    if (page.noFootprint)
      notes.push(
        page.noFootprint === 1
          ? l10n.t('1 without a footprint (listed, not drawn)')
          : l10n.t('{0} without a footprint (listed, not drawn)', page.noFootprint.toLocaleString()),
      );
    if (page.unreadable) {
      notes.push(
        page.unreadable.count === 1 ? l10n.t('1 result could not be read') : l10n.t('{0} results could not be read', page.unreadable.count.toLocaleString()),
      );
    }
    const summary = page.loaded === 0 && !page.unreadable ? this.noResults() : page.hasMore ? count : l10n.t('{0} (all loaded)', count);
    this.setStatus([summary, ...notes].join(' · '));
    // The hover says why results were left out (the log has every one, with its field).
    this.status.title = page.unreadable
      ? [l10n.t('Left out because the service sent them in a form that cannot be read:'), ...page.unreadable.reasons].join('\n')
      : '';
    this.more.hidden = !page.hasMore;
    this.updateOrder();
  }

  /** Shown once there are results; usable while one of them is selected. */
  private updateOrder(): void {
    this.orderBtn.hidden = this.rows.size === 0;
    this.orderBtn.disabled = !(this.selectedId && this.rows.has(this.selectedId));
  }

  private order(): void {
    const ref = this.selectedId ? this.loadedFeatures.get(this.selectedId)?.ref : undefined;
    if (ref?.kind === 'archiveItem') this.host.orderResults([{ collection: ref.collection, id: ref.id }]);
  }

  /** What `setState` keeps of the results (capped, so the state stays small). */
  savedResults(): SavedResults | undefined {
    if (!this.loadedPage || this.loadedFeatures.size > MAX_SAVED_RESULTS) return undefined;
    const { features: _dropped, ...page } = this.loadedPage;
    return { page, features: [...this.loadedFeatures.values()], selectedId: this.selectedId };
  }

  /** A reloaded webview: the list, its count and "Load more" as they were. */
  restoreResults(saved: SavedResults): void {
    this.rows.clear();
    this.loadedFeatures.clear();
    clear(this.list);
    for (const f of saved.features) this.addRow(f);
    this.loadedPage = { ...saved.page, features: [] };
    this.showSummary(saved.page);
  }

  statusText(): string {
    return this.status.textContent ?? '';
  }

  setStatus(text: string, error = false): void {
    this.status.textContent = text;
    this.status.title = '';
    this.status.classList.toggle('error', error);
  }

  private addRow(f: MapFeature): void {
    this.rows.get(f.id)?.remove();
    this.loadedFeatures.delete(f.id);
    this.loadedFeatures.set(f.id, f);
    const row = el(
      'li',
      { role: 'option', 'aria-selected': 'false', tabindex: 0, 'data-id': f.id, title: f.label },
      el('div', { class: 'label' }, f.label),
      f.detail ? el('div', { class: 'muted detail' }, f.detail) : null,
    );
    row.addEventListener('click', () => this.host.selectResult(f.id, 'list'));
    row.addEventListener('dblclick', () => this.host.openResult(f));
    row.addEventListener('keydown', (e) => this.rowKey(e, row, f));
    this.rows.set(f.id, row);
    this.list.appendChild(row);
  }

  private rowKey(e: KeyboardEvent, row: HTMLElement, f: MapFeature): void {
    // Space selects (and shows the footprint); Enter also opens the details, as in VS Code's lists
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      this.host.selectResult(f.id, 'list');
      if (e.key === 'Enter') this.host.openResult(f);
      return;
    }
    // A listbox moves with the arrow keys (and Home/End); moving selects, as in VS Code's lists.
    const rows = Array.from(this.list.children) as HTMLElement[];
    const at = rows.indexOf(row);
    const to =
      e.key === 'ArrowDown'
        ? rows[at + 1]
        : e.key === 'ArrowUp'
          ? rows[at - 1]
          : e.key === 'Home'
            ? rows[0]
            : e.key === 'End'
              ? rows[rows.length - 1]
              : undefined;
    if (!to) return;
    e.preventDefault();
    to.focus();
    const id = to.dataset.id;
    if (id) this.host.selectResult(id, 'list');
  }

  /** Highlights a row (selection made on the map or in the list). */
  markSelected(id: string | undefined, scroll: boolean): void {
    if (this.selectedId) {
      const old = this.rows.get(this.selectedId);
      old?.classList.remove('selected');
      old?.setAttribute('aria-selected', 'false');
    }
    this.selectedId = id;
    const row = id ? this.rows.get(id) : undefined;
    if (row) {
      row.classList.add('selected');
      row.setAttribute('aria-selected', 'true');
      if (scroll) row.scrollIntoView({ block: 'nearest' });
    }
    this.updateOrder();
  }
}
