/**
 * One synthetic scene: a grid in a UTM zone (origin, pixel size, size), the satellite's bands,
 * the footprint outside of which pixels are nodata, the season and the clouds. Everything a
 * pixel holds follows from these numbers, so the same functions fill the COG's tiles and answer
 * tests ("what did the sandbox mean to write at this pixel?").
 */
import { type CogSpec, type Samples, type TileRequest } from './cogWriter';
import {
  CLOUD,
  CloudSampler,
  FOREST,
  GroundSampler,
  LAND_COVERS,
  type LandCover,
  VEGETATION,
  WATER,
  cloudNoise,
  hash2,
  hashString,
  reflectance,
  season,
} from './landscape';
import { type UtmZone, fromUtm, toUtm, utmEpsg } from './utm';

export interface SceneBand {
  name: string;
  /** STAC `eo:bands` common name where the band has one. */
  common_name?: string;
  /** Centre wavelength in nm (the satellite record's unit). */
  wavelength: number;
}

export interface Scene {
  /** Unique per scene: caches key on it. */
  key: string;
  zone: UtmZone;
  epsg: number;
  width: number;
  height: number;
  pixelSize: number;
  /** Top-left corner of the grid, UTM metres. */
  originX: number;
  originY: number;
  tileSize: number;
  bands: SceneBand[];
  /** Physical value = DN × scale + offset; DN 0 is nodata. */
  scale: number;
  offset: number;
  /** Rings of the footprint in UTM metres; pixels whose centre is outside are nodata. */
  mask: [number, number][][];
  landSeed: number;
  grow: number;
  cloudSeed: number;
  cloudCover: number;
  /** Cloud noise above this is cloud; Infinity for a cloud-free scene; NaN until computed. */
  cloudThreshold: number;
  /** Reflectance of each pure class (by class code) in each band. */
  spectra: Float64Array[];
  /** Lakes' extent against their full size (a reservoir's level on the scene's date). */
  lakeScale: number;
  /**
   * Whether the file carries a scene classification band after the reflectance bands, as
   * Sentinel-2 L2A's `SCL` (its class codes: 4 vegetation, 5 not vegetated, 6 water,
   * 8 cloud medium probability, 9 cloud high probability; 0 no data).
   */
  scl: boolean;
}

export interface SceneInput {
  key: string;
  bands: SceneBand[];
  scale: number;
  offset: number;
  /** Footprint (lon/lat rings); the grid covers its UTM bounding box. */
  rings: number[][][];
  zone: UtmZone;
  pixelSize: number;
  tileSize: number;
  /** Force the grid size (the full-size Sentinel-2 tile); else the footprint's extent. */
  size?: number;
  /** Acquisition time, for the season. */
  time: number;
  cloudCover: number;
  cloudSeed: number;
  /** Lakes' extent, 1 = full (default). */
  lakeScale?: number;
  /** Add the scene classification band `SCL` (default false). */
  scl?: boolean;
}

/** The scene classification band's name and codes (Sentinel-2 L2A's). */
export const SCL_BAND = 'SCL';
export const SCL = { noData: 0, vegetation: 4, notVegetated: 5, water: 6, cloudMedium: 8, cloudHigh: 9 } as const;

const WORLD = 0x5eed_ea27;

export function buildScene(i: SceneInput): Scene {
  const mask = i.rings.map((ring) => ring.map(([lon, lat]) => toUtm(lon, lat, i.zone)));
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const ring of mask) {
    for (const [x, y] of ring) {
      minX = Math.min(minX, x);
      maxX = Math.max(maxX, x);
      minY = Math.min(minY, y);
      maxY = Math.max(maxY, y);
    }
  }
  const ps = i.pixelSize;
  let originX = Math.floor(minX / ps) * ps;
  let originY = Math.ceil(maxY / ps) * ps;
  let width = Math.max(1, Math.ceil((maxX - originX) / ps));
  let height = Math.max(1, Math.ceil((originY - minY) / ps));
  if (i.size !== undefined) {
    // A fixed-size tile centred on the footprint, on the 10 m grid like Sentinel-2's tiles.
    originX = Math.round((minX + maxX) / 2 / ps - i.size / 2) * ps;
    originY = Math.round((minY + maxY) / 2 / ps + i.size / 2) * ps;
    width = i.size;
    height = i.size;
  }
  const d = new Date(i.time);
  const doy = (i.time - Date.UTC(d.getUTCFullYear(), 0, 1)) / 86_400_000;
  const spectra = LAND_COVERS.map((c) => Float64Array.from(i.bands, (b) => reflectance(c, b.wavelength)));
  const scene: Scene = {
    key: i.key,
    zone: i.zone,
    epsg: utmEpsg(i.zone),
    width,
    height,
    pixelSize: ps,
    originX,
    originY,
    tileSize: i.tileSize,
    bands: i.bands,
    scale: i.scale,
    offset: i.offset,
    mask,
    landSeed: hashString(`zone:${i.zone.zone}${i.zone.south ? 'S' : 'N'}`) ^ WORLD,
    grow: season(doy, i.zone.south),
    cloudSeed: i.cloudSeed,
    cloudCover: i.cloudCover,
    cloudThreshold: i.cloudCover > 0 ? NaN : Infinity,
    spectra,
    lakeScale: i.lakeScale ?? 1,
    scl: i.scl ?? false,
  };
  return scene;
}

