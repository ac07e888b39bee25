/**
 * Reading values back out of a drawn layer: the pixel under a click (every band, the index
 * value, both CRSs) and the histogram of the view's window. Both read only tiles the layer has
 * already decoded (`Cog.peek`): they never start a fetch.
 */
import type * as Leaflet from 'leaflet';
import { compileIndexExpression } from '../../../src/api/indexExpression';
import type { ImageryBand } from '../../../src/panels/imagery/protocol';
import type { Cog, DecodedTile } from './cog';
import type { ImageryLayerHandle } from './imageryLayer';
import { warpProbe } from './tilePlan';
import { fromMercator } from './projection';

export interface BandReading {
  name: string;
  commonName?: string;
  /** Centre wavelength, µm. */
  wavelength?: number;
  /** The stored value; undefined where no-data. */
  raw?: number;
  /** raw × scale + offset (`raster:bands`); undefined where no-data. */
  value?: number;
}

export interface PixelReading {
  lon: number;
  lat: number;
  /** The scene's CRS and the click's coordinates in it (metres for UTM). */
  epsg: number;
  x: number;
  y: number;
  /** Full-resolution pixel (0-based) and the level the values come from (0 = full resolution). */
  col: number;
  row: number;
  level: number;
  bands: BandReading[];
  /** For a layer drawn from an expression: its value here. */
  index?: { title: string; value?: number };
}

export type ReadResult = { reading: PixelReading } | { outside: true } | { notLoaded: true };

/** Web Mercator metres of a lon/lat. */
export function mercator(lon: number, lat: number): [number, number] {
  const R = 6378137;
  const phi = Math.max(-85.0511287798, Math.min(85.0511287798, lat)) * (Math.PI / 180);
  return [R * lon * (Math.PI / 180), R * Math.log(Math.tan(Math.PI / 4 + phi / 2))];
}

function toFullOf(cog: Cog): (mx: number, my: number) => [number, number] {
  const fwd = fromMercator(cog.epsg);
  if (!fwd) throw new Error(`EPSG:${cog.epsg} cannot be reprojected.`);
  return (mx, my) => {
    const [x, y] = fwd(mx, my);
    return [(x - cog.originX) / cog.resX, (y - cog.originY) / cog.resY];
  };
}

/** The level the map draws at its current zoom (the one whose tiles are decoded). */
export function drawnLevel(cog: Cog, map: Leaflet.Map): number {
  const c = map.getCenter();
  const p = map.project(c, map.getZoom());
  return cog.pickLevel(warpProbe(toFullOf(cog), map.getZoom(), p.x, p.y));
}

function bandsOf(handle: ImageryLayerHandle, cog: Cog): ImageryBand[] {
  return handle.spec.bands.length ? handle.spec.bands : Array.from({ length: cog.bandCount }, (_, i) => ({ name: `Band ${i + 1}` }));
}

/** Levels to look in for decoded tiles: the drawn one, then finer, then coarser. */
function levelOrder(cog: Cog, drawn: number): number[] {
  const out = [drawn];
  for (let l = drawn - 1; l >= 0; l--) out.push(l);
  for (let l = drawn + 1; l < cog.levels.length; l++) out.push(l);
  return out;
}

