/**
 * The side panel: the "Search here" form (archive STAC search or satellite imagery search),
 * its results list with "Load more", and the Create AOI form. All data arrives through the
 * extension (`rpc`); the list and the map share one selection, kept by the app.
 */
import type {
  CreateAoiParams,
  MapFeature,
  MapRequest,
  MapResults,
  SavedResults,
  SearchKind,
  SearchOptions,
  SearchPage,
  SearchParams,
} from '../../src/panels/protocol';
import * as l10n from '@vscode/l10n';
import { km2 } from '../../src/format';
import { geodesicArea } from '../../src/geo/area';
import { ringToGeoJson } from '../../src/geo/antimeridian';
import { coverage, defaultRange, isoDay, parseIsoDay, type DateRange } from '../../src/geo/temporalExtent';
import { append, button, clear, el } from '../shared/dom';
import type { Rpc } from '../shared/vscodeApi';
import type { DrawnShape, Shape } from './draw';
import { FilterFields } from './filterFields';
import { ARCHIVE_QUERYABLES, commonQueryables, filterProblem } from '../../src/searchFilters';

export type FormState = Partial<Omit<SearchParams, 'ring' | 'shape'>>;

export interface PanelHost {
  rpc: Rpc<MapRequest, MapResults>;
  startDraw(shape: Shape): void;
  /** The map's current view as the search area (a rectangle), for keyboard users and quick searches. */
  useView(): void;
  /** "Open details" of a result (Enter on its row). */
  openResult(feature: MapFeature): void;
  showResults(features: MapFeature[], mode: 'replace' | 'append'): void;
  selectResult(id: string | undefined, from: 'list' | 'map'): void;
  aoiCreated(feature: MapFeature): void;
  /** "Order…": the selected result rows go to the extension's archive order flow. */
  orderResults(items: { collection: string; id: string }[]): void;
  /** "Save Search…": the extension writes the search to a `*.eosearch.json` file. */
  saveSearch(params: SearchParams): void;
  /** "Chart Index Over Time…" over the drawn area (the extension asks the index and the dates). */
  chartIndex(): void;
  saveState(): void;
}

/** The sort orders in words (a function: module code runs before the page's bundle is loaded). */
function sorts(): [SearchParams['sort'], string][] {
  return [
    ['datetime-desc', l10n.t('Newest first')],
    ['datetime-asc', l10n.t('Oldest first')],
    ['cloud-asc', l10n.t('Least cloudy first')],
  ];
}

/** A date field in ISO form (`YYYY-MM-DD`), the same in every locale, unlike `type="date"`. */
function dateInput(id: string, value: string): HTMLInputElement {
  return el('input', {
    type: 'text',
    id,
    value,
    inputmode: 'numeric',
    maxlength: 10,
    size: 10,
    placeholder: 'YYYY-MM-DD',
    pattern: '\\d{4}-\\d{2}-\\d{2}',
    autocomplete: 'off',
    spellcheck: 'false',
  });
}

/** Beyond this many rows the results are not kept across a webview reload. */
const MAX_SAVED_RESULTS = 1000;

export class SearchPanel {
  readonly root: HTMLElement;
  private options?: SearchOptions;
  private optionsLoading?: Promise<void>;
  private shape?: DrawnShape;
  private page?: SearchPage;
  private searching = false;
  private rows = new Map<string, HTMLElement>();
  /** The rows' features, in list order, kept for `setState` (see `savedResults`). */
  private loadedFeatures = new Map<string, MapFeature>();
  private selectedId?: string;
  /** The person set the dates (or a saved form did): the defaults no longer follow the collections. */
  private datesTouched: boolean;
  /** Days the searched place is known to have imagery (an AOI's images): the default dates take them in. */
  private anchors: string[] = [];
  private connected = true;
  /** Counts the asks for the options: only the newest one's answer fills the form. */
  private optionsAsked = 0;
  private keepChoices?: FormState;

