/**
 * The automatic stretch of a colour composite: which physical values become black and white.
 * By default one range for red, green and blue together (linked), as a scene's own true-colour
 * picture is made (Sentinel-2's TCI maps reflectance 0–0.2 to 1–255 in all three bands; EO
 * Browser multiplies all three by 2.5): stretching each band on its own percentiles moves the
 * bands against each other and shifts every hue, fields turning mint and soil pink. Per band
 * stays a choice. The values are those of clear pixels: no data, and what the file marks as
 * cloud or shadow (clearPixels.ts) or as saturated, left out, so clouds do not set the top of
 * the range and darken the ground. A series of dates (the time slider, a timelapse) pools its
 * dates' clear pixels, so every date is drawn with the same range.
 * Pure: no DOM, no I/O.
 */
import { isClear, type ClearMask } from '../../../src/raster/clearPixels';
import type { Samples } from './cog';

export type StretchMode = 'linked' | 'perBand';
export type Range = [number, number];

export const DEFAULT_PERCENTILES: Range = [2, 98];
/** Most values a band contributes to its percentiles (the coarsest overview is about this size). */
export const MAX_SAMPLES = 262144;

/** Which of the sampled pixels are clear ground: the mask band's arrays, one per part, and how to read them. */
export interface ClearSamples {
  parts: Samples[];
  kind: ClearMask['kind'];
}

/** One band's pixels as a file stores them, and how they become physical values. */
export interface BandSamples {
  /** The arrays (an overview's tiles), raw values. */
  parts: Samples[];
  scale: number;
  offset: number;
  nodata?: number;
  /** The file's clear-pixel mask over the same arrays, when it has one. */
  clear?: ClearSamples;
}

/** The largest raw value of an integer array: a pixel that holds it is saturated. */
function ceilingOf(a: Samples): number | undefined {
  if (a instanceof Uint8Array || a instanceof Uint8ClampedArray) return 0xff;
  if (a instanceof Uint16Array) return 0xffff;
  if (a instanceof Uint32Array) return 0xffffffff;
  return undefined;
}

/**
 * The physical values of a band's clear pixels, at most about `max` of them, taken evenly. A
 * band with no clear pixel at all gives its valid ones (clouds and all): a scene wholly under
 * cloud is still drawn.
 */
export function clearValues(band: BandSamples, max = MAX_SAMPLES): Float64Array {
  const { parts, scale, offset, nodata, clear } = band;
  const n = parts.reduce((k, p) => k + p.length, 0);
  const step = Math.max(1, Math.floor(n / Math.max(1, max)));
  const picked = new Float64Array(Math.ceil(n / step) + parts.length);
  const pick = (useMask: boolean): number => {
    let m = 0;
    parts.forEach((values, k) => {
      const mask = useMask ? clear?.parts[k] : undefined;
      const top = ceilingOf(values);
      for (let i = 0; i < values.length; i += step) {
        const v = values[i];
        if (v === nodata || v !== v) continue;
        if (mask && clear && !isClear(clear.kind, mask[i])) continue;
        if (useMask && v === top) continue;
        picked[m++] = v * scale + offset;
      }
    });
    return m;
  };
  let m = pick(true);
  if (!m) m = pick(false);
  return picked.slice(0, m);
}

/** Values of several sources (the dates of a series) as one list. */
export function pooled(lists: readonly Float64Array[]): Float64Array {
  const out = new Float64Array(lists.reduce((k, l) => k + l.length, 0));
  let at = 0;
  for (const l of lists) {
    out.set(l, at);
    at += l.length;
  }
  return out;
}

/**
 * The `lo` and `hi` percentiles (0–100) of some values (nearest rank); undefined when there
 * are none. Sorts `values` in place. A flat band gets a range one unit (or 1e-6) wide.
 */
