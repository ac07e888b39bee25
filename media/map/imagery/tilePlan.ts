/**
 * Which source tiles a 256-pixel map tile needs: the level that matches the zoom, the tiles of
 * that level under the map tile's outline, and how map coordinates reach that level. Pure
 * arithmetic over the open file; reading and painting are the callers'.
 */
import { type Cog, type DecodedTile } from './cog';
import { ImageryError } from './imageryError';
import { fromMercator, mercatorPixel } from './projection';

export const SIZE = 256;
/** Most source tiles one map tile may sample (more: the file lacks an overview for the zoom). */
const MAX_SOURCE_TILES = 64;
/**
 * A tile painted from a coarser level than its own is painted at that level's detail, at most
 * this many times fewer pixels a side (the image element scales it up): an interim costs a
 * fraction of a full tile, so a zoom step's first frame does not wait for 256 × 256 pixels a
 * tile. Never fewer than 32 a side, even from the coarsest overview.
 */
const MAX_INTERIM_SHRINK = 3;

/** A box of full-resolution pixels: [minX, minY, maxX, maxY]. */
export type Box = [number, number, number, number];
/** Web Mercator metres to the file's full-resolution pixel coordinates. */
export type ToFull = (mx: number, my: number) => [number, number];

/** The source tiles of one level that a map tile samples, and how map coordinates reach that level. */
export interface Plan {
  level: number;
  toLevel(mx: number, my: number): [number, number];
  tx0: number;
  ty0: number;
  cols: number;
  rows: number;
}

/** Web Mercator metres to the file's full-resolution pixels (one proj4 transformer per file: keep the result). */
export function fullPixelMapper(cog: Cog): ToFull {
  const fwd = fromMercator(cog.epsg);
  if (!fwd) throw new ImageryError(`EPSG:${cog.epsg} cannot be reprojected.`);
  return (mx, my) => {
    const [x, y] = fwd(mx, my);
    return [(x - cog.originX) / cog.resX, (y - cog.originY) / cog.resY];
  };
}

/**
 * The full-resolution pixel box a map tile covers: its outline sampled (16 points a side)
 * through the projection once, whichever levels are then planned from it.
 */
function outlineOf(toFull: ToFull, z: number, px0: number, py0: number): Box {
  const box: Box = [Infinity, Infinity, -Infinity, -Infinity];
  for (let k = 0; k <= 16; k++) {
    for (const [gx, gy] of [
      [k, 0],
      [k, 16],
      [0, k],
      [16, k],
    ]) {
      const [mx, my] = mercatorPixel(z, px0 + (gx * SIZE) / 16, py0 + (gy * SIZE) / 16);
      const [x, y] = toFull(mx, my);
      if (x < box[0]) box[0] = x;
      if (x > box[2]) box[2] = x;
      if (y < box[1]) box[1] = y;
      if (y > box[3]) box[3] = y;
    }
  }
  return box;
}

/** Which source tiles of a level one map tile needs (its outline's box, a pixel to spare); undefined when none. */
export function planFor(cog: Cog, level: number, toFull: ToFull, box: Box): Plan | undefined {
  const Lv = cog.levels[level];
  const toLevel = (mx: number, my: number): [number, number] => {
    const [x, y] = toFull(mx, my);
    return [x / Lv.scaleX, y / Lv.scaleY];
  };
  const minX = box[0] / Lv.scaleX - 1;
  const minY = box[1] / Lv.scaleY - 1;
  const maxX = box[2] / Lv.scaleX + 1;
  const maxY = box[3] / Lv.scaleY + 1;
  if (!(maxX >= 0 && maxY >= 0 && minX < Lv.width && minY < Lv.height)) return undefined; // not on this tile
  const tx0 = Math.max(0, Math.floor(minX / Lv.tileWidth));
  const ty0 = Math.max(0, Math.floor(minY / Lv.tileHeight));
  const tx1 = Math.min(Math.ceil(Lv.width / Lv.tileWidth) - 1, Math.floor(maxX / Lv.tileWidth));
  const ty1 = Math.min(Math.ceil(Lv.height / Lv.tileHeight) - 1, Math.floor(maxY / Lv.tileHeight));
  return { level, toLevel, tx0, ty0, cols: tx1 - tx0 + 1, rows: ty1 - ty0 + 1 };
}

