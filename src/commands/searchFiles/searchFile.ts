/**
 * A saved search (`*.eosearch.json`): the map's search form and drawn area, written so that a
 * person can read, edit and keep it in git (see schemas/eosearch.schema.json). Pure: no
 * vscode, no I/O.
 */
import type { SearchParams } from '../../panels/protocol';
import { filterProblem, type RangeFilter } from '../../searchFilters';
export { SEARCH_FILE_SUFFIX } from '../../fileKinds';

export interface SearchFile {
  $schema?: string;
  name?: string;
  kind: SearchParams['kind'];
  geometry: { type: 'Polygon'; coordinates: [number, number][][] };
  shape?: SearchParams['shape'];
  collections?: string[];
  satellites?: string[];
  from?: string;
  to?: string;
  maxCloud?: number;
  /** Ranges on the satellite's queryables (`view:off_nadir`, `view:sun_elevation`, `gsd`…). */
  filters?: RangeFilter[];
  sort?: SearchParams['sort'];
  limit?: number;
}

const SORTS: readonly SearchParams['sort'][] = ['datetime-desc', 'datetime-asc', 'cloud-asc'];
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The file for a search run (or about to run) on the map; empty filters are left out. */
export function toSearchFile(p: SearchParams): SearchFile {
  const out: SearchFile = { kind: p.kind, geometry: { type: 'Polygon', coordinates: [p.ring.map(([x, y]) => [x, y])] }, shape: p.shape };
  if (p.kind === 'archive' && p.collections.length) out.collections = [...p.collections];
  if (p.kind === 'imagery') out.satellites = [...p.satellites];
  if (p.from) out.from = p.from;
  if (p.to) out.to = p.to;
  if (p.maxCloud !== undefined) out.maxCloud = p.maxCloud;
  if (p.filters?.length) out.filters = p.filters.map((f) => ({ ...f }));
  out.sort = p.sort;
  out.limit = p.limit;
  return out;
}

/** The search a file describes, or every reason it cannot be run (in words). */
export function fromSearchFile(value: unknown): { params: SearchParams } | { errors: string[] } {
  const errors: string[] = [];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { errors: ['The file is not a JSON object.'] };
  const f = value as Record<string, unknown>;
  const kind = f.kind;
  if (kind !== 'archive' && kind !== 'imagery') errors.push('"kind" must be "archive" or "imagery".');
  const ring = readRing(f.geometry, errors);
  const shape = f.shape === undefined ? 'polygon' : f.shape;
  if (shape !== 'rectangle' && shape !== 'polygon') errors.push('"shape" must be "rectangle" or "polygon".');
  const collections = readIds(f, 'collections', errors);
  const satellites = readIds(f, 'satellites', errors);
  if (kind === 'imagery' && satellites.length === 0) errors.push('An imagery search needs at least one id in "satellites".');
  const from = readDate(f, 'from', errors);
  const to = readDate(f, 'to', errors);
  if (from && to && from > to) errors.push('"from" is after "to".');
  let maxCloud: number | undefined;
  if (f.maxCloud !== undefined) {
    if (typeof f.maxCloud !== 'number' || !(f.maxCloud >= 0 && f.maxCloud <= 100)) errors.push('"maxCloud" is a percentage, 0 to 100.');
    else maxCloud = f.maxCloud;
  }
  const filters = readFilters(f.filters, errors);
  // Ranges and whole numbers now; whether the satellite lists each property, when it runs.
  const problem = filterProblem(
    filters,
    filters.map((x) => x.id),
    kind === 'imagery',
  );
  if (problem) errors.push(problem);
  const sort = f.sort === undefined ? 'datetime-desc' : f.sort;
  if (!SORTS.includes(sort as SearchParams['sort'])) errors.push(`"sort" must be one of ${SORTS.map((s) => `"${s}"`).join(', ')}.`);
  const limit = f.limit === undefined ? 50 : f.limit;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > 1000) errors.push('"limit" is a whole number from 1 to 1000.');
  if (errors.length || !ring) return { errors };
  return {
    params: {
      kind: kind as SearchParams['kind'],
      ring,
      shape: shape as SearchParams['shape'],
      collections: kind === 'archive' ? collections : [],
      satellites: kind === 'imagery' ? satellites : [],
      from,
      to,
      maxCloud,
      ...(filters.length ? { filters } : {}),
      sort: sort as SearchParams['sort'],
      limit: limit as number,
    },
  };
}

