/**
 * A tiny shape checker for responses. A check returns `undefined` when the value fits, or
 * the tail of a message ("`.total_amount: expected number, got string`") built only on
 * failure, so checking a page of records allocates nothing on the happy path.
 *
 * Checks look at the fields they name and ignore the rest: unknown fields pass through.
 */
import { lazy } from '../lazy';

export type Check = (v: unknown) => string | undefined;

export function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'string') return v.length > 24 ? 'string' : `string ${JSON.stringify(v)}`;
  if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
  return typeof v;
}

const expected = (what: string, v: unknown): string => `: expected ${what}, got ${describe(v)}`;

/** Primitive checks the compiled object checker can inline. */
type Prim = 'string' | 'number' | 'integer' | 'boolean';
const PRIMS = new WeakMap<Check, { prim: Prim; optional: boolean }>();

function prim(p: Prim, check: Check): Check {
  PRIMS.set(check, { prim: p, optional: false });
  return check;
}

export const str: Check = prim('string', (v) => (typeof v === 'string' ? undefined : expected('string', v)));
export const num: Check = prim('number', (v) => (typeof v === 'number' && Number.isFinite(v) ? undefined : expected('number', v)));
export const int: Check = prim('integer', (v) => (typeof v === 'number' && Number.isInteger(v) ? undefined : expected('integer', v)));
export const bool: Check = prim('boolean', (v) => (typeof v === 'boolean' ? undefined : expected('boolean', v)));
export const anyValue: Check = () => undefined;
export const object: Check = (v) => (isObj(v) ? undefined : expected('object', v));

/** Absent or null is fine; present must fit. */
export function opt(check: Check): Check {
  const c: Check = (v) => (v === undefined || v === null ? undefined : check(v));
  const p = PRIMS.get(check);
  if (p) PRIMS.set(c, { prim: p.prim, optional: true });
  return c;
}

/** Present (may be null when the record says so via `opt`). */
export function arr(check: Check): Check {
  return (v) => {
    if (!Array.isArray(v)) return expected('array', v);
    for (let i = 0; i < v.length; i++) {
      const e = check(v[i]);
      if (e !== undefined) return `[${i}]${e}`;
    }
    return undefined;
  };
}

export function obj(fields: Record<string, Check>): Check {
  // Built on the first check, not when the schema module loads: the extension declares every
  // record's schema at load, and activation should not pay for compiling them.
  const built = lazy((): Check => {
    const keys = Object.keys(fields);
    const checks = keys.map((k) => fields[k]);
    const tails = keys.map((k) => (/^[A-Za-z_$][\w$]*$/.test(k) ? `.${k}` : `[${JSON.stringify(k)}]`));
    return compileObj(keys, checks, tails) ?? loopObj(keys, checks, tails);
  });
  return (v) => built()(v);
}

function loopObj(keys: string[], checks: Check[], tails: string[]): Check {
  return (v) => {
    if (!isObj(v)) return expected('object', v);
    for (let i = 0; i < keys.length; i++) {
      const e = checks[i](v[keys[i]]);
      if (e !== undefined) return tails[i] + e;
    }
    return undefined;
  };
}

const PRIM_TEST: Record<Prim, (x: string) => string> = {
  string: (x) => `typeof ${x} === 'string'`,
  number: (x) => `(typeof ${x} === 'number' && Number.isFinite(${x}))`,
  integer: (x) => `Number.isInteger(${x})`,
  boolean: (x) => `typeof ${x} === 'boolean'`,
};

/**
 * The same checker as straight-line code with literal property names: a page of 100 order
 * items is checked several times faster than by a loop of keyed loads (the loop's property
 * accesses go megamorphic). Falls back to the loop where code generation is not allowed.
 */
function compileObj(keys: string[], checks: Check[], tails: string[]): Check | undefined {
  const lines: string[] = ['if (typeof v !== "object" || v === null || Array.isArray(v)) return expected("object", v);', 'let x, e;'];
  keys.forEach((k, i) => {
    lines.push(`x = v[${JSON.stringify(k)}];`);
    const p = PRIMS.get(checks[i]);
    if (p) {
      const ok = PRIM_TEST[p.prim]('x');
      const test = p.optional ? `x !== undefined && x !== null && !(${ok})` : `!(${ok})`;
      lines.push(`if (${test}) return tails[${i}] + expected(${JSON.stringify(p.prim)}, x);`);
    } else {
      lines.push(`e = checks[${i}](x); if (e !== undefined) return tails[${i}] + e;`);
    }
  });
  lines.push('return undefined;');
  try {
    const make = new Function('checks', 'tails', 'expected', `return function check(v) {\n${lines.join('\n')}\n};`) as (
      c: Check[],
      t: string[],
      ex: typeof expected,
    ) => Check;
    return make(checks, tails, expected);
  } catch {
    return undefined;
  }
}

/** A map whose values all fit `check`. */
export function mapOf(check: Check): Check {
  return (v) => {
    if (!isObj(v)) return expected('object', v);
    for (const k of Object.keys(v)) {
      const e = check(v[k]);
      if (e !== undefined) return `[${JSON.stringify(k)}]${e}`;
    }
    return undefined;
  };
}

export function oneOf(...checks: Check[]): Check {
  return (v) => {
    let first: string | undefined;
    for (const c of checks) {
      const e = c(v);
      if (e === undefined) return undefined;
      first ??= e;
    }
    return first;
  };
}

/**
 * A plain object (not null, not an array): the one guard of this kind in src/, for responses,
 * command arguments and files alike. Everything may import it: src/api is the lowest layer.
 */
export function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A response that does not fit; the client turns it into an `ApiError` of kind `protocol`. */
export class ShapeError extends Error {
  override readonly name = 'ShapeError';
}

/**
 * Check `v` against `check`, naming the failing field from `root` ("order.total_amount");
 * an empty root names it from the body's own keys ("order_items[3].area").
 */
export function assertShape<T>(v: unknown, check: Check, root: string): T {
  const e = check(v);
  if (e !== undefined) throw new ShapeError(root ? `${root}${e}` : e.replace(/^\./, ''));
  return v as T;
}
