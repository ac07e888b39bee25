/**
 * One date's statistics of an index inside a polygon, from decoded tiles of one pyramid level:
 * the mean, the median and the 10th and 90th percentiles of the valid pixels, and how many
 * pixel centres fall inside the polygon and how many of those are valid. Invalid: no-data in
 * any band the expression uses, a scene classification (Sentinel-2 `SCL`) of no data,
 * saturated, cloud shadow, cloud or cirrus, and a non-finite index (a division by zero).
 * Pure (no DOM, no I/O): the extension host runs it (hostStats.ts), and the page for a file the
 * host does not decode, in its decoder worker or on its main thread; its unit test runs in Node.
 */
import { compileIndexExpression } from '../../api/indexExpression';
import { SCL_CLOUD, SCL_NO_DATA } from '../../raster/clearPixels';

export interface StatsTile {
  /** The tile's window in the level's pixels. */
  x0: number;
  y0: number;
  width: number;
  height: number;
  /** One array per band of `StatsJob.bands`, row-major. */
  bands: ArrayLike<number>[];
}

export interface StatsJob {
  tiles: StatsTile[];
  /** The polygon's rings in the level's pixel coordinates (even-odd: holes are rings too). */
  rings: [number, number][][];
  expression: string;
  /** The names of the tiles' bands, in order; the expression's bands are among them. */
  bands: string[];
  /** Physical value = raw × scale + offset, per band of `bands`. */
  scale: number[];
  offset: number[];
  /** The file's no-data value (GDAL's), if any. */
  nodata?: number;
  /** The index in `bands` of a scene classification band, if the file has one. */
  scl?: number;
  /** A single-pixel series: report the index at the pixel inside even when it is not valid (a cloud). */
  single?: boolean;
}

export interface StatsResult {
  /** Pixel centres inside the polygon. */
  pixels: number;
  /** Of those, the valid ones. */
  valid: number;
  /** Of those, the ones a scene classification marks as cloud (or shadow, cirrus, saturated). */
  cloudy: number;
  mean?: number;
  median?: number;
  p10?: number;
  p90?: number;
  /** `single` only: the index at the pixel, valid or not; undefined where it has no data. */
  value?: number;
}

/** Per scene classification code: 1 no data, 2 cloud (a table: a Set's lookup per pixel cost more than the index). */
const SCL_KIND = new Uint8Array(256);
for (const code of SCL_NO_DATA) SCL_KIND[code] = 1;
for (const code of SCL_CLOUD) SCL_KIND[code] = 2;

/** The x positions where a row at height `y` crosses the rings' edges, sorted. */
export function crossings(rings: [number, number][][], y: number): number[] {
  const xs: number[] = [];
  for (const r of rings) {
    for (let i = 0, j = r.length - 1; i < r.length; j = i++) {
      const [xi, yi] = r[i];
      const [xj, yj] = r[j];
      if (yi > y !== yj > y) xs.push(((xj - xi) * (y - yi)) / (yj - yi) + xi);
    }
  }
  return xs.sort((a, b) => a - b);
}

/**
 * Whether any pixel centre of the window [x0, x1) × [y0, y1) lies inside the rings: a tile
 * with none is not read.
 */
export function windowHasInside(rings: [number, number][][], x0: number, y0: number, x1: number, y1: number): boolean {
  for (let y = y0; y < y1; y++) {
    const xs = crossings(rings, y + 0.5);
    for (let i = 0; i + 1 < xs.length; i += 2) {
      // centres c + 0.5 with xs[i] <= c + 0.5 < xs[i + 1]
      const c = Math.max(x0, Math.ceil(xs[i] - 0.5));
      if (c < x1 && c + 0.5 < xs[i + 1]) return true;
    }
  }
  return false;
}

/**
 * The tiles of a `tileWidth` × `tileHeight` grid, as [column, row], that hold a pixel centre
 * of the window [x0, y0, x1, y1) inside the rings: the only ones a date's statistics read.
 */
export function insideTiles(rings: [number, number][][], window: [number, number, number, number], tileWidth: number, tileHeight: number): [number, number][] {
  const [x0, y0, x1, y1] = window;
  const tiles: [number, number][] = [];
  for (let ty = Math.floor(y0 / tileHeight); ty * tileHeight < y1; ty++) {
    for (let tx = Math.floor(x0 / tileWidth); tx * tileWidth < x1; tx++) {
      const [wx0, wy0] = [Math.max(x0, tx * tileWidth), Math.max(y0, ty * tileHeight)];
      const [wx1, wy1] = [Math.min(x1, (tx + 1) * tileWidth), Math.min(y1, (ty + 1) * tileHeight)];
      if (windowHasInside(rings, wx0, wy0, wx1, wy1)) tiles.push([tx, ty]);
    }
  }
  return tiles;
}