function readRing(geometry: unknown, errors: string[]): [number, number][] | undefined {
  const g = geometry as { type?: unknown; coordinates?: unknown } | undefined;
  if (typeof g !== 'object' || g === null || g.type !== 'Polygon' || !Array.isArray(g.coordinates) || g.coordinates.length !== 1) {
    errors.push('"geometry" must be a GeoJSON Polygon with one ring.');
    return undefined;
  }
  const raw = g.coordinates[0] as unknown;
  if (!Array.isArray(raw) || raw.length < 4) {
    errors.push('The ring of "geometry" needs at least four positions (the first repeated last).');
    return undefined;
  }
  const ring: [number, number][] = [];
  for (const p of raw as unknown[]) {
    if (!Array.isArray(p) || p.length !== 2 || typeof p[0] !== 'number' || typeof p[1] !== 'number' || !Number.isFinite(p[0]) || !Number.isFinite(p[1])) {
      errors.push('Each position of "geometry" is [longitude, latitude] in degrees.');
      return undefined;
    }
    if (Math.abs(p[1]) > 90 || Math.abs(p[0]) > 540) {
      errors.push(`The position [${p[0]}, ${p[1]}] is off the globe.`);
      return undefined;
    }
    ring.push([p[0], p[1]]);
  }
  const [first, last] = [ring[0], ring[ring.length - 1]];
  if (first[0] !== last[0] || first[1] !== last[1]) errors.push('The ring of "geometry" must end where it starts.');
  return ring;
}

const PROPERTY = /^[A-Za-z][A-Za-z0-9_:.-]{0,99}$/;

/**
 * `filters`: `{id, min?, max?}` each. Whether the satellite lists the property, and its range,
 * are checked when the search runs (the map names the filters it can apply).
 */
function readFilters(v: unknown, errors: string[]): RangeFilter[] {
  if (v === undefined) return [];
  if (!Array.isArray(v) || v.length > 20) {
    errors.push('"filters" is a list of at most 20 ranges, each {"id": property, "min": number, "max": number}.');
    return [];
  }
  const out: RangeFilter[] = [];
  v.forEach((x: unknown, i) => {
    const o = x as { id?: unknown; min?: unknown; max?: unknown } | null;
    if (typeof o !== 'object' || o === null || Array.isArray(o) || Object.keys(o).some((k) => k !== 'id' && k !== 'min' && k !== 'max')) {
      errors.push(`"filters"[${i}] is {"id", "min", "max"} and nothing else.`);
      return;
    }
    if (typeof o.id !== 'string' || !PROPERTY.test(o.id)) return void errors.push(`"filters"[${i}].id is a property name such as "view:off_nadir".`);
    const num = (n: unknown, side: string): number | undefined => {
      if (n === undefined) return undefined;
      if (typeof n !== 'number' || !Number.isFinite(n)) errors.push(`"filters"[${i}].${side} is a number.`);
      return typeof n === 'number' ? n : undefined;
    };
    const min = num(o.min, 'min');
    const max = num(o.max, 'max');
    if (min === undefined && max === undefined) return void errors.push(`"filters"[${i}] needs "min", "max" or both.`);
    out.push({ id: o.id, ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) });
  });
  return out;
}

function readIds(f: Record<string, unknown>, key: 'collections' | 'satellites', errors: string[]): string[] {
  const v = f[key];
  if (v === undefined) return [];
  if (!Array.isArray(v) || !v.every((s) => typeof s === 'string' && s.length > 0)) {
    errors.push(`"${key}" is a list of ids.`);
    return [];
  }
  return v as string[];
}

function readDate(f: Record<string, unknown>, key: 'from' | 'to', errors: string[]): string {
  const v = f[key];
  if (v === undefined || v === '') return '';
  if (typeof v !== 'string' || !DATE.test(v) || Number.isNaN(Date.parse(`${v}T00:00:00Z`))) {
    errors.push(`"${key}" is a date, YYYY-MM-DD.`);
    return '';
  }
  return v;
}

/**
 * "What's New": the same search from the day of its last run on (the form filters by day), so
 * what was acquired since then is listed. Undefined `lastRun`: the whole search.
 */
export function sinceLastRun(p: SearchParams, lastRun: string | undefined): SearchParams {
  if (!lastRun) return p;
  const day = lastRun.slice(0, 10);
  return { ...p, from: p.from && p.from > day ? p.from : day };
}