/** The plan of the level a block at zoom `z` needs (how many full-resolution pixels one screen pixel spans there). */
export function planAt(cog: Cog, toFull: ToFull, z: number, px0: number, py0: number): (Plan & { srcPerScreen: number; box: Box }) | undefined {
  const srcPerScreen = warpProbe(toFull, z, px0 + SIZE / 2, py0 + SIZE / 2);
  const level = cog.pickLevel(srcPerScreen);
  const box = outlineOf(toFull, z, px0, py0);
  const plan = planFor(cog, level, toFull, box);
  if (plan && plan.cols * plan.rows > MAX_SOURCE_TILES) throw new ImageryError('The file has no overview for this zoom; zoom in to see it.');
  return plan && { ...plan, srcPerScreen, box };
}

/** The levels to try for an interim, nearest coarser first (fewer tiles to sample), then finer ones. */
export function interimLevels(cog: Cog, level: number): number[] {
  return [...cog.levels.keys()]
    .filter((l) => l !== level)
    .sort((a, b) => (a > level ? a - level : 100 + level - a) - (b > level ? b - level : 100 + level - b));
}

/**
 * How many pixels a side an interim from `level` needs to keep that level's detail on a
 * block whose own level needs `srcPerScreen` full-resolution pixels per screen pixel: a
 * level twice as coarse, 128; a finer one (after zooming out) is sampled at 128 as well.
 */
export function interimSize(cog: Cog, level: number, srcPerScreen: number): number {
  const coarser = Math.log2(cog.levels[level].scaleX / srcPerScreen);
  const shrink = Math.min(MAX_INTERIM_SHRINK, Math.max(1, Math.floor(coarser + 1e-6)));
  return SIZE >> shrink;
}

/** Every source tile of a plan, when all are decoded already; else undefined (no read is started). */
export function decodedOf(cog: Cog, plan: Plan, samples: number[]): DecodedTile[] | undefined {
  if (plan.cols * plan.rows > MAX_SOURCE_TILES) return undefined;
  const out: DecodedTile[] = [];
  for (let ty = plan.ty0; ty < plan.ty0 + plan.rows; ty++) {
    for (let tx = plan.tx0; tx < plan.tx0 + plan.cols; tx++) {
      const t = cog.decoded(plan.level, tx, ty, samples);
      if (!t) return undefined;
      out.push(t);
    }
  }
  return out;
}

/** Reads (or takes from the cache) every source tile of a plan. */
export function readAll(cog: Cog, plan: Plan, samples: number[]): Promise<DecodedTile[]> {
  const jobs: Promise<DecodedTile>[] = [];
  for (let ty = plan.ty0; ty < plan.ty0 + plan.rows; ty++)
    for (let tx = plan.tx0; tx < plan.tx0 + plan.cols; tx++) jobs.push(cog.tile(plan.level, tx, ty, samples));
  return Promise.all(jobs);
}

/** Full-resolution source pixels per screen pixel at a map pixel (a finite difference). */
export function warpProbe(toFull: (x: number, y: number) => [number, number], z: number, px: number, py: number): number {
  const size = 2 * Math.PI * 6378137;
  const res = size / (256 * 2 ** z);
  const mx = px * res - size / 2;
  const my = size / 2 - py * res;
  const [ax, ay] = toFull(mx, my);
  const [bx, by] = toFull(mx + res, my);
  const [cx, cy] = toFull(mx, my - res);
  return Math.max(Math.hypot(bx - ax, by - ay), Math.hypot(cx - ax, cy - ay));
}
