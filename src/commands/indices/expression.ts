/**
 * Checks a custom index expression before it is sent (no vscode): the shared grammar of
 * `api/indexExpression`, and every band must be one of the satellite's (with a suggestion).
 */
import { parseIndexExpression } from '../../api/indexExpression';
import type { ExpressionType } from '../../api/records';

export type ExpressionCheck = { ok: true; bands: string[] } | { ok: false; reason: string };

function suggest(band: string, known: readonly string[]): string {
  const lower = band.toLowerCase();
  const close =
    known.find((k) => k.toLowerCase() === lower) ?? known.find((k) => k.replace(/^([A-Za-z]+)0+/, '$1').toLowerCase() === lower.replace(/^([a-z]+)0+/, '$1'));
  return close ? ` (did you mean ${close}?)` : '';
}

export function checkExpression(expr: string, type: ExpressionType, satelliteBands: readonly string[]): ExpressionCheck {
  const parsed = parseIndexExpression(expr, type);
  if ('error' in parsed) return { ok: false, reason: parsed.error };
  const bands = parsed.bands;
  const known = new Set(satelliteBands);
  const unknown = bands.filter((b) => !known.has(b));
  if (unknown.length > 0) {
    const list = unknown.map((b) => `${b}${suggest(b, satelliteBands)}`).join(', ');
    return { ok: false, reason: `the satellite has no band ${list}; its bands: ${satelliteBands.join(', ')}` };
  }
  return { ok: true, bands };
}

/**
 * One rescale bound: a whole number, because the service takes `rescale` as two integers
 * (docs/service-interface.md, "Indices"). Undefined when fine, else the reason.
 */
export function checkRescaleBound(which: 'min' | 'max', text: string): string | undefined {
  const t = text.trim();
  const n = Number(t);
  if (t === '' || !Number.isFinite(n)) return `rescale ${which} "${text}" is not a number`;
  if (!Number.isSafeInteger(n)) return `rescale ${which} ${t} is not a whole number: the service takes the rescale range as two integers (e.g. -1 and 1)`;
  return undefined;
}

/** Rescale bounds: two integers with min < max. */
export function checkRescale(minText: string, maxText: string): { ok: true; value: [number, number] } | { ok: false; reason: string } {
  const bad = checkRescaleBound('min', minText) ?? checkRescaleBound('max', maxText);
  if (bad) return { ok: false, reason: bad };
  const min = Number(minText.trim());
  const max = Number(maxText.trim());
  if (!(min < max)) return { ok: false, reason: `rescale min (${min}) must be less than max (${max})` };
  return { ok: true, value: [min, max] };
}
