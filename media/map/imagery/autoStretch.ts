/**
 * The automatic stretch of a colour composite, read from its file: the values of the coarsest
 * overview (its statistics are the scene's), only the clear pixels where the file marks clouds
 * (clearPixels.ts; the mask band is read too), made a range by stretch.ts. A series of dates
 * (the time slider, a timelapse) pools its dates' values, so all of them share one range and
 * a cloudy date does not change how the others look.
 */
import type { Pool } from 'geotiff';
import type { ImageryBand, ImageryLayerSpec } from '../../../src/panels/imagery/protocol';
import type { ReadBytes } from './byteSource';
import { clearMaskOf } from '../../../src/raster/clearPixels';
import { Cog } from './cog';
import { bandsOf, compositeOf, type Composite, type RgbRender } from './layerBands';
import { clearValues, DEFAULT_PERCENTILES, evenlySpread, MAX_SAMPLES, pooled, type Range, stretchOf } from './stretch';

/** Each channel's clear values in the file's coarsest overview, about `max` at most a channel. */
async function overviewValues(cog: Cog, bands: readonly ImageryBand[], composite: Composite, max: number): Promise<Float64Array[]> {
  const { samples, channels, nodata } = composite;
  const mask = clearMaskOf(bands.map((b) => b.name));
  const withMask = mask && mask.band < cog.bandCount ? (samples.includes(mask.band) ? samples : [...samples, mask.band]) : samples;
  const tiles = await cog.levelTiles(cog.levels.length - 1, withMask);
  const clear = mask && withMask.includes(mask.band) ? { kind: mask.kind, parts: tiles.map((t) => t.bands[withMask.indexOf(mask.band)]) } : undefined;
  return channels.map((ch) => clearValues({ parts: tiles.map((t) => t.bands[ch.slot]), scale: ch.scale, offset: ch.offset, nodata, clear }, max));
}

const modeOfRender = (r: RgbRender) => (r.perBand ? 'perBand' : 'linked');

/** The default stretch of one file: linked unless the look asks for one range per band. */
export async function autoStretch(cog: Cog, bands: readonly ImageryBand[], composite: Composite, render: RgbRender): Promise<Range[]> {
  const values = await overviewValues(cog, bands, composite, MAX_SAMPLES);
  return stretchOf(values, render.percentiles ?? DEFAULT_PERCENTILES, modeOfRender(render));
}

/** Most dates a series' stretch reads, spread over the series: each costs a header and an overview. */
export const SERIES_MAX_DATES = 12;

/**
 * One stretch for the dates of a series, worked out over their clear pixels together (up to
 * SERIES_MAX_DATES of them, evenly spread). Undefined when the dates are not drawn as a
 * composite stretched automatically, or none of them could be read: each date then works out
 * its own, and a date that cannot be read says so in its own layer.
 */
export async function seriesStretch(
  specs: readonly ImageryLayerSpec[],
  read: ReadBytes,
  pool: Pool | undefined,
  signal: AbortSignal,
): Promise<Range[] | undefined> {
  const first = specs[0]?.render;
  if (first?.kind !== 'rgb' || !specs.every((s) => s.render.kind === 'rgb' && !s.render.stretch)) return undefined;
  const picked = evenlySpread(specs, SERIES_MAX_DATES);
  const per = Math.ceil(MAX_SAMPLES / picked.length);
  const readHere: ReadBytes = (p) => read(p, signal);
  const got = await Promise.all(
    picked.map(async (spec) => {
      try {
        const cog = await Cog.open(spec.url, readHere, { epsg: spec.epsg, pool, signal });
        const bands = bandsOf(spec, cog);
        return await overviewValues(cog, bands, compositeOf(spec.render as RgbRender, bands, cog), per);
      } catch {
        return undefined;
      }
    }),
  );
  const read3 = got.filter((v): v is Float64Array[] => v !== undefined && v.length === 3);
  if (!read3.length || signal.aborted) return undefined;
  const values = [0, 1, 2].map((c) => pooled(read3.map((v) => v[c])));
  return stretchOf(values, first.percentiles ?? DEFAULT_PERCENTILES, modeOfRender(first));
}