  private readonly kindArchive: HTMLInputElement;
  private readonly kindImagery: HTMLInputElement;
  private readonly collections: HTMLSelectElement;
  private readonly satellites: HTMLSelectElement;
  private readonly collectionsRow: HTMLElement;
  private readonly satellitesRow: HTMLElement;
  private readonly optionsError: HTMLElement;
  private readonly from: HTMLInputElement;
  private readonly to: HTMLInputElement;
  private readonly maxCloud: HTMLInputElement;
  private readonly filterFields: FilterFields;
  private readonly sort: HTMLSelectElement;
  private readonly limit: HTMLInputElement;
  private readonly shapeInfo: HTMLElement;
  private readonly searchBtn: HTMLButtonElement;
  private readonly aoiBtn: HTMLButtonElement;
  private readonly chartBtn: HTMLButtonElement;
  private readonly saveBtn: HTMLButtonElement;
  private readonly status: HTMLElement;
  private readonly list: HTMLElement;
  private readonly more: HTMLButtonElement;
  private readonly orderBtn: HTMLButtonElement;
  private readonly aoiBox: HTMLElement;

  constructor(
    private readonly host: PanelHost,
    initial: FormState,
  ) {
    const range = defaultRange([], new Date());
    this.datesTouched = initial.from !== undefined || initial.to !== undefined;
    this.kindArchive = el('input', { type: 'radio', name: 'kind', value: 'archive', id: 'kind-archive' });
    this.kindImagery = el('input', { type: 'radio', name: 'kind', value: 'imagery', id: 'kind-imagery' });
    this.collections = el('select', { multiple: true, size: 4, id: 'collections', 'aria-label': l10n.t('Collections') });
    this.satellites = el('select', { multiple: true, size: 4, id: 'satellites', 'aria-label': l10n.t('Satellites') });
    this.optionsError = el('div', { class: 'error', role: 'alert' });
    this.from = dateInput('from', initial.from ?? range.from);
    this.to = dateInput('to', initial.to ?? range.to);
    this.maxCloud = el('input', { type: 'number', id: 'max-cloud', min: 0, max: 100, step: 1, value: initial.maxCloud ?? 30 });
    this.filterFields = new FilterFields(initial.filters, () => host.saveState());
    this.sort = el('select', { id: 'sort' }, ...sorts().map(([v, t]) => el('option', { value: v }, t)));
    this.sort.value = initial.sort ?? 'datetime-desc';
    this.limit = el('input', { type: 'number', id: 'limit', min: 1, max: 1000, value: initial.limit ?? 50 });
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
    this.status = el('div', { class: 'status', id: 'status', role: 'status' });
    this.list = el('ul', { class: 'results', id: 'results', role: 'listbox', 'aria-label': l10n.t('Search results') });
    this.more = button(l10n.t('Load more'), () => void this.loadMore(), { id: 'load-more', class: 'secondary', hidden: true });
    this.orderBtn = button(l10n.t('Order…'), () => this.order(), {
      id: 'order-results',
      hidden: true,
      disabled: true,
      title: l10n.t('Order the selected result (priced before anything is placed)'),
    });
    this.aoiBox = el('div', { class: 'aoi-form', id: 'aoi-form', hidden: true });
    (initial.kind === 'imagery' ? this.kindImagery : this.kindArchive).checked = true;
    for (const r of [this.kindArchive, this.kindImagery]) r.addEventListener('change', () => this.kindChanged());
    for (const i of [this.from, this.to, this.maxCloud, this.sort, this.limit, this.collections, this.satellites]) {
      i.addEventListener('change', () => host.saveState());
    }
    for (const i of [this.from, this.to]) i.addEventListener('input', () => (this.datesTouched = true));
    this.collections.addEventListener('change', () => this.followCoverage());
    this.satellites.addEventListener('change', () => this.offerFilters());
    this.collectionsRow = el(
      'label',
      { class: 'field' },
      l10n.t('Collections'),
      ' ',
      el('span', { class: 'muted' }, l10n.t('(none selected = all)')),
      this.collections,
    );
    this.satellitesRow = el('label', { class: 'field' }, l10n.t('Satellites'), this.satellites);
    this.root = el(
      'section',
      { class: 'search', 'aria-label': l10n.t('Search here') },
      el('h2', {}, l10n.t('Search here')),
      el(
        'div',
        { class: 'field kinds', role: 'radiogroup', 'aria-label': l10n.t('What to search') },
        el('label', {}, this.kindArchive, ' ', l10n.t('Archive (STAC)')),
        el('label', {}, this.kindImagery, ' ', l10n.t('Satellite imagery')),
      ),
      this.collectionsRow,
      this.satellitesRow,
      this.optionsError,
      el(
        'div',
        { class: 'row' },
        el('label', { class: 'field' }, l10n.t('From'), ' ', el('span', { class: 'muted' }, l10n.t('(YYYY-MM-DD)')), this.from),
        el('label', { class: 'field' }, l10n.t('To'), ' ', el('span', { class: 'muted' }, l10n.t('(YYYY-MM-DD)')), this.to),
      ),
      el(
        'div',
        { class: 'row' },
        el('label', { class: 'field' }, l10n.t('Max cloud %'), this.maxCloud),
        el('label', { class: 'field' }, l10n.t('Page size'), this.limit),
      ),
      this.filterFields.root,
      el('label', { class: 'field' }, l10n.t('Sort'), this.sort),
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
      this.aoiBox,
      // "Order…" above the list, where it stays in sight however long the list grows
      el('div', { class: 'row results-head' }, this.status, this.orderBtn),
      this.list,
      this.more,
    );
    this.kindChanged(initial);
  }