/** Computed on the first pixel, not when the item's STAC is sent. */
function ensureClouds(s: Scene): void {
  if (Number.isNaN(s.cloudThreshold)) s.cloudThreshold = cloudQuantile(s, 1 - s.cloudCover / 100);
}

/** The cloud-noise level that about `q` of the scene's pixels stay under. */
function cloudQuantile(s: Scene, q: number): number {
  const n = 2048;
  const v = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const e = s.originX + (hash2(k, 1, s.cloudSeed) / 4294967296) * s.width * s.pixelSize;
    const y = s.originY - (hash2(k, 2, s.cloudSeed) / 4294967296) * s.height * s.pixelSize;
    v[k] = cloudNoise(e, y, s.cloudSeed);
  }
  v.sort();
  return q <= 0 ? -Infinity : v[Math.min(n - 1, Math.floor(q * n))];
}

/** Sorted x-crossings of the footprint with the horizontal line at northing `n` (even-odd). */
export function crossings(s: Scene, n: number): number[] {
  const xs: number[] = [];
  for (const ring of s.mask) {
    for (let k = 0, j = ring.length - 1; k < ring.length; j = k++) {
      const [x1, y1] = ring[j];
      const [x2, y2] = ring[k];
      if (y1 > n !== y2 > n) xs.push(x1 + ((n - y1) * (x2 - x1)) / (y2 - y1));
    }
  }
  return xs.sort((a, b) => a - b);
}

function inside(xs: number[], e: number): boolean {
  let c = 0;
  while (c < xs.length && xs[c] <= e) c++;
  return c % 2 === 1;
}

/** Samplers for one scene, reused along rows. */
interface Samplers {
  ground: GroundSampler;
  cloud: CloudSampler;
}

function samplers(s: Scene): Samplers {
  return { ground: new GroundSampler(s.landSeed, s.grow, s.lakeScale), cloud: new CloudSampler(s.cloudSeed) };
}

/** The scene classification code of a pixel: clouds by how much of the pixel they cover, else the ground. */
function sclCode(cover: number, alpha: number): number {
  if (alpha > 0.5) return SCL.cloudHigh;
  if (alpha > 0.15) return SCL.cloudMedium;
  return cover === WATER ? SCL.water : cover === VEGETATION || cover === FOREST ? SCL.vegetation : SCL.notVegetated;
}

/**
 * Writes the DNs of the ground at (e, n) into `out[at..at+bands)` and returns the class code
 * seen (cloud when the cloud covers more than half the pixel); with `scl`, its scene
 * classification code goes to `scl[sclAt]`. The caller has set the samplers' row to `n` and
 * checked the footprint.
 */
function pixelInto(s: Scene, p: Samplers, e: number, n: number, out: Samples | number[], at: number, scl?: Uint8Array, sclAt = 0): number {
  const g = p.ground;
  g.at(e);
  let alpha = 0;
  if (s.cloudThreshold !== Infinity) {
    alpha = (p.cloud.at(e) - s.cloudThreshold) / 0.05;
    alpha = alpha < 0 ? 0 : alpha > 1 ? 1 : alpha;
  }
  const tex = 1 + 0.05 * (hash2(Math.floor(e), Math.floor(n), s.landSeed ^ 0x7e47) / 4294967296 - 0.5);
  const base = s.spectra[g.cover];
  const soil = s.spectra[3];
  const cloud = s.spectra[CLOUD];
  const mix = g.cover === VEGETATION ? g.green : 1;
  const k = g.cover === WATER ? tex : g.bright * tex;
  const nb = s.bands.length;
  const inv = 1 / s.scale;
  const off = s.offset;
  for (let b = 0; b < nb; b++) {
    let r = (mix * base[b] + (1 - mix) * soil[b]) * k;
    if (alpha > 0) r = r * (1 - alpha) + cloud[b] * alpha;
    const dn = Math.round((r - off) * inv);
    out[at + b] = dn < 1 ? 1 : dn > 65535 ? 65535 : dn;
  }
  if (scl) scl[sclAt] = sclCode(g.cover, alpha);
  return alpha > 0.5 ? CLOUD : g.cover;
}

