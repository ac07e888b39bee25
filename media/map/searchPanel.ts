/**
 * The side panel: the "Search here" form (archive STAC search or satellite imagery search),
 * its results list with "Load more", and the Create AOI form. All data arrives through the
 * extension (`rpc`); the list and the map share one selection, kept by the app.
 * This file holds the panel's buttons and the search itself; the form (`searchForm`), the
 * results (`searchResults`) and the AOI form (`aoiForm`) are its parts.
 */
import type { MapFeature, SavedResults, SearchPage, SearchParams } from '../../src/panels/protocol';
import * as l10n from '@vscode/l10n';
import { km2 } from '../../src/format';
import { geodesicArea } from '../../src/geo/area';
import { ringToGeoJson } from '../../src/geo/antimeridian';
import { button, el } from '../shared/dom';
import { AoiForm, type AoiHost } from './aoiForm';
import type { DrawnShape, Shape } from './draw';
import { SearchForm, type FormHost, type FormState } from './searchForm';
import { SearchResults, type ResultsHost } from './searchResults';

export interface PanelHost extends FormHost, ResultsHost, AoiHost {
  startDraw(shape: Shape): void;
  /** The map's current view as the search area (a rectangle), for keyboard users and quick searches. */
  useView(): void;
  showResults(features: MapFeature[], mode: 'replace' | 'append'): void;
  /** "Save Search…": the extension writes the search to a `*.eosearch.json` file. */
  saveSearch(params: SearchParams): void;
  /** "Chart Index Over Time…" over the drawn area (the extension asks the index and the dates). */
  chartIndex(): void;
}

const notConnected = (): string => l10n.t('Not connected: sign in or try the sandbox to search.');

export class SearchPanel {
  readonly root: HTMLElement;
  private readonly form: SearchForm;
  private readonly results: SearchResults;
  private readonly aoiForm: AoiForm;
  private shape?: DrawnShape;
  private searching = false;
  private connected = true;

  private readonly shapeInfo: HTMLElement;
  private readonly searchBtn: HTMLButtonElement;
  private readonly aoiBtn: HTMLButtonElement;
  private readonly chartBtn: HTMLButtonElement;
  private readonly saveBtn: HTMLButtonElement;

  constructor(
    private readonly host: PanelHost,
    initial: FormState,
  ) {
    this.form = new SearchForm(host, initial);
    this.shapeInfo = el('div', { class: 'muted', id: 'shape-info' }, l10n.t('Draw a rectangle or a polygon on the map.'));
    this.searchBtn = button(l10n.t('Search here'), () => void this.search(), { id: 'search', disabled: true });
    this.aoiBtn = button(l10n.t('Create AOI…'), () => this.openAoiForm(), { id: 'create-aoi', class: 'secondary', disabled: true });
    this.chartBtn = button(l10n.t('Chart Index…'), () => host.chartIndex(), {
      id: 'chart-index',
      class: 'secondary',
      disabled: true,
      title: l10n.t('Chart an index over time inside the drawn area'),
    });
    this.saveBtn = button(l10n.t('Save Search…'), () => this.save(), {
      id: 'save-search',
      class: 'secondary',
      disabled: true,
      title: l10n.t('Save this search to a .eosearch.json file to run again later'),
    });
    this.results = new SearchResults(
      host,
      () => void this.loadMore(),
      () => this.form.noResults(),
    );
    this.aoiForm = new AoiForm(host, this.form);
    this.root = el(
      'section',
      { class: 'search', 'aria-label': l10n.t('Search here') },
      el('h2', {}, l10n.t('Search here')),
      ...this.form.elements,
      el(
        'div',
        { class: 'row draw-buttons' },
        button(`▭ ${l10n.t('Rectangle')}`, () => host.startDraw('rectangle'), { class: 'secondary', id: 'draw-rect', title: l10n.t('Drag on the map') }),
        button(`⬠ ${l10n.t('Polygon')}`, () => host.startDraw('polygon'), {
          class: 'secondary',
          id: 'draw-poly',
          title: l10n.t('Click vertices; double-click or Enter to finish'),
        }),
        button(`▣ ${l10n.t('Current view')}`, () => host.useView(), {
          class: 'secondary',
          id: 'draw-view',
          title: l10n.t('Search the area the map shows now'),
        }),
      ),
      this.shapeInfo,
      el('div', { class: 'row' }, this.searchBtn, this.aoiBtn, this.saveBtn, this.chartBtn),
      this.aoiForm.root,
      this.results.head,
      this.results.list,
      this.results.more,
    );
    this.form.kindChanged(initial);
  }

