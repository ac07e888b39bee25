/**
 * Drawing a map tile from its plan's decoded source tiles: warp, paint, clip to the AOI and
 * encode as a BMP, then show it in the tile's image element (bmp.ts says why not canvases).
 * Synchronous up to the image, so every tile of a size shares one coordinate and one pixel buffer.
 */
import type * as Leaflet from 'leaflet';
import type { Cog, DecodedTile } from './cog';
import { anyVisible, bmpBlob } from './bmp';
import { paint, type Look, type TileGrid } from './pixels';
import { warpGrid } from './projection';
import { SIZE, type Plan } from './tilePlan';

/** Coordinates and pixels of one tile, per size painted (256, and the interims' smaller ones). */
const buffers = new Map<number, { xy: Float32Array; img: ImageData }>();
const scratch = new Map<number, CanvasRenderingContext2D | null>();

function buffersOf(size: number): { xy: Float32Array; img: ImageData } {
  let b = buffers.get(size);
  if (!b) buffers.set(size, (b = { xy: new Float32Array(size * size * 2), img: new ImageData(size, size) }));
  return b;
}

/** A tile-sized canvas off the page, for clipping a tile to its AOI before it becomes an image. */
function scratchContext(size: number): CanvasRenderingContext2D | null {
  if (!scratch.has(size)) {
    const c = document.createElement('canvas');
    c.width = size;
    c.height = size;
    scratch.set(size, c.getContext('2d', { willReadFrequently: true }));
  }
  return scratch.get(size) ?? null;
}

/**
 * Warps and paints a plan's decoded tiles into `out`, synchronously; false when nothing shows.
 * `out` may be smaller than the 256-pixel block (an interim): the block is sampled at its size.
 */
export function paintInto(cog: Cog, plan: Plan, tiles: DecodedTile[], lk: Look, z: number, px0: number, py0: number, out: ImageData): boolean {
  const Lv = cog.levels[plan.level];
  const size = out.width;
  // a block of 256 map pixels at zoom z is one of `size` map pixels at a zoom lower by the ratio's log
  const k = Math.log2(SIZE / size);
  const grid: TileGrid = {
    tiles,
    tx0: plan.tx0,
    ty0: plan.ty0,
    cols: plan.cols,
    rows: plan.rows,
    tileWidth: Lv.tileWidth,
    tileHeight: Lv.tileHeight,
    levelWidth: Lv.width,
    levelHeight: Lv.height,
  };
  const { xy } = buffersOf(size);
  warpGrid(plan.toLevel, z - k, px0 / 2 ** k, py0 / 2 ** k, size, xy);
  return paint(xy, size, grid, lk, out.data) > 0;
}

/** What a map tile is painted with, besides its plan and source tiles. */
export interface TileLook {
  look: Look;
  /** The AOI to clip to (GeoJSON geometry), if any. */
  clip: unknown;
  coords: Leaflet.Coords;
  map: Leaflet.Map;
}

/**
 * Warps, paints, clips and encodes one map tile from a plan's decoded tiles. `size` is 256 but
 * for an interim (fewer pixels, scaled up by the image). Undefined when nothing shows.
 */
export function paintPlan(cog: Cog, plan: Plan, tiles: DecodedTile[], t: TileLook, size = SIZE): Blob | undefined {
  const img = buffersOf(size).img;
  if (!paintInto(cog, plan, tiles, t.look, t.coords.z, t.coords.x * SIZE, t.coords.y * SIZE, img)) return undefined;
  let pixels: Uint8ClampedArray<ArrayBuffer> = img.data;
  const ctx = t.clip ? scratchContext(size) : null;
  if (ctx) {
    ctx.putImageData(img, 0, 0);
    clipTo(ctx, t.clip, t.map, t.coords, size / SIZE);
    pixels = ctx.getImageData(0, 0, size, size).data;
    // paint() counted visible pixels; only the AOI clip can have erased them all since
    if (!anyVisible(pixels)) return undefined;
  }
  return bmpBlob(pixels, size, size);
}

/**
 * Shows a drawn tile; a tile that is gone before its image decodes just stays empty. A tile
 * that already shows a picture (a coarser level's) keeps it until the new one is decoded.
 */
export async function showTile(tile: HTMLImageElement, bmp: Blob): Promise<void> {
  const url = URL.createObjectURL(bmp);
  if (tile.getAttribute('src')) {
    const next = new Image();
    next.src = url;
    await next.decode().catch(() => undefined);
  }
  tile.src = url;
  // the decoded image keeps its bytes: the URL is not needed once it has loaded
  await tile.decode().catch(() => undefined);
  URL.revokeObjectURL(url);
}

/** Clips a painted tile to the AOI; `scale` is the canvas's pixels per map pixel (below 1 for an interim). */
function clipTo(ctx: CanvasRenderingContext2D, clip: unknown, map: Leaflet.Map, coords: Leaflet.Coords, scale: number): void {
  const g = clip as { type?: string; coordinates?: unknown };
  const polys: number[][][][] = g?.type === 'Polygon' ? [g.coordinates as number[][][]] : g?.type === 'MultiPolygon' ? (g.coordinates as number[][][][]) : [];
  if (!polys.length) return;
  const origin = { x: coords.x * SIZE, y: coords.y * SIZE };
  ctx.save();
  ctx.scale(scale, scale);
  ctx.globalCompositeOperation = 'destination-in';
  ctx.beginPath();
  for (const poly of polys) {
    for (const ring of poly) {
      ring.forEach(([lon, lat], i) => {
        const p = map.project([lat, lon], coords.z);
        if (i === 0) ctx.moveTo(p.x - origin.x, p.y - origin.y);
        else ctx.lineTo(p.x - origin.x, p.y - origin.y);
      });
      ctx.closePath();
    }
  }
  ctx.fillStyle = '#000';
  ctx.fill('evenodd');
  ctx.restore();
}
