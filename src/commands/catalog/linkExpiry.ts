/**
 * When a signed download link stops working, read from the signature's own parameters (the
 * service states no lifetime): S3 and GCS v4 (`X-Amz-Date` + `X-Amz-Expires`, `X-Goog-Date` +
 * `X-Goog-Expires`), the v2 `Expires` epoch, Azure SAS `se`. Undefined when the link says
 * nothing. Pure; the URL is never logged or shown.
 */
import { urlOf } from '../../parse';

/** `20261122T101500Z` → Date */
function basicIso(v: string): Date | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(v);
  return m ? new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6])) : undefined;
}

export function linkExpiry(url: string): Date | undefined {
  // a link that does not parse has no expiry to read
  const q = urlOf(url)?.searchParams;
  if (!q) return undefined;
  const get = (name: string): string | undefined => {
    for (const [k, v] of q) if (k.toLowerCase() === name.toLowerCase()) return v;
    return undefined;
  };
  for (const prefix of ['x-amz', 'x-goog']) {
    const start = get(`${prefix}-date`);
    const secs = Number(get(`${prefix}-expires`));
    const from = start ? basicIso(start) : undefined;
    if (from && Number.isFinite(secs) && secs > 0) return new Date(from.getTime() + secs * 1000);
  }
  const epoch = Number(get('expires'));
  if (Number.isFinite(epoch) && epoch > 1e9) return new Date(epoch * 1000);
  const se = get('se');
  if (se) {
    const d = new Date(se);
    if (!Number.isNaN(d.getTime())) return d;
  }
  return undefined;
}

/** Whole minutes from `now` to `until` (0 when past). */
export function minutesLeft(until: Date, now: Date): number {
  return Math.max(0, Math.floor((until.getTime() - now.getTime()) / 60_000));
}
