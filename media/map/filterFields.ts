/**
 * The search form's "Filters": a lowest and a highest value for each queryable the chosen
 * satellites list in common (or, for the archive, the items' view properties), with its range
 * and unit. Values typed for a property are kept while another satellite is chosen, so going
 * back to it finds them again.
 */
import * as l10n from '@vscode/l10n';
import { queryableField, rangeText, type QueryableField, type RangeFilter } from '../../src/searchFilters';
import { clear, el } from '../shared/dom';

export class FilterFields {
  readonly root: HTMLElement;
  private readonly body: HTMLElement;
  private offered: string[] = [];
  /** Typed values by property, also for properties not offered now. */
  private readonly values = new Map<string, { min: string; max: string }>();

  constructor(initial: readonly RangeFilter[] | undefined, onChange: () => void) {
    for (const f of initial ?? []) this.values.set(f.id, { min: f.min === undefined ? '' : String(f.min), max: f.max === undefined ? '' : String(f.max) });
    this.body = el('div', { class: 'filter-rows' });
    this.root = el('fieldset', { class: 'filters', id: 'filters' }, el('legend', {}, l10n.t('Filters')), this.body);
    this.root.addEventListener('change', onChange);
  }

  /** The properties this search can filter on now; `whole`: whole numbers only (the imagery search). */
  offer(ids: readonly string[], whole: boolean): void {
    this.offered = [...ids];
    clear(this.body);
    if (ids.length === 0) {
      this.body.appendChild(el('div', { class: 'muted', id: 'filters-none' }, l10n.t('The chosen satellites list no filter in common besides cloud cover.')));
      return;
    }
    for (const id of ids) this.body.appendChild(this.row(queryableField(id), whole));
  }

  private row(f: QueryableField, whole: boolean): HTMLElement {
    const kept = this.values.get(f.id) ?? { min: '', max: '' };
    const input = (side: 'min' | 'max'): HTMLInputElement => {
      const i = el('input', {
        type: 'number',
        class: 'filter-value',
        'data-queryable': f.id,
        'data-side': side,
        min: f.ranged ? f.min : undefined,
        max: f.ranged ? f.max : undefined,
        step: whole ? 1 : 'any',
        value: kept[side],
        placeholder: side === 'min' ? l10n.t('lowest') : l10n.t('highest'),
        'aria-label': side === 'min' ? l10n.t('{0}, lowest ({1})', f.label, rangeText(f)) : l10n.t('{0}, highest ({1})', f.label, rangeText(f)),
      });
      i.addEventListener('input', () => {
        const v = this.values.get(f.id) ?? { min: '', max: '' };
        v[side] = i.value;
        this.values.set(f.id, v);
      });
      return i;
    };
    return el(
      'div',
      { class: 'filter-row', 'data-queryable': f.id },
      el('span', { class: 'filter-label' }, f.label, ' ', el('span', { class: 'muted' }, `(${rangeText(f)})`)),
      el('div', { class: 'row' }, input('min'), el('span', { class: 'muted' }, '–'), input('max')),
    );
  }

  /** The filters with a value on either side, among those offered now. NaN stands for text that is no number. */
  filters(): RangeFilter[] {
    const out: RangeFilter[] = [];
    for (const id of this.offered) {
      const v = this.values.get(id);
      if (!v || (v.min.trim() === '' && v.max.trim() === '')) continue;
      const num = (s: string): number | undefined => (s.trim() === '' ? undefined : Number(s));
      out.push({ id, ...(num(v.min) !== undefined ? { min: num(v.min) } : {}), ...(num(v.max) !== undefined ? { max: num(v.max) } : {}) });
    }
    return out;
  }

  /** A saved search's filters replace what was typed. */
  set(filters: readonly RangeFilter[] | undefined): void {
    this.values.clear();
    for (const f of filters ?? []) this.values.set(f.id, { min: f.min === undefined ? '' : String(f.min), max: f.max === undefined ? '' : String(f.max) });
  }
}