  get kind(): SearchKind {
    return this.kindImagery.checked ? 'imagery' : 'archive';
  }

  formState(): FormState {
    return {
      kind: this.kind,
      collections: selected(this.collections),
      satellites: selected(this.satellites),
      from: this.from.value,
      to: this.to.value,
      maxCloud: this.maxCloud.value === '' ? undefined : Number(this.maxCloud.value),
      filters: this.filterFields.filters(),
      sort: this.sort.value as SearchParams['sort'],
      limit: Number(this.limit.value) || 50,
    };
  }

  private kindChanged(initial?: FormState): void {
    this.collectionsRow.hidden = this.kind !== 'archive';
    this.satellitesRow.hidden = this.kind !== 'imagery';
    this.offerFilters();
    void this.loadOptions(initial);
    this.host.saveState();
  }

  /** What the search can filter on: the chosen satellites' queryables in common, or the archive items' view properties. */
  private offered(): string[] {
    if (this.kind === 'archive') return [...ARCHIVE_QUERYABLES];
    const chosen = new Set(selected(this.satellites));
    return commonQueryables((this.options?.satellites ?? []).filter((s) => chosen.has(s.id)).map((s) => s.queryables));
  }

  private offerFilters(): void {
    this.filterFields.offer(this.offered(), this.kind === 'imagery');
  }

  /** Collections, satellites and projects, fetched once through the extension (again when a service is connected again). */
  loadOptions(initial?: FormState): Promise<void> {
    if (this.optionsLoading) return this.optionsLoading;
    const asked = ++this.optionsAsked;
    // a saved form's choices wait for lists that could not be read (signed out) to be read again
    const keep = initial ?? this.keepChoices;
    this.keepChoices = keep;
    this.optionsLoading = this.host.rpc.call({ method: 'searchOptions' }).then(
      (o) => {
        if (asked !== this.optionsAsked) return; // a later ask (after a sign-in) answers
        this.options = o;
        fill(
          this.collections,
          o.collections.map((c) => [c.id, c.title && c.title !== c.id ? `${c.title} (${c.id})` : c.id]),
          keep?.collections,
        );
        fill(
          this.satellites,
          o.satellites.map((s) => [s.id, s.name && s.name !== s.id ? `${s.name} (${s.id})` : s.id]),
          keep?.satellites,
        );
        if (this.satellites.selectedOptions.length === 0 && this.satellites.options.length) this.satellites.options[0].selected = true;
        this.offerFilters();
        this.followCoverage();
        if (!Object.keys(o.errors).length) this.keepChoices = undefined;
        const errs = Object.entries(o.errors).map(([k, v]) => listError(k, v));
        this.optionsError.textContent = errs.join(' ');
      },
      (e: Error) => {
        if (asked !== this.optionsAsked) return;
        this.optionsLoading = undefined; // allow a retry on the next change
        this.optionsError.textContent = l10n.t('Could not load search options: {0}', e.message);
      },
    );
    return this.optionsLoading;
  }

  /** The drawn shape, or none (`why` says what became of the last one). */
  /** The chosen collections (all when none is chosen), for their temporal extents. */
  private chosenIntervals(): ((string | null)[] | undefined)[] {
    const all = this.options?.collections ?? [];
    const chosen = new Set(selected(this.collections));
    return all.filter((c) => chosen.size === 0 || chosen.has(c.id)).map((c) => c.interval);
  }

  /** Where the chosen collections have data, when their extents say. */
  private coverage(): DateRange | undefined {
    return this.kind === 'archive' ? coverage(this.chosenIntervals(), new Date()) : undefined;
  }

