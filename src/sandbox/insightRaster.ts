/**
 * The raster output of an insight run: a one-band uint8 COG on the grid of the AOI's mosaic
 * that fed the run, each pixel the class the block's `discretization` names for the synthetic
 * ground under it (water where the mosaic shows water, and so on). So the output agrees with
 * its input imagery, and its values are exactly the class values its properties describe.
 */
import type { Block, InputDefinition } from '../api/records';
import { type CogSpec, type Samples, type TileRequest } from './imagery/cogWriter';
import { BUILT, FOREST, GroundSampler, SOIL, VEGETATION, WATER, hash2 } from './imagery/landscape';
import { crossings, type Scene } from './imagery/scene';
import { mosaicScene } from './imagery/scenes';
import type { AoiRec, AssetRec, InsightRec } from './state';
import { dateOnly } from './timefmt';

/** Outside the AOI: no class. */
export const OUTPUT_NODATA = 255;

/** Class value of one pixel, from the ground cover code there and the position (for change). */
type Classify = (cover: number, e: number, n: number, seed: number) => number;

const LAND_COVER: Record<number, number> = { [WATER]: 1, [VEGETATION]: 2, [FOREST]: 3, [BUILT]: 4, [SOIL]: 5 };

/** How each block's raster output reads the ground; values are those of its discretization. */
function classifier(def: InputDefinition): Classify {
  const values = (def.properties?.discretization?.classes ?? []).map((c) => Number(c.value));
  switch (def.name) {
    case 'water_mask':
      return (cover) => (cover === WATER ? 1 : 0);
    case 'land_cover':
      return (cover) => LAND_COVER[cover] ?? 5;
    case 'change':
      // Loss and gain on a few fields: one parcel in twelve lost its crop, one gained one.
      return (cover, e, n, seed) => {
        if (cover !== VEGETATION && cover !== SOIL) return 0;
        const h = hash2(Math.floor(e / 420), Math.floor(n / 300), seed ^ 0xc4a9) % 12;
        return h === 0 ? 1 : h === 1 ? 2 : 0;
      };
    default:
      return () => values[0] ?? 1;
  }
}

/** The mosaic the run read: its first AOI-asset input with a date, else the AOI on the run's day. */
export function outputScene(aoi: AoiRec, rec: InsightRec, assets: readonly AssetRec[]): Scene {
  const ids = rec.input.filter((v) => v.asset_source?.type === 'raw_mosaic').map((v) => v.asset_source?.id);
  const asset = assets.find((a) => ids.includes(a.id) && a.aoi_id === aoi.aoi_id && a.date);
  return mosaicScene(aoi, asset?.date?.slice(0, 10) ?? dateOnly(rec.t0));
}

/** The class value the output holds at full-resolution pixel (col, row); undefined outside the AOI. */
export function outputValueAt(scene: Scene, def: InputDefinition, col: number, row: number): number | undefined {
  const e = scene.originX + (col + 0.5) * scene.pixelSize;
  const n = scene.originY - (row + 0.5) * scene.pixelSize;
  const xs = crossings(scene, n);
  if (xs.filter((x) => x <= e).length % 2 === 0) return undefined;
  const g = new GroundSampler(scene.landSeed, scene.grow);
  g.setRow(n);
  g.at(e);
  return classifier(def)(g.cover, e, n, scene.landSeed);
}

export function outputCogSpec(scene: Scene, def: InputDefinition): CogSpec {
  const classify = classifier(def);
  const s = scene;
  return {
    width: s.width,
    height: s.height,
    bands: 1,
    dtype: 'uint8',
    tileSize: 256,
    originX: s.originX,
    originY: s.originY,
    pixelSize: s.pixelSize,
    epsg: s.epsg,
    nodata: OUTPUT_NODATA,
    bandNames: [def.properties?.bands?.[0] ?? def.name],
    // `out` arrives filled with nodata: only pixels inside the AOI are written.
    fill: (t: TileRequest, out: Samples) => {
      const g = new GroundSampler(s.landSeed, s.grow);
      for (let r = 0; r < t.rows; r++) {
        const n = s.originY - (t.row0 + r + 0.5) * t.pixelSize;
        const xs = crossings(s, n);
        if (xs.length === 0) continue;
        g.setRow(n);
        let k = 0;
        let e = s.originX + (t.col0 + 0.5) * t.pixelSize;
        for (let c = 0; c < t.cols; c++, e += t.pixelSize) {
          while (k < xs.length && xs[k] <= e) k++;
          if (k % 2 === 0) continue;
          g.at(e);
          out[r * 256 + c] = classify(g.cover, e, n, s.landSeed);
        }
      }
    },
  };
}

/** The raster outputs a block declares. */
export function rasterOutputs(block: Block | undefined): InputDefinition[] {
  return (block?.spec.outputs ?? []).filter((o) => o.format === 'raster');
}
