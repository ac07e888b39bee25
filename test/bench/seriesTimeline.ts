/**
 * Where a series' time goes, seen from the host's side of the page (series.bench.ts): every
 * read the page asks the host for (when asked, when the host had the bytes), every date's
 * statistics the page asks the host to take (`seriesStats`: asked, answered), and when each
 * date's point came back, in ms from the series' start. A date's reads are its file's; a read
 * shorter than 48 KiB is the header (byteSource.ts sends tile data exactly, in longer reads).
 * A date the host takes has no tile read of the page's: its tiles are read inside `seriesStats`.
 */
import { median } from './measure';

export interface TimedRead {
  url: string;
  length: number;
  start: number;
  end: number;
}

export interface SeriesBreakdown {
  /** seriesStart sent → the first read asked: the message's way in, the imagery chunk and its workers starting. */
  first_read_ms: number;
  /** Per date, medians: the header's read through the host relay. */
  header_read_ms: number;
  /** Header bytes back → first tile read or `seriesStats` asked: the header's way into the page, the file's structure parsed, the date planned. */
  open_ms: number;
  /** `seriesStats` asked → answered: the host's reads of the date's tiles, their inflating and the statistics. */
  host_stats_ms: number;
  /** A tile's read through the host relay. */
  tile_read_ms: number;
  /** Last tile bytes (or the host's statistics) back → the point: into the page, decoded and taken there (or not), the point posted. */
  tile_to_point_ms: number;
  /** Dates between their first read and their point at once, at most. */
  dates_in_flight_max: number;
  /** The last point. */
  last_point_ms: number;
}

const HEADER = 48 * 1024;

export function seriesBreakdown(urls: string[], reads: TimedRead[], pointAt: Map<number, number>, asked: Omit<TimedRead, 'length'>[] = []): SeriesBreakdown {
  const perDate = urls.map((url, i) => {
    const mine = reads.filter((r) => r.url === url);
    const headers = mine.filter((r) => r.length < HEADER);
    const tiles = mine.filter((r) => r.length >= HEADER);
    const host = asked.find((a) => a.url === url);
    // what comes after the header: the page's tile reads, or the host's statistics
    const next = host ? [host] : tiles;
    const headerEnd = Math.max(...headers.map((r) => r.end));
    return {
      first: Math.min(...mine.map((r) => r.start)),
      header: headers.length ? Math.max(...headers.map((r) => r.end - r.start)) : NaN,
      open: next.length && headers.length ? Math.min(...next.map((r) => r.start)) - headerEnd : NaN,
      hostStats: host ? host.end - host.start : NaN,
      tile: tiles.length ? median(tiles.map((r) => r.end - r.start)) : NaN,
      toPoint: next.length ? (pointAt.get(i) ?? NaN) - Math.max(...next.map((r) => r.end)) : NaN,
      point: pointAt.get(i) ?? NaN,
    };
  });
  const ok = <K extends keyof (typeof perDate)[number]>(k: K) => perDate.map((d) => d[k]).filter((v) => Number.isFinite(v));
  let inFlight = 0;
  for (const d of perDate) inFlight = Math.max(inFlight, perDate.filter((e) => e.first <= d.first && e.point > d.first).length);
  const round = (v: number) => Math.round(v);
  return {
    first_read_ms: round(Math.min(...ok('first'))),
    header_read_ms: round(median(ok('header'))),
    open_ms: round(median(ok('open'))),
    host_stats_ms: round(median(ok('hostStats'))),
    tile_read_ms: round(median(ok('tile'))),
    tile_to_point_ms: round(median(ok('toPoint'))),
    dates_in_flight_max: inFlight,
    last_point_ms: round(Math.max(...ok('point'))),
  };
}
