/**
 * Reading request bodies and query strings. Every failure is a 400 whose message names the
 * field (with its path, e.g. `order_items[0].geometry`) and what is wrong with it.
 */
import type { Polygon, Position } from '../api/records';
import { ringSelfIntersection } from '../geo/area';
import { badRequest } from './errors';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type Obj = Record<string, unknown>;

const kind = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

export function asObject(v: unknown, field: string): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw badRequest(field, `must be an object, got ${kind(v)}`);
  return v as Obj;
}

export function asArray(v: unknown, field: string, opts: { min?: number; max?: number } = {}): unknown[] {
  if (!Array.isArray(v)) throw badRequest(field, `must be an array, got ${kind(v)}`);
  if (opts.min !== undefined && v.length < opts.min) throw badRequest(field, `must have at least ${opts.min} element(s)`);
  if (opts.max !== undefined && v.length > opts.max) throw badRequest(field, `must have at most ${opts.max} elements`);
  return v;
}

export function asString(v: unknown, field: string, opts: { nonEmpty?: boolean; max?: number } = {}): string {
  if (typeof v !== 'string') throw badRequest(field, `must be a string, got ${kind(v)}`);
  if (opts.nonEmpty && v.trim() === '') throw badRequest(field, 'must not be empty');
  if (v.length > (opts.max ?? 10_000)) throw badRequest(field, `must be at most ${opts.max ?? 10_000} characters`);
  return v;
}

export function asNumber(v: unknown, field: string, opts: { min?: number; max?: number; integer?: boolean } = {}): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw badRequest(field, `must be a finite number, got ${kind(v)}`);
  if (opts.integer && !Number.isInteger(v)) throw badRequest(field, 'must be an integer');
  if (opts.min !== undefined && v < opts.min) throw badRequest(field, `must be >= ${opts.min}`);
  if (opts.max !== undefined && v > opts.max) throw badRequest(field, `must be <= ${opts.max}`);
  return v;
}

export function asBoolean(v: unknown, field: string): boolean {
  if (typeof v !== 'boolean') throw badRequest(field, `must be a boolean, got ${kind(v)}`);
  return v;
}

export function asStringArray(v: unknown, field: string, opts: { min?: number; max?: number } = {}): string[] {
  return asArray(v, field, { max: 1000, ...opts }).map((x, i) => asString(x, `${field}[${i}]`, { nonEmpty: true, max: 200 }));
}

export function asEnum<T extends string>(v: unknown, field: string, values: readonly T[]): T {
  const s = asString(v, field);
  if (!values.includes(s as T)) throw badRequest(field, `must be one of ${values.join(', ')}`);
  return s as T;
}

/** Optional field: undefined when absent, otherwise read with `f`. */
export function opt<T>(o: Obj, key: string, f: (v: unknown, field: string) => T, prefix = ''): T | undefined {
  const v = o[key];
  return v === undefined ? undefined : f(v, prefix + key);
}

export function req<T>(o: Obj, key: string, f: (v: unknown, field: string) => T, prefix = ''): T {
  if (o[key] === undefined || o[key] === null) throw badRequest(prefix + key, 'is required');
  return f(o[key], prefix + key);
}

export function asPosition(v: unknown, field: string): Position {
  const a = asArray(v, field);
  if (a.length < 2 || a.length > 3) throw badRequest(field, 'a position has 2 or 3 numbers');
  const lon = asNumber(a[0], `${field}[0]`);
  const lat = asNumber(a[1], `${field}[1]`);
  if (lon < -180 || lon > 180) throw badRequest(`${field}[0]`, 'longitude must be within -180..180');
  if (lat < -90 || lat > 90) throw badRequest(`${field}[1]`, 'latitude must be within -90..90');
  return [lon, lat];
}

/**
 * Edge pairs the self-intersection check may compare per vertex of a ring: a real outline
 * needs a handful; only a ring whose edges all overlap (a zig-zag) needs more, and is refused.
 * With MAX_REQUEST_VERTICES this bounds the geometry checks of any request to a few million
 * comparisons (the sandbox may run inside the extension host: no request may stall it).
 */
const PAIRS_PER_VERTEX = 100;

/** Positions (vertices) all the geometries of one request may hold together. */
export const MAX_REQUEST_VERTICES = 20_000;

/** Arrays that start with a number and hold two or more values: GeoJSON positions. */
const isPosition = (v: unknown): boolean => Array.isArray(v) && v.length >= 2 && typeof v[0] === 'number';

/**
 * Positions in `v` (any JSON), counted without recursion before any geometry is read; stops
 * counting once past `stopAfter`.
 */
