/** Number, area, money and date formatting for rows, tooltips, pickers and the map. Pure: webviews bundle it too. */
import type { Store } from './api/records';
import { lazy } from './lazy';

/**
 * A number formatter made on first use: the first Intl formatter of a process loads ICU data
 * (about 10 ms in the extension host), which activation must not pay for.
 */
function lazyFormat(options: Intl.NumberFormatOptions): { format(n: number): string } {
  const formatter = lazy(() => new Intl.NumberFormat('en-US', options));
  return { format: (n) => formatter().format(n) };
}

const INT = lazyFormat({ maximumFractionDigits: 0 });
const ONE_DP = lazyFormat({ maximumFractionDigits: 1 });
const TWO_DP = lazyFormat({ minimumFractionDigits: 2, maximumFractionDigits: 2 });
const UP_TO_TWO_DP = lazyFormat({ maximumFractionDigits: 2 });

/** 10000 → "10,000" */
export function count(n: number): string {
  return INT.format(n);
}

/** Square metres → "12.3 km²" (two decimals below 1 km², whole numbers above 10,000 km²). */
export function km2(squareMetres: number | undefined | null): string {
  if (squareMetres === undefined || squareMetres === null || !Number.isFinite(squareMetres)) return '? km²';
  const k = squareMetres / 1e6;
  if (k < 1) return `${TWO_DP.format(k)} km²`;
  if (k >= 10_000) return `${INT.format(k)} km²`;
  return `${ONE_DP.format(k)} km²`;
}

/** An order-item `area` is already in km². */
export function areaKm2(km: number | undefined | null): string {
  return km === undefined || km === null || !Number.isFinite(km) ? '? km²' : `${ONE_DP.format(km)} km²`;
}

/**
 * An amount of money as the service sends it, with the unit the organisation is billed in
 * when one is set (setting `eoImagery.amounts.unit`; the service states none): "956.91 EUR".
 */
export function amount(n: number | undefined | null, unit = ''): string {
  if (n === undefined || n === null || !Number.isFinite(n)) return '—';
  const u = unit.trim();
  return u ? `${TWO_DP.format(n)} ${u}` : TWO_DP.format(n);
}

/** A size in bytes as people read it, in binary units: "64 MB", "16 KB", "100 bytes". */
export function byteSize(n: number): string {
  if (n >= 1024 * 1024 * 1024) return `${ONE_DP.format(n / (1024 * 1024 * 1024))} GB`;
  if (n >= 1024 * 1024) return `${ONE_DP.format(n / (1024 * 1024))} MB`;
  if (n >= 1024) return `${ONE_DP.format(n / 1024)} KB`;
  return `${INT.format(n)} ${n === 1 ? 'byte' : 'bytes'}`;
}

/** Tokens the service reports (`tokens_used`, insight estimates): "1,250 tokens". */
export function tokens(n: number | undefined | null): string {
  if (n === undefined || n === null || !Number.isFinite(n)) return '—';
  return `${INT.format(n)} ${n === 1 ? 'token' : 'tokens'}`;
}

/** A ground distance as people read a pixel size: "10 m", "19.98 m" (at most two decimals). */
export function metres(m: number | undefined | null): string {
  return m === undefined || m === null || !Number.isFinite(m) ? '? m' : `${UP_TO_TWO_DP.format(m)} m`;
}

/** An area in km² with up to two decimals, "—" when unknown (priced summaries). */
export function preciseKm2(km: number | undefined | null): string {
  return km === undefined || km === null || !Number.isFinite(km) ? '—' : `${UP_TO_TWO_DP.format(km)} km²`;
}

/**
 * The date part of any of the service's timestamp formats (ISO 8601 with `T`,
 * `YYYY-MM-DD HH:MM:SS.ffffff+00:00`, `DD-MM-YYYY`), as `YYYY-MM-DD`; the input when unknown.
 */