  formState(): FormState {
    return this.form.formState();
  }

  /** Not connected: nothing can be searched or created until a service is. */
  setConnected(connected: boolean): void {
    const back = connected && !this.connected;
    this.connected = connected;
    this.form.connectionChanged(connected, back);
    // what a search said while signed out is no longer so
    if (back && this.results.statusText() === notConnected()) this.results.setStatus('');
    this.searchBtn.disabled = !this.shape || this.searching || !connected;
    this.aoiBtn.disabled = !this.shape || !connected;
    this.chartBtn.disabled = !this.shape || !connected;
    this.results.setConnected(connected);
  }

  /** The drawn shape, or none (`why` says what became of the last one). */
  setShape(shape: DrawnShape | undefined, why?: string): void {
    this.shape = shape;
    this.form.newArea();
    this.setConnected(this.connected);
    this.saveBtn.disabled = !shape;
    this.aoiForm.hide();
    if (!shape) {
      this.shapeInfo.textContent = why ?? l10n.t('Draw a rectangle or a polygon on the map.');
      return;
    }
    const g = ringToGeoJson(shape.ring);
    const area = geodesicArea(g);
    this.shapeInfo.textContent = shape.shape === 'rectangle' ? l10n.t('Rectangle drawn · {0}', km2(area)) : l10n.t('Polygon drawn · {0}', km2(area));
  }

  /**
   * "Search Archive Here" over an area the extension drew: the archive, with the form's filters
   * (their defaults unless the person set them, the dates taking in `anchors`), as if Search
   * here had been pressed.
   */
  async runWithForm(anchors: readonly string[] = []): Promise<void> {
    await this.form.showArchive(anchors);
    await this.search();
  }

  /** `saved`: a saved search runs as written, even if the form cannot show all of it. */
  async search(saved?: SearchParams): Promise<void> {
    if (!this.connected) {
      this.results.setStatus(notConnected(), true);
      return;
    }
    const p = saved ?? this.form.params(this.shape);
    if (typeof p === 'string') {
      this.results.setStatus(p, true);
      return;
    }
    this.results.reset();
    this.host.showResults([], 'replace');
    await this.run(() => this.host.rpc.call({ method: 'search', params: p }), 'replace');
  }

  private save(): void {
    const p = this.form.params(this.shape);
    if (typeof p === 'string') this.results.setStatus(p, true);
    else this.host.saveSearch(p);
  }

  /** A saved search sent by the extension: its filters into the form, then run (the area is drawn by the app). */
  async runSaved(p: SearchParams): Promise<void> {
    await this.form.showSaved(p);
    this.host.saveState();
    await this.search(p);
  }

  async loadMore(): Promise<void> {
    const page = this.results.page;
    if (!page?.hasMore || this.searching) return;
    const searchId = page.searchId;
    await this.run(() => this.host.rpc.call({ method: 'searchMore', searchId }), 'append');
  }

  private async run(call: () => Promise<SearchPage>, mode: 'replace' | 'append'): Promise<void> {
    this.searching = true;
    this.searchBtn.disabled = true;
    this.results.more.disabled = true;
    this.results.setStatus(mode === 'replace' ? l10n.t('Searching…') : l10n.t('Loading more…'));
    try {
      const page = await call();
      this.host.showResults(page.features, mode);
      this.results.add(page);
      this.host.saveState();
    } catch (e) {
      this.results.setStatus(l10n.t('Search failed: {0}', (e as Error).message), true);
    } finally {
      this.searching = false;
      this.setConnected(this.connected);
    }
  }

  /** What `setState` keeps of the results (capped, so the state stays small). */
  savedResults(): SavedResults | undefined {
    return this.results.savedResults();
  }

  /** Whether the panel lists results, which folding it would hide. */
  hasResults(): boolean {
    return this.results.shown;
  }

  /** A reloaded webview: the list, its count and "Load more" as they were. */
  restoreResults(saved: SavedResults): void {
    this.results.restoreResults(saved);
  }

  /** Highlights a row (selection made on the map or in the list). */
  markSelected(id: string | undefined, scroll: boolean): void {
    this.results.markSelected(id, scroll);
  }

  /** The Create AOI form for the drawn shape. */
  openAoiForm(): void {
    if (this.shape) this.aoiForm.open(this.shape);
  }
}
