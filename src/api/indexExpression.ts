/**
 * The grammar of a custom index expression, shared by the sandbox (which enforces it with a
 * 400) and the extension (which checks before sending), so the two cannot disagree:
 * band arithmetic such as `(B08-B04)/(B08+B04)` for `index` and `grayscale`, three
 * comma-separated band names for `composite`.
 */
import type { ExpressionType } from './records';

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The band names used, in order of first use, or why the expression does not parse. */
export function parseIndexExpression(expr: string, type: ExpressionType): { bands: string[] } | { error: string } {
  if (type === 'composite') {
    const parts = expr.split(',').map((s) => s.trim());
    if (parts.length !== 3 || parts.some((p) => !IDENT.test(p))) {
      return { error: 'a composite expression is three band names separated by commas, e.g. "B04,B03,B02"' };
    }
    return { bands: [...new Set(parts)] };
  }
  const parsed = parseArithmetic(expr);
  if ('error' in parsed) return parsed;
  if (parsed.bands.length === 0) return { error: 'the expression uses no band' };
  return parsed;
}

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
    if (e instanceof SyntaxError) return { error: e.message };
    throw e;
  }
  return { bands };
}
