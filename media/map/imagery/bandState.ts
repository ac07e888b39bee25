/**
 * The state behind an RGB layer's band and stretch controls (bandControls.ts draws them): the
 * band combinations offered and the one chosen, the stretch shown per channel, and what the
 * person's input becomes, a new look or a hint saying what is wrong. No DOM: unit-tested.
 */
import * as l10n from '@vscode/l10n';
import type { ImageryBand, ImageryRender } from '../../../src/panels/imagery/protocol';
import { bandLabel, defaultBands, presetsFor } from './presets';
import { modeOf, type StretchMode } from './stretch';

type RgbRender = Extract<ImageryRender, { kind: 'rgb' }>;
type Three = [string, string, string];

/** The select's value that opens the three band fields. */
export const CUSTOM = 'custom';

export interface BandControlsState {
  /** The bands drawn now (the file's default combination when the layer names none). */
  chosen: Three;
  /** The combinations offered: presets, the current one when it is none of them, then "Pick three bands…". */
  options: { value: string; label: string }[];
  selected: string;
  /** Every band of the file, for the three fields' suggestions. */
  bands: { value: string; label: string }[];
  /** Said under the fields at first (a file of many bands: type to filter). */
  hint: string;
  /** One range for the three channels (one minimum and maximum shown), or one per band. */
  mode: StretchMode;
  /** The stretch modes offered, in words. */
  modes: { value: StretchMode; label: string }[];
  /** Per channel the [minimum, maximum] shown, rounded; undefined until the stretch is known. */
  stretch: ([number, number] | undefined)[];
  /** The automatic stretch's percentiles as typed, e.g. `2-98`. */
  percentiles: string;
}

/** A combination as the select's option value. */
const key = (b: readonly string[]): string => b.join('|');

export function bandControlsState(bands: readonly ImageryBand[], render: RgbRender, stretch: [number, number][] | undefined): BandControlsState {
  const chosen: Three = render.bands[0] ? render.bands : (defaultBands(bands) ?? ['', '', '']);
  const presets = presetsFor(bands);
  const options = presets.map((p) => ({ value: key(p.bands), label: p.label }));
  if (!presets.some((p) => key(p.bands) === key(chosen))) options.push({ value: key(chosen), label: l10n.t('Bands {0}', chosen.join(', ')) });
  options.push({ value: CUSTOM, label: l10n.t('Pick three bands…') });
  const p = render.percentiles ?? [2, 98];
  return {
    chosen,
    options,
    selected: key(chosen),
    bands: bands.map((b) => ({ value: b.name, label: bandLabel(b) })),
    hint: bands.length > 16 ? l10n.t('{0} bands: type a name or wavelength to filter.', bands.length) : '',
    mode: modeOf(render),
    modes: [
      { value: 'linked', label: l10n.t('One range for R, G, B') },
      { value: 'perBand', label: l10n.t('Each band its own range') },
    ],
    stretch: [0, 1, 2].map((i) => (stretch?.[i] ? [round(stretch[i][0]), round(stretch[i][1])] : undefined)),
    percentiles: `${p[0]}-${p[1]}`,
  };
}

/** The automatic stretch's settings of a look, kept when its bands change: percentiles, and per band when chosen. */
function autoOf(render: RgbRender): Pick<RgbRender, 'percentiles' | 'perBand'> {
  return { ...(render.percentiles ? { percentiles: render.percentiles } : {}), ...(render.perBand ? { perBand: true } : {}) };
}

/** A new look, or why the input cannot be one. */
export type Outcome = { render: RgbRender } | { hint: string };

/** A combination picked in the select (not "Pick three bands…"). */
export function presetLook(value: string, render: RgbRender): RgbRender {
  return { kind: 'rgb', bands: value.split('|') as Three, ...autoOf(render) };
}

/** Three band names typed in the fields: each must be a band of the file. */
export function customLook(typed: readonly string[], bands: readonly ImageryBand[], render: RgbRender): Outcome {
  const names = typed.map((n) => n.trim());
  const unknown = names.find((n) => !bands.some((b) => b.name === n));
  if (unknown !== undefined) return { hint: unknown ? l10n.t('No band named "{0}".', unknown) : l10n.t('Name a band for each channel.') };
  return { render: { kind: 'rgb', bands: names as Three, ...autoOf(render) } };
}

/**
 * A minimum and maximum typed, in the bands' physical units: one pair for the three channels
 * (linked), or one per channel.
 */
export function stretchLook(typed: readonly [string, string][], render: RgbRender, chosen: Three): Outcome {
  const vals = typed.map(([lo, hi]) => [Number(lo), Number(hi)] as [number, number]);
  if (!vals.length || vals.some(([a, b]) => !Number.isFinite(a) || !Number.isFinite(b) || b <= a))
    return { hint: l10n.t('Each maximum must be a number above its minimum.') };
  const stretch = vals.length === 1 ? [0, 1, 2].map((): [number, number] => [vals[0][0], vals[0][1]]) : vals;
  return { render: { ...render, bands: chosen, stretch } };
}

/** "Auto": a percentile stretch, e.g. `2-98`, linked or per band as the look is. */
export function percentileLook(typed: string, render: RgbRender, chosen: Three): Outcome {
  const m = /^\s*(\d+(?:\.\d+)?)\s*[-–,]\s*(\d+(?:\.\d+)?)\s*$/.exec(typed);
  const lo = m ? Number(m[1]) : NaN;
  const hi = m ? Number(m[2]) : NaN;
  if (!(lo >= 0 && hi <= 100 && lo < hi)) return { hint: l10n.t('Percentiles: two numbers from 0 to 100, e.g. 2-98.') };
  return { render: { kind: 'rgb', bands: chosen, ...autoOf(render), percentiles: [lo, hi] } };
}

/** One range for the three bands or one each: the automatic stretch worked out again that way. */
export function modeLook(mode: StretchMode, render: RgbRender, chosen: Three): RgbRender {
  return { kind: 'rgb', bands: chosen, ...autoOf({ ...render, perBand: mode === 'perBand' }) };
}

/** A value as the band controls and legends show it: whole from 100 up, else at most four decimals. */
export function round(v: number): number {
  return Math.abs(v) >= 100 ? Math.round(v) : Math.round(v * 1e4) / 1e4;
}
