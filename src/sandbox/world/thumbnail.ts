/**
 * A synthetic quick-look for an archive item: field parcels in greens and browns, a river, and
 * cloud blobs covering about the item's `eo:cloud_cover`. Deterministic from the item id, so
 * the same item always has the same picture.
 */
import { Rng } from '../prng';
import { encodePng } from '../png';
import type { ArchiveRow } from './archive';

const SIZE = 128;
const PARCEL = 16;
const LAND: [number, number, number][] = [
  [74, 118, 58],
  [104, 142, 70],
  [142, 128, 84],
  [120, 100, 70],
  [88, 130, 96],
  [160, 150, 104],
];

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

export function thumbnailPng(row: ArchiveRow): Buffer {
  const rng = new Rng(hash(row.id));
  const cells = SIZE / PARCEL;
  const parcels = Array.from({ length: cells * cells }, () => rng.pick(LAND));
  const riverPhase = rng.range(0, Math.PI * 2);
  const clouds = Array.from({ length: Math.round((row.cloud / 100) * 14) }, () => ({
    x: rng.range(0, SIZE),
    y: rng.range(0, SIZE),
    r: rng.range(12, 34),
  }));
  return encodePng(SIZE, SIZE, (x, y) => {
    const riverY = SIZE / 2 + Math.sin(x / 17 + riverPhase) * 22;
    let [r, g, b] = Math.abs(y - riverY) < 3 ? [52, 84, 128] : parcels[Math.floor(y / PARCEL) * cells + Math.floor(x / PARCEL)];
    let cover = 0;
    for (const c of clouds) cover = Math.max(cover, 1 - Math.hypot(x - c.x, y - c.y) / c.r);
    if (cover > 0) {
      const a = Math.min(1, cover * 1.6);
      r = r + (240 - r) * a;
      g = g + (242 - g) * a;
      b = b + (245 - b) * a;
    }
    return [Math.round(r), Math.round(g), Math.round(b)];
  });
}
