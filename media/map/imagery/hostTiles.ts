/**
 * The tiles of a window that the extension host can read and decode itself (node:zlib): a
 * `TilePlan` (src/panels/imagery/clipMessages.ts) for a tiled file stored uncompressed or with
 * deflate, predictor 1–3, little-endian or 8-bit, one sample type; undefined for any other,
 * which the page then reads itself. Used by Save View (clip.ts) and the index over time (series.ts).
 */
import type { ClipPlanTile, TilePlan } from '../../../src/panels/imagery/clipMessages';
import type { Cog } from './cog';

/** The compressions the extension host inflates itself: none and deflate. */
const HOST_COMPRESSIONS = new Set([1, 8, 32946]);

export interface HostTilesRequest {
  level: number;
  /** [x0, y0, x1, y1] in the level's pixels, x1 and y1 exclusive. */
  window: [number, number, number, number];
  /** The tiles to read, as column and row of the level's grid: each tile the window touches, or some of them. */
  places: [number, number][];
  /** The 0-based bands, with each one's name, scale and offset. */
  samples: number[];
  names: string[];
  scale: number[];
  offset: number[];
  nodata?: number;
}

export async function hostTilePlan(cog: Cog, url: string, r: HostTilesRequest): Promise<TilePlan | undefined> {
  const Lv = cog.levels[r.level];
  const img = Lv.image;
  const fd = img.fileDirectory;
  const num = (tag: string, fallback: number) => Number(fd.getValue(tag as never) ?? fallback);
  const list = (tag: string, fallback: number) => Array.from((fd.getValue(tag as never) as ArrayLike<number> | undefined) ?? [fallback], Number);
  const bits = list('BitsPerSample', 1);
  const formats = list('SampleFormat', 1);
  const compression = num('Compression', 1);
  const predictor = num('Predictor', 1);
  const planar = num('PlanarConfiguration', 1);
  const fileSize = cog.source.fileSize;
  const plain =
    img.isTiled &&
    fileSize !== null &&
    HOST_COMPRESSIONS.has(compression) &&
    (predictor === 1 || predictor === 2 || predictor === 3) &&
    (planar === 1 || planar === 2) &&
    bits.every((b) => b === bits[0] && [8, 16, 32, 64].includes(b)) &&
    formats.every((f) => f === formats[0] && (f === 1 || f === 2 || f === 3)) &&
    (formats[0] !== 3 || bits[0] >= 32) &&
    (img.littleEndian || bits[0] === 8);
  if (!plain) return undefined;
  const across = Math.ceil(Lv.width / Lv.tileWidth);
  const down = Math.ceil(Lv.height / Lv.tileHeight);
  const planes = planar === 2 ? [...new Set(r.samples)] : [0];
  const places = r.places
    .filter(([tx, ty]) => tx >= 0 && ty >= 0 && tx < across && ty < down)
    .flatMap(([tx, ty]) => planes.map((plane) => ({ tx, ty, plane })));
  const at = (tag: string, i: number) => fd.loadValueIndexed(tag as never, i).then(Number);
  const tiles: ClipPlanTile[] = await Promise.all(
    places.map(async (p) => {
      const i = p.plane * across * down + p.ty * across + p.tx;
      return { ...p, offset: await at('TileOffsets', i), length: await at('TileByteCounts', i) };
    }),
  );
  return {
    url,
    fileSize: fileSize as number,
    level: r.level,
    window: r.window,
    tileWidth: Lv.tileWidth,
    tileHeight: Lv.tileHeight,
    samplesPerPixel: cog.bandCount,
    planar: planar as 1 | 2,
    bitsPerSample: bits[0],
    sampleFormat: formats[0] as 1 | 2 | 3,
    compression: compression as TilePlan['compression'],
    predictor: predictor as 1 | 2 | 3,
    samples: r.samples,
    tiles,
    nodata: r.nodata,
    names: r.names,
    scale: r.scale,
    offset: r.offset,
  };
}

/** Each tile of the level's grid that the window touches, as [column, row]. */
export function windowTiles(cog: Cog, level: number, win: [number, number, number, number]): [number, number][] {
  const Lv = cog.levels[level];
  const across = Math.ceil(Lv.width / Lv.tileWidth);
  const down = Math.ceil(Lv.height / Lv.tileHeight);
  const out: [number, number][] = [];
  for (let ty = Math.floor(win[1] / Lv.tileHeight); ty < Math.min(down, Math.ceil(win[3] / Lv.tileHeight)); ty++) {
    for (let tx = Math.floor(win[0] / Lv.tileWidth); tx < Math.min(across, Math.ceil(win[2] / Lv.tileWidth)); tx++) out.push([tx, ty]);
  }
  return out;
}
