/** Shared plumbing of the resource groups: turning a listing body into a `Page`. */
import type { Page } from './paging';
import type { Pagination } from './records';
import { assertShape, type Check, obj, arr } from './shape';
import { pagination as paginationShape } from './schemas';

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
