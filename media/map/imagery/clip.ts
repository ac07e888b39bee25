/**
 * "Save View to GeoTIFF…" and "Save View to PNG", the webview's half: the window of the file
 * that the view (or the layer's AOI polygon) covers, read by ranges at the chosen level in
 * strips of whole tile rows (strips.ts), masked, and encoded as a GeoTIFF in
 * the file's CRS; or the imagery tiles as drawn, composed into a PNG. The extension only
 * writes the bytes. For a file the extension host decodes itself, the webview answers a plan
 * instead (clipPlan) and the host reads, decodes and encodes where the bytes arrive.
 */
import type * as Leaflet from 'leaflet';
import type { Pool } from 'geotiff';
import type { ImageryBand } from '../../../src/panels/imagery/protocol';
import type { Cog } from './cog';
import type { ImageryLayerHandle } from './imageryLayer';
import { drawnLevel, mercator, viewWindow } from './pixelRead';
import { fromMercator } from './projection';
import { encodeGeoTiff } from '../../../src/raster/tiffEncode';
import { applyMask } from '../../../src/raster/maskValue';
import { drawnTiles } from './drawnTiles';
import { readStrips } from './strips';
import type { ClipLayerInfo, ClipPlan, ClipResult } from '../../../src/panels/imagery/clipMessages';
import { hostTilePlan, windowTiles } from './hostTiles';

function bandsOf(handle: ImageryLayerHandle, cog: Cog): ImageryBand[] {
  return handle.spec.bands.length ? handle.spec.bands.slice(0, cog.bandCount) : Array.from({ length: cog.bandCount }, (_, i) => ({ name: `Band ${i + 1}` }));
}

export function polygonsOf(clip: unknown): number[][][][] {
  const g = clip as { type?: string; coordinates?: unknown };
  return g?.type === 'Polygon' ? [g.coordinates as number[][][]] : g?.type === 'MultiPolygon' ? (g.coordinates as number[][][][]) : [];
}

/** The clip polygon's rings in a level's pixel coordinates. */
export function ringsInLevel(cog: Cog, level: number, clip: unknown, fwd: (lon: number, lat: number) => [number, number]): [number, number][][] {
  const Lv = cog.levels[level];
  return polygonsOf(clip)
    .flat()
    .map((ring) =>
      ring.map(([lon, lat]) => {
        const [x, y] = fwd(lon, lat);
        return [(x - cog.originX) / cog.resX / Lv.scaleX, (y - cog.originY) / cog.resY / Lv.scaleY] as [number, number];
      }),
    );
}

/** The window a clip covers at a level: the polygon's outline for a masked clip, else the view. */
function clipWindow(cog: Cog, level: number, map: Leaflet.Map, rings?: [number, number][][]): [number, number, number, number] | undefined {
  if (!rings?.length) return viewWindow(cog, level, map);
  const Lv = cog.levels[level];
  let x0 = Infinity,
    y0 = Infinity,
    x1 = -Infinity,
    y1 = -Infinity;
  for (const r of rings)
    for (const [x, y] of r) {
      x0 = Math.min(x0, x);
      y0 = Math.min(y0, y);
      x1 = Math.max(x1, x);
      y1 = Math.max(y1, y);
    }
  const w: [number, number, number, number] = [
    Math.max(0, Math.floor(x0)),
    Math.max(0, Math.floor(y0)),
    Math.min(Lv.width, Math.ceil(x1)),
    Math.min(Lv.height, Math.ceil(y1)),
  ];
  return w[2] > w[0] && w[3] > w[1] ? w : undefined;
}

export function wgsToCrs(cog: Cog): ((lon: number, lat: number) => [number, number]) | undefined {
  const fwd = fromMercator(cog.epsg);
  return fwd ? (lon, lat) => fwd(...mercator(lon, lat)) : undefined;
}

