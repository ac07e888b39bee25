/** Shared plumbing of the resource groups: turning a listing body into a `Page`, and offset/limit listings. */
import { iterateOffset, type IterateOptions, type OffsetQuery, type Page } from './paging';
import type { Pagination } from './records';
import { assertShape, type Check, obj, arr } from './shape';
import { pagination as paginationShape } from './schemas';
import type { CallOptions, Query, Transport } from './transport';

/** A parser for `{<key>: [record], pagination}` bodies that yields a `Page`. */
export function offsetPageParser<T>(key: string, item: Check, root = ''): (body: unknown) => Page<T> {
  const check = obj({ [key]: arr(item), pagination: paginationShape });
  return (body) => {
    const b = assertShape<Record<string, unknown> & { pagination: Pagination }>(body, check, root);
    return { items: b[key] as T[], total: b.pagination.total, offset: b.pagination.offset, limit: b.pagination.limit };
  };
}

/** A parser for `{<key>: [record]}` bodies that yields the array. */
export function listParser<T>(key: string, item: Check, root = ''): (body: unknown) => T[] {
  const check = obj({ [key]: arr(item) });
  return (body) => assertShape<Record<string, T[]>>(body, check, root)[key];
}

/** A parser for one record. */
export function recordParser<T>(check: Check, root: string): (body: unknown) => T {
  return (body) => assertShape<T>(body, check, root);
}

export function checkLimit(name: string, v: number | undefined, min: number): void {
  if (v !== undefined && (!Number.isInteger(v) || v < min)) {
    throw new RangeError(`${name} must be an integer ≥ ${min}, got ${v}`);
  }
}

/** Where an offset/limit listing is and how to read it. */
export interface OffsetListingSpec<T, F> {
  /** GET sends the filter and offset/limit as the query; POST (a search) as the body. */
  method: 'GET' | 'POST';
  path: string;
  parse: (body: unknown) => Page<T>;
  /** A record's id: a page that repeats an earlier one stops the iterator. */
  idOf: (t: T) => string;
  /** The filter as query parameters, when they are not sent as they are. */
  toQuery?: (filter: F) => Query;
}

/** One page of an offset/limit listing (the service's default limit is 10), and every item of it lazily. */
export interface OffsetListing<T, F> {
  page(q?: F & OffsetQuery, o?: CallOptions): Promise<Page<T>>;
  iterate(filter?: F, opts?: IterateOptions): AsyncGenerator<T, void, undefined>;
}

export function offsetListing<T, F extends object>(t: Transport, spec: OffsetListingSpec<T, F>): OffsetListing<T, F> {
  const page = (q: F & OffsetQuery = {} as F & OffsetQuery, o?: CallOptions): Promise<Page<T>> => {
    const { offset, limit, ...rest } = q;
    checkLimit('offset', offset, 0);
    checkLimit('limit', limit, 1);
    const at = { offset: offset ?? 0, limit: limit ?? 10 };
    const filter = rest as F;
    return spec.method === 'GET'
      ? t.json({ method: 'GET', path: spec.path, query: { ...(spec.toQuery ? spec.toQuery(filter) : (filter as Query)), ...at } }, spec.parse, o)
      : t.json({ method: 'POST', path: spec.path, body: { ...filter, ...at } }, spec.parse, o);
  };
  return {
    page,
    iterate: (filter = {} as F, opts = {}) =>
      iterateOffset(({ offset, limit, signal }) => page({ ...filter, offset, limit }, { signal }), spec.idOf, { method: spec.method, path: spec.path }, opts),
  };
}
