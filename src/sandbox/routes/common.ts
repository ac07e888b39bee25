/** Helpers the route groups share: paging, ownership checks, range filters. */
import type { Pagination } from '../../api/records';
import { badRequest, forbidden, notFound } from '../errors';
import type { Req } from '../router';
import type { AoiRec, ProjectRec } from '../state';
import { parseTime } from '../timefmt';
import { pathId } from '../validate';

export function page<T>(list: readonly T[], offset: number, limit: number): { items: T[]; pagination: Pagination } {
  return { items: list.slice(offset, offset + limit), pagination: { limit, offset, total: list.length } };
}

/** The caller's AOI: 400 malformed id, 404 unknown, 403 another user's. */
export function ownAoi(r: Req, raw: string): AoiRec {
  const id = pathId(raw, 'aoi_id');
  const aoi = r.app.state.aois.find((a) => a.aoi_id === id);
  if (!aoi) throw notFound('AOI', id);
  if (aoi.user_id !== r.user.id) throw forbidden(`AOI ${JSON.stringify(id)}`);
  return aoi;
}

export function ownProject(r: Req, id: string, field: string, unknownStatus: 400 | 404 = 400): ProjectRec {
  const p = r.app.state.projects.find((x) => x.id === id);
  if (!p) throw unknownStatus === 400 ? badRequest(field, `no project ${JSON.stringify(id)}`) : notFound('project', id);
  if (p.owner !== r.user.id) throw forbidden(`project ${JSON.stringify(id)}`);
  return p;
}

/** `from,to` (either side may be empty) or a single value, for created_at/updated_at/area filters. */
export function rangeFilter(raw: string | null, field: string, parse: (s: string) => number): ((v: number) => boolean) | undefined {
  if (raw === null) return undefined;
  const parts = raw.split(',');
  if (parts.length > 2) throw badRequest(field, 'must be "from,to" or a single value');
  const [a, b] = parts.map((s) => s.trim());
  const lo = a ? parse(a) : -Infinity;
  const hi = parts.length === 2 ? (b ? parse(b) : Infinity) : undefined;
  if (Number.isNaN(lo) || (hi !== undefined && Number.isNaN(hi))) throw badRequest(field, `cannot read ${JSON.stringify(raw.slice(0, 60))} as a range`);
  if (hi === undefined) {
    // A single date matches that whole day (or that exact instant when it has a time).
    const dayOnly = /^\d{4}-\d{2}-\d{2}$/.test(a);
    return (v) => (dayOnly ? v >= lo && v < lo + 86_400_000 : v === lo);
  }
  if (lo > hi) throw badRequest(field, 'range start is after its end');
  return (v) => v >= lo && v <= hi;
}

export const timeRange = (raw: string | null, field: string): ((v: number) => boolean) | undefined => rangeFilter(raw, field, (s) => parseTime(s));

export const numberRange = (raw: string | null, field: string): ((v: number) => boolean) | undefined =>
  rangeFilter(raw, field, (s) => (/^-?\d+(\.\d+)?$/.test(s) ? Number(s) : NaN));

/** Rejects query parameters an endpoint does not know, naming them. */
export function onlyParams(q: URLSearchParams, allowed: readonly string[]): void {
  for (const k of q.keys()) {
    if (!allowed.includes(k)) throw badRequest(k, `unknown query parameter; allowed: ${allowed.join(', ') || 'none'}`);
  }
}

export const ok = (json: unknown, status = 200): { status: number; json: unknown } => ({ status, json });

/**
 * Runs and jobs as their list endpoints give them: newest first, each seen as the sandbox
 * clock has it now (`view`: a run queued when it was started is running or done by now), and
 * the `status` filter (null: none) applied to what `view` says, not to what was stored.
 */
export function newestAsOfNow<R extends { t0: number }, V extends { status: string }>(records: readonly R[], view: (x: R) => V, status: string | null): V[] {
  return [...records]
    .sort((a, b) => b.t0 - a.t0)
    .map(view)
    .filter((v) => status === null || v.status === status);
}
