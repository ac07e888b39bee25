/**
 * How a layer's tiles are coloured: the samples to read and the look (composite and stretch,
 * classes, or a computed index with its colour map), worked out from the spec and the open file.
 */
import { compileIndexExpression } from '../../../src/api/indexExpression';
import type { ImageryLayerSpec } from '../../../src/panels/imagery/protocol';
import type { Cog } from './cog';
import { ImageryError } from './imageryError';
import { classColors, colormapLut } from './colormaps';
import type { Look } from './pixels';
import { autoStretch } from './autoStretch';
import { bandIndex, bandsOf, bandValue, compositeOf, samplesFor } from './layerBands';
import type { Range } from './stretch';

export interface LayerLook {
  samples: number[];
  look: Look;
  /** The stretch in use per channel (physical units), for an RGB composite. */
  stretch?: Range[];
}

/** `sharedStretch`: one worked out for several layers together, taken when the spec names none. */
export async function lookOf(spec: ImageryLayerSpec, cog: Cog, sharedStretch?: Promise<Range[] | undefined>): Promise<LayerLook> {
  const bands = bandsOf(spec, cog);
  const indexOf = (name: string): number => bandIndex(bands, cog, name);
  const r = spec.render;
  if (r.kind === 'rgb') {
    const composite = compositeOf(r, bands, cog);
    const stretch = r.stretch ?? (await sharedStretch) ?? (await autoStretch(cog, bands, composite, r));
    return { samples: composite.samples, look: { kind: 'rgb', channels: composite.channels, stretch, nodata: composite.nodata }, stretch };
  }
  if (r.kind === 'classes') {
    const i = r.band ? indexOf(r.band) : 0;
    if (cog.bandCount < 1) throw new ImageryError('The file has no bands to show.');
    return { samples: [i], look: { kind: 'classes', slot: 0, colors: classColors(r.classes), nodata: bands[i]?.nodata ?? cog.nodata } };
  }
  if (r.kind !== 'index') throw new ImageryError('This layer has no index to compute.');
  const compiled = compileIndexExpression(r.expression);
  if ('error' in compiled) throw new ImageryError(`The expression "${r.expression}" does not parse: ${compiled.error}.`);
  const idx = compiled.bands.map(indexOf);
  const samples = samplesFor(cog, idx);
  const lut = colormapLut(r.colormap) ?? (colormapLut('viridis') as Uint8ClampedArray);
  return {
    samples,
    look: {
      kind: 'index',
      inputs: idx.map((i) => bandValue(bands[i], samples.indexOf(i))),
      evaluate: compiled.evaluate,
      rescale: r.rescale,
      lut,
      nodata: bands[idx[0]]?.nodata ?? cog.nodata,
    },
  };
}
