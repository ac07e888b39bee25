/**
 * Checks a custom index expression before it is sent (no vscode): band arithmetic such as
 * `(B08-B04)/(B08+B04)` for `index` and `grayscale`, three comma-separated bands for
 * `composite`; every band must be one of the satellite's.
 */
import type { ExpressionType } from '../../api/records';

export type ExpressionCheck = { ok: true; bands: string[] } | { ok: false; reason: string };

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

function parseArithmetic(expr: string): { bands: string[] } | { error: string } {
  const tokens = expr.match(/\s*([A-Za-z_][A-Za-z0-9_]*|\d+(?:\.\d+)?|\.\d+|[-+*/()]|\S)/g)?.map((t) => t.trim()) ?? [];
  if (tokens.length === 0) return { error: 'the expression is empty' };
  const bands: string[] = [];
  let i = 0;
  const fail = (msg: string): never => {
    throw new SyntaxError(msg);
  };
  const at = (): string => (i < tokens.length ? `"${tokens[i]}" (token ${i + 1})` : 'the end');
  const primary = (): void => {
    const t = tokens[i];
    if (t === undefined) fail('the expression ends too early');
    if (t === '(') {
      i++;
      sum();
      if (tokens[i] !== ')') fail(`expected ")" at ${at()}`);
      i++;
    } else if (t === '-' || t === '+') {
      i++;
      primary();
    } else if (/^[\d.]/.test(t) && Number.isFinite(Number(t))) {
      i++;
    } else if (IDENT.test(t)) {
      if (!bands.includes(t)) bands.push(t);
      i++;
    } else fail(`unexpected ${at()}`);
  };
  const product = (): void => {
    primary();
    while (tokens[i] === '*' || tokens[i] === '/') {
      i++;
      primary();
    }
  };
  const sum = (): void => {
    product();
    while (tokens[i] === '+' || tokens[i] === '-') {
      i++;
      product();
    }
  };
  try {
    sum();
    if (i !== tokens.length) fail(`unexpected ${at()}`);
  } catch (e) {
    return { error: (e as Error).message };
  }
  return { bands };
}

function suggest(band: string, known: readonly string[]): string {
  const lower = band.toLowerCase();
  const close = known.find((k) => k.toLowerCase() === lower) ??
    known.find((k) => k.replace(/^([A-Za-z]+)0+/, '$1').toLowerCase() === lower.replace(/^([a-z]+)0+/, '$1'));
  return close ? ` (did you mean ${close}?)` : '';
}

export function checkExpression(expr: string, type: ExpressionType, satelliteBands: readonly string[]): ExpressionCheck {
  let bands: string[];
  if (type === 'composite') {
    const parts = expr.split(',').map((s) => s.trim());
    if (parts.length !== 3 || parts.some((p) => !IDENT.test(p))) {
      return { ok: false, reason: 'a composite expression is three band names separated by commas, e.g. "B04,B03,B02"' };
    }
    bands = [...new Set(parts)];
  } else {
    const parsed = parseArithmetic(expr);
    if ('error' in parsed) return { ok: false, reason: parsed.error };
    bands = parsed.bands;
  }
  if (bands.length === 0) return { ok: false, reason: 'the expression uses no band' };
  const known = new Set(satelliteBands);
  const unknown = bands.filter((b) => !known.has(b));
  if (unknown.length > 0) {
    const list = unknown.map((b) => `${b}${suggest(b, satelliteBands)}`).join(', ');
    return { ok: false, reason: `the satellite has no band ${list}; its bands: ${satelliteBands.join(', ')}` };
  }
  return { ok: true, bands };
}

/** Rescale bounds: two finite numbers with min < max. */
export function checkRescale(minText: string, maxText: string): { ok: true; value: [number, number] } | { ok: false; reason: string } {
  const min = Number(minText.trim());
  const max = Number(maxText.trim());
  if (minText.trim() === '' || !Number.isFinite(min)) return { ok: false, reason: `rescale min "${minText}" is not a number` };
  if (maxText.trim() === '' || !Number.isFinite(max)) return { ok: false, reason: `rescale max "${maxText}" is not a number` };
  if (!(min < max)) return { ok: false, reason: `rescale min (${min}) must be less than max (${max})` };
  return { ok: true, value: [min, max] };
}
