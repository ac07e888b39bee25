/**
 * Band combinations offered for a file, from its bands' `eo:bands` common names: true colour,
 * false colour (NIR, red, green), SWIR where present, then every band alone as grey.
 */
import * as l10n from '@vscode/l10n';
import type { ImageryBand } from '../../../src/panels/imagery/protocol';

export interface Preset {
  label: string;
  bands: [string, string, string];
}

function byCommon(bands: readonly ImageryBand[], ...names: string[]): string | undefined {
  for (const n of names) {
    const b = bands.find((x) => x.commonName?.toLowerCase() === n);
    if (b) return b.name;
  }
  return undefined;
}

/** Nearest band to a wavelength (µm), for files whose bands carry no common name (EnMAP). */
export function nearestBand(bands: readonly ImageryBand[], micrometres: number, within = 0.05): string | undefined {
  let best: ImageryBand | undefined;
  for (const b of bands) {
    if (b.wavelength === undefined) continue;
    if (!best || Math.abs(b.wavelength - micrometres) < Math.abs((best.wavelength as number) - micrometres)) best = b;
  }
  return best && Math.abs((best.wavelength as number) - micrometres) <= within ? best.name : undefined;
}

export function bandLabel(b: ImageryBand): string {
  const parts = [b.name];
  if (b.commonName && b.commonName !== b.name) parts.push(b.commonName);
  if (b.wavelength !== undefined) parts.push(l10n.t('{0} nm', Math.round(b.wavelength * 1000)));
  return parts.length > 1 ? l10n.t('{0} ({1})', parts[0], parts.slice(1).join(', ')) : parts[0];
}

export function presetsFor(bands: readonly ImageryBand[]): Preset[] {
  const red = byCommon(bands, 'red') ?? nearestBand(bands, 0.665);
  const green = byCommon(bands, 'green') ?? nearestBand(bands, 0.56);
  const blue = byCommon(bands, 'blue') ?? nearestBand(bands, 0.49);
  const nir = byCommon(bands, 'nir', 'nir08', 'nir09') ?? nearestBand(bands, 0.842, 0.06);
  const swir1 = byCommon(bands, 'swir16') ?? nearestBand(bands, 1.61, 0.08);
  const swir2 = byCommon(bands, 'swir22') ?? nearestBand(bands, 2.19, 0.1);
  const out: Preset[] = [];
  if (red && green && blue) out.push({ label: l10n.t('True colour (red, green, blue)'), bands: [red, green, blue] });
  if (nir && red && green) out.push({ label: l10n.t('False colour (NIR, red, green)'), bands: [nir, red, green] });
  if (swir2 && nir && red) out.push({ label: l10n.t('SWIR (SWIR 2.2, NIR, red)'), bands: [swir2, nir, red] });
  else if (swir1 && nir && red) out.push({ label: l10n.t('SWIR (SWIR 1.6, NIR, red)'), bands: [swir1, nir, red] });
  if (!out.length && bands.length >= 3) out.push({ label: l10n.t('Bands 1, 2, 3'), bands: [bands[0].name, bands[1].name, bands[2].name] });
  // one grey entry per band, but not hundreds: the custom picker covers the rest
  if (bands.length <= 16) for (const b of bands) out.push({ label: l10n.t('{0} as grey', bandLabel(b)), bands: [b.name, b.name, b.name] });
  return out;
}

/** The look a new layer starts with: the first preset, or the first band as grey. */
export function defaultBands(bands: readonly ImageryBand[]): [string, string, string] | undefined {
  const p = presetsFor(bands)[0];
  if (p) return p.bands;
  return bands[0] ? [bands[0].name, bands[0].name, bands[0].name] : undefined;
}
