/**
 * Scalar input values (rule 4): dates, numbers, strings and booleans travel as strings, and
 * the real type follows `type`/`format`. The builder and the validator share these checks so
 * that a value the builder writes is one the validator accepts, and the reverse.
 */

export type ScalarKind = 'date' | 'number' | 'boolean' | 'string';

export type ScalarResult = { ok: true; value: string } | { ok: false; reason: string };

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

function validCalendarDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return d <= days;
}

/** `YYYY-MM-DD` or an RFC 3339 date-time, checked against the calendar (no 31 February). */
export function parseDate(text: string): ScalarResult {
  const t = text.trim();
  const date = DATE.exec(t);
  if (date) {
    return validCalendarDate(+date[1], +date[2], +date[3]) ? { ok: true, value: t } : { ok: false, reason: `"${t}" is not a calendar date` };
  }
  const dt = DATE_TIME.exec(t);
  if (dt) {
    const [, y, mo, d, h, mi, s, oh, om] = dt;
    const timeOk = +h < 24 && +mi < 60 && (s === undefined || +s < 61) && (oh === undefined || (+oh < 24 && +om < 60));
    return validCalendarDate(+y, +mo, +d) && timeOk ? { ok: true, value: t } : { ok: false, reason: `"${t}" is not a valid date-time` };
  }
  return { ok: false, reason: `"${t}" is not a date (expected YYYY-MM-DD or an RFC 3339 date-time)` };
}

export function parseNumber(text: string): ScalarResult {
  const t = text.trim();
  if (!NUMBER.test(t) || !Number.isFinite(Number(t))) {
    return { ok: false, reason: `"${t}" is not a number` };
  }
  return { ok: true, value: t };
}

export function parseBoolean(text: string): ScalarResult {
  const t = text.trim().toLowerCase();
  if (t === 'true' || t === 'false') return { ok: true, value: t };
  return { ok: false, reason: `"${text.trim()}" is not a boolean (expected true or false)` };
}

/**
 * Which scalar check applies to an input: its format when that names a scalar kind, else its
 * value type (`number`, `boolean`); `undefined` for rasters, vectors and URLs.
 */
export function scalarKindOf(format: string | undefined, type: string | undefined): ScalarKind | undefined {
  if (format === 'date' || format === 'number' || format === 'boolean' || format === 'string') return format;
  if (format === 'raster' || format === 'vector') return undefined;
  if (type === 'number' || type === 'boolean') return type;
  if (type === 'string') return 'string';
  return undefined;
}

export function parseScalar(kind: ScalarKind, text: string): ScalarResult {
  switch (kind) {
    case 'date':
      return parseDate(text);
    case 'number':
      return parseNumber(text);
    case 'boolean':
      return parseBoolean(text);
    case 'string':
      return { ok: true, value: text };
  }
}

/** The value type an input carries when its definition does not say (rule 6). */
export function defaultValueType(format: string): string {
  switch (format) {
    case 'raster':
      return 'url';
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    default:
      return 'string';
  }
}