/** The UTM position of a (fractional) full-resolution pixel position. */
export function mapOf(s: Scene, col: number, row: number): [number, number] {
  return [s.originX + col * s.pixelSize, s.originY - row * s.pixelSize];
}

/** [col, row] (fractional) of a lon/lat in the full-resolution grid. */
export function pixelOf(s: Scene, lon: number, lat: number): [number, number] {
  const [e, n] = toUtm(lon, lat, s.zone);
  return [(e - s.originX) / s.pixelSize, (s.originY - n) / s.pixelSize];
}

/** lon/lat of the centre of full-resolution pixel (col, row). */
export function lonLatOf(s: Scene, col: number, row: number): [number, number] {
  const [e, n] = mapOf(s, col + 0.5, row + 0.5);
  return fromUtm(e, n, s.zone);
}

export interface PixelTruth {
  /** undefined: outside the footprint (every band nodata). */
  cover?: LandCover;
  /** Stored values (DN), one per band; 0 = nodata. */
  dn: number[];
  /** Physical values (DN × scale + offset), undefined where nodata. */
  value: (number | undefined)[];
  /** The scene classification code, for a scene with an `SCL` band (0 outside the footprint). */
  scl?: number;
}

/** What the sandbox writes at full-resolution pixel (col, row) of a scene. */
export function pixelTruth(s: Scene, col: number, row: number): PixelTruth {
  if (!Number.isInteger(col) || !Number.isInteger(row) || col < 0 || row < 0 || col >= s.width || row >= s.height)
    throw new RangeError(`pixel (${col}, ${row}) is outside the ${s.width} × ${s.height} grid`);
  ensureClouds(s);
  const [e, n] = mapOf(s, col + 0.5, row + 0.5);
  const dn = new Array<number>(s.bands.length).fill(0);
  if (!inside(crossings(s, n), e)) return { dn, value: dn.map(() => undefined), ...(s.scl ? { scl: SCL.noData } : {}) };
  const p = samplers(s);
  p.ground.setRow(n);
  p.cloud.setRow(n);
  const code = new Uint8Array(1);
  const cover = LAND_COVERS[pixelInto(s, p, e, n, dn, 0, code, 0)];
  return { cover, dn, value: dn.map((v) => v * s.scale + s.offset), ...(s.scl ? { scl: code[0] } : {}) };
}

/**
 * Fills one tile of any overview level (the reflectance bands, pixel-interleaved): each pixel
 * is the ground at its centre. `scl` (tileSize² codes) receives the scene classification.
 */
export function fillTile(s: Scene, t: TileRequest, out: Samples, scl?: Uint8Array): void {
  ensureClouds(s);
  const nb = s.bands.length;
  const T = s.tileSize;
  const p = samplers(s);
  for (let r = 0; r < t.rows; r++) {
    const n = s.originY - (t.row0 + r + 0.5) * t.pixelSize;
    const xs = crossings(s, n);
    if (xs.length === 0) continue;
    p.ground.setRow(n);
    p.cloud.setRow(n);
    let c = 0;
    let e = s.originX + (t.col0 + 0.5) * t.pixelSize;
    let k = 0;
    while (k < xs.length && xs[k] <= e) k++;
    for (; c < t.cols; c++, e += t.pixelSize) {
      while (k < xs.length && xs[k] <= e) k++;
      if (k % 2 === 1) pixelInto(s, p, e, n, out, (r * T + c) * nb, scl, r * T + c);
    }
  }
}

