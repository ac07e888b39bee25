/**
 * The no-data value that marks the pixels outside the AOI in a masked clip, when the file
 * declares none. Without care that value is 0, and a real 0 inside the AOI would then read as
 * no-data in GDAL and every GIS. So: 0 when no pixel inside holds 0; else the data type's
 * largest (then smallest) value when no pixel inside holds it; else, for 8- and 16-bit data,
 * any value no pixel inside holds; NaN for floating point. Undefined when every value of the
 * type occurs inside the AOI, so that no value can mark the outside.
 */
import type { BandArray } from './tiffEncode';

const RANGE = new Map<unknown, [number, number]>([
  [Uint8Array, [0, 0xff]],
  [Int8Array, [-0x80, 0x7f]],
  [Uint16Array, [0, 0xffff]],
  [Int16Array, [-0x8000, 0x7fff]],
  [Uint32Array, [0, 0xffffffff]],
  [Int32Array, [-0x80000000, 0x7fffffff]],
]);

/** `inside[i]` is 1 for a pixel inside the AOI (whose values are kept). */
export function maskValue(bands: readonly BandArray[], inside: Uint8Array): number | undefined {
  if (!bands.length) return 0;
  let zero = false;
  let min = Infinity;
  let max = -Infinity;
  for (const b of bands) {
    for (let i = 0; i < b.length; i++) {
      if (!inside[i]) continue;
      const v = b[i];
      if (v === 0) zero = true;
      if (v < min) min = v;
      if (v > max) max = v;
    }
  }
  if (!zero) return 0;
  const range = RANGE.get(bands[0].constructor);
  if (!range) return NaN;
  const [lo, hi] = range;
  if (max < hi) return hi;
  if (min > lo) return lo;
  if (hi - lo > 0xffff) return undefined;
  const seen = new Uint8Array(hi - lo + 1);
  for (const b of bands) for (let i = 0; i < b.length; i++) if (inside[i]) seen[b[i] - lo] = 1;
  const free = seen.lastIndexOf(0);
  return free < 0 ? undefined : free + lo;
}

/** Even-odd point-in-polygon over rings (holes included): the clip's pixel centres, the sandbox's AOI masks. */
export function insideRings(rings: readonly (readonly number[])[][], x: number, y: number): boolean {
  let c = false;
  for (const r of rings) {
    for (let i = 0, j = r.length - 1; i < r.length; j = i++) {
      const [xi, yi] = r[i];
      const [xj, yj] = r[j];
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) c = !c;
    }
  }
  return c;
}

/**
 * A window's pixels outside the polygon (`rings` in the level's pixel coordinates, the window
 * at `x0, y0`) set to no-data: the file's own, or else one `maskValue` finds. Returns that
 * value; undefined when no value is left to mark the outside (nothing is changed then).
 */
export function applyMask(
  bands: readonly BandArray[],
  width: number,
  height: number,
  x0: number,
  y0: number,
  rings: readonly (readonly [number, number])[][],
  nodata: number | undefined,
): number | undefined {
  const inside = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) inside[y * width + x] = insideRings(rings, x0 + x + 0.5, y0 + y + 0.5) ? 1 : 0;
  }
  const nd = nodata ?? maskValue(bands, inside);
  if (nd === undefined) return undefined;
  for (let i = 0; i < inside.length; i++) if (!inside[i]) for (const b of bands) b[i] = nd;
  return nd;
}
