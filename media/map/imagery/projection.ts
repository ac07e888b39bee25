/**
 * From the map's Web Mercator to a file's pixel grid. proj4 gives exact points on a coarse
 * grid; pixels in between are interpolated linearly, and the grid is refined until the
 * interpolation error at the cell centres is under an eighth of a source pixel (GDAL's
 * approximate transformer does the same with its default 0.125 pixel threshold).
 */
import proj4 from 'proj4';

/** proj4 definitions of the CRSs we can place: WGS 84, Web Mercator and every UTM zone (WGS 84, ETRS89, NAD83). */
export function projDefinition(epsg: number): string | undefined {
  if (epsg === 4326 || epsg === 4258 || epsg === 4269) return '+proj=longlat +datum=WGS84 +no_defs';
  if (epsg === 3857 || epsg === 900913) {
    return '+proj=merc +a=6378137 +b=6378137 +lat_ts=0 +lon_0=0 +x_0=0 +y_0=0 +k=1 +units=m +nadgrids=@null +no_defs';
  }
  const utm = (zone: number, south: boolean, datum: string) =>
    zone >= 1 && zone <= 60 ? `+proj=utm +zone=${zone}${south ? ' +south' : ''} ${datum} +units=m +no_defs` : undefined;
  if (epsg >= 32601 && epsg <= 32660) return utm(epsg - 32600, false, '+datum=WGS84');
  if (epsg >= 32701 && epsg <= 32760) return utm(epsg - 32700, true, '+datum=WGS84');
  if (epsg >= 25801 && epsg <= 25860) return utm(epsg - 25800, false, '+ellps=GRS80 +towgs84=0,0,0');
  if (epsg >= 26901 && epsg <= 26923) return utm(epsg - 26900, false, '+datum=NAD83');
  return undefined;
}

const MERCATOR = projDefinition(3857) as string;
const R = 6378137;

/** Web Mercator metres of a map pixel at zoom `z` (256-pixel tiles). */
export function mercatorPixel(z: number, px: number, py: number): [number, number] {
  const size = 2 * Math.PI * R;
  const res = size / (256 * 2 ** z);
  return [px * res - size / 2, size / 2 - py * res];
}

export type Forward = (x: number, y: number) => [number, number];

/** A function from Web Mercator metres to the CRS's coordinates, or undefined for a CRS we cannot place. */
export function fromMercator(epsg: number): Forward | undefined {
  const def = projDefinition(epsg);
  if (!def) return undefined;
  if (epsg === 3857 || epsg === 900913) return (x, y) => [x, y];
  const conv = proj4(MERCATOR, def);
  return (x, y) => conv.forward([x, y]) as [number, number];
}

/** Inverse, for zoom-to and placing a preview: the CRS's coordinates to [lon, lat]. */
export function toLonLat(epsg: number): Forward | undefined {
  const def = projDefinition(epsg);
  if (!def) return undefined;
  const conv = proj4(def, 'EPSG:4326');
  return (x, y) => conv.forward([x, y]) as [number, number];
}

/**
 * Source pixel coordinates (x, y interleaved, row-major, `size`×`size` values each) of every map
 * pixel centre of a `size`-pixel tile whose top-left map pixel is (px0, py0) at zoom z.
 * `toPixel` maps Web Mercator metres to (fractional) source pixels. Returns the grid cell count
 * it settled on (for the tests and the benchmark).
 */
export function warpGrid(
  toPixel: Forward,
  z: number,
  px0: number,
  py0: number,
  size: number,
  out: Float32Array,
  maxError = 0.125,
): { cells: number; exactPoints: number } {
  let cells = 8;
  let exactPoints = 0;
  let grid: Float64Array;
  const sample = (gx: number, gy: number, n: number): [number, number] => {
    const [mx, my] = mercatorPixel(z, px0 + (gx * size) / n, py0 + (gy * size) / n);
    exactPoints++;
    return toPixel(mx, my);
  };
  for (;;) {
    const n = cells;
    grid = new Float64Array((n + 1) * (n + 1) * 2);
    for (let gy = 0; gy <= n; gy++) {
      for (let gx = 0; gx <= n; gx++) {
        const [x, y] = sample(gx, gy, n);
        const k = (gy * (n + 1) + gx) * 2;
        grid[k] = x;
        grid[k + 1] = y;
      }
    }
    if (n >= 64) break;
    // check the cell centres against the exact transform
    let worst = 0;
    const step = Math.max(1, n >> 3);
    for (let gy = 0; gy < n && worst <= maxError; gy += step) {
      for (let gx = 0; gx < n; gx += step) {
        const [ex, ey] = sample(gx + 0.5, gy + 0.5, n);
        const k00 = (gy * (n + 1) + gx) * 2;
        const k11 = ((gy + 1) * (n + 1) + gx + 1) * 2;
        const k01 = (gy * (n + 1) + gx + 1) * 2;
        const k10 = ((gy + 1) * (n + 1) + gx) * 2;
        const ix = (grid[k00] + grid[k01] + grid[k10] + grid[k11]) / 4;
        const iy = (grid[k00 + 1] + grid[k01 + 1] + grid[k10 + 1] + grid[k11 + 1]) / 4;
        worst = Math.max(worst, Math.abs(ix - ex), Math.abs(iy - ey));
        if (!Number.isFinite(worst)) break;
      }
    }
    if (worst <= maxError || !Number.isFinite(worst)) break;
    cells *= 2;
  }
  // bilinear interpolation at pixel centres: down each column of the grid first, then along
  // the row, where the value is linear inside a cell (one addition per pixel)
  const n = cells;
  const cellPx = size / n;
  for (let py = 0; py < size; py++) {
    const fy = (py + 0.5) / cellPx;
    const gy = Math.min(n - 1, Math.floor(fy));
    const ty = fy - gy;
    const r0 = gy * (n + 1) * 2;
    const r1 = (gy + 1) * (n + 1) * 2;
    const row = py * size * 2;
    for (let gx = 0; gx < n; gx++) {
      const a = r0 + gx * 2;
      const b = r1 + gx * 2;
      // the row's values at this cell's left and right edges
      const lx = grid[a] + (grid[b] - grid[a]) * ty;
      const ly = grid[a + 1] + (grid[b + 1] - grid[a + 1]) * ty;
      const rx = grid[a + 2] + (grid[b + 2] - grid[a + 2]) * ty;
      const ry = grid[a + 3] + (grid[b + 3] - grid[a + 3]) * ty;
      const px0 = Math.ceil(gx * cellPx - 0.5);
      const px1 = gx === n - 1 ? size : Math.ceil((gx + 1) * cellPx - 0.5);
      const dx = (rx - lx) / cellPx;
      const dy = (ry - ly) / cellPx;
      for (let px = px0; px < px1; px++) {
        const tx = px + 0.5 - gx * cellPx;
        const o = row + px * 2;
        out[o] = lx + dx * tx;
        out[o + 1] = ly + dy * tx;
      }
    }
  }
  return { cells, exactPoints };
}
