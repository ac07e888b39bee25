/**
 * Search filters on a satellite's queryables. The satellite record's collections list their
 * `queryables` as bare property names (the published OpenAPI gives no range or unit), so the
 * ranges and units are those of the STAC properties themselves (interface.md, archive item
 * properties): cloud cover in percent, view angles in degrees, ground sample distance in
 * metres. The imagery search takes `filters: [{id, min, max}]`, all three required and whole
 * numbers (OpenAPI `lens.Filter`); the archive search takes the equivalent STAC `query`.
 * Pure: the map's form (webview), saved searches and the search itself share it.
 */
import * as l10n from '@vscode/l10n';
import type { ImagerySearchFilter, QueryOperator } from './api/records';

/** A filter as the form and `*.eosearch.json` hold it: either side may be left open. */
export interface RangeFilter {
  id: string;
  min?: number;
  max?: number;
}

type Unit = 'percent' | 'degree' | 'metre' | 'none';

interface Known {
  unit: Unit;
  min: number;
  max: number;
}

/** The properties with a known range; anything else a satellite lists is offered with no range. */
const KNOWN: Readonly<Record<string, Known>> = {
  'eo:cloud_cover': { unit: 'percent', min: 0, max: 100 },
  'view:off_nadir': { unit: 'degree', min: 0, max: 90 },
  'view:incidence_angle': { unit: 'degree', min: 0, max: 90 },
  'view:sun_elevation': { unit: 'degree', min: -90, max: 90 },
  'view:sun_azimuth': { unit: 'degree', min: 0, max: 360 },
  gsd: { unit: 'metre', min: 0, max: 10_000 },
};

/** The integer range the service's filters can carry for a property of no known range. */
const OPEN = 2_147_483_647;

/** The archive items' properties a search may filter on besides cloud cover (interface.md). */
export const ARCHIVE_QUERYABLES: readonly string[] = ['view:off_nadir', 'view:sun_elevation', 'gsd'];

/** The cloud cover has a control of its own (Max cloud %); the filters list the rest. */
export const CLOUD = 'eo:cloud_cover';

/** One filterable property as the form shows it: its name in words, its unit and range. */
export interface QueryableField {
  id: string;
  label: string;
  /** The unit's symbol, empty when the property has none known. */
  unit: string;
  min: number;
  max: number;
  /** Known range (false: any number, the service decides). */
  ranged: boolean;
}

function label(id: string): string {
  switch (id) {
    case 'eo:cloud_cover':
      return l10n.t('Cloud cover');
    case 'view:off_nadir':
      return l10n.t('Off-nadir angle');
    case 'view:incidence_angle':
      return l10n.t('Incidence angle');
    case 'view:sun_elevation':
      return l10n.t('Sun elevation');
    case 'view:sun_azimuth':
      return l10n.t('Sun azimuth');
    case 'gsd':
      return l10n.t('Ground sample distance');
    default:
      return id;
  }
}

function unitSymbol(u: Unit): string {
  return u === 'percent' ? '%' : u === 'degree' ? '°' : u === 'metre' ? 'm' : '';
}

export function queryableField(id: string): QueryableField {
  const k = KNOWN[id];
  return k
    ? { id, label: label(id), unit: unitSymbol(k.unit), min: k.min, max: k.max, ranged: true }
    : { id, label: label(id), unit: '', min: -OPEN, max: OPEN, ranged: false };
}

/**
 * The queryables every chosen collection lists (a filter the others lack would be refused),
 * in the order of the first, without cloud cover (a control of its own).
 */
export function commonQueryables(lists: readonly (readonly string[] | undefined)[]): string[] {
  if (lists.length === 0) return [];
  const [first, ...rest] = lists.map((l) => l ?? []);
  return [...new Set(first)].filter((id) => id !== CLOUD && rest.every((l) => l.includes(id)));
}

/** "0–90 °", for a field's hint. */
export function rangeText(f: QueryableField): string {
  if (!f.ranged) return l10n.t('any value');
  return f.unit ? `${f.min}–${f.max} ${f.unit}` : `${f.min}–${f.max}`;
}

/**
 * What is wrong with the filters, in words, or undefined. `offered`: the properties this
 * search can filter on; `whole`: the imagery search takes whole numbers only.
 */
export function filterProblem(filters: readonly RangeFilter[], offered: readonly string[], whole: boolean): string | undefined {
  const seen = new Set<string>();
  for (const f of filters) {
    const field = queryableField(f.id);
    if (!offered.includes(f.id)) {
      return offered.length
        ? l10n.t('This search cannot filter on {0}; it can on {1}.', field.label, offered.map((id) => queryableField(id).label).join(', '))
        : l10n.t('This search cannot filter on {0}: the chosen satellites list no filter in common.', field.label);
    }
    if (seen.has(f.id)) return l10n.t('{0} is filtered twice; keep one range.', field.label);
    seen.add(f.id);
    if (f.min === undefined && f.max === undefined) return l10n.t('{0} needs a lowest or a highest value.', field.label);
    for (const v of [f.min, f.max]) {
      if (v === undefined) continue;
      if (!Number.isFinite(v)) return l10n.t('{0} takes numbers.', field.label);
      if (v < field.min || v > field.max)
        return l10n.t('{0} is from {1}; {2} is outside it.', field.label, rangeText(field), `${v}${field.unit ? ` ${field.unit}` : ''}`);
      if (whole && !Number.isInteger(v))
        return l10n.t('{0} takes whole numbers in the satellite imagery search (the service filters on integers).', field.label);
    }
    if (f.min !== undefined && f.max !== undefined && f.min > f.max) return l10n.t('{0}: the lowest value is above the highest.', field.label);
  }
  return undefined;
}

/** The imagery search's `filters`: both bounds present (an open side is the property's range). */
export function imageryFilters(filters: readonly RangeFilter[]): ImagerySearchFilter[] {
  return filters.map((f) => {
    const field = queryableField(f.id);
    return { id: f.id, min: f.min ?? field.min, max: f.max ?? field.max };
  });
}

/** The archive search's STAC `query` for the filters (inclusive bounds, as the imagery search's). */
export function archiveQuery(filters: readonly RangeFilter[]): Record<string, Partial<Record<QueryOperator, unknown>>> {
  const out: Record<string, Partial<Record<QueryOperator, unknown>>> = {};
  for (const f of filters) {
    const ops: Partial<Record<QueryOperator, unknown>> = {};
    if (f.min !== undefined) ops.gte = f.min;
    if (f.max !== undefined) ops.lte = f.max;
    out[f.id] = ops;
  }
  return out;
}
