/**
 * Which of a file's bands a layer reads and how their values are scaled: the file's band
 * names (from the spec, else `Band 1…`), a band named in the look found by name, and a colour
 * composite's three channels. The layer (imageryLayer.ts) and the stretch over a series of
 * dates (autoStretch.ts) resolve bands alike.
 */
import type { ImageryBand, ImageryLayerSpec, ImageryRender } from '../../../src/panels/imagery/protocol';
import type { Cog } from './cog';
import { ImageryError } from './imageryError';
import type { BandValue } from './pixels';
import { defaultBands } from './presets';

export type RgbRender = Extract<ImageryRender, { kind: 'rgb' }>;

/** The file's bands, in order: the spec's, else `Band 1…` for as many as the file holds. */
export function bandsOf(spec: ImageryLayerSpec, cog: Cog): ImageryBand[] {
  return spec.bands.length ? spec.bands : Array.from({ length: cog.bandCount }, (_, i) => ({ name: `Band ${i + 1}` }));
}

/** The index of a band by name; a name the file lacks is an error that says which it has. */
export function bandIndex(bands: readonly ImageryBand[], cog: Cog, name: string): number {
  const i = bands.findIndex((b) => b.name === name);
  if (i < 0) throw new ImageryError(`The file has no band named "${name}" (it has ${bands.map((b) => b.name).join(', ')}).`);
  if (i >= cog.bandCount) throw new ImageryError(`Band "${name}" is band ${i + 1}, but the file has only ${cog.bandCount} band(s).`);
  return i;
}

/**
 * Which bands to decode: every band when a tile holds them all anyway (the bytes read are the
 * same), so the pixel inspector and a change of bands need no new read; else the look's.
 */
export function samplesFor(cog: Cog, idx: number[]): number[] {
  return cog.chunky && cog.bandCount <= 256 ? Array.from({ length: cog.bandCount }, (_, i) => i) : [...new Set(idx)];
}

export function bandValue(b: ImageryBand | undefined, slot: number): BandValue {
  return { slot, scale: b?.scale ?? 1, offset: b?.offset ?? 0 };
}

export interface Composite {
  /** Bands (0-based) to decode. */
  samples: number[];
  /** Red, green and blue: where each sits in the decoded tiles, and its scale. */
  channels: [BandValue, BandValue, BandValue];
  nodata?: number;
}

/** A colour composite's channels in a file; with no bands named, the file's default (true colour when it can tell). */
export function compositeOf(render: RgbRender, bands: readonly ImageryBand[], cog: Cog): Composite {
  const names = render.bands[0] ? render.bands : defaultBands(bands);
  if (!names) throw new ImageryError('The file has no bands to show.');
  const idx = names.map((n) => bandIndex(bands, cog, n));
  const samples = samplesFor(cog, idx);
  const channels = idx.map((i) => bandValue(bands[i], samples.indexOf(i))) as [BandValue, BandValue, BandValue];
  return { samples, channels, nodata: bands[idx[0]]?.nodata ?? cog.nodata };
}
