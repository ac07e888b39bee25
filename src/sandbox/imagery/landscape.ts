/**
 * The synthetic Earth the sandbox's scenes are cut from: land cover as a pure function of a
 * UTM position (metres in a zone), so two scenes over the same place show the same fields,
 * lakes, rivers and towns, at any resolution; and a reflectance spectrum per class.
 *
 * The spectra follow the textbook shapes an analyst checks a pixel against: vegetation with
 * low red and a steep red edge to a high near-infrared plateau (and the water-absorption dips
 * at 1.4 and 1.9 µm), water dark and darkest in the near infrared, bare soil rising gently
 * with wavelength, built-up surfaces flat and grey, clouds bright everywhere but the SWIR.
 */

export type LandCover = 'water' | 'vegetation' | 'forest' | 'soil' | 'built' | 'cloud';
export const LAND_COVERS: readonly LandCover[] = ['water', 'vegetation', 'forest', 'soil', 'built', 'cloud'];

/** Spectra: [wavelength nm, reflectance] knots, linear in between, flat beyond the ends. */
const SPECTRA: Record<LandCover, readonly (readonly [number, number])[]> = {
  vegetation: [
    [400, 0.035],
    [490, 0.045],
    [550, 0.1],
    [620, 0.05],
    [670, 0.035],
    [700, 0.09],
    [740, 0.33],
    [780, 0.44],
    [900, 0.46],
    [1000, 0.45],
    [1200, 0.4],
    [1400, 0.16],
    [1500, 0.25],
    [1650, 0.3],
    [1800, 0.26],
    [1950, 0.08],
    [2200, 0.16],
    [2450, 0.07],
  ],
  forest: [
    [400, 0.025],
    [490, 0.03],
    [550, 0.06],
    [620, 0.035],
    [670, 0.025],
    [700, 0.06],
    [740, 0.22],
    [780, 0.3],
    [900, 0.32],
    [1000, 0.31],
    [1200, 0.27],
    [1400, 0.1],
    [1500, 0.15],
    [1650, 0.18],
    [1800, 0.15],
    [1950, 0.05],
    [2200, 0.09],
    [2450, 0.04],
  ],
  water: [
    [400, 0.075],
    [490, 0.07],
    [560, 0.06],
    [665, 0.035],
    [705, 0.025],
    [780, 0.012],
    [865, 0.008],
    [1000, 0.004],
    [1600, 0.002],
    [2450, 0.001],
  ],
  soil: [
    [400, 0.09],
    [500, 0.13],
    [600, 0.19],
    [700, 0.23],
    [800, 0.26],
    [1000, 0.29],
    [1350, 0.31],
    [1450, 0.27],
    [1650, 0.34],
    [1900, 0.29],
    [2200, 0.32],
    [2450, 0.3],
  ],
  built: [
    [400, 0.13],
    [500, 0.145],
    [600, 0.16],
    [700, 0.17],
    [900, 0.19],
    [1600, 0.22],
    [2200, 0.2],
    [2450, 0.18],
  ],
  cloud: [
    [400, 0.78],
    [700, 0.76],
    [1000, 0.72],
    [1350, 0.4],
    [1650, 0.55],
    [1900, 0.25],
    [2200, 0.42],
    [2450, 0.35],
  ],
};

/** Reflectance (0..1) of a pure class at a wavelength in nm. */
export function reflectance(cover: LandCover, nm: number): number {
  const k = SPECTRA[cover];
  if (nm <= k[0][0]) return k[0][1];
  for (let i = 1; i < k.length; i++) {
    if (nm <= k[i][0]) {
      const [x0, y0] = k[i - 1];
      const [x1, y1] = k[i];
      return y0 + ((y1 - y0) * (nm - x0)) / (x1 - x0);
    }
  }
  return k[k.length - 1][1];
}

