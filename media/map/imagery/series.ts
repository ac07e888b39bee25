/**
 * "Chart Index Over Time", the webview's half: for each date, the file opened through the
 * same byte source as an imagery layer (reads through the extension, the same limits and
 * hostile-file checks), the level chosen so that the polygon covers at least ~10,000 of its
 * pixels (full resolution when it never does), only the tiles holding a pixel centre inside
 * the polygon read and decoded, and the statistics taken in a worker (seriesStats.ts). Up to
 * `DATES_AT_ONCE` dates are in flight together (their reads, decodes and statistics overlap);
 * each point is reported as it is ready, a date that fails is reported with its reason and
 * the rest go on.
 */
import * as l10n from '@vscode/l10n';
import type { Pool } from 'geotiff';
import type { ImageryBand } from '../../../src/panels/imagery/protocol';
import type { ReadBytes } from './byteSource';
import { polygonsOf, ringsInLevel, wgsToCrs } from './clip';
import { compileIndexExpression } from '../../../src/api/indexExpression';
import { clearMaskOf } from '../../../src/raster/clearPixels';
import { asReadable, Cog } from './cog';
import { ImageryError } from './imageryError';
import { insideTiles, type StatsJob, type StatsResult, type StatsTile } from '../../../src/panels/imagery/seriesStats';
import {
  MAX_STATS_WINDOW_BYTES,
  statsWindowBytes,
  type HostStats,
  type SeriesDate,
  type SeriesPoint,
  type SeriesRequest,
  type StatsPlan,
} from '../../../src/panels/imagery/seriesMessages';
import { hostTilePlan } from './hostTiles';

/** The polygon should cover at least this many pixels of the level read. */
export const MIN_LEVEL_PIXELS = 10_000;
/**
 * Dates in flight at once. A date is a chain of waits (its header's round trip, then its
 * tiles', the decoder's and the statistics worker's): with two at a time the chart waited on
 * those one after another, most of the time with nothing to do. Eight (the analyst's thread
 * pool; the decoder's workers at most) keep the reads and the workers busy; the extension's
 * byte server still bounds the reads and bytes really in flight (byteServer.ts), and a date
 * holds only the decoded tiles of its polygon until its statistics are taken.
 */
const DATES_AT_ONCE = 8;
const TILES_AT_ONCE = 4;

export interface SeriesDeps {
  read: ReadBytes;
  pool?: Pool;
  /** The statistics of one date's tiles (in a worker when there is one). */
  stats(job: StatsJob): Promise<StatsResult>;
  /**
   * The extension host takes a date's statistics itself, where the bytes arrive (a series
   * started with `host`): for the dates whose files it decodes (hostTiles.ts).
   */
  hostStats?(plan: StatsPlan, signal: AbortSignal): Promise<HostStats>;
}

export function aborted(): Error {
  return Object.assign(new Error('Cancelled.'), { name: 'AbortError' });
}

/** Signed area of a ring (shoelace). */
function ringArea(r: [number, number][]): number {
  let a = 0;
  for (let i = 0, j = r.length - 1; i < r.length; j = i++) a += (r[j][0] + r[i][0]) * (r[j][1] - r[i][1]);
  return a / 2;
}

/** The polygon's area in full-resolution pixels: outer rings less their holes. */
function fullPixelArea(cog: Cog, polygon: unknown, fwd: (lon: number, lat: number) => [number, number]): number {
  let sum = 0;
  for (const poly of polygonsOf(polygon)) {
    poly.forEach((ring, k) => {
      const px = ringsInLevel(cog, 0, { type: 'Polygon', coordinates: [ring] }, fwd)[0] ?? [];
      sum += (k === 0 ? 1 : -1) * Math.abs(ringArea(px));
    });
  }
  return Math.max(0, sum);
}

/** The place of a single-pixel series (a GeoJSON Point), or undefined for a polygon. */
export function pointOf(area: unknown): [number, number] | undefined {
  const g = area as { type?: unknown; coordinates?: unknown } | null;
  if (g?.type !== 'Point' || !Array.isArray(g.coordinates)) return undefined;
  const [lon, lat] = g.coordinates as unknown[];
  return typeof lon === 'number' && typeof lat === 'number' ? [lon, lat] : undefined;
}

/**
 * Where the statistics are taken, in a level's pixels: the polygon on the level its size
 * calls for, or, for a point, a small square around the centre of the full-resolution pixel
 * under it (so exactly that pixel centre is inside, and the same tile reads and statistics
 * serve both).
 */
function placeOf(cog: Cog, area: unknown, fwd: (lon: number, lat: number) => [number, number]): { level: number; rings: [number, number][][] } {
  const point = pointOf(area);
  if (!point) {
    const level = seriesLevel(cog, fullPixelArea(cog, area, fwd));
    return { level, rings: ringsInLevel(cog, level, area, fwd) };
  }
  const [x, y] = fwd(point[0], point[1]);
  const c = Math.floor((x - cog.originX) / cog.resX);
  const r = Math.floor((y - cog.originY) / cog.resY);
  const ring: [number, number][] = [
    [c + 0.25, r + 0.25],
    [c + 0.75, r + 0.25],
    [c + 0.75, r + 0.75],
    [c + 0.25, r + 0.75],
    [c + 0.25, r + 0.25],
  ];
  return { level: 0, rings: [ring] };
}