  /** Until the person sets dates, the range follows the chosen collections' data and the place's own images (see `defaultRange`). */
  private followCoverage(): void {
    if (this.datesTouched || this.kind !== 'archive') return;
    const r = defaultRange(this.chosenIntervals(), new Date(), this.anchors);
    this.from.value = r.from;
    this.to.value = r.to;
    this.host.saveState();
  }

  /** Not connected: nothing can be searched or created until a service is. */
  setConnected(connected: boolean): void {
    const back = connected && !this.connected;
    this.connected = connected;
    // signed out, the banner is the one line that says why the lists are empty
    this.optionsError.hidden = !connected;
    if (back && (!this.options || Object.keys(this.options.errors).length)) {
      this.optionsLoading = undefined;
      void this.loadOptions();
    }
    this.searchBtn.disabled = !this.shape || this.searching || !connected;
    this.aoiBtn.disabled = !this.shape || !connected;
    this.chartBtn.disabled = !this.shape || !connected;
    this.more.disabled = !connected;
    this.orderBtn.disabled = !connected || !(this.selectedId && this.rows.has(this.selectedId));
  }

  setShape(shape: DrawnShape | undefined, why?: string): void {
    this.shape = shape;
    this.anchors = [];
    // a new area: the default dates are the collections' again (not the last AOI's)
    if (this.options) this.followCoverage();
    this.setConnected(this.connected);
    this.saveBtn.disabled = !shape;
    this.aoiBox.hidden = true;
    if (!shape) {
      this.shapeInfo.textContent = why ?? l10n.t('Draw a rectangle or a polygon on the map.');
      return;
    }
    const g = ringToGeoJson(shape.ring);
    const area = geodesicArea(g);
    this.shapeInfo.textContent = shape.shape === 'rectangle' ? l10n.t('Rectangle drawn · {0}', km2(area)) : l10n.t('Polygon drawn · {0}', km2(area));
  }

  private params(): SearchParams | string {
    if (!this.shape) return l10n.t('Draw an area first.');
    const f = this.formState();
    if (f.kind === 'imagery' && (!f.satellites || f.satellites.length === 0)) return l10n.t('Pick at least one satellite.');
    for (const [name, value] of [
      [l10n.t('From'), f.from],
      [l10n.t('To'), f.to],
    ] as const) {
      if (value && !parseIsoDay(value)) return l10n.t('"{0}" is not a date in the form YYYY-MM-DD (for example {1}).', name, isoDay(new Date()));
    }
    if (f.from && f.to && f.from > f.to) return l10n.t('"{0}" is after "{1}".', l10n.t('From'), l10n.t('To'));
    if (f.maxCloud !== undefined && (!Number.isFinite(f.maxCloud) || f.maxCloud < 0 || f.maxCloud > 100))
      return l10n.t('Max cloud cover is a percentage, 0 to 100.');
    const filters = f.filters ?? [];
    const problem = filterProblem(filters, this.offered(), f.kind === 'imagery');
    if (problem) return problem;
    const limit = Math.max(1, Math.min(1000, Math.round(f.limit ?? 50)));
    return {
      kind: f.kind ?? 'archive',
      ring: this.shape.ring,
      shape: this.shape.shape,
      collections: f.collections ?? [],
      satellites: f.satellites ?? [],
      from: f.from ? (parseIsoDay(f.from) ?? '') : '',
      to: f.to ? (parseIsoDay(f.to) ?? '') : '',
      maxCloud: f.maxCloud,
      ...(filters.length ? { filters } : {}),
      sort: f.sort ?? 'datetime-desc',
      limit,
    };
  }

  /**
   * "Search Archive Here" over an area the extension drew: the archive, with the form's filters
   * (their defaults unless the person set them, the dates taking in `anchors`), as if Search
   * here had been pressed.
   */
  async runWithForm(anchors: readonly string[] = []): Promise<void> {
    this.anchors = [...anchors];
    if (this.kind !== 'archive') {
      this.kindArchive.checked = true;
      this.kindChanged();
    }
    await this.loadOptions();
    this.followCoverage();
    await this.search();
  }