export function hash2(x: number, y: number, seed: number): number {
  let h = (Math.imul(x | 0, 0x27d4eb2d) ^ Math.imul(y | 0, 0x165667b1) ^ seed) >>> 0;
  h = Math.imul(h ^ (h >>> 15), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

export function hashString(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** Class codes, indices into LAND_COVERS (numbers keep the per-pixel loop monomorphic). */
export const WATER = 0;
export const VEGETATION = 1;
export const FOREST = 2;
export const SOIL = 3;
export const BUILT = 4;
export const CLOUD = 5;

const FEATURE_CELL = 6000;
const RIVER_BAND = 20000;
const PARCEL_W = 420;
const PARCEL_H = 300;
const BLOCK = 150;
const STREET = 14;

/** Seasonal greenness 0..1 of crops on a day of year: peaks mid-July in the north. */
export function season(dayOfYear: number, south: boolean): number {
  const peak = south ? 15 : 197;
  return 0.5 + 0.5 * Math.cos((2 * Math.PI * (dayOfYear - peak)) / 365.25);
}

/**
 * The ground along one row (a northing) of a zone's landscape: lakes and towns (at most one
 * per 6 km cell, well inside it), meandering rivers (two of three 20 km bands), brick-laid
 * field parcels; town blocks with streets and parks. `seed` names the zone; `grow` is the
 * season's greenness. After `at(e)`: `cover` (a class code), `green` (0 bare .. 1 full canopy:
 * the pixel mixes the vegetation and soil spectra) and `bright` (a parcel's brightness).
 *
 * Values that only change every few hundred metres are cached along the row: a 512-pixel
 * tile row costs a few dozen hashes, not thousands.
 */
export class GroundSampler {
  cover = SOIL;
  green = 0;
  bright = 1;
  private n = NaN;
  private cy = 0;
  private by = 0;
  private streetRow = false;
  private py = 0;
  private shift = 0;
  private cx = NaN;
  private kind = 100;
  private fx = 0;
  private fy = 0;
  private fr = 0;
  private rb = NaN;
  private river = false;
  private centre = 0;
  private half = 0;
  private px = NaN;
  private pk = 0;
  private pBright = 1;
  private pPotential = 0;

  constructor(
    readonly seed: number,
    readonly grow: number,
    /** Lakes' size against their full extent: a reservoir drawn down shows less water. */
    readonly lakeScale = 1,
  ) {}

  setRow(n: number): void {
    if (n === this.n) return;
    this.n = n;
    this.cy = Math.floor(n / FEATURE_CELL);
    this.by = Math.floor(n / BLOCK);
    this.streetRow = n - this.by * BLOCK < STREET;
    this.py = Math.floor(n / PARCEL_H);
    this.shift = hash2(this.py, 0x0f1e, this.seed) % PARCEL_W;
    this.cx = NaN;
    this.rb = NaN;
    this.px = NaN;
  }

  at(e: number): void {
    const seed = this.seed;
    this.green = 0;
    this.bright = 1;
    const cx = Math.floor(e / FEATURE_CELL);
    if (cx !== this.cx) {
      this.cx = cx;
      const hc = hash2(cx, this.cy, seed);
      this.kind = hc % 100;
      this.fx = cx * FEATURE_CELL + 2200 + ((hc >>> 8) & 0xff) * 6.25;
      this.fy = this.cy * FEATURE_CELL + 2200 + ((hc >>> 16) & 0xff) * 6.25;
      this.fr = 900 + ((hc >>> 24) & 0x7f) * 8.6;
    }
    if (this.kind < 34) {
      const dx = e - this.fx;
      const dy = this.n - this.fy;
      const r = this.fr;
      if (this.kind < 18) {
        const lr = r * this.lakeScale;
        if ((dx * dx) / (lr * lr) + (dy * dy) / (lr * lr * 0.45) < 1) {
          this.cover = WATER;
          return;
        }
      } else if (Math.abs(dx) < r && Math.abs(dy) < r * 0.8) {
        const bx = Math.floor(e / BLOCK);
        const street = this.streetRow || e - bx * BLOCK < STREET;
        const hb = hash2(bx, this.by, seed ^ 0x7e11);
        if (!street && hb % 100 < 14) {
          this.cover = VEGETATION;
          this.green = 0.8;
          return;
        }
        this.cover = BUILT;
        this.bright = street ? 0.55 : 0.8 + (((hb >>> 8) & 0xff) / 255) * 0.6;
        return;
      }
    }
    const rb = Math.floor(e / RIVER_BAND);
    if (rb !== this.rb) {
      this.rb = rb;
      const hr = hash2(rb, 0x51ee, seed);
      this.river = hr % 3 !== 0;
      const p1 = ((hr >>> 4) & 0xff) / 40;
      const p2 = ((hr >>> 12) & 0xff) / 40;
      this.centre = rb * RIVER_BAND + RIVER_BAND / 2 + 3500 * Math.sin(this.n / 4100 + p1) + 1200 * Math.sin(this.n / 1300 + p2);
      this.half = 35 + ((hr >>> 20) & 31);
    }
    if (this.river && Math.abs(e - this.centre) < this.half) {
      this.cover = WATER;
      return;
    }
    const px = Math.floor((e + this.shift) / PARCEL_W);
    if (px !== this.px) {
      this.px = px;
      const hp = hash2(px, this.py, seed ^ 0xf1e1d);
      this.pk = hp % 100;
      this.pBright = 0.85 + (((hp >>> 8) & 0xff) / 255) * 0.3;
      this.pPotential = 0.45 + (((hp >>> 16) & 0xff) / 255) * 0.55;
    }
    this.bright = this.pBright;
    const k = this.pk;
    if (k < 52) {
      this.cover = VEGETATION;
      this.green = Math.min(1, 0.12 + 0.88 * this.grow * this.pPotential);
    } else if (k < 68) this.cover = FOREST;
    else if (k < 86) this.cover = SOIL;
    else {
      this.cover = VEGETATION;
      this.green = 0.35 + 0.3 * this.grow;
    }
  }
}

/** The land-cover class at UTM (e, n) of a zone's landscape (before clouds). */
export function groundAt(e: number, n: number, seed: number, grow: number, lakeScale = 1): { cover: LandCover; green: number; bright: number } {
  const g = new GroundSampler(seed, grow, lakeScale);
  g.setRow(n);
  g.at(e);
  return { cover: LAND_COVERS[g.cover], green: g.green, bright: g.bright };
}

const CLOUD_CELLS = [14000, 3000];
const CLOUD_WEIGHTS = [0.7, 0.3];

/**
 * Cloud fields: two octaves of smooth value noise (0..1) on lattices of 14 km and 3 km, with
 * ragged edges. Lattice values are cached along a row like the ground's.
 */
export class CloudSampler {
  private n = NaN;
  private readonly y0 = [0, 0];
  private readonly fy = [0, 0];
  private readonly x0 = [NaN, NaN];
  private readonly a = [0, 0];
  private readonly b = [0, 0];
  private readonly c = [0, 0];
  private readonly d = [0, 0];

  constructor(readonly seed: number) {}

  private seedOf(k: number): number {
    return k === 0 ? this.seed : this.seed ^ 0x9e3779b9;
  }

  setRow(n: number): void {
    if (n === this.n) return;
    this.n = n;
    for (let k = 0; k < 2; k++) {
      const y = n / CLOUD_CELLS[k];
      this.y0[k] = Math.floor(y);
      const f = y - this.y0[k];
      this.fy[k] = f * f * (3 - 2 * f);
      this.x0[k] = NaN;
    }
  }

  at(e: number): number {
    let v = 0;
    for (let k = 0; k < 2; k++) {
      const x = e / CLOUD_CELLS[k];
      const x0 = Math.floor(x);
      if (x0 !== this.x0[k]) {
        this.x0[k] = x0;
        const s = this.seedOf(k);
        const y0 = this.y0[k];
        this.a[k] = hash2(x0, y0, s) / 4294967296;
        this.b[k] = hash2(x0 + 1, y0, s) / 4294967296;
        this.c[k] = hash2(x0, y0 + 1, s) / 4294967296;
        this.d[k] = hash2(x0 + 1, y0 + 1, s) / 4294967296;
      }
      let fx = x - x0;
      fx = fx * fx * (3 - 2 * fx);
      const top = this.a[k] + (this.b[k] - this.a[k]) * fx;
      const bottom = this.c[k] + (this.d[k] - this.c[k]) * fx;
      v += CLOUD_WEIGHTS[k] * (top + (bottom - top) * this.fy[k]);
    }
    return v;
  }
}

/** Cloud noise (0..1) at UTM (e, n). */
export function cloudNoise(e: number, n: number, seed: number): number {
  const c = new CloudSampler(seed);
  c.setRow(n);
  return c.at(e);
}