export async function clipInfo(handle: ImageryLayerHandle, map: Leaflet.Map): Promise<ClipLayerInfo | undefined> {
  const cog = await handle.ready;
  await handle.lookReady().catch(() => undefined);
  const bands = bandsOf(handle, cog);
  const bytesPer = Number(cog.levels[0].image.getBitsPerSample?.(0) ?? 16) / 8;
  const shownIdx = handle.spec.render.kind === 'rgb' && handle.spec.render.bands[0] ? handle.spec.render.bands : undefined;
  const levels: ClipLayerInfo['levels'] = [];
  const aoiLevels: ClipLayerInfo['levels'] = [];
  const fwd = polygonsOf(handle.spec.clip).length ? wgsToCrs(cog) : undefined;
  cog.levels.forEach((Lv, level) => {
    const size = (w: [number, number, number, number]) => {
      const width = w[2] - w[0];
      const height = w[3] - w[1];
      return { level, width, height, pixelSize: Math.abs(cog.resX) * Lv.scaleX, bytes: width * height * bands.length * bytesPer };
    };
    const w = viewWindow(cog, level, map);
    if (w) levels.push(size(w));
    // a masked clip saves the polygon's window, not the view's: the picker shows its size
    const rings = fwd ? ringsInLevel(cog, level, handle.spec.clip, fwd) : undefined;
    const a = rings?.length ? clipWindow(cog, level, map, rings) : undefined;
    if (a) aoiLevels.push(size(a));
  });
  if (!levels.length) return undefined;
  return {
    id: handle.spec.id,
    title: handle.spec.title,
    date: handle.spec.date,
    bands: bands.map((b) => b.name),
    shown: shownIdx ? [...new Set(shownIdx)] : bands.map((b) => b.name),
    levels,
    drawnLevel: drawnLevel(cog, map),
    aoiLevels: aoiLevels.length ? aoiLevels : undefined,
    epsg: cog.epsg,
  };
}

export interface ClipOptions {
  bands: string[];
  level: number;
  mask: boolean;
  pool?: Pool;
  signal?: AbortSignal;
  onProgress?(done: number, total: number): void;
}

/** What both ways of clipping start from: the bands, the window and the mask's rings. */
async function clipSetup(handle: ImageryLayerHandle, map: Leaflet.Map, o: Pick<ClipOptions, 'bands' | 'level' | 'mask'>) {
  const cog = await handle.ready;
  const all = bandsOf(handle, cog);
  const idx = o.bands.map((name) => {
    const i = all.findIndex((b) => b.name === name);
    if (i < 0) throw new Error(`The file has no band named "${name}".`);
    return i;
  });
  if (!idx.length) throw new Error('Pick at least one band to save.');
  const Lv = cog.levels[o.level];
  if (!Lv) throw new Error('That overview is not in the file.');
  const fwd = o.mask ? wgsToCrs(cog) : undefined;
  const rings = o.mask && fwd ? ringsInLevel(cog, o.level, handle.spec.clip, fwd) : undefined;
  const win = clipWindow(cog, o.level, map, rings);
  if (!win) throw new Error(rings ? "The AOI does not overlap this layer's file." : 'The view does not cover this layer; pan to it and save again.');
  const meta = idx.map((i) => all[i]);
  const geo = {
    epsg: cog.epsg,
    originX: cog.originX + win[0] * Lv.scaleX * cog.resX,
    originY: cog.originY + win[1] * Lv.scaleY * cog.resY,
    pixelWidth: Math.abs(cog.resX * Lv.scaleX),
    pixelHeight: Math.abs(cog.resY * Lv.scaleY),
    names: meta.map((b) => b.name),
    scale: meta.map((b) => b.scale ?? 1),
    offset: meta.map((b) => b.offset ?? 0),
  };
  return { cog, Lv, idx, rings, win, nodata: meta[0]?.nodata ?? cog.nodata, geo };
}

