/**
 * STAC-style search over the archive rows. A 2-degree grid finds the rows near a bbox or
 * geometry; rows are stored newest first, so the default order is a sort of row numbers;
 * exact polygon intersection runs only on rows whose box is not already inside the query box,
 * and only until the page is full.
 */
import type { Geometry, QueryOperator } from '../api/records';
import { type BBox, bboxContains, bboxPolygon, bboxesIntersect, geometryBbox, splitBbox } from '../geo/bbox';
import { geometriesIntersect } from '../geo/intersects';
import { type ArchiveRow, COLLECTION_DEFS, fastProperty, itemProperties } from './world/archive';

const CELL = 2;
const COLS = 360 / CELL;
const ROWS = 180 / CELL;

export interface ArchiveQuery {
  bbox?: BBox;
  /** Any-of: a multi-part or collection geometry arrives as its parts. */
  intersects?: Geometry | Geometry[];
  /** Inclusive bounds in ms; an instant has from === to. */
  from?: number;
  to?: number;
  ids?: string[];
  collections?: string[];
  query?: Record<string, Partial<Record<QueryOperator, unknown>>>;
  sortby?: { field: string; direction: 'asc' | 'desc' }[];
  limit: number;
  offset: number;
  /** Count every match (the imagery search reports `pagination.total`). */
  count?: boolean;
}

export interface ArchivePage {
  rows: ArchiveRow[];
  hasMore: boolean;
  /** Every match, when the query asked for a count. */
  total?: number;
}

export class ArchiveIndex {
  /** Row numbers per grid cell in one array (CSR layout): cell c owns cellRows[cellStart[c]..cellStart[c+1]). */
  private readonly cellStart = new Int32Array(COLS * ROWS + 1);
  private readonly cellRows: Int32Array;
  private readonly byId = new Map<string, number>();
  private readonly stamp: Uint32Array;
  private epoch = 0;

  constructor(readonly rows: readonly ArchiveRow[]) {
    const perRow = rows.map((r, i) => {
      this.byId.set(r.id, i);
      const cells = cellsOf(r.bbox);
      for (const c of cells) this.cellStart[c + 1]++;
      return cells;
    });
    for (let c = 0; c < COLS * ROWS; c++) this.cellStart[c + 1] += this.cellStart[c];
    this.cellRows = new Int32Array(this.cellStart[COLS * ROWS]);
    const fill = this.cellStart.slice(0, COLS * ROWS);
    perRow.forEach((cells, i) => {
      for (const c of cells) this.cellRows[fill[c]++] = i;
    });
    this.stamp = new Uint32Array(rows.length);
  }

  get(id: string): ArchiveRow | undefined {
    const i = this.byId.get(id);
    return i === undefined ? undefined : this.rows[i];
  }

  /** Row numbers that may match the spatial part (all rows when there is none). */
  private candidates(boxes: BBox[] | undefined, ids: string[] | undefined): number[] {
    if (ids) {
      const out = ids.map((id) => this.byId.get(id)).filter((i): i is number => i !== undefined);
      return [...new Set(out)].sort((a, b) => a - b);
    }
    if (!boxes) return Array.from(this.rows.keys());
    this.epoch = (this.epoch + 1) >>> 0;
    if (this.epoch === 0) {
      this.stamp.fill(0);
      this.epoch = 1;
    }
    const out: number[] = [];
    for (const cell of boxes.flatMap(cellsOf)) {
      for (let k = this.cellStart[cell]; k < this.cellStart[cell + 1]; k++) {
        const i = this.cellRows[k];
        if (this.stamp[i] !== this.epoch) {
          this.stamp[i] = this.epoch;
          out.push(i);
        }
      }
    }
    return out.sort((a, b) => a - b);
  }

  search(q: ArchiveQuery): ArchivePage {
    const parts = q.intersects === undefined ? undefined : Array.isArray(q.intersects) ? q.intersects : [q.intersects];
    const boxes = q.bbox ? [q.bbox] : parts ? parts.map(geometryBbox) : undefined;
    const collections = q.collections ? new Set(q.collections) : undefined;
    const idSet = q.ids ? new Set(q.ids) : undefined;
    const filters = compileQuery(q.query);
    const matchesCheap = (r: ArchiveRow): boolean =>
      (!collections || collections.has(COLLECTION_DEFS[r.c].id)) &&
      (!idSet || idSet.has(r.id)) &&
      (q.from === undefined || r.t >= q.from) &&
      (q.to === undefined || r.t <= q.to) &&
      (!boxes || boxes.some((b) => bboxesIntersect(r.bbox, b))) &&
      filters.every((f) => f(r));
    let list = this.candidates(boxes, q.ids).filter((i) => matchesCheap(this.rows[i]));
    if (q.sortby && q.sortby.length > 0) list = sortRows(list, this.rows, q.sortby);
    const boxPoly = q.bbox ? bboxPolygon(q.bbox) : undefined;
    const matchesExact = (r: ArchiveRow): boolean => {
      if (q.bbox && boxPoly && !bboxContains(q.bbox, r.bbox) && !geometriesIntersect(r.geometry, boxPoly)) return false;
      if (parts && !parts.some((g) => geometriesIntersect(r.geometry, g))) return false;
      return true;
    };
    const rows: ArchiveRow[] = [];
    let seen = 0;
    for (const i of list) {
      const r = this.rows[i];
      if (!matchesExact(r)) continue;
      if (seen >= q.offset + q.limit && !q.count) return { rows, hasMore: true };
      if (seen >= q.offset && seen < q.offset + q.limit) rows.push(r);
      seen++;
    }
    return { rows, hasMore: seen > q.offset + q.limit, total: q.count ? seen : undefined };
  }
}

