import type { Asset, InputDefinition } from '../../api/records';
import { isRequired } from './choices';

/** The bands a raster input asks for (`properties.bands`); empty when it names none. */
export function requiredBands(def: InputDefinition): string[] {
  const bands = def.properties?.bands;
  return Array.isArray(bands) ? bands.filter((b): b is string => typeof b === 'string') : [];
}

// Band names are compared without case: the same band appears as `B04` and `b04` across
// satellites' metadata and block specs.
const norm = (b: string): string => b.trim().toLowerCase();

/** The required bands an asset lacks (empty when it covers them all). */
export function missingBands(asset: Pick<Asset, 'band_list'>, required: readonly string[]): string[] {
  const have = new Set((asset.band_list ?? []).map(norm));
  return required.filter((b) => !have.has(norm(b)));
}

export interface AssetOffer {
  asset: Asset;
  /** Why the asset cannot feed the input; absent when it can. */
  refusal?: string;
}

/**
 * Sorts the AOI's assets into those that can feed a raster input (rule 2: bands covered, a
 * path to reference) and those that cannot, with the reason, so a command can offer the
 * first and explain an empty list with the second.
 */
export function offerAssets(def: InputDefinition, assets: readonly Asset[]): AssetOffer[] {
  const required = requiredBands(def);
  return assets.map((asset) => {
    const missing = missingBands(asset, required);
    if (missing.length > 0) {
      return { asset, refusal: `lacks band${missing.length > 1 ? 's' : ''} ${missing.join(', ')}` };
    }
    if (!asset.path) return { asset, refusal: 'has no path to reference' };
    return { asset };
  });
}

export function coveringAssets(def: InputDefinition, assets: readonly Asset[]): Asset[] {
  return offerAssets(def, assets)
    .filter((o) => o.refusal === undefined)
    .map((o) => o.asset);
}

/**
 * What an AOI's imagery lacks for a block's required raster inputs, judged by the bands the AOI
 * states (`eo_bands`): per input, the bands missing. Empty when it covers them all, and when
 * the AOI states no bands (nothing to judge by: its assets then decide).
 */
export function aoiBandGaps(inputs: readonly InputDefinition[], eoBands: readonly string[] | undefined): { input: string; missing: string[] }[] {
  if (!eoBands?.length) return [];
  const asAsset = { band_list: [...eoBands] };
  return inputs
    .filter((def) => def.format === 'raster' && isRequired(def))
    .map((def) => ({ input: def.name, missing: missingBands(asAsset, requiredBands(def)) }))
    .filter((g) => g.missing.length > 0);
}