export function countPositions(v: unknown, stopAfter = Infinity): number {
  let n = 0;
  const stack: unknown[] = [v];
  while (stack.length > 0 && n <= stopAfter) {
    const x = stack.pop();
    if (isPosition(x)) n++;
    else if (Array.isArray(x)) for (const e of x) stack.push(e);
    else if (typeof x === 'object' && x !== null) for (const k in x) stack.push((x as Obj)[k]);
  }
  return n;
}

/**
 * The vertex budget of a whole request body, checked before any route reads a geometry:
 * a 400 naming the top-level field whose geometries pass it.
 */
export function checkVertexBudget(body: unknown): void {
  if (typeof body !== 'object' || body === null) return;
  let total = 0;
  for (const [key, value] of Object.entries(body)) {
    total += countPositions(value, MAX_REQUEST_VERTICES - total);
    if (total > MAX_REQUEST_VERTICES) {
      throw badRequest(key, `the geometries of this request have more than ${MAX_REQUEST_VERTICES.toLocaleString('en')} vertices in all; simplify them`);
    }
  }
}

/**
 * Vertices a search geometry (archive `intersects`, imagery search `geometry`) may have in all. The exact test runs per candidate row
 * in the request's turn of the event loop (the sandbox can run inside the extension host),
 * so it is bounded: with this many the slowest search stays well under 100 ms.
 */
export const MAX_SEARCH_VERTICES = 2000;
/** A search geometry's vertices, counted before it is read: each candidate row is tested against all of them. */
export function checkSearchVertices(v: unknown, field: string, max = MAX_SEARCH_VERTICES): void {
  const n = countPositions(v);
  if (n > max) throw badRequest(field, `has ${n} vertices; a search geometry may have at most ${max} (simplify it, or search by its bbox)`);
}

/** A GeoJSON Polygon with closed rings of 4+ positions, coordinates in range, no bow-ties. */
export function asPolygon(v: unknown, field: string): Polygon {
  const o = asObject(v, field);
  if (o.type !== 'Polygon') throw badRequest(`${field}.type`, `must be "Polygon", got ${JSON.stringify(o.type ?? null)}`);
  const rings = asArray(o.coordinates, `${field}.coordinates`, { min: 1, max: 100 }).map((r, i) => {
    const f = `${field}.coordinates[${i}]`;
    const ring = asArray(r, f, { max: 10_000 }).map((p, j) => asPosition(p, `${f}[${j}]`));
    if (ring.length < 4) throw badRequest(f, `a ring needs at least 4 positions, got ${ring.length}`);
    const a = ring[0];
    const b = ring[ring.length - 1];
    if (a[0] !== b[0] || a[1] !== b[1]) throw badRequest(f, 'ring is not closed (first and last positions differ)');
    const crossing = ringSelfIntersection(ring, PAIRS_PER_VERTEX * ring.length);
    if (crossing === 'crosses') throw badRequest(f, 'ring intersects itself');
    if (crossing === 'too-intricate') {
      throw badRequest(f, `ring is too intricate to check for self-intersection (its ${ring.length} edges overlap each other too much); simplify it`);
    }
    return ring;
  });
  return { type: 'Polygon', coordinates: rings };
}

/** Query-string integer with bounds; undefined when absent. */
export function queryInt(q: URLSearchParams, key: string, min: number, max: number): number | undefined {
  const raw = q.get(key);
  if (raw === null) return undefined;
  if (!/^-?\d{1,15}$/.test(raw.trim())) throw badRequest(key, `must be an integer, got ${JSON.stringify(raw.slice(0, 40))}`);
  const n = Number(raw);
  if (n < min || n > max) throw badRequest(key, `must be between ${min} and ${max}, got ${n}`);
  return n;
}

/** offset/limit of listings: limit 1..100 (default 10), offset >= 0 (default 0). */
export function pageParams(q: URLSearchParams, defaultLimit = 10): { offset: number; limit: number } {
  return {
    offset: queryInt(q, 'offset', 0, Number.MAX_SAFE_INTEGER) ?? 0,
    limit: queryInt(q, 'limit', 1, 100) ?? defaultLimit,
  };
}

export function queryList(q: URLSearchParams, key: string): string[] | undefined {
  const raw = q.get(key);
  if (raw === null) return undefined;
  const parts = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (parts.length === 0) throw badRequest(key, 'must be a comma-separated list of values');
  return parts;
}

const ID_RE = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/** Path ids: a malformed one is 400 (not 404), as the interface declares for single reads. */
export function pathId(v: string, field: string): string {
  if (!ID_RE.test(v)) throw badRequest(field, 'is not a well-formed id');
  return v;
}
