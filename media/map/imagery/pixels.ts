/**
 * Pixels to colours, for one map tile: sample the source (nearest neighbour) at the warped
 * coordinates and apply the layer's look (a stretched three-band composite, an index
 * expression through a colour map, or class values through their class colours). No I/O, no DOM: the webview tests and the benchmark call
 * it directly as well.
 */
import type { DecodedTile, Samples } from './cog';

export interface BandValue {
  /** Index into the decoded tiles' `bands`. */
  slot: number;
  scale: number;
  offset: number;
}

export type Look =
  | { kind: 'rgb'; channels: [BandValue, BandValue, BandValue]; stretch: [number, number][]; nodata?: number }
  | { kind: 'index'; inputs: BandValue[]; evaluate: (v: ArrayLike<number>) => number; rescale: [number, number]; lut: Uint8ClampedArray; nodata?: number }
  | ClassLook;

/** Class value → RGBA; values without a class (and no-data) are transparent. */
export interface ClassLook {
  kind: 'classes';
  slot: number;
  colors: ReadonlyMap<number, readonly [number, number, number, number]>;
  nodata?: number;
  /** RGBA by raw value for 8- and 16-bit data, built on first use and kept with the look. */
  table?: { max: number; rgba: Uint8ClampedArray };
}

function classTable(look: ClassLook, max: number): Uint8ClampedArray {
  if (look.table?.max === max) return look.table.rgba;
  const rgba = new Uint8ClampedArray((max + 1) * 4);
  for (const [v, c] of look.colors) {
    if (!Number.isInteger(v) || v < 0 || v > max || v === look.nodata) continue;
    rgba.set(c, v * 4);
  }
  look.table = { max, rgba };
  return rgba;
}

export interface TileGrid {
  /** Source tiles by (ty - ty0) * cols + (tx - tx0); missing entries are transparent. */
  tiles: (DecodedTile | undefined)[];
  tx0: number;
  ty0: number;
  cols: number;
  rows: number;
  tileWidth: number;
  tileHeight: number;
  levelWidth: number;
  levelHeight: number;
}

/** 8-bit lookup for integer data (up to 16 bits): one table per channel and stretch. */
function lutFor(stretch: [number, number], bv: BandValue, max: number): Uint8ClampedArray {
  const out = new Uint8ClampedArray(max + 1);
  const [lo, hi] = stretch;
  const k = hi > lo ? 255 / (hi - lo) : 0;
  for (let v = 0; v <= max; v++) out[v] = (v * bv.scale + bv.offset - lo) * k;
  return out;
}

/**
 * The tables of an RGB look, built once per look and data type and kept with it: building
 * three 65,536-entry tables costs more than painting a tile from them.
 */
const lutsOfLook = new WeakMap<Look, { max: number; luts: Uint8ClampedArray[] }>();