export function percentileRange(values: Float64Array, lo: number, hi: number): Range | undefined {
  const m = values.length;
  if (!m) return undefined;
  const sorted = values.sort();
  const at = (q: number) => sorted[Math.min(m - 1, Math.max(0, Math.round((q / 100) * (m - 1))))];
  const a = at(lo);
  let b = at(hi);
  if (b <= a) b = a + (Math.abs(a) > 1 ? 1 : 1e-6);
  return [a, b];
}

/**
 * One range for every channel: from the lowest channel's low percentile to the highest
 * channel's high one, so no band is cut more than its own percentiles cut it and the bands
 * keep their balance.
 */
export function linkedRange(ranges: readonly Range[]): Range {
  return [Math.min(...ranges.map((r) => r[0])), Math.max(...ranges.map((r) => r[1]))];
}

/**
 * Reflectance shown as white in true colour: EO Browser's gain of 2.5. In a linked stretch of
 * reflectance, brighter values (clouds at 0.5–0.9, snow, glint) are left out of the
 * percentiles as well: true colour shows them white whatever the range, and where the file
 * marks no clouds (most archive files: Sentinel-2's SCL is an asset of its own) they would
 * otherwise set the top of the range and leave the ground black.
 */
export const REFLECTANCE_WHITE = 0.4;

/** A range that can only be of reflectance (0 to 1, a little either side): not counts, not kelvin. */
export function looksLikeReflectance([lo, hi]: Range): boolean {
  return lo >= -0.5 && hi <= 2;
}

function linkedOf(values: readonly Float64Array[], pct: Range): Range | undefined {
  const known = values.map((v) => percentileRange(v, pct[0], pct[1])).filter((r): r is Range => r !== undefined);
  return known.length ? linkedRange(known) : undefined;
}

/**
 * The stretch per channel from each channel's clear values (`values[c]`, sorted in place):
 * when linked, one range three times (of reflectance, over the values up to
 * REFLECTANCE_WHITE). A channel without values gets [0, 1].
 */
export function stretchOf(values: readonly Float64Array[], pct: Range = DEFAULT_PERCENTILES, mode: StretchMode = 'linked'): Range[] {
  if (mode === 'perBand') return values.map((v) => percentileRange(v, pct[0], pct[1]) ?? [0, 1]);
  let one = linkedOf(values, pct);
  if (one && looksLikeReflectance(one) && one[1] > REFLECTANCE_WHITE) {
    // sorted: the values up to white are each array's head
    const below = values.map((v) => v.subarray(0, upperBound(v, REFLECTANCE_WHITE)));
    // a scene of nothing but cloud keeps the clouds' range, so they are not one white
    one = linkedOf(below, pct) ?? one;
  }
  const [lo, hi] = one ?? [0, 1];
  return values.map(() => [lo, hi]);
}

/** How many of the sorted values are at most `x`. */
function upperBound(sorted: Float64Array, x: number): number {
  let a = 0;
  let b = sorted.length;
  while (a < b) {
    const m = (a + b) >> 1;
    if (sorted[m] <= x) a = m + 1;
    else b = m;
  }
  return a;
}

/** The mode an RGB look is shown in: per band when it says so, or when its fixed ranges differ by channel. */
export function modeOf(render: { perBand?: boolean; stretch?: Range[] }): StretchMode {
  if (render.perBand) return 'perBand';
  const s = render.stretch;
  return s && s.some((r) => r[0] !== s[0][0] || r[1] !== s[0][1]) ? 'perBand' : 'linked';
}

/** At most `n` of the items, evenly spread from the first to the last, in order. */
export function evenlySpread<T>(items: readonly T[], n: number): T[] {
  if (items.length <= n) return [...items];
  if (n <= 1) return items.slice(0, Math.max(0, n));
  const picked = new Set<number>();
  for (let k = 0; k < n; k++) picked.add(Math.round((k * (items.length - 1)) / (n - 1)));
  return [...picked].map((i) => items[i]);
}
