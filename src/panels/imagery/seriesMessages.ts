/**
 * "Chart Index Over Time": its messages, one row each, and what they carry. The extension
 * prepares the page while a series is asked for (`seriesPrepare`), starts a series
 * (`seriesStart`), cancels it (`seriesCancel`) and asks for the chart as PNG
 * (`seriesPng`); the page sends each date's point as it is ready (`seriesPoint`), the end
 * (`seriesDone`), the picture (`seriesPngReply`), and the chart's own buttons (`seriesExport`,
 * `seriesClosed`). Host side: seriesChannel.ts; page side: media/map/channels/series.ts.
 */
import { isObj } from '../../api/shape';
import { isBytes, isId, isReply, row, type MessageIn } from '../webview/messages';
import type { TilePlan } from './clipMessages';
import type { ImageryLayerSpec } from './protocol';
import type { StatsResult } from './seriesStats';

/** One date of a series: the file to read and where its row came from. */
export interface SeriesDate {
  /** `YYYY-MM-DD` */
  date: string;
  /** The date's layer (its url, bands, EPSG): the same description the time slider draws. */
  spec: ImageryLayerSpec;
  /** What the CSV names as the row's source: the asset or item id. */
  source: string;
  /** The record's cloud cover, percent, when it gives one. */
  cloudCover?: number;
}

export interface SeriesRequest {
  /** Names the chart and the legend, e.g. the AOI's name. */
  title: string;
  /** The index's name (legend, CSV) and its expression over the files' band names. */
  index: { name: string; expression: string };
  /**
   * The polygon (lon/lat GeoJSON Polygon or MultiPolygon) the statistics are taken inside, or a
   * GeoJSON Point: a single-pixel series, the value at the full-resolution pixel under it.
   */
  polygon: unknown;
  dates: SeriesDate[];
  /** A date whose record's cloud cover is above this, percent, is drawn as too cloudy (not dropped). */
  maxCloud?: number;
  /** A date with a smaller share of valid pixels is drawn hollow (default 0.5). */
  minValidShare?: number;
}

/** One date's statistics of the index inside the polygon, or why it has none. */
export interface SeriesPoint {
  date: string;
  source: string;
  /** Pixel centres inside the polygon at the level read, and those valid among them. */
  pixels: number;
  valid: number;
  /** valid / pixels (0 when the polygon misses the file). */
  validShare: number;
  mean?: number;
  median?: number;
  p10?: number;
  p90?: number;
  /** The pyramid level read (0 = full resolution) and its pixel size in the file's units. */
  level?: number;
  pixelSize?: number;
  /** Of the pixels inside, those the scene classification marks as cloud, shadow or cirrus. */
  cloudyPixels?: number;
  /** The record's cloud cover was above the request's limit. */
  overCloudLimit?: boolean;
  /** The date could not be read: the sentence why (the rest of the series goes on). */
  error?: string;
  /** A single-pixel series: the index at the pixel, valid or not (undefined: no data there). */
  value?: number;
  /** Bytes fetched for this date, and the stored size of the tiles it needed. */
  fetchedBytes?: number;
  tileBytes?: number;
}

/**
 * One date's statistics for the extension host to take (hostStats.ts), where the bytes arrive:
 * the tiles of the polygon's window holding a pixel centre inside it (`tiles` may be some of
 * the window's), the polygon's rings in the level's pixels, and the index over the samples'
 * names. The page plans it from the file's directories it read; the host checks it again.
 */
export interface StatsPlan extends TilePlan {
  rings: [number, number][][];
  expression: string;
  /** The index in `samples` of the scene classification band, if the file has one. */
  scl?: number;
  /** A single-pixel series: the value at the pixel, valid or not. */
  single?: boolean;
}

/**
 * The most decoded bytes of a date's window the host holds: a polygon's window at the level
 * the page chose holds tens of thousands of pixels; past this (a file without overviews under
 * a large polygon) the page reads that date itself, tile by tile, and the host refuses a plan.
 */
export const MAX_STATS_WINDOW_BYTES = 64 * 1024 * 1024;

/** The decoded bytes of a plan's window (its samples, all its pixels): what the host holds of a date at once. */
export function statsWindowBytes(p: TilePlan): number {
  const [x0, y0, x1, y1] = p.window;
  return (x1 - x0) * (y1 - y0) * p.samples.length * (p.bitsPerSample / 8);
}

/** A date's statistics as the host took them, with the bytes it read. */
export type HostStats = StatsResult & { fetchedBytes: number; tileBytes: number };

const asked = (m: Record<string, unknown>) => isId(m.requestId);
const statsAsked = (m: Record<string, unknown>) => isId(m.statsId);

/** From the extension to the page. */
export const SERIES_TO_PAGE = {
  /**
   * `overlay`: drawn beside the series already on the chart instead of replacing them. `host`:
   * the extension takes the statistics of dates whose files it decodes (`seriesStats`).
   */
  seriesStart: row<{ requestId: number; request: SeriesRequest; overlay?: boolean; host?: boolean }>(
    (m) => asked(m) && isObj(m.request) && Array.isArray(m.request.dates),
  ),
  seriesCancel: row<{ requestId: number }>(asked),
  /**
   * A series is being asked for (its dates and index still being picked): the page loads its
   * imagery code meanwhile, so that the series' first reads do not wait for it.
   */
  seriesPrepare: row(),
  /** The chart as a PNG, for "Save Chart as PNG…". */
  seriesPng: row<{ requestId: number }>(asked),
  /** A date's statistics the host took (`seriesStats`), or why it could not. */
  seriesStatsReply: row<{ statsId: number; ok: true; result: HostStats } | { statsId: number; ok: false; error: string }>((m) =>
    isReply(m, (r) => isObj(r.result), 'statsId'),
  ),
};

/** From the page to the extension. */
export const SERIES_FROM_PAGE = {
  seriesPoint: row<{ requestId: number; index: number; point: SeriesPoint }>(
    (m) => asked(m) && isId(m.index) && isObj(m.point) && typeof m.point.date === 'string',
  ),
  seriesDone: row<{ requestId: number; ok: true } | { requestId: number; ok: false; error: string; cancelled?: boolean }>((m) => isReply(m, () => true)),
  seriesPngReply: row<{ requestId: number; ok: true; bytes: ArrayBuffer | Uint8Array } | { requestId: number; ok: false; error: string }>((m) =>
    isReply(m, (r) => isBytes(r.bytes)),
  ),
  /** The person asked for an export from the chart's own buttons. */
  seriesExport: row<{ format: 'csv' | 'png' }>((m) => m.format === 'csv' || m.format === 'png'),
  /** The chart was closed: nothing is left to export or add to. */
  seriesClosed: row(),
  /** Asks the host for a date's statistics (a series started with `host`), answered by `seriesStatsReply`. */
  seriesStats: row<{ requestId: number; statsId: number; plan: StatsPlan }>((m) => asked(m) && statsAsked(m) && isObj(m.plan)),
};

export type ToMapSeriesMessage = MessageIn<typeof SERIES_TO_PAGE>;
export type FromMapSeriesMessage = MessageIn<typeof SERIES_FROM_PAGE>;
