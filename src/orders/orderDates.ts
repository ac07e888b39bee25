/**
 * Dates of a tasking order as the person types them (`2025-03-01`, or a full ISO 8601 time)
 * turned into the ISO 8601 UTC strings the service takes, with the reasons a value is refused.
 * Pure: no `vscode`.
 */

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

export type DateResult = { ok: true; iso: string; ms: number } | { ok: false; reason: string };

/** `YYYY-MM-DD` (midnight UTC) or an ISO 8601 date-time with `Z` or an offset. */
export function parseOrderDate(text: string): DateResult {
  const t = text.trim();
  if (t === '') return { ok: false, reason: 'Enter a date as YYYY-MM-DD.' };
  const m = DATE_ONLY.exec(t);
  if (m) {
    const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
    const ms = Date.UTC(y, mo - 1, d);
    const back = new Date(ms);
    if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) {
      return { ok: false, reason: `${t} is not a calendar date.` };
    }
    return { ok: true, iso: back.toISOString(), ms };
  }
  if (DATE_TIME.test(t)) {
    const ms = Date.parse(t);
    if (Number.isNaN(ms)) return { ok: false, reason: `${t} is not a valid date-time.` };
    return { ok: true, iso: new Date(ms).toISOString(), ms };
  }
  return { ok: false, reason: `"${t}" is not a date: use YYYY-MM-DD or an ISO 8601 date-time with a time zone.` };
}

/** Validation message for the end date given the start, or undefined when both are fine. */
export function checkDateRange(startText: string, endText: string): string | undefined {
  const start = parseOrderDate(startText);
  if (!start.ok) return `Start: ${start.reason}`;
  const end = parseOrderDate(endText);
  if (!end.ok) return end.reason;
  if (end.ms <= start.ms) return `The end (${endText.trim()}) must be after the start (${startText.trim()}).`;
  return undefined;
}

/** An integer in [min, max], or the reason it is not. */
export function checkInteger(text: string, min: number, max: number, what: string): string | undefined {
  const t = text.trim();
  if (!/^-?\d+$/.test(t)) return `${what} must be a whole number.`;
  const n = Number(t);
  if (n < min || n > max) return `${what} must be between ${min} and ${max}.`;
  return undefined;
}
