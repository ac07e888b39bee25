/** The timestamp formats of docs/service-interface.md, one per record kind (they differ on purpose). */

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

/** `2024-05-01T12:00:00.000Z`: AOIs, stores, collections, archive items, order-item dates. */
export function isoZ(ms: number): string {
  return new Date(ms).toISOString();
}

function micro(ms: number): string {
  return pad(new Date(ms).getUTCMilliseconds(), 3) + '000';
}

function ymd(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

function hms(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/** `2024-05-01T12:00:00.000000+00:00`: orders, order items, tasks, catalogs, deliveries. */
export function isoOffset(ms: number): string {
  return `${ymd(ms)}T${hms(ms)}.${micro(ms)}+00:00`;
}

/** `2024-05-01 12:00:00.000000+00:00`: visualizations and assets. */
export function spaceMicro(ms: number): string {
  return `${ymd(ms)} ${hms(ms)}.${micro(ms)}+00:00`;
}

/** `YYYY-MM-DD`: asset dates. */
export function dateOnly(ms: number): string {
  return ymd(ms);
}

/** `DD-MM-YYYY`: task start and end dates. */
export function dmy(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getUTCDate())}-${pad(d.getUTCMonth() + 1)}-${d.getUTCFullYear()}`;
}

/** Parses RFC 3339 / ISO 8601 date-times (and plain dates); NaN when it is neither. */
export function parseTime(s: string): number {
  if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i.test(s)) return NaN;
  const fixed = s.replace(' ', 'T').replace(/\.(\d{3})\d+/, '.$1');
  return Date.parse(/T/.test(fixed) && !/(Z|[+-]\d{2}:?\d{2})$/i.test(fixed) ? fixed + 'Z' : fixed);
}

/** `created_at` in a time zone for the report: `2024-05-01 14:00:00+02:00`. Throws on unknown zones. */
export function inZone(ms: number, tz: string): string {
  const f = new Intl.DateTimeFormat('en-CA', {
    timeZone: tz,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'longOffset',
  });
  const parts: Record<string, string> = {};
  for (const p of f.formatToParts(new Date(ms))) parts[p.type] = p.value;
  const off = parts.timeZoneName === 'GMT' ? '+00:00' : parts.timeZoneName.replace('GMT', '');
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}${off}`;
}