  /** `saved`: a saved search runs as written, even if the form cannot show all of it. */
  async search(saved?: SearchParams): Promise<void> {
    if (!this.connected) {
      this.setStatus(l10n.t('Not connected: sign in or try the sandbox to search.'), true);
      return;
    }
    const p = saved ?? this.params();
    if (typeof p === 'string') {
      this.setStatus(p, true);
      return;
    }
    this.page = undefined;
    this.rows.clear();
    this.loadedFeatures.clear();
    clear(this.list);
    this.more.hidden = true;
    this.selectedId = undefined;
    this.updateOrder();
    this.host.showResults([], 'replace');
    await this.run(() => this.host.rpc.call({ method: 'search', params: p }), 'replace');
  }

  private save(): void {
    const p = this.params();
    if (typeof p === 'string') this.setStatus(p, true);
    else this.host.saveSearch(p);
  }

  /** A saved search sent by the extension: its filters into the form, then run (the area is drawn by the app). */
  async runSaved(p: SearchParams): Promise<void> {
    (p.kind === 'imagery' ? this.kindImagery : this.kindArchive).checked = true;
    this.collectionsRow.hidden = p.kind !== 'archive';
    this.satellitesRow.hidden = p.kind !== 'imagery';
    this.from.value = p.from;
    this.to.value = p.to;
    this.maxCloud.value = p.maxCloud === undefined ? '' : String(p.maxCloud);
    this.filterFields.set(p.filters);
    this.sort.value = p.sort;
    this.limit.value = String(p.limit);
    await this.loadOptions();
    for (const [select, ids] of [
      [this.collections, p.collections],
      [this.satellites, p.satellites],
    ] as const) {
      const want = new Set(ids);
      for (const o of Array.from(select.options)) o.selected = want.has(o.value);
    }
    this.offerFilters();
    this.host.saveState();
    await this.search(p);
  }

  async loadMore(): Promise<void> {
    if (!this.page?.hasMore || this.searching) return;
    const searchId = this.page.searchId;
    await this.run(() => this.host.rpc.call({ method: 'searchMore', searchId }), 'append');
  }