/** numpy's default percentile: linear between the order statistics around (n − 1) × q. */
export function percentile(sorted: ArrayLike<number>, q: number): number {
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(sorted.length - 1, lo + 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

/**
 * Reorders `a` so that `a[k]` holds what it would hold sorted, with nothing greater before it
 * and nothing smaller after it, looking only at [lo, hi] (Hoare's selection, median-of-three).
 */
function select(a: Float64Array, k: number, lo: number, hi: number): void {
  while (hi > lo) {
    const mid = (lo + hi) >>> 1;
    // the median of three as the pivot: sorted data (a season's dates) stays linear
    if (a[mid] < a[lo]) [a[mid], a[lo]] = [a[lo], a[mid]];
    if (a[hi] < a[lo]) [a[hi], a[lo]] = [a[lo], a[hi]];
    if (a[hi] < a[mid]) [a[hi], a[mid]] = [a[mid], a[hi]];
    const pivot = a[mid];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i] < pivot) i++;
      while (a[j] > pivot) j--;
      if (i <= j) {
        [a[i], a[j]] = [a[j], a[i]];
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return;
  }
}

/**
 * numpy's percentiles `qs` of `a` (reordered in place): only the order statistics they need
 * are selected, in increasing order, each in what the one before left. Sorting the values
 * (V8 sorts a typed array at ~180 ns a value) was most of a date's statistics.
 */
export function percentiles(a: Float64Array, qs: number[]): number[] {
  const need = [
    ...new Set(
      qs.flatMap((q) => {
        const lo = Math.floor((a.length - 1) * q);
        return [lo, Math.min(a.length - 1, lo + 1)];
      }),
    ),
  ].sort((x, y) => x - y);
  let from = 0;
  for (const k of need) {
    select(a, k, from, a.length - 1);
    from = k;
  }
  // each order statistic the interpolation reads now holds its sorted value
  return qs.map((q) => percentile(a, q));
}

/**
 * The statistics taken a part at a time: `add` each tile (or rows of one) as it is ready, then
 * `result`. The extension host adds a window in slices of rows with a turn of its event loop
 * between them, so that a date's statistics never hold the loop in one piece.
 */
export class IndexStatistics {
  private readonly evaluate: (values: ArrayLike<number>) => number;
  private readonly use: number[];
  private readonly values: Float64Array;
  private out = new Float64Array(4096);
  private valid = 0;
  private pixels = 0;
  private cloudy = 0;
  private value: number | undefined;

  constructor(private readonly job: Omit<StatsJob, 'tiles'>) {
    const compiled = compileIndexExpression(job.expression);
    if ('error' in compiled) throw new Error(compiled.error);
    this.evaluate = compiled.evaluate;
    this.use = compiled.bands.map((name) => {
      const i = job.bands.indexOf(name);
      if (i < 0) throw new Error(`The expression uses band ${name}, which the file does not have (it has ${job.bands.join(', ')}).`);
      return i;
    });
    this.values = new Float64Array(this.use.length);
  }

  add(t: StatsTile): void {
    const { job, use, values, evaluate } = this;
    const src = use.map((i) => t.bands[i]);
    const scale = use.map((i) => job.scale[i] ?? 1);
    const offset = use.map((i) => job.offset[i] ?? 0);
    const scl = job.scl === undefined ? undefined : t.bands[job.scl];
    // the counts in locals while the rows are read (a field's load and store per pixel cost a third more)
    let { pixels, valid, cloudy, value, out } = this;
    for (let r = 0; r < t.height; r++) {
      // a pixel is inside when an odd number of edges cross its row to the right of its centre
      const xs = crossings(job.rings, t.y0 + r + 0.5);
      if (!xs.length) continue;
      let k = 0;
      for (let c = 0; c < t.width; c++) {
        const cx = t.x0 + c + 0.5;
        while (k < xs.length && xs[k] <= cx) k++;
        if ((xs.length - k) % 2 === 0) continue;
        pixels++;
        const p = r * t.width + c;
        let data = true;
        for (let b = 0; b < src.length; b++) {
          const raw = src[b][p];
          if (raw === job.nodata || Number.isNaN(raw)) data = false;
          values[b] = raw * scale[b] + offset[b];
        }
        let cloud = false;
        if (scl) {
          const code = scl[p];
          const kind = code >= 0 && code < 256 ? SCL_KIND[code] : 0;
          if (kind === 1) data = false;
          else if (data && kind === 2) {
            cloudy++;
            cloud = true;
          }
        }
        if (!data || (cloud && !job.single)) continue;
        const v = evaluate(values);
        if (job.single && Number.isFinite(v)) value = v;
        if (cloud || !Number.isFinite(v)) continue;
        if (valid === out.length) {
          const grown = new Float64Array(out.length * 2);
          grown.set(out);
          out = grown;
        }
        out[valid++] = v;
      }
    }
    this.pixels = pixels;
    this.valid = valid;
    this.cloudy = cloudy;
    this.value = value;
    this.out = out;
  }

  result(): StatsResult {
    const { pixels, valid, cloudy, value } = this;
    const single = value !== undefined ? { value } : {};
    if (!valid) return { pixels, valid, cloudy, ...single };
    const v = this.out.subarray(0, valid);
    let sum = 0;
    for (let i = 0; i < valid; i++) sum += v[i];
    const [p10, median, p90] = percentiles(v, [0.1, 0.5, 0.9]);
    return { pixels, valid, cloudy, mean: sum / valid, median, p10, p90, ...single };
  }
}

export function seriesStatistics(job: StatsJob): StatsResult {
  const stats = new IndexStatistics(job);
  for (const t of job.tiles) stats.add(t);
  return stats.result();
}
