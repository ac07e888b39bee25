/**
 * The visualization PNG: an index evaluated over an AOI's mosaic of one date, coloured by a
 * colour map between two values (a composite: its three bands as red, green and blue), transparent outside the AOI polygon and where the mosaic
 * has no data. The image covers the AOI's bounding box with rows evenly spaced in Web
 * Mercator (the map's projection), so a map can lay it over the box's corners as is. Every
 * pixel is the mosaic's pixel under its centre (nearest) at the overview step nearest the
 * image's own pixel size, so the image is deterministic.
 */
import type { Polygon } from '../../api/records';
import { colormapLut } from '../../api/colormaps';
import { compileIndexExpression } from '../../api/indexExpression';
import { unwrapPolygon } from '../../geo/antimeridian';
import { project } from '../../geo/mercator';
import { insideRings } from '../../raster/maskValue';
import { pacer } from '../pace';
import { encodePngRgba } from '../png';
import { fillTile, pixelOf, pixelTruth, withBands, type Scene } from './scene';
import { mosaicScene, type MosaicOwner } from './scenes';

/** Longest side of the image, in pixels. */
export const PNG_MAX_SIDE = 1024;

export interface IndexPngRequest {
  aoi: MosaicOwner & { geometry: Polygon };
  /** `YYYY-MM-DD`, a date the AOI has a mosaic for. */
  date: string;
  expression: string;
  /** `composite`: three bands as red, green, blue; otherwise one value through the colour map. */
  expressionType: string;
  colormap: string;
  /** Values at the two ends of the colour map. */
  range: [number, number];
  /**
   * A legend saved on the service (`PUT …/metadata`): each value is drawn in the colour of the
   * class it falls in (below the first: the first; above the last: the last) instead of the
   * colour map.
   */
  classes?: readonly { min: number; max: number; color: string }[];
}

/** `#rrggbb[aa]` as RGBA bytes. */
function rgbaOf(c: string): [number, number, number, number] {
  const h = c.replace('#', '');
  return [0, 2, 4, 6].map((i) => (i === 6 && h.length < 8 ? 255 : parseInt(h.slice(i, i + 2), 16) || 0)) as [number, number, number, number];
}

export interface PngGrid {
  width: number;
  height: number;
  /** [west, south, east, north] of the AOI, degrees. */
  bbox: [number, number, number, number];
}

/** The AOI's box, its longitudes continuous across the antimeridian (east may pass 180). */
function bboxOf(g: Polygon): [number, number, number, number] {
  let w = Infinity,
    s = Infinity,
    e = -Infinity,
    n = -Infinity;
  for (const ring of unwrapPolygon(g.coordinates))
    for (const [x, y] of ring) {
      w = Math.min(w, x);
      e = Math.max(e, x);
      s = Math.min(s, y);
      n = Math.max(n, y);
    }
  return [w, s, e, n];
}

/** lon/lat of the centre of image pixel (x, y). */
export function lonLatOfPngPixel(grid: PngGrid, x: number, y: number): [number, number] {
  const [w, s, e, n] = grid.bbox;
  const top = project(w, n)[1];
  const bottom = project(w, s)[1];
  const my = top + ((y + 0.5) / grid.height) * (bottom - top);
  const lat = (Math.atan(Math.sinh(Math.PI * (1 - 2 * my))) * 180) / Math.PI;
  return [w + ((x + 0.5) / grid.width) * (e - w), lat];
}

/** The image's size: the mosaic's detail, at most PNG_MAX_SIDE on the longer side. */
export function pngGridFor(aoi: MosaicOwner & { geometry: Polygon }, date: string): PngGrid {
  const scene = mosaicScene(aoi, date);
  const bbox = bboxOf(aoi.geometry);
  const [x0, y0] = project(bbox[0], bbox[3]);
  const [x1, y1] = project(bbox[2], bbox[1]);
  const dx = Math.max(x1 - x0, 1e-12);
  const dy = Math.max(y1 - y0, 1e-12);
  const side = Math.max(16, Math.min(PNG_MAX_SIDE, Math.max(scene.width, scene.height)));
  const width = Math.max(1, Math.round(dx >= dy ? side : (side * dx) / dy));
  const height = Math.max(1, Math.round(dy >= dx ? side : (side * dy) / dx));
  return { width, height, bbox };
}

/** For tests: the index over the full-resolution mosaic pixel at a lon/lat; undefined where there is no data. */
export function indexValueAt(aoi: MosaicOwner, date: string, expression: string, lon: number, lat: number): number | undefined {
  const compiled = compileIndexExpression(expression);
  if ('error' in compiled) throw new Error(`expression ${JSON.stringify(expression)}: ${compiled.error}`);
  const scene = mosaicScene(aoi, date);
  const idx = compiled.bands.map((b) => scene.bands.findIndex((x) => x.name === b));
  if (idx.some((i) => i < 0)) throw new Error(`the mosaic lacks a band of ${expression}`);
  const [c, r] = pixelOf(scene, lon, lat).map(Math.floor);
  if (c < 0 || r < 0 || c >= scene.width || r >= scene.height) return undefined;
  const t = pixelTruth(withBands(scene, idx), c, r);
  if (t.value.some((v) => v === undefined)) return undefined;
  const v = compiled.evaluate(t.value as number[]);
  return Number.isFinite(v) ? v : undefined;
}