/**
 * The clip as a plan the extension host executes where the bytes arrive (no tile crosses to
 * the page and no file back): only for a file the host decodes (hostTiles.ts); undefined for
 * any other, which the page then clips itself.
 */
export async function clipPlan(handle: ImageryLayerHandle, map: Leaflet.Map, o: Pick<ClipOptions, 'bands' | 'level' | 'mask'>): Promise<ClipPlan | undefined> {
  const { cog, idx, rings, win, nodata, geo } = await clipSetup(handle, map, o);
  const { names, scale, offset, ...where } = geo;
  const tiles = await hostTilePlan(cog, handle.spec.url, {
    level: o.level,
    window: win,
    places: windowTiles(cog, o.level, win),
    samples: idx,
    names,
    scale,
    offset,
    nodata,
  });
  return tiles && { ...tiles, rings, ...where };
}

export async function readClip(handle: ImageryLayerHandle, map: Leaflet.Map, o: ClipOptions): Promise<ClipResult> {
  const { cog, idx, rings, win, geo, ...rest } = await clipSetup(handle, map, o);
  const [x0, y0, x1, y1] = win;
  const width = x1 - x0;
  const height = y1 - y0;
  const before = cog.source.stats.bytes;
  const bands = await readStrips(cog, o.level, win, idx, o);
  let nodata = rest.nodata;
  if (rings) {
    nodata = applyMask(bands, width, height, x0, y0, rings, nodata);
    if (nodata === undefined)
      throw new Error('Every value the file can hold occurs inside the AOI, so none is left to mark the pixels outside it. Save the view instead.');
  }
  const fetchedBytes = cog.source.stats.bytes - before;
  const tileBytes = await storedTileBytes(cog, o.level, win);
  const bytes = encodeGeoTiff({ width, height, bands, nodata, ...geo });
  return { bytes, width, height, fetchedBytes, tileBytes };
}

/** The stored (compressed) size of the tiles a window touches: what any range reader must fetch. */
async function storedTileBytes(cog: Cog, level: number, win: [number, number, number, number]): Promise<number> {
  const Lv = cog.levels[level];
  const fd = Lv.image.fileDirectory;
  const counts =
    ((await fd.loadValue('TileByteCounts' as never).catch(() => undefined)) as ArrayLike<number> | undefined) ??
    (fd.getValue('TileByteCounts' as never) as ArrayLike<number> | undefined);
  if (!counts || !Lv.image.isTiled) return 0;
  const across = Math.ceil(Lv.width / Lv.tileWidth);
  let sum = 0;
  for (let ty = Math.floor(win[1] / Lv.tileHeight); ty * Lv.tileHeight < win[3]; ty++) {
    for (let tx = Math.floor(win[0] / Lv.tileWidth); tx * Lv.tileWidth < win[2]; tx++) sum += Number(counts[ty * across + tx] ?? 0);
  }
  return sum;
}

/** The imagery as drawn in the view: every visible imagery tile, composed at screen size. */
export async function viewPng(map: Leaflet.Map, pane: HTMLElement): Promise<ClipResult> {
  const box = map.getContainer().getBoundingClientRect();
  const width = Math.round(box.width);
  const height = Math.round(box.height);
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('The view could not be drawn.');
  let drawn = 0;
  for (const c of drawnTiles(pane)) {
    const r = c.getBoundingClientRect();
    if (r.right <= box.left || r.bottom <= box.top || r.left >= box.right || r.top >= box.bottom) continue;
    const layer = c.closest('.leaflet-layer') as HTMLElement | null;
    ctx.globalAlpha = layer ? Number(getComputedStyle(layer).opacity || 1) : 1;
    ctx.drawImage(c, r.left - box.left, r.top - box.top, r.width, r.height);
    drawn++;
  }
  if (!drawn) throw new Error('No imagery is drawn in the view.');
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
  if (!blob) throw new Error('The view could not be encoded as PNG.');
  return { bytes: await blob.arrayBuffer(), width, height };
}