export async function readPixel(handle: ImageryLayerHandle, map: Leaflet.Map, lon: number, lat: number): Promise<ReadResult> {
  const cog = await handle.ready;
  await handle.lookReady();
  const samples = handle.samples ?? [];
  const [mx, my] = mercator(lon, lat);
  const [fc, fr] = toFullOf(cog)(mx, my);
  if (!(fc >= 0 && fr >= 0 && fc < cog.width && fr < cog.height)) return { outside: true };
  let tile: DecodedTile | undefined;
  let level = -1;
  let i = 0;
  for (const l of levelOrder(cog, drawnLevel(cog, map))) {
    const Lv = cog.levels[l];
    const sx = Math.floor(fc / Lv.scaleX);
    const sy = Math.floor(fr / Lv.scaleY);
    const hit = cog.peek(l, Math.floor(sx / Lv.tileWidth), Math.floor(sy / Lv.tileHeight), samples);
    if (!hit) continue;
    tile = await hit.catch(() => undefined);
    if (!tile) continue;
    level = l;
    i = (sy - tile.y0) * tile.width + (sx - tile.x0);
    break;
  }
  if (!tile) return { notLoaded: true };
  const fwd = fromMercator(cog.epsg);
  const [x, y] = fwd ? fwd(mx, my) : [NaN, NaN];
  const bands = bandsOf(handle, cog);
  const readings: BandReading[] = samples.map((b, slot) => {
    const meta = bands[b] ?? { name: `Band ${b + 1}` };
    const raw = tile.bands[slot][i];
    const nodata = meta.nodata ?? cog.nodata;
    const valid = raw === raw && raw !== nodata;
    return {
      name: meta.name,
      commonName: meta.commonName,
      wavelength: meta.wavelength,
      raw: valid ? raw : undefined,
      value: valid ? raw * (meta.scale ?? 1) + (meta.offset ?? 0) : undefined,
    };
  });
  const reading: PixelReading = { lon, lat, epsg: cog.epsg, x, y, col: Math.floor(fc), row: Math.floor(fr), level, bands: readings };
  const r = handle.spec.render;
  if (r.kind === 'index') {
    const compiled = compileIndexExpression(r.expression);
    let value: number | undefined;
    if (!('error' in compiled)) {
      const vals = compiled.bands.map((name) => readings.find((b) => b.name === name)?.value);
      if (vals.every((v): v is number => v !== undefined)) {
        const v = compiled.evaluate(vals);
        value = Number.isFinite(v) ? v : undefined;
      }
    }
    reading.index = { title: r.legendTitle, value };
  }
  return { reading };
}

