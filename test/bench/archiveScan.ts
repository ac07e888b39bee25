/**
 * The baseline for the archive-search figure: a scan written the way a competent engineer
 * would write it without an index. Rows are kept in the default sort order (newest first),
 * so the scan walks them in order, runs the cheap tests first (datetime, property filters,
 * bounding-box overlap), the exact polygon test only on rows whose box overlaps the query's
 * without lying inside it, and stops as soon as the page is full.
 */
import type { QueryOperator } from '../../src/api/records';
import { bboxContains, bboxPolygon, bboxesIntersect } from '../../src/geo/bbox';
import { geometriesIntersect } from '../../src/geo/intersects';
import { type ArchiveQuery, rowProperty } from '../../src/sandbox/archiveSearch';
import type { ArchiveRow } from '../../src/sandbox/world/archive';

function test(op: QueryOperator, v: unknown, x: unknown): boolean {
  if (v === undefined || v === null) return false;
  switch (op) {
    case 'eq':
      return v === x;
    case 'neq':
      return v !== x;
    case 'lt':
      return (v as number) < (x as number);
    case 'lte':
      return (v as number) <= (x as number);
    case 'gt':
      return (v as number) > (x as number);
    case 'gte':
      return (v as number) >= (x as number);
    case 'in':
      return (x as unknown[]).includes(v);
  }
}

export function scanSearch(rows: readonly ArchiveRow[], q: ArchiveQuery): ArchiveRow[] {
  if (q.intersects || q.ids || q.collections || q.sortby) throw new Error('scanSearch covers bbox, datetime and property filters only');
  const filters = Object.entries(q.query ?? {}).flatMap(([field, ops]) =>
    Object.entries(ops).map(
      ([op, x]) =>
        (r: ArchiveRow) =>
          test(op as QueryOperator, rowProperty(r, field), x),
    ),
  );
  const boxPoly = q.bbox ? bboxPolygon(q.bbox) : undefined;
  const out: ArchiveRow[] = [];
  let seen = 0;
  for (const r of rows) {
    if (q.from !== undefined && r.t < q.from) continue;
    if (q.to !== undefined && r.t > q.to) continue;
    if (q.bbox && !bboxesIntersect(r.bbox, q.bbox)) continue;
    if (!filters.every((f) => f(r))) continue;
    if (q.bbox && boxPoly && !bboxContains(q.bbox, r.bbox) && !geometriesIntersect(r.geometry, boxPoly)) continue;
    if (seen++ < q.offset) continue;
    out.push(r);
    if (out.length === q.limit) break;
  }
  return out;
}
