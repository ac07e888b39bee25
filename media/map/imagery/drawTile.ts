/**
 * The order a map tile is drawn in. When the level the zoom needs is not decoded yet, another
 * level that is (the one drawn before a zoom step, or the overview read for the stretch) is
 * painted and shown at once, scaled by the warp; the tile's own source tiles are read after,
 * and the tile painted again when they arrive.
 */
import type { Cog } from './cog';
import { decodedOf, interimLevels, interimSize, planAt, planFor, readAll, SIZE, type ToFull } from './tilePlan';
import { paintPlan, type TileLook } from './tilePaint';

export interface TileDrawing extends TileLook {
  cog: Cog;
  samples: number[];
  toFull: ToFull;
  cancelled(): boolean;
  /** Shows an interim picture (a coarser or finer level's) until the tile's own is painted. */
  interim(bmp: Blob): Promise<void>;
}

/** The tile's pixels as a BMP, or undefined when nothing of the image falls on it. */
export async function drawTile(d: TileDrawing): Promise<Blob | undefined> {
  const { cog, samples, coords } = d;
  const plan = planAt(cog, d.toFull, coords.z, coords.x * SIZE, coords.y * SIZE);
  if (!plan) return undefined;
  let tiles = decodedOf(cog, plan, samples);
  if (!tiles) {
    let shown: Promise<void> | undefined;
    for (const other of interimLevels(cog, plan.level)) {
      const p = planFor(cog, other, d.toFull, plan.box);
      const got = p && decodedOf(cog, p, samples);
      if (!p || !got) continue;
      const bmp = paintPlan(cog, p, got, d, interimSize(cog, other, plan.srcPerScreen));
      if (bmp && !d.cancelled()) shown = d.interim(bmp);
      break;
    }
    // the reads start once the interim is shown: a zoom step's first frame does not wait
    // behind dozens of read requests (and their replies) of its own making
    if (shown) await shown;
    if (d.cancelled()) return undefined;
    tiles = await readAll(cog, plan, samples);
    if (d.cancelled()) return undefined;
  }
  return paintPlan(cog, plan, tiles, d);
}