/**
 * DNs of whole rows of the mosaic at `step` × its pixel size (the ground at each coarse
 * pixel's centre, as the COG's overviews hold it), filled as the COG's tiles are and kept
 * while the image's rows walk down the mosaic: sampling pixel by pixel costs ten times more.
 */
function rowReader(scene: Scene, step: number): { width: number; height: number; row: (r: number) => Uint16Array } {
  const nb = scene.bands.length;
  const width = Math.ceil(scene.width / step);
  const height = Math.ceil(scene.height / step);
  const pixelSize = scene.pixelSize * step;
  const cache = new Map<number, Uint16Array>();
  return {
    width,
    height,
    row: (r) => {
      let dn = cache.get(r);
      if (!dn) {
        dn = new Uint16Array(width * nb);
        fillTile(scene, { level: 0, col0: 0, row0: r, cols: width, rows: 1, pixelSize, width, height }, dn);
        if (cache.size >= 64) cache.delete(cache.keys().next().value as number);
        cache.set(r, dn);
      }
      return dn;
    },
  };
}

/** How many mosaic pixels one image pixel spans (rounded down, at least 1). */
export function pngStep(scene: Scene, grid: PngGrid): number {
  return Math.max(1, Math.floor(Math.max(scene.width, scene.height) / Math.max(grid.width, grid.height)));
}

/** The PNG, row by row, letting the event loop run between rows (the AOI's mosaic is computed as it goes). */
export async function renderIndexPng(q: IndexPngRequest): Promise<{ png: Buffer; grid: PngGrid }> {
  const turn = pacer();
  const composite = q.expressionType === 'composite';
  const names = composite ? q.expression.split(',').map((x) => x.trim()) : undefined;
  const compiled = composite ? undefined : compileIndexExpression(q.expression);
  if (compiled && 'error' in compiled) throw new Error(`expression ${JSON.stringify(q.expression)}: ${compiled.error}`);
  const full = mosaicScene(q.aoi, q.date);
  const wanted = names ?? (compiled as { bands: string[] }).bands;
  const idx = wanted.map((b) => full.bands.findIndex((x) => x.name === b));
  if (idx.some((i) => i < 0) || (names && names.length !== 3)) throw new Error(`the mosaic lacks a band of ${q.expression}`);
  const scene = withBands(full, idx);
  const nb = idx.length;
  const grid = pngGridFor(q.aoi, q.date);
  const rings = unwrapPolygon(q.aoi.geometry.coordinates);
  const step = pngStep(full, grid);
  const rows = rowReader(scene, step);
  const lut = colormapLut(q.colormap) ?? (colormapLut('viridis') as Uint8ClampedArray);
  const [lo, hi] = q.range;
  const byte = (v: number): number => {
    const i = hi !== lo ? Math.round(((v - lo) / (hi - lo)) * 255) : 0;
    return i < 0 ? 0 : i > 255 ? 255 : i;
  };
  const classes = composite ? undefined : q.classes?.map((c) => ({ max: c.max, rgba: rgbaOf(c.color) }));
  const rgba = new Uint8Array(grid.width * grid.height * 4);
  const values = new Array<number>(nb);
  for (let y = 0; y < grid.height; y++) {
    await turn();
    for (let x = 0; x < grid.width; x++) {
      const [lon, lat] = lonLatOfPngPixel(grid, x, y);
      if (!insideRings(rings, lon, lat)) continue;
      const [c, r] = pixelOf(scene, lon, lat).map((v) => Math.floor(v / step));
      if (c < 0 || r < 0 || c >= rows.width || r >= rows.height) continue;
      const dn = rows.row(r);
      let bad = false;
      for (let k = 0; k < nb; k++) {
        const d = dn[c * nb + k];
        if (d === 0) bad = true;
        values[k] = d;
      }
      if (bad) continue;
      const o = (y * grid.width + x) * 4;
      if (composite) {
        // a composite's rescale is in stored values (DN), like the index's definition
        for (let k = 0; k < 3; k++) rgba[o + k] = byte(values[k]);
      } else {
        for (let k = 0; k < nb; k++) values[k] = values[k] * scene.scale + scene.offset;
        const v = (compiled as { evaluate: (v: ArrayLike<number>) => number }).evaluate(values);
        if (!Number.isFinite(v)) continue;
        if (classes?.length) {
          let k = 0;
          while (k < classes.length - 1 && v > classes[k].max) k++;
          rgba.set(classes[k].rgba, o);
          continue;
        }
        const i = byte(v);
        rgba[o] = lut[i * 3];
        rgba[o + 1] = lut[i * 3 + 1];
        rgba[o + 2] = lut[i * 3 + 2];
      }
      rgba[o + 3] = 255;
    }
  }
  return { png: await encodePngRgba(grid.width, grid.height, rgba), grid };
}