function cellsOf(b: BBox): number[] {
  const out: number[] = [];
  for (const [w, s, e, n] of splitBbox(b)) {
    const c0 = clamp(Math.floor((w + 180) / CELL), COLS);
    const c1 = clamp(Math.floor((e + 180) / CELL), COLS);
    const r0 = clamp(Math.floor((s + 90) / CELL), ROWS);
    const r1 = clamp(Math.floor((n + 90) / CELL), ROWS);
    for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) out.push(r * COLS + c);
  }
  return out;
}

const clamp = (x: number, n: number): number => Math.max(0, Math.min(n - 1, x));

/** A property of a row by STAC name (`eo:cloud_cover`, `properties.gsd`, `id`, ...). */
export function rowProperty(r: ArchiveRow, field: string): unknown {
  const name = field.startsWith('properties.') ? field.slice('properties.'.length) : field;
  const fast = fastProperty(r, name);
  return fast !== undefined ? fast : itemProperties(r)[name];
}

function compare(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (a === undefined || a === null) return b === undefined || b === null ? 0 : 1;
  if (b === undefined || b === null) return -1;
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

function sortRows(list: number[], rows: readonly ArchiveRow[], sortby: { field: string; direction: 'asc' | 'desc' }[]): number[] {
  const keyed = list.map((i) => ({ i, keys: sortby.map((s) => rowProperty(rows[i], s.field)) }));
  keyed.sort((a, b) => {
    for (let k = 0; k < sortby.length; k++) {
      const c = compare(a.keys[k], b.keys[k]);
      if (c !== 0) return sortby[k].direction === 'desc' ? -c : c;
    }
    return a.i - b.i;
  });
  return keyed.map((k) => k.i);
}

function compileQuery(query: ArchiveQuery['query']): ((r: ArchiveRow) => boolean)[] {
  const out: ((r: ArchiveRow) => boolean)[] = [];
  for (const [field, ops] of Object.entries(query ?? {})) {
    for (const [op, value] of Object.entries(ops)) {
      const get = (r: ArchiveRow): unknown => rowProperty(r, field);
      switch (op as QueryOperator) {
        case 'eq':
          out.push((r) => compare(get(r), value) === 0);
          break;
        case 'neq':
          out.push((r) => compare(get(r), value) !== 0);
          break;
        case 'lt':
          out.push((r) => {
            const v = get(r);
            return v !== undefined && compare(v, value) < 0;
          });
          break;
        case 'lte':
          out.push((r) => {
            const v = get(r);
            return v !== undefined && compare(v, value) <= 0;
          });
          break;
        case 'gt':
          out.push((r) => {
            const v = get(r);
            return v !== undefined && compare(v, value) > 0;
          });
          break;
        case 'gte':
          out.push((r) => {
            const v = get(r);
            return v !== undefined && compare(v, value) >= 0;
          });
          break;
        case 'in': {
          const set = value as unknown[];
          out.push((r) => {
            const v = get(r);
            return set.some((x) => compare(v, x) === 0);
          });
          break;
        }
      }
    }
  }
  return out;
}

/** The simplest correct search (every row, every test, then a sort): the unit tests' oracle for the index. */
export function linearSearch(rows: readonly ArchiveRow[], q: ArchiveQuery): ArchiveRow[] {
  const boxPoly = q.bbox ? bboxPolygon(q.bbox) : undefined;
  const filters = compileQuery(q.query);
  const hits = rows.filter(
    (r) =>
      (q.from === undefined || r.t >= q.from) &&
      (q.to === undefined || r.t <= q.to) &&
      filters.every((f) => f(r)) &&
      (!boxPoly || geometriesIntersect(r.geometry, boxPoly)) &&
      (!q.intersects || [q.intersects].flat().some((g) => geometriesIntersect(r.geometry, g))),
  );
  hits.sort((a, b) => b.t - a.t);
  return hits.slice(q.offset, q.offset + q.limit);
}