export function day(ts: string | undefined | null): string {
  if (!ts) return '';
  const iso = /^(\d{4}-\d{2}-\d{2})/.exec(ts);
  if (iso) return iso[1];
  const dmy = /^(\d{2})-(\d{2})-(\d{4})/.exec(ts);
  if (dmy) return `${dmy[3]}-${dmy[2]}-${dmy[1]}`;
  return ts;
}

/** `YYYY-MM-DD HH:MM` in UTC for the tooltip, the raw value when it does not parse. */
export function dateTime(ts: string | undefined | null): string {
  if (!ts) return '—';
  const d = new Date(ts.includes('T') ? ts : ts.replace(' ', 'T'));
  if (Number.isNaN(d.getTime())) return ts;
  return `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** Seconds as a person reads a duration: "45 s", "3 min 20 s", "2 h 5 min"; "—" when unknown. */
export function duration(seconds: number | undefined | null): string {
  if (seconds === undefined || seconds === null || !Number.isFinite(seconds) || seconds < 0) return '—';
  if (seconds < 1) return `${Math.round(seconds * 1000)} ms`;
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = s % 60;
  if (h > 0) return m > 0 ? `${h} h ${m} min` : `${h} h`;
  return rest > 0 ? `${m} min ${rest} s` : `${m} min`;
}

/** "Showing 50 of 10,000 orders" */
export function shownOf(shown: number, total: number | undefined, noun: string): string {
  if (total === undefined) return `Showing ${count(shown)} ${noun}`;
  return `Showing ${count(shown)} of ${count(total)} ${noun}`;
}

/** Where a store writes (docs/service-interface.md, store configs): "bucket/prefix · region", by type. */
export function storeTarget(s: Store): string {
  const c = s.configs ?? {};
  // `container` is the first version's AZBLOB key; a store registered then may still carry it.
  const where = c.bucket ?? c.container ?? '';
  const prefix = c.path_prefix ? `/${c.path_prefix.replace(/^\/+/, '')}` : '';
  return [where && `${where}${prefix}`, c.region].filter(Boolean).join(' · ');
}

/** Which field an enum value comes from, where the same word means different things. */
export type EnumField = 'feasibility';

/**
 * Words for the service's enum values (docs: interface "States", decisions on recurrence);
 * anything not listed becomes its own words with a capital (`IN_PROGRESS` → "In progress").
 */
const ENUM_WORDS: Record<string, string> = {
  // recurrence
  once: 'Once',
  weekly: 'Weekly',
  monthly: 'Monthly',
  bimonthly: 'Every two months',
  quarterly: 'Quarterly',
  not_applicable: 'Not applicable',
  // delivery speed
  standard: 'Standard',
  priority: 'Priority',
  rush: 'Rush',
  // order item type
  tasking: 'Tasking',
  archive: 'Archive',
  recurring: 'Recurring tasking',
  // payment
  unpaid: 'Unpaid',
  paid: 'Paid',
  payment_in_progress: 'Payment in progress',
  refund: 'Refunded',
  partial_refund: 'Partly refunded',
  partial_monthly: 'Paid monthly, partly paid',
  unspecified: 'Not specified',
};

const FEASIBILITY_WORDS: Record<string, string> = {
  success: 'Feasible',
  weak_success: 'Feasible with reservations',
  failed: 'Not feasible',
  not_applicable: 'Not applicable',
  unspecified: 'Not checked',
};

/**
 * The one label for every raw API enum value a person reads (statuses, recurrence, delivery
 * speed, item type, feasibility): `PAYMENT_IN_PROGRESS` → "Payment in progress",
 * `ONCE` → "Once". The raw value stays in the record's hover or JSON.
 */
export function enumLabel(value: string | undefined | null, field?: EnumField): string {
  if (!value) return field === 'feasibility' ? 'Not checked' : 'Unknown';
  const key = value
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  const word = (field === 'feasibility' ? FEASIBILITY_WORDS[key] : undefined) ?? ENUM_WORDS[key];
  if (word) return word;
  const words = key.replace(/_+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