/** The coarsest level on which the polygon still covers `MIN_LEVEL_PIXELS`; full resolution when none does. */
export function seriesLevel(cog: Cog, fullArea: number): number {
  for (let i = cog.levels.length - 1; i > 0; i--) {
    const L = cog.levels[i];
    if (fullArea / (L.scaleX * L.scaleY) >= MIN_LEVEL_PIXELS) return i;
  }
  return 0;
}

async function storedBytes(cog: Cog, level: number, tiles: [number, number][]): Promise<number> {
  const L = cog.levels[level];
  if (!L.image.isTiled) return 0;
  const fd = L.image.fileDirectory;
  const counts =
    ((await fd.loadValue('TileByteCounts' as never).catch(() => undefined)) as ArrayLike<number> | undefined) ??
    (fd.getValue('TileByteCounts' as never) as ArrayLike<number> | undefined);
  if (!counts) return 0;
  const across = Math.ceil(L.width / L.tileWidth);
  return tiles.reduce((s, [tx, ty]) => s + Number(counts[ty * across + tx] ?? 0), 0);
}

/**
 * A band's scale and offset: the record's (`raster:bands`) when it gives them, else the file's
 * own (GDAL's metadata, as GDAL reads them), else none.
 */
async function bandScale(cog: Cog, band: ImageryBand | undefined, i: number): Promise<{ scale: number; offset: number }> {
  let meta: Record<string, unknown> | null = null;
  if (band?.scale === undefined || band?.offset === undefined) meta = await cog.levels[0].image.getGDALMetadata(i).catch(() => null);
  const num = (v: unknown) => (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : undefined);
  return { scale: band?.scale ?? num(meta?.SCALE) ?? 1, offset: band?.offset ?? num(meta?.OFFSET) ?? 0 };
}

/** The file's band indices an expression uses, or a sentence naming the band it lacks. */
function usedBands(expression: string, names: string[], date: string): number[] {
  const compiled = compileIndexExpression(expression);
  if ('error' in compiled) throw new ImageryError(l10n.t('The index expression cannot be read: {0}.', compiled.error));
  return compiled.bands.map((b) => {
    const i = names.indexOf(b);
    if (i < 0) throw new ImageryError(l10n.t('The expression uses band {0}, which the file of {1} does not have (it has {2}).', b, date, names.join(', ')));
    return i;
  });
}

/** One date's statistics inside the polygon. Throws a readable error when the file cannot be read. */
export async function dateStatistics(d: SeriesDate, req: SeriesRequest, deps: SeriesDeps, signal: AbortSignal): Promise<SeriesPoint> {
  const base = { date: d.date, source: d.source };
  const cog = await Cog.open(d.spec.url, deps.read, { epsg: d.spec.epsg, pool: deps.pool, signal });
  const names = d.spec.bands.length
    ? d.spec.bands.slice(0, cog.bandCount).map((b) => b.name)
    : Array.from({ length: cog.bandCount }, (_, i) => `Band ${i + 1}`);
  const fwd = wgsToCrs(cog);
  if (!fwd) throw new ImageryError(l10n.t('The file is in EPSG:{0}, which cannot be reprojected.', cog.epsg));
  const { level, rings } = placeOf(cog, req.polygon, fwd);
  const L = cog.levels[level];
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const r of rings)
    for (const [x, y] of r) {
      x0 = Math.min(x0, x);
      y0 = Math.min(y0, y);
      x1 = Math.max(x1, x);
      y1 = Math.max(y1, y);
    }
  x0 = Math.max(0, Math.floor(x0));
  y0 = Math.max(0, Math.floor(y0));
  x1 = Math.min(L.width, Math.ceil(x1));
  y1 = Math.min(L.height, Math.ceil(y1));
  const pixelSize = Math.abs(cog.resX) * L.scaleX;
  const tiles = x1 > x0 && y1 > y0 ? insideTiles(rings, [x0, y0, x1, y1], L.tileWidth, L.tileHeight) : [];
  if (!tiles.length) {
    return { ...base, pixels: 0, valid: 0, validShare: 0, level, pixelSize, error: l10n.t('The area does not overlap this date’s image.') };
  }
  // the classification band that marks clouds (Sentinel-2 L2A's scene classification)
  const mask = clearMaskOf(names);
  const sclAt = mask?.kind === 'scl' ? mask.band : -1;
  // only the bands the expression uses (and the classification) are decoded
  const samples = [...new Set([...usedBands(req.index.expression, names, d.date), ...(sclAt >= 0 ? [sclAt] : [])])];
  // one after the other: geotiff.js's first read of the metadata tag is not safe to share
  const bandMeta: { scale: number; offset: number }[] = [];
  for (const i of samples) bandMeta.push(await bandScale(cog, d.spec.bands[i], i));
  const nodata = d.spec.bands[samples[0]]?.nodata ?? cog.nodata;
  const scl = sclAt >= 0 ? samples.indexOf(sclAt) : undefined;
  const single = pointOf(req.polygon) !== undefined;
  const hostStats = deps.hostStats;
  const plan =
    hostStats &&
    (await hostTilePlan(cog, d.spec.url, {
      level,
      window: [x0, y0, x1, y1],
      places: tiles,
      samples,
      names: samples.map((i) => names[i]),
      scale: bandMeta.map((b) => b.scale),
      offset: bandMeta.map((b) => b.offset),
      nodata,
    }));
  // the host holds the window's decoded bands at once: a window past its bound is read here, tile by tile
  const fits = plan && statsWindowBytes(plan) <= MAX_STATS_WINDOW_BYTES;
  const {
    cloudy: cloudyPixels,
    value,
    fetchedBytes,
    tileBytes,
    ...stats
  } = hostStats && plan && fits
    ? await hostStats({ ...plan, rings, expression: req.index.expression, scl, single }, signal)
    : await pageStats(
        cog,
        level,
        tiles,
        { rings, expression: req.index.expression, bands: samples.map((i) => names[i]), samples, bandMeta, nodata, scl, single },
        deps,
        signal,
      );
  const cloudy = req.maxCloud !== undefined && d.cloudCover !== undefined && d.cloudCover > req.maxCloud;
  return {
    ...base,
    ...stats,
    cloudyPixels,
    ...(value !== undefined ? { value } : {}),
    validShare: stats.pixels ? stats.valid / stats.pixels : 0,
    level,
    pixelSize,
    ...(cloudy ? { overCloudLimit: true } : {}),
    fetchedBytes,
    tileBytes,
  };
}

