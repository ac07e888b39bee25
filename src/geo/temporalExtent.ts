/**
 * STAC temporal extents and the map search's dates: ISO `YYYY-MM-DD` everywhere (the rest of the extension's
 * convention, whatever the browser's locale), and a default range that covers where the chosen
 * collections (and the place's own images) have data, so the first search finds something.
 * Pure: the map webview bundles it.
 */

/** A STAC temporal interval: start and end timestamps, `null` for open. */
export type Interval = readonly [string | null, string | null] | readonly (string | null)[];

export interface DateRange {
  from: string;
  to: string;
}

const DAY_MS = 864e5;

export function isoDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** `YYYY-MM-DD` when `text` is a real calendar day in that form; undefined otherwise. */
export function parseIsoDay(text: string): string | undefined {
  const m = /^\s*(\d{4})-(\d{2})-(\d{2})\s*$/.exec(text);
  if (!m) return undefined;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  if (Number.isNaN(d.getTime()) || isoDay(d) !== `${m[1]}-${m[2]}-${m[3]}`) return undefined;
  return isoDay(d);
}

function time(ts: string | null | undefined): number | undefined {
  if (!ts) return undefined;
  const t = Date.parse(ts);
  return Number.isFinite(t) ? t : undefined;
}

/**
 * Where the collections have data, as days: the earliest start and the latest end of their
 * first (overall) intervals; an open end is today. Undefined when no interval says anything.
 */
export function coverage(intervals: readonly (Interval | undefined)[], today: Date): DateRange | undefined {
  let start: number | undefined;
  let end: number | undefined;
  let any = false;
  for (const i of intervals) {
    if (!i) continue;
    const s = time(i[0]);
    const e = i[1] === null || i[1] === undefined ? today.getTime() : time(i[1]);
    if (s === undefined && e === undefined) continue;
    any = true;
    if (s !== undefined) start = start === undefined ? s : Math.min(start, s);
    if (e !== undefined) end = end === undefined ? e : Math.max(end, e);
  }
  if (!any) return undefined;
  const to = Math.min(end ?? today.getTime(), today.getTime());
  const from = Math.min(start ?? to - 365 * DAY_MS, to);
  return { from: isoDay(new Date(from)), to: isoDay(new Date(to)) };
}

/**
 * The default search range, from the data: all of the chosen collections' coverage, from their
 * earliest to their latest item (a search sorted newest first then lists the latest items, so
 * the first search finds something wherever the collections have a scene clear enough), widened
 * to take in `anchors`, days known to have imagery of the place (an AOI's images and mosaics).
 * Nothing known: the 12 months up to today.
 */
export function defaultRange(intervals: readonly (Interval | undefined)[], today: Date, anchors: readonly string[] = []): DateRange {
  const c = coverage([...intervals, ...anchors.map((a) => [a, a] as const)], today);
  if (c) return c;
  const yearBefore = new Date(Date.parse(`${isoDay(today)}T00:00:00Z`));
  yearBefore.setUTCFullYear(yearBefore.getUTCFullYear() - 1);
  return { from: isoDay(yearBefore), to: isoDay(today) };
}
