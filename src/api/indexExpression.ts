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
  return { bands: parsed.bands };
}

/** A parsed arithmetic expression: what `compileIndexExpression` evaluates per pixel. */
export type ExprNode =
  { k: 'num'; v: number } | { k: 'band'; i: number } | { k: 'neg'; a: ExprNode } | { k: 'op'; op: '+' | '-' | '*' | '/'; a: ExprNode; b: ExprNode };

function parseArithmetic(expr: string): { bands: string[]; tree: ExprNode } | { error: string } {
  const tokens = expr.match(/\s*([A-Za-z_][A-Za-z0-9_]*|\d+(?:\.\d+)?|\.\d+|[-+*/()]|\S)/g)?.map((t) => t.trim()) ?? [];
  if (tokens.length === 0) return { error: 'the expression is empty' };
  const bands: string[] = [];
  let i = 0;
  const fail = (msg: string): never => {
    throw new SyntaxError(msg);
  };
  const at = (): string => (i < tokens.length ? `"${tokens[i]}" (token ${i + 1})` : 'the end');
  const primary = (): ExprNode => {
    const t = tokens[i];
    if (t === undefined) fail('the expression ends too early');
    if (t === '(') {
      i++;
      const inner = sum();
      if (tokens[i] !== ')') fail(`expected ")" at ${at()}`);
      i++;
      return inner;
    } else if (t === '-' || t === '+') {
      i++;
      const a = primary();
      return t === '-' ? { k: 'neg', a } : a;
    } else if (/^[\d.]/.test(t) && Number.isFinite(Number(t))) {
      i++;
      return { k: 'num', v: Number(t) };
    } else if (IDENT.test(t)) {
      if (!bands.includes(t)) bands.push(t);
      i++;
      return { k: 'band', i: bands.indexOf(t) };
    }
    return fail(`unexpected ${at()}`);
  };
  const product = (): ExprNode => {
    let a = primary();
    while (tokens[i] === '*' || tokens[i] === '/') {
      const op = tokens[i++] as '*' | '/';
      a = { k: 'op', op, a, b: primary() };
    }
    return a;
  };
  const sum = (): ExprNode => {
    let a = product();
    while (tokens[i] === '+' || tokens[i] === '-') {
      const op = tokens[i++] as '+' | '-';
      a = { k: 'op', op, a, b: product() };
    }
    return a;
  };
  try {
    const tree = sum();
    if (i !== tokens.length) fail(`unexpected ${at()}`);
    return { bands, tree };
  } catch (e) {
    if (e instanceof SyntaxError) return { error: e.message };
    throw e;
  }
}

/**
 * An arithmetic expression (`index` or `grayscale`) as a function of its bands' values, given
 * in the order of `bands`. Division by zero gives a non-finite number, which callers treat as
 * no data.
 */
export function compileIndexExpression(expr: string): { bands: string[]; evaluate: (values: ArrayLike<number>) => number } | { error: string } {
  const parsed = parseArithmetic(expr);
  if ('error' in parsed) return parsed;
  if (parsed.bands.length === 0) return { error: 'the expression uses no band' };
  const build = (n: ExprNode): ((v: ArrayLike<number>) => number) => {
    switch (n.k) {
      case 'num': {
        const c = n.v;
        return () => c;
      }
      case 'band': {
        const i = n.i;
        return (v) => v[i];
      }
      case 'neg': {
        const a = build(n.a);
        return (v) => -a(v);
      }
      default: {
        const a = build(n.a);
        const b = build(n.b);
        switch (n.op) {
          case '+':
            return (v) => a(v) + b(v);
          case '-':
            return (v) => a(v) - b(v);
          case '*':
            return (v) => a(v) * b(v);
          default:
            return (v) => a(v) / b(v);
        }
      }
    }
  };
  return { bands: parsed.bands, evaluate: build(parsed.tree) };
}
