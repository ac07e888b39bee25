/**
 * The file behind an AOI asset, as an AOI download hands it out: a mosaic is its reflectance
 * COG (every band of the satellite); a visualization's output is the index evaluated over
 * the mosaic of the same date (one float32 band, nodata −9999), or the composite's three
 * bands. Same grid as the mosaic; computed tile by tile like every sandbox COG.
 */
import type { Asset } from '../../api/records';
import { compileIndexExpression } from '../../api/indexExpression';
import type { CogLayout, CogSpec } from './cogWriter';
import { dataCogSpec, fillTile, withBands } from './scene';
import { mosaicScene, type MosaicOwner } from './scenes';
import { layoutFor } from './serve';

export const INDEX_NODATA = -9999;

export interface AssetFile {
  /** Cache key of the file's tiles. */
  key: string;
  layout: CogLayout;
}

/** How a visualization output was made: its index expression and kind. */
export interface AssetRecipe {
  expression: string;
  expression_type: string;
}

/** The file of an asset; `recipe` for a visualization output. Throws when it cannot be made. */
export function assetFile(aoi: MosaicOwner, asset: Pick<Asset, 'id' | 'date' | 'visualization_id'>, recipe?: AssetRecipe): AssetFile {
  const scene = mosaicScene(aoi, asset.date);
  if (!asset.visualization_id) {
    const key = `${scene.key}:data`;
    return { key, layout: layoutFor(key, () => dataCogSpec(scene)) };
  }
  if (!recipe) throw new Error(`no recipe for visualization output ${asset.id}`);
  const key = `${scene.key}:vis:${asset.visualization_id}`;
  if (recipe.expression_type === 'composite') {
    const names = recipe.expression.split(',').map((s) => s.trim());
    const idx = names.map((n) => scene.bands.findIndex((b) => b.name === n));
    if (idx.some((i) => i < 0)) throw new Error(`the mosaic lacks a band of ${recipe.expression}`);
    return { key, layout: layoutFor(key, () => dataCogSpec(withBands(scene, idx))) };
  }
  const compiled = compileIndexExpression(recipe.expression);
  if ('error' in compiled) throw new Error(`expression ${JSON.stringify(recipe.expression)}: ${compiled.error}`);
  const idx = compiled.bands.map((n) => scene.bands.findIndex((b) => b.name === n));
  if (idx.some((i) => i < 0)) throw new Error(`the mosaic lacks a band of ${recipe.expression}`);
  const sub = withBands(scene, idx);
  const nb = idx.length;
  const spec: CogSpec = {
    width: scene.width,
    height: scene.height,
    bands: 1,
    dtype: 'float32',
    tileSize: scene.tileSize,
    originX: scene.originX,
    originY: scene.originY,
    pixelSize: scene.pixelSize,
    epsg: scene.epsg,
    nodata: INDEX_NODATA,
    bandNames: [recipe.expression],
    fill: (t, out) => {
      const T = scene.tileSize;
      const dn = new Uint16Array(T * T * nb);
      fillTile(sub, t, dn);
      const values = new Array<number>(nb);
      for (let r = 0; r < t.rows; r++) {
        for (let c = 0; c < t.cols; c++) {
          const p = r * T + c;
          let bad = false;
          for (let k = 0; k < nb; k++) {
            const d = dn[p * nb + k];
            if (d === 0) bad = true;
            values[k] = d * scene.scale + scene.offset;
          }
          const v = bad ? NaN : compiled.evaluate(values);
          out[p] = Number.isFinite(v) ? v : INDEX_NODATA;
        }
      }
    },
  };
  return { key, layout: layoutFor(key, () => spec) };
}