/** The view's window in a level's pixels: [x0, y0, x1, y1) clipped to the level, or undefined when the view misses it. */
export function viewWindow(cog: Cog, level: number, map: Leaflet.Map): [number, number, number, number] | undefined {
  const b = map.getBounds();
  const Lv = cog.levels[level];
  const toFull = toFullOf(cog);
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  const w = b.getWest(),
    e = b.getEast(),
    s = b.getSouth(),
    n = b.getNorth();
  // the view's outline, sampled: a UTM grid is slightly rotated against the map
  for (let k = 0; k <= 16; k++) {
    const t = k / 16;
    for (const [lon, lat] of [
      [w + (e - w) * t, s],
      [w + (e - w) * t, n],
      [w, s + (n - s) * t],
      [e, s + (n - s) * t],
    ]) {
      const [fx, fy] = toFull(...mercator(lon, lat));
      const x = fx / Lv.scaleX;
      const y = fy / Lv.scaleY;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
  }
  const x0 = Math.max(0, Math.floor(minX));
  const y0 = Math.max(0, Math.floor(minY));
  const x1 = Math.min(Lv.width, Math.ceil(maxX));
  const y1 = Math.min(Lv.height, Math.ceil(maxY));
  return x1 > x0 && y1 > y0 ? [x0, y0, x1, y1] : undefined;
}

export interface BandHistogram {
  name: string;
  /** Bin edges: `bins` equal bins from `lo` to `hi` (physical values). */
  lo: number;
  hi: number;
  counts: number[];
  /** Pixels counted (no-data left out). */
  total: number;
}

export interface WindowHistogram {
  level: number;
  window: [number, number, number, number];
  /** Pixels of the window whose tile was not decoded yet (not counted). */
  missing: number;
  bands: BandHistogram[];
}

/** The view's window at the drawn level and the decoded tiles it touches (never fetched here). */
export interface WindowTiles {
  cog: Cog;
  level: number;
  window: [number, number, number, number];
  tiles: DecodedTile[];
  /** Pixels of the window whose tile was not decoded yet. */
  missing: number;
  /** Bands (0-based) the tiles hold, by slot. */
  samples: number[];
}

export async function windowTiles(handle: ImageryLayerHandle, map: Leaflet.Map): Promise<WindowTiles | undefined> {
  const cog = await handle.ready;
  await handle.lookReady();
  const samples = handle.samples ?? [];
  const level = drawnLevel(cog, map);
  const win = viewWindow(cog, level, map);
  if (!win) return undefined;
  const Lv = cog.levels[level];
  const [x0, y0, x1, y1] = win;
  const tiles: DecodedTile[] = [];
  let missing = 0;
  for (let ty = Math.floor(y0 / Lv.tileHeight); ty * Lv.tileHeight < y1; ty++) {
    for (let tx = Math.floor(x0 / Lv.tileWidth); tx * Lv.tileWidth < x1; tx++) {
      const p = cog.peek(level, tx, ty, samples);
      const t = p ? await p.catch(() => undefined) : undefined;
      if (t) tiles.push(t);
      else {
        const w = Math.min(x1, (tx + 1) * Lv.tileWidth) - Math.max(x0, tx * Lv.tileWidth);
        const h = Math.min(y1, (ty + 1) * Lv.tileHeight) - Math.max(y0, ty * Lv.tileHeight);
        missing += w * h;
      }
    }
  }
  return { cog, level, window: win, tiles, missing, samples };
}

/** Calls `fn` with the tile and the index in it of every pixel of the window the tiles hold. */
export function eachWindowPixel(w: WindowTiles, fn: (t: DecodedTile, i: number) => void): void {
  const [x0, y0, x1, y1] = w.window;
  for (const t of w.tiles) {
    const cx0 = Math.max(x0, t.x0) - t.x0,
      cx1 = Math.min(x1, t.x0 + t.width) - t.x0;
    const cy0 = Math.max(y0, t.y0) - t.y0,
      cy1 = Math.min(y1, t.y0 + t.height) - t.y0;
    for (let y = cy0; y < cy1; y++) {
      for (let x = cx0, i = y * t.width + cx0; x < cx1; x++, i++) fn(t, i);
    }
  }
}

/**
 * `bins` equal bins over the values `each` yields: from `range` when given, else from their
 * minimum to their maximum (a single value gets a small range of its own).
 */
export function binValues(
  each: (fn: (v: number) => void) => void,
  bins: number,
  range?: [number, number],
): { lo: number; hi: number; counts: number[]; total: number } {
  let lo = range?.[0] ?? Infinity;
  let hi = range?.[1] ?? -Infinity;
  if (!range) {
    each((v) => {
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    });
  }
  if (!(hi > lo)) {
    if (lo === Infinity) lo = hi = 0;
    hi = lo + (Math.abs(lo) > 1 ? 1 : 1e-3);
  }
  const counts = new Array<number>(bins).fill(0);
  let total = 0;
  const k = bins / (hi - lo);
  each((v) => {
    let i = Math.floor((v - lo) * k);
    if (i < 0) i = 0;
    else if (i >= bins) i = bins - 1;
    counts[i]++;
    total++;
  });
  return { lo, hi, counts, total };
}

/**
 * Histograms of some bands over the view's window at the drawn level, from decoded tiles only.
 * `range` fixes a band's bin range (the stretch handles keep their scale while dragged); by
 * default it spans the window's values.
 */
export async function windowHistogram(
  handle: ImageryLayerHandle,
  map: Leaflet.Map,
  bandIdx: number[],
  bins = 128,
  range?: ([number, number] | undefined)[],
): Promise<WindowHistogram | undefined> {
  const w = await windowTiles(handle, map);
  if (!w) return undefined;
  const meta = bandsOf(handle, w.cog);
  const out: BandHistogram[] = [];
  bandIdx.forEach((b, k) => {
    const slot = w.samples.indexOf(b);
    const m = meta[b] ?? { name: `Band ${b + 1}` };
    const scale = m.scale ?? 1;
    const offset = m.offset ?? 0;
    const nodata = m.nodata ?? w.cog.nodata;
    if (slot < 0) return;
    const each = (fn: (v: number) => void) =>
      eachWindowPixel(w, (t, i) => {
        const raw = t.bands[slot][i];
        if (raw === nodata || raw !== raw) return;
        fn(raw * scale + offset);
      });
    out.push({ name: m.name, ...binValues(each, bins, range?.[k]) });
  });
  return { level: w.level, window: w.window, missing: w.missing, bands: out };
}
