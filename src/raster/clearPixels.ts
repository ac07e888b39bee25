/**
 * Which pixels are clear ground, where the file says so: a scene classification band
 * (Sentinel-2 L2A's `SCL`) or a cloud mask band. The default stretch and the index statistics
 * over time leave out the rest, so clouds neither brighten the stretch (and darken the ground)
 * nor enter an index's mean. Pure: no DOM, no I/O (it runs in the decoder worker too).
 */

/** Scene classification codes (Sentinel-2 L2A) that are no data: no data, saturated or defective. */
export const SCL_NO_DATA: ReadonlySet<number> = new Set([0, 1]);
/** Cloud shadow, cloud medium and high probability, thin cirrus. */
export const SCL_CLOUD: ReadonlySet<number> = new Set([3, 8, 9, 10]);

const SCL_NAMES = new Set(['scl']);
/** Cloud masks by the names products give them: non-zero is cloud (or no data). */
const CLOUD_MASK_NAMES = new Set(['clm', 'cloud_mask', 'cloudmask']);

/** How a file marks its clear pixels: the band (index into its bands) and how to read it. */
export interface ClearMask {
  band: number;
  kind: 'scl' | 'cloudMask';
}

/** The file's scene classification (preferred) or cloud mask band, if it has one. */
export function clearMaskOf(names: readonly string[]): ClearMask | undefined {
  const lower = names.map((n) => n.toLowerCase());
  const scl = lower.findIndex((n) => SCL_NAMES.has(n));
  if (scl >= 0) return { band: scl, kind: 'scl' };
  const mask = lower.findIndex((n) => CLOUD_MASK_NAMES.has(n));
  return mask >= 0 ? { band: mask, kind: 'cloudMask' } : undefined;
}

/** Whether a pixel with this mask value is clear ground (not no data, not cloud or shadow). */
export function isClear(kind: ClearMask['kind'], code: number): boolean {
  return kind === 'scl' ? !SCL_NO_DATA.has(code) && !SCL_CLOUD.has(code) : code === 0;
}