export function dataCogSpec(s: Scene): CogSpec {
  const nb = s.bands.length;
  const spec: CogSpec = {
    width: s.width,
    height: s.height,
    bands: nb,
    dtype: 'uint16',
    tileSize: s.tileSize,
    originX: s.originX,
    originY: s.originY,
    pixelSize: s.pixelSize,
    epsg: s.epsg,
    nodata: 0,
    bandNames: s.bands.map((b) => b.name),
    scale: s.bands.map(() => s.scale),
    offset: s.bands.map(() => s.offset),
    fill: (t, out) => fillTile(s, t, out),
  };
  if (!s.scl) return spec;
  // the classification after the reflectance: class codes as they are (scale 1, offset 0)
  const T = s.tileSize;
  return {
    ...spec,
    bands: nb + 1,
    bandNames: [...(spec.bandNames ?? []), SCL_BAND],
    scale: [...(spec.scale ?? []), 1],
    offset: [...(spec.offset ?? []), 0],
    // Called once per strip of rows (a few rows of a tile): only the strip's pixels are sampled
    // and copied. Copying the whole tile per strip made a 512-pixel tile cost 128 tiles' copies.
    fill: (t, out) => {
      const n = t.rows * T;
      const dn = new Uint16Array(n * nb);
      const scl = new Uint8Array(n);
      fillTile(s, t, dn, scl);
      for (let p = 0; p < n; p++) {
        const o = p * (nb + 1);
        for (let b = 0; b < nb; b++) out[o + b] = dn[p * nb + b];
        out[o + nb] = scl[p];
      }
    },
  };
}

/** Indices of the bands nearest red, green and blue. */
export function rgbBands(s: Scene): [number, number, number] {
  const nearest = (nm: number): number => {
    let best = 0;
    s.bands.forEach((b, k) => {
      if (Math.abs(b.wavelength - nm) < Math.abs(s.bands[best].wavelength - nm)) best = k;
    });
    return best;
  };
  return [nearest(665), nearest(560), nearest(490)];
}

/** Reflectance to an 8-bit display value (1..255; 0 is kept for nodata). */
export function displayByte(reflectance: number): number {
  const v = Math.round(255 * Math.min(1, Math.max(0, reflectance * 3.2)) ** 0.8);
  return v < 1 ? 1 : v;
}

/** The true-colour visual COG: same grid, 3 bands of 8-bit RGB drawn from the data's values. */
export function visualCogSpec(s: Scene): CogSpec {
  // Only the three bands it shows are computed (each band's value does not depend on the
  // others): a 224-band scene's visual tile otherwise costs 75 times as much.
  const rgbScene = withBands(s, rgbBands(s));
  const nb = 3;
  const T = s.tileSize;
  return {
    width: s.width,
    height: s.height,
    bands: 3,
    dtype: 'uint8',
    tileSize: T,
    photometric: 'rgb',
    originX: s.originX,
    originY: s.originY,
    pixelSize: s.pixelSize,
    epsg: s.epsg,
    nodata: 0,
    bandNames: ['red', 'green', 'blue'],
    fill: (t, out) => {
      const tmp = new Uint16Array(t.rows * T * nb);
      fillTile(rgbScene, t, tmp);
      for (let p = 0; p < t.rows * T; p++) {
        if (tmp[p * nb] === 0) continue;
        for (let c = 0; c < 3; c++) out[p * 3 + c] = displayByte(tmp[p * nb + c] * s.scale + s.offset);
      }
    },
  };
}

/** The same scene with only some bands (cheaper to sample: a thumbnail of 224 bands needs 3). */
export function withBands(s: Scene, idx: readonly number[]): Scene {
  return { ...s, bands: idx.map((k) => s.bands[k]), spectra: s.spectra.map((sp) => Float64Array.from(idx, (k) => sp[k])), scl: false };
}

/** The scene drawn in true colour at `w` × `h` (thumbnails): [r, g, b] per pixel, black outside. */
export function trueColourSampler(scene: Scene, w: number, h: number): (x: number, y: number) => [number, number, number] {
  ensureClouds(scene);
  const s = withBands(scene, rgbBands(scene));
  const rgb = [0, 1, 2];
  const dn = [0, 0, 0];
  const p = samplers(s);
  let rowN = NaN;
  let xs: number[] = [];
  // Each thumbnail pixel is the full-resolution pixel under its centre: the same value the
  // visual COG holds there.
  return (x, y) => {
    const e = s.originX + (Math.floor(((x + 0.5) * s.width) / w) + 0.5) * s.pixelSize;
    const n = s.originY - (Math.floor(((y + 0.5) * s.height) / h) + 0.5) * s.pixelSize;
    if (n !== rowN) {
      rowN = n;
      xs = crossings(s, n);
      p.ground.setRow(n);
      p.cloud.setRow(n);
    }
    if (!inside(xs, e)) return [0, 0, 0];
    pixelInto(s, p, e, n, dn, 0);
    return [displayByte(dn[rgb[0]] * s.scale + s.offset), displayByte(dn[rgb[1]] * s.scale + s.offset), displayByte(dn[rgb[2]] * s.scale + s.offset)];
  };
}
