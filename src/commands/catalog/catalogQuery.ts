/**
 * The catalog search form's fields as typed, turned into the body of `POST /v0/catalogs/search`
 * (docs/service-interface.md), with the reason a field is refused. Pure: no `vscode`.
 */
import type { CatalogSearchRequest } from '../../api/records';
import { parseOrderDate } from '../../orders/orderDates';

export interface CatalogQueryText {
  orderIds: string;
  orderItemIds: string;
  /** `2025-01-01/2025-02-01`, `2025-01-01/..`, `../2025-02-01`, or empty. */
  dateRange: string;
  /** `minLon,minLat,maxLon,maxLat`, or empty. */
  bbox: string;
}

export function checkBbox(text: string): string | undefined {
  const t = text.trim();
  if (t === '') return undefined;
  const parts = t.split(/[,\s]+/).filter(Boolean);
  if (parts.length !== 4 || parts.some((p) => !Number.isFinite(Number(p)))) return 'Enter four numbers: min lon, min lat, max lon, max lat.';
  const [w, s, e, n] = parts.map(Number);
  if ([w, e].some((x) => x < -180 || x > 180)) return 'Longitudes must be within -180..180.';
  if ([s, n].some((y) => y < -90 || y > 90)) return 'Latitudes must be within -90..90.';
  if (s >= n) return 'The min latitude must be below the max latitude.';
  if (w === e) return 'The box has no width.';
  // w > e is a box across the antimeridian (docs/service-interface.md): allowed.
  return undefined;
}

export function parseBbox(text: string): [number, number, number, number] | undefined {
  if (text.trim() === '' || checkBbox(text)) return undefined;
  const [w, s, e, n] = text
    .trim()
    .split(/[,\s]+/)
    .filter(Boolean)
    .map(Number);
  return [w, s, e, n];
}

export function checkDateInterval(text: string): string | undefined {
  const t = text.trim();
  if (t === '') return undefined;
  const [a, b, extra] = t.split('/');
  if (b === undefined || extra !== undefined) return 'Enter start/end, e.g. 2025-01-01/2025-03-31 (use .. for an open end).';
  if (a === '..' && b === '..') return 'Give at least one end of the interval.';
  const start = a === '..' ? undefined : parseOrderDate(a);
  const end = b === '..' ? undefined : parseOrderDate(b);
  if (start && !start.ok) return `Start: ${start.reason}`;
  if (end && !end.ok) return `End: ${end.reason}`;
  if (start?.ok && end?.ok && end.ms < start.ms) return 'The end is before the start.';
  return undefined;
}

/** RFC 3339 interval for `datetime`; undefined when empty or invalid. */
export function parseDateInterval(text: string): string | undefined {
  const t = text.trim();
  if (t === '' || checkDateInterval(t)) return undefined;
  const [a, b] = t.split('/');
  const iso = (s: string, endOfDay: boolean): string => {
    if (s === '..') return '..';
    const r = parseOrderDate(s);
    if (!r.ok) return s;
    // A bare date as the end means "through that day".
    return endOfDay && /^\d{4}-\d{2}-\d{2}$/.test(s.trim()) ? new Date(r.ms + 86_399_999).toISOString() : r.iso;
  };
  return `${iso(a, false)}/${iso(b, true)}`;
}

function ids(text: string): string[] | undefined {
  const list = [...new Set(text.split(/[,\s]+/).filter(Boolean))];
  return list.length ? list : undefined;
}

export function catalogSearchBody(q: CatalogQueryText): CatalogSearchRequest {
  const body: CatalogSearchRequest = {};
  const o = ids(q.orderIds);
  const oi = ids(q.orderItemIds);
  const bbox = parseBbox(q.bbox);
  const datetime = parseDateInterval(q.dateRange);
  if (o) body.order_ids = o;
  if (oi) body.order_item_ids = oi;
  if (bbox) body.bbox = bbox;
  if (datetime) body.datetime = datetime;
  return body;
}