function rgbLuts(look: Extract<Look, { kind: 'rgb' }>, max: number): Uint8ClampedArray[] {
  const hit = lutsOfLook.get(look);
  if (hit?.max === max) return hit.luts;
  const luts = look.channels.map((ch, c) => lutFor(look.stretch[c], ch, max));
  lutsOfLook.set(look, { max, luts });
  return luts;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

function integerMax(a: Samples): number | undefined {
  if (a instanceof Uint8Array) return 255;
  if (a instanceof Uint16Array) return 65535;
  return undefined;
}

/**
 * The RGB look over 8- or 16-bit data, the common case, with nothing looked up per pixel but
 * the source tile (when it changes) and the three tables.
 */
function paintRgbInteger(coords: Float32Array, n: number, grid: TileGrid, look: Extract<Look, { kind: 'rgb' }>, max: number, rgba: Uint8ClampedArray): number {
  const { tileWidth: tw, tileHeight: th, levelWidth: W, levelHeight: H, cols, rows, tx0, ty0 } = grid;
  const [lr, lg, lb] = rgbLuts(look, max);
  const [cr, cg, cb] = look.channels;
  const nd = look.nodata ?? NaN;
  let drawn = 0;
  let lastKey = -1;
  let t: DecodedTile | undefined;
  let r: Samples = [];
  let g: Samples = [];
  let b: Samples = [];
  // one 32-bit store per pixel where the bytes R, G, B, A make a little-endian word
  const words = LITTLE_ENDIAN && rgba.byteOffset % 4 === 0 ? new Uint32Array(rgba.buffer, rgba.byteOffset, n) : undefined;
  for (let p = 0; p < n; p++) {
    const fx = coords[p * 2];
    const fy = coords[p * 2 + 1];
    const o = p * 4;
    if (!(fx >= 0 && fy >= 0 && fx < W && fy < H)) {
      rgba[o + 3] = 0;
      continue;
    }
    const sx = fx | 0;
    const sy = fy | 0;
    const tx = ((sx / tw) | 0) - tx0;
    const ty = ((sy / th) | 0) - ty0;
    const key = tx < 0 || ty < 0 || tx >= cols || ty >= rows ? -2 : ty * cols + tx;
    if (key !== lastKey) {
      lastKey = key;
      t = key < 0 ? undefined : grid.tiles[key];
      if (t) {
        r = t.bands[cr.slot];
        g = t.bands[cg.slot];
        b = t.bands[cb.slot];
      }
    }
    if (!t) {
      rgba[o + 3] = 0;
      continue;
    }
    const i = (sy - t.y0) * t.width + (sx - t.x0);
    const vr = r[i];
    const vg = g[i];
    const vb = b[i];
    if (vr === nd && vg === nd && vb === nd) {
      rgba[o + 3] = 0;
      continue;
    }
    if (words) words[p] = 0xff000000 | (lb[vb] << 16) | (lg[vg] << 8) | lr[vr];
    else {
      rgba[o] = lr[vr];
      rgba[o + 1] = lg[vg];
      rgba[o + 2] = lb[vb];
      rgba[o + 3] = 255;
    }
    drawn++;
  }
  return drawn;
}

/**
 * Fills `rgba` (size×size×4) from `coords` (source pixel x, y per map pixel at the level).
 * Returns how many pixels were drawn (not transparent).
 */
export function paint(coords: Float32Array, size: number, grid: TileGrid, look: Look, rgba: Uint8ClampedArray): number {
  if (look.kind === 'rgb') {
    const first = grid.tiles.find((t) => t !== undefined);
    const max = first && integerMax(first.bands[look.channels[0].slot]);
    if (
      first &&
      max !== undefined &&
      look.channels.every((ch) => integerMax(first.bands[ch.slot]) === max) &&
      grid.tiles.every((t) => !t || look.channels.every((ch) => integerMax(t.bands[ch.slot]) === max))
    )
      return paintRgbInteger(coords, size * size, grid, look, max, rgba);
  }
  const colour = look.kind === 'classes' ? classColour(look, rgba) : look.kind === 'rgb' ? rgbColour(look, rgba) : indexColour(look, rgba);
  return paintEachSample(coords, size * size, grid, rgba, colour);
}

/**
 * Colours the map pixel at RGBA offset `o` from sample `i` of source tile `t`, alpha included;
 * true when it is drawn (not transparent).
 */
type PixelColour = (t: DecodedTile, i: number, o: number) => boolean;

/**
 * The general path: finds each map pixel's source tile and sample, leaves pixels outside the
 * level or its loaded tiles transparent, and has `colour` colour the rest.
 */
function paintEachSample(coords: Float32Array, n: number, grid: TileGrid, rgba: Uint8ClampedArray, colour: PixelColour): number {
  let drawn = 0;
  const { tileWidth: tw, tileHeight: th, levelWidth: W, levelHeight: H } = grid;
  let lastTile: DecodedTile | undefined;
  let lastKey = -1;
  for (let p = 0; p < n; p++) {
    const sx = Math.floor(coords[p * 2]);
    const sy = Math.floor(coords[p * 2 + 1]);
    const o = p * 4;
    if (!(sx >= 0 && sy >= 0 && sx < W && sy < H)) {
      rgba[o + 3] = 0;
      continue;
    }
    const tx = Math.floor(sx / tw) - grid.tx0;
    const ty = Math.floor(sy / th) - grid.ty0;
    const key = ty * grid.cols + tx;
    const t = key === lastKey ? lastTile : grid.tiles[key];
    lastKey = key;
    lastTile = t;
    if (!t || tx < 0 || ty < 0 || tx >= grid.cols || ty >= grid.rows) {
      rgba[o + 3] = 0;
      continue;
    }
    if (colour(t, (sy - t.y0) * t.width + (sx - t.x0), o)) drawn++;
  }
  return drawn;
}

/** Class values through their class colours: a table for 8- and 16-bit data, the map otherwise. */
function classColour(look: ClassLook, rgba: Uint8ClampedArray): PixelColour {
  return (t, i, o) => {
    const arr = t.bands[look.slot];
    const raw = arr[i];
    const max = integerMax(arr);
    let a = 0;
    if (max !== undefined) {
      const table = classTable(look, max);
      const k = raw * 4;
      rgba[o] = table[k];
      rgba[o + 1] = table[k + 1];
      rgba[o + 2] = table[k + 2];
      a = table[k + 3];
    } else {
      const c = raw === look.nodata ? undefined : look.colors.get(raw);
      if (c) {
        rgba[o] = c[0];
        rgba[o + 1] = c[1];
        rgba[o + 2] = c[2];
        a = c[3];
      }
    }
    rgba[o + 3] = a;
    return Boolean(a);
  };
}

/**
 * A stretched three-band composite over data `paintRgbInteger` does not take (floats, or bands
 * of different types): a table per integer band, the stretch computed for the others.
 */
function rgbColour(look: Extract<Look, { kind: 'rgb' }>, rgba: Uint8ClampedArray): PixelColour {
  const luts: (Uint8ClampedArray | undefined)[] = [];
  return (t, i, o) => {
    let nod = 0;
    for (let c = 0; c < 3; c++) {
      const ch = look.channels[c];
      const arr = t.bands[ch.slot];
      const raw = arr[i];
      if (raw === look.nodata || raw !== raw) nod++;
      let lut = luts[c];
      if (lut === undefined) {
        const max = integerMax(arr);
        lut = luts[c] = max !== undefined ? lutFor(look.stretch[c], ch, max) : new Uint8ClampedArray(0);
      }
      if (lut.length) rgba[o + c] = lut[raw];
      else {
        const [lo, hi] = look.stretch[c];
        rgba[o + c] = hi > lo ? ((raw * ch.scale + ch.offset - lo) * 255) / (hi - lo) : 0;
      }
    }
    if (nod === 3) {
      rgba[o + 3] = 0;
      return false;
    }
    rgba[o + 3] = 255;
    return true;
  };
}

/** An index expression over its bands, rescaled through the look's colour map; no-data and non-finite values transparent. */
function indexColour(look: Extract<Look, { kind: 'index' }>, rgba: Uint8ClampedArray): PixelColour {
  const vals = new Float64Array(look.inputs.length);
  return (t, i, o) => {
    let bad = false;
    for (let k = 0; k < look.inputs.length; k++) {
      const bv = look.inputs[k];
      const raw = t.bands[bv.slot][i];
      if (raw === look.nodata || raw !== raw) bad = true;
      vals[k] = raw * bv.scale + bv.offset;
    }
    const v = bad ? NaN : look.evaluate(vals);
    if (!Number.isFinite(v)) {
      rgba[o + 3] = 0;
      return false;
    }
    const [lo, hi] = look.rescale;
    let idx = hi !== lo ? Math.round(((v - lo) / (hi - lo)) * 255) : 0;
    idx = idx < 0 ? 0 : idx > 255 ? 255 : idx;
    rgba[o] = look.lut[idx * 3];
    rgba[o + 1] = look.lut[idx * 3 + 1];
    rgba[o + 2] = look.lut[idx * 3 + 2];
    rgba[o + 3] = 255;
    return true;
  };
}
