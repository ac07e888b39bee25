/**
 * The search panel's form: what to search (archive or satellite imagery), the collections or
 * satellites, dates, cloud cover, filters, sort and page size; the lists it offers, fetched
 * through the extension; and the check that turns the form into a search.
 */
import type { MapRequest, MapResults, SearchKind, SearchOptions, SearchParams } from '../../src/panels/protocol';
import * as l10n from '@vscode/l10n';
import { coverage, defaultRange, isoDay, parseIsoDay, type DateRange } from '../../src/geo/temporalExtent';
import { ARCHIVE_QUERYABLES, commonQueryables, filterProblem } from '../../src/searchFilters';
import { el } from '../shared/dom';
import type { Rpc } from '../shared/vscodeApi';
import type { DrawnShape } from './draw';
import { FilterFields } from './filterFields';
import { fill, listError, selected } from './selectOptions';

export type FormState = Partial<Omit<SearchParams, 'ring' | 'shape'>>;

export interface FormHost {
  rpc: Rpc<MapRequest, MapResults>;
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

export class SearchForm {
  /** The form's rows, in the panel's order (the panel places them under its heading). */
  readonly elements: HTMLElement[];
  private loaded?: SearchOptions;
  private optionsLoading?: Promise<void>;
  /** The person set the dates (or a saved form did): the defaults no longer follow the collections. */
  private datesTouched: boolean;
  /** Days the searched place is known to have imagery (an AOI's images): the default dates take them in. */
  private anchors: string[] = [];
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

  constructor(
    private readonly host: FormHost,
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
    this.elements = [
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
    ];
  }

  get kind(): SearchKind {
    return this.kindImagery.checked ? 'imagery' : 'archive';
  }

  /** The collections, satellites and projects, once read. */
  get options(): SearchOptions | undefined {
    return this.loaded;
  }

  /** The satellites chosen in the form (the Create AOI form starts from them). */
  chosenSatellites(): string[] {
    return selected(this.satellites);
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

  kindChanged(initial?: FormState): void {
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
    return commonQueryables((this.loaded?.satellites ?? []).filter((s) => chosen.has(s.id)).map((s) => s.queryables));
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
        this.loaded = o;
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

  /** The chosen collections (all when none is chosen), for their temporal extents. */
  private chosenIntervals(): ((string | null)[] | undefined)[] {
    const all = this.loaded?.collections ?? [];
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

  /** Signed out, the banner is the one line that says why the lists are empty; `back`: read them again. */
  connectionChanged(connected: boolean, back: boolean): void {
    this.optionsError.hidden = !connected;
    if (back && (!this.loaded || Object.keys(this.loaded.errors).length)) {
      this.optionsLoading = undefined;
      void this.loadOptions();
    }
  }

  /** A new area: the default dates are the collections' again (not the last AOI's). */
  newArea(): void {
    this.anchors = [];
    if (this.loaded) this.followCoverage();
  }

  /** The archive, its default dates taking in `anchors` (days the area has images), for "Search Archive Here". */
  async showArchive(anchors: readonly string[]): Promise<void> {
    this.anchors = [...anchors];
    if (this.kind !== 'archive') {
      this.kindArchive.checked = true;
      this.kindChanged();
    }
    await this.loadOptions();
    this.followCoverage();
  }

  /** A saved search's choices in the form, as far as the form can show them. */
  async showSaved(p: SearchParams): Promise<void> {
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
  }

  /** The search over `shape` the form asks for, or what is wrong with the form. */
  params(shape: DrawnShape | undefined): SearchParams | string {
    if (!shape) return l10n.t('Draw an area first.');
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
      ring: shape.ring,
      shape: shape.shape,
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

  /** An empty result, with the ways to widen the search (the collections' data span when known). */
  noResults(): string {
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
}