  private async run(call: () => Promise<SearchPage>, mode: 'replace' | 'append'): Promise<void> {
    this.searching = true;
    this.searchBtn.disabled = true;
    this.more.disabled = true;
    this.setStatus(mode === 'replace' ? l10n.t('Searching…') : l10n.t('Loading more…'));
    try {
      const page = await call();
      this.page = page;
      this.host.showResults(page.features, mode);
      for (const f of page.features) this.addRow(f);
      this.showSummary(page);
      this.host.saveState();
    } catch (e) {
      this.setStatus(l10n.t('Search failed: {0}', (e as Error).message), true);
    } finally {
      this.searching = false;
      this.setConnected(this.connected);
    }
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

  /** An empty result, with the ways to widen the search (the collections' data span when known). */
  private noResults(): string {
    const f = this.formState();
    const none =
      f.from || f.to
        ? l10n.t('No results between {0} and {1} in this area.', f.from || l10n.t('the beginning'), f.to || l10n.t('today'))
        : l10n.t('No results in this area.');
    const cov = this.coverage();
    const widen = cov ? l10n.t('Widen the dates (the chosen collections have data from {0} to {1})', cov.from, cov.to) : l10n.t('Widen the dates');
    const other = f.kind === 'imagery' ? l10n.t('choose other satellites') : l10n.t('choose other collections');
    const advice = f.filters?.length
      ? l10n.t('{0}, loosen the filters, {1} or draw a larger area.', widen, other)
      : f.maxCloud !== undefined && f.maxCloud < 100
        ? l10n.t('{0}, raise Max cloud %, {1} or draw a larger area.', widen, other)
        : l10n.t('{0}, {1} or draw a larger area.', widen, other);
    return `${none} ${advice}`;
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
    if (!this.page || this.loadedFeatures.size > MAX_SAVED_RESULTS) return undefined;
    const { features: _dropped, ...page } = this.page;
    return { page, features: [...this.loadedFeatures.values()], selectedId: this.selectedId };
  }

  /** A reloaded webview: the list, its count and "Load more" as they were. */
  restoreResults(saved: SavedResults): void {
    this.rows.clear();
    this.loadedFeatures.clear();
    clear(this.list);
    for (const f of saved.features) this.addRow(f);
    this.page = { ...saved.page, features: [] };
    this.showSummary(saved.page);
  }

  private setStatus(text: string, error = false): void {
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
    row.addEventListener('keydown', (e) => {
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
    });
    this.rows.set(f.id, row);
    this.list.appendChild(row);
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

  /** The Create AOI form for the drawn shape. */
  openAoiForm(): void {
    const shape = this.shape;
    if (!shape) return;
    clear(this.aoiBox);
    this.aoiBox.hidden = false;
    const g = ringToGeoJson(shape.ring);
    if (g.type !== 'Polygon') {
      append(
        this.aoiBox,
        el('p', { class: 'error' }, l10n.t('This shape crosses the antimeridian; an AOI is a single Polygon, so draw it on one side of the 180° meridian.')),
      );
      return;
    }
    const name = el('input', { type: 'text', id: 'aoi-name', required: true, maxlength: 200, placeholder: l10n.t('Name') });
    const desc = el('input', { type: 'text', id: 'aoi-desc', maxlength: 1000, placeholder: l10n.t('Description (optional)') });
    const project = el('select', { id: 'aoi-project' });
    const satellite = el('select', { id: 'aoi-satellite' });
    const err = el('div', { class: 'error', id: 'aoi-error', role: 'alert' });
    const submit = button(l10n.t('Choose Images…'), () => void create(), { id: 'aoi-submit' });
    const fillSelects = () => {
      fill(
        project,
        (this.options?.projects ?? []).map((p) => [p.id, p.name || p.id]),
      );
      fill(
        satellite,
        (this.options?.satellites ?? []).map((s) => [s.id, s.name || s.id]),
        selected(this.satellites),
      );
      if (this.options?.errors.projects) err.textContent = listError('projects', this.options.errors.projects);
    };
    void this.loadOptions().then(fillSelects);
    const create = async () => {
      err.textContent = '';
      if (!name.value.trim()) return void (err.textContent = l10n.t('Give the AOI a name.'));
      if (!project.value) return void (err.textContent = l10n.t('Pick a project.'));
      if (!satellite.value) return void (err.textContent = l10n.t('Pick a satellite.'));
      submit.disabled = true;
      const params: CreateAoiParams = {
        name: name.value.trim(),
        description: desc.value.trim() || undefined,
        projectId: project.value,
        satelliteId: satellite.value,
        ring: shape.ring,
      };
      try {
        // the extension now asks for the images (a search over the shape) before creating
        err.textContent = '';
        const feature = await this.host.rpc.call({ method: 'createAoi', params });
        if (!feature) {
          err.textContent = l10n.t('No AOI created: the image choice was cancelled.');
          return;
        }
        this.aoiBox.hidden = true;
        this.host.aoiCreated(feature);
      } catch (e) {
        const status = (e as { status?: unknown }).status;
        err.textContent = `${typeof status === 'number' ? `${status}: ` : ''}${(e as Error).message}`;
      } finally {
        submit.disabled = false;
      }
    };
    append(
      this.aoiBox,
      el('h3', {}, l10n.t('New AOI')),
      el('div', { class: 'muted', id: 'aoi-area' }, l10n.t('Geodesic area: {0}', km2(geodesicArea(g)))),
      el('label', { class: 'field' }, l10n.t('Name'), name),
      el('label', { class: 'field' }, l10n.t('Description'), desc),
      el('label', { class: 'field' }, l10n.t('Project'), project),
      el('label', { class: 'field' }, l10n.t('Satellite'), satellite),
      err,
      el(
        'div',
        { class: 'row' },
        submit,
        button(l10n.t('Cancel'), () => (this.aoiBox.hidden = true), { class: 'secondary' }),
      ),
    );
    name.focus();
  }
}

/** "Could not list …" for one of the search options the extension could not fetch. */
function listError(what: string, why: string): string {
  switch (what) {
    case 'collections':
      return l10n.t('Could not list collections: {0}', why);
    case 'satellites':
      return l10n.t('Could not list satellites: {0}', why);
    case 'projects':
      return l10n.t('Could not list projects: {0}', why);
    default:
      return l10n.t('Could not list {0}: {1}', what, why);
  }
}

function selected(s: HTMLSelectElement): string[] {
  return Array.from(s.selectedOptions).map((o) => o.value);
}

function fill(s: HTMLSelectElement, opts: [string, string][], keep?: string[]): void {
  const prev = new Set(keep ?? selected(s));
  clear(s);
  for (const [value, text] of opts) {
    const o = el('option', { value }, text);
    o.selected = prev.has(value);
    s.appendChild(o);
  }
}