/** The page's own way: the tiles read through geotiff.js (its decoder pool) and the statistics taken in a worker. */
async function pageStats(
  cog: Cog,
  level: number,
  tiles: [number, number][],
  job: Omit<StatsJob, 'tiles' | 'scale' | 'offset'> & { samples: number[]; bandMeta: { scale: number; offset: number }[] },
  deps: SeriesDeps,
  signal: AbortSignal,
): Promise<StatsResult & { fetchedBytes: number; tileBytes: number }> {
  const L = cog.levels[level];
  const { samples, bandMeta, ...rest } = job;
  const before = cog.source.stats.bytes;
  const read: StatsTile[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < tiles.length) {
      if (signal.aborted) throw aborted();
      const [tx, ty] = tiles[next++];
      const tx0 = tx * L.tileWidth;
      const ty0 = ty * L.tileHeight;
      const tx1 = Math.min(L.width, tx0 + L.tileWidth);
      const ty1 = Math.min(L.height, ty0 + L.tileHeight);
      const bands = (await L.image.readRasters({ window: [tx0, ty0, tx1, ty1], samples, pool: deps.pool, interleave: false, signal }).catch((e: unknown) => {
        throw asReadable(e, 'A tile could not be read (the file may be truncated or corrupt)');
      })) as unknown as ArrayLike<number>[];
      read.push({ x0: tx0, y0: ty0, width: tx1 - tx0, height: ty1 - ty0, bands: Array.from(bands) });
    }
  };
  await Promise.all(Array.from({ length: Math.min(TILES_AT_ONCE, tiles.length) }, worker));
  if (signal.aborted) throw aborted();
  const fetchedBytes = cog.source.stats.bytes - before;
  const stats = await deps.stats({ ...rest, tiles: read, scale: bandMeta.map((b) => b.scale), offset: bandMeta.map((b) => b.offset) });
  return { ...stats, fetchedBytes, tileBytes: await storedBytes(cog, level, tiles) };
}

/**
 * Every date of the request, `DATES_AT_ONCE` at a time: `onPoint` gets each as it is ready
 * (with its index in the request), a failed date as a point with its `error`. Resolves when
 * all are done; rejects with an AbortError once cancelled.
 */
export async function runSeries(req: SeriesRequest, deps: SeriesDeps, signal: AbortSignal, onPoint: (index: number, p: SeriesPoint) => void): Promise<void> {
  let next = 0;
  const one = async (): Promise<void> => {
    while (next < req.dates.length) {
      if (signal.aborted) throw aborted();
      const i = next++;
      const d = req.dates[i];
      let point: SeriesPoint;
      try {
        point = await dateStatistics(d, req, deps, signal);
      } catch (e) {
        if (signal.aborted || (e as Error)?.name === 'AbortError') throw aborted();
        const why = e instanceof Error ? e.message : String(e);
        point = { date: d.date, source: d.source, pixels: 0, valid: 0, validShare: 0, error: why };
      }
      onPoint(i, point);
    }
  };
  await Promise.all(Array.from({ length: Math.min(DATES_AT_ONCE, req.dates.length) }, one));
}
