/**
 * A GeoTIFF opened through geotiff.js: its pyramid (full resolution and overviews, masks
 * left out), georeferencing, bands and no-data value, and decoded tiles read on demand, each
 * once (an LRU of decoded tiles serves pans and redraws). geotiff.js gets a file only once
 * its structure passed the checks of tiffStructure.ts, reads each image's tiles through a
 * guard that refuses a read far larger than the tile, and decodes with the bounded decoders
 * of decoders.ts.
 */
import * as l10n from '@vscode/l10n';
import { GeoTIFF, type GeoTIFFImage, type Pool } from 'geotiff';
import { byteSize } from '../../../src/format';
import { MAX_WHOLE_FILE_BYTES } from '../../../src/panels/imagery/protocol';
import { type ReadBytes, RpcByteSource } from './byteSource';
import type { ByteRange } from '../../../src/raster/coalesce';
import { installBoundedDecoders } from './decoders';
import { installFastRaster } from './fastRaster';
import { ImageryError } from './imageryError';
import { projDefinition } from './projection';
import { readTiffStructure, type ImageLayout } from './tiffStructure';

export interface Level {
  image: GeoTIFFImage;
  width: number;
  height: number;
  tileWidth: number;
  tileHeight: number;
  /** Full-resolution pixels per pixel of this level, in x and y. */
  scaleX: number;
  scaleY: number;
  /** The image's tile reads, checked against its tile size (geotiff.js reads through them too). */
  reads: TileReads;
}

/** Reads of one image's tiles: fetched now, or asked for ahead and merged (RpcByteSource.prefetch). */
export type TileReads = Pick<RpcByteSource, 'fetch' | 'prefetch'>;

export type Samples = ArrayLike<number>;

export interface DecodedTile {
  /** Pixel window of the level this tile covers. */
  x0: number;
  y0: number;
  width: number;
  height: number;
  /** One array per requested band, row-major. */
  bands: Samples[];
}

export class Cog {
  private readonly tiles = new Map<string, Promise<DecodedTile>>();
  /** The tiles of `tiles` whose decode has finished, for drawing from at once. */
  private readonly decodedTiles = new Map<string, DecodedTile>();
  private static readonly MAX_TILES = 96;

  private constructor(
    readonly source: RpcByteSource,
    readonly levels: Level[],
    readonly bandCount: number,
    readonly epsg: number,
    /** Full-resolution geotransform: x = originX + col × resX, y = originY + row × resY. */
    readonly originX: number,
    readonly originY: number,
    readonly resX: number,
    readonly resY: number,
    readonly nodata: number | undefined,
    private readonly pool: Pool | undefined,
  ) {}

  static async open(url: string, read: ReadBytes, opts: { epsg?: number; pool?: Pool; signal?: AbortSignal }): Promise<Cog> {
    installBoundedDecoders();
    const source = new RpcByteSource(url, read);
    const at = async (offset: number, length: number) => (await source.fetch([{ offset, length }], opts.signal))[0];
    const structure = await readTiffStructure(at, () => source.fileSize);
    let tiff: GeoTIFF;
    try {
      tiff = await GeoTIFF.fromSource(source as never, undefined, opts.signal);
    } catch (e) {
      throw asReadable(e, 'The file is not a readable GeoTIFF');
    }
    const images: GeoTIFFImage[] = [];
    const reads = new Map<GeoTIFFImage, TileReads>();
    try {
      // the chain geotiff.js follows is the one checked: as many images, no loop
      for (const [i, layout] of structure.images.entries()) {
        if (layout.subfileType & 4) continue; // a transparency mask, not an overview
        const img = await tiff.getImage(i);
        const guarded = guardedTiles(source, layout);
        img.source = guarded as never;
        reads.set(img, guarded);
        installFastRaster(img);
        images.push(img);
      }
    } catch (e) {
      throw asReadable(e, "The file's directory could not be read (truncated or corrupt)");
    }
    const full = images[0];
    if (!full) throw new ImageryError('The file holds no image.');
    const w = full.getWidth();
    const h = full.getHeight();
    const tiled = full.isTiled;
    const size = source.fileSize;
    if (!tiled && (size === null || size > MAX_WHOLE_FILE_BYTES)) {
      const mb = size === null ? 'of unknown size' : `${Math.round(size / 1e6)} MB`;
      throw new ImageryError(
        `The GeoTIFF is not tiled and ${mb}; only tiled (cloud-optimized) files over 50 MB can be shown. Convert it with "gdal_translate -of COG".`,
      );
    }
    const levels: Level[] = images
      .filter((img) => img.getSamplesPerPixel() === full.getSamplesPerPixel())
      .map((img) => ({
        image: img,
        width: img.getWidth(),
        height: img.getHeight(),
        tileWidth: img.isTiled ? img.getTileWidth() : img.getWidth(),
        tileHeight: img.isTiled ? img.getTileHeight() : Math.min(img.getHeight(), Math.max(1, Math.round(65536 / img.getWidth()))),
        scaleX: w / img.getWidth(),
        scaleY: h / img.getHeight(),
        reads: reads.get(img) as TileReads,
      }))
      .sort((a, b) => a.scaleX - b.scaleX);
    let origin: number[];
    let res: number[];
    try {
      origin = full.getOrigin();
      res = full.getResolution();
    } catch {
      throw new ImageryError('The GeoTIFF has no georeferencing (no tie point or transformation), so it cannot be placed on the map.');
    }
    const transform = full.fileDirectory.getValue('ModelTransformation') as number[] | undefined;
    if (transform && (transform[1] !== 0 || transform[4] !== 0)) {
      throw new ImageryError('The GeoTIFF is rotated; only north-up images can be placed on the map.');
    }
    const keys = (full.getGeoKeys() ?? {}) as Record<string, number | undefined>;
    const code = keys.ProjectedCSTypeGeoKey ?? (keys.GTModelTypeGeoKey === 2 ? keys.GeographicTypeGeoKey : undefined) ?? opts.epsg;
    if (code === undefined || code === 32767) {
      throw new ImageryError('The GeoTIFF names no EPSG coordinate reference system, so it cannot be placed on the map.');
    }
    if (!projDefinition(code)) {
      throw new ImageryError(`The GeoTIFF is in EPSG:${code}, which the map cannot reproject (supported: EPSG:4326, EPSG:3857 and the UTM zones).`);
    }
    const nd = full.getGDALNoData();
    return new Cog(source, levels, full.getSamplesPerPixel(), code, origin[0], origin[1], res[0], res[1], nd ?? undefined, opts.pool);
  }

  get width(): number {
    return this.levels[0].width;
  }

  get height(): number {
    return this.levels[0].height;
  }

  /**
   * The finest level whose pixels are still no finer than the screen's (`srcPerScreen`
   * full-resolution pixels per screen pixel): the fewest bytes for a sharp view. Zoomed out
   * beyond the coarsest overview, the coarsest.
   */
  pickLevel(srcPerScreen: number): number {
    for (let i = 0; i < this.levels.length; i++) if (this.levels[i].scaleX >= srcPerScreen * 0.999) return i;
    return this.levels.length - 1;
  }

  /**
   * Whether each tile holds every band of its pixels (PlanarConfiguration 1): reading a tile
   * then costs the same bytes whichever bands are decoded.
   */
  get chunky(): boolean {
    return Number(this.levels[0].image.fileDirectory.getValue('PlanarConfiguration') ?? 1) !== 2;
  }

  /** A tile already read (or being read) with these samples; never starts a read. */
  peek(level: number, tx: number, ty: number, samples: number[]): Promise<DecodedTile> | undefined {
    return this.tiles.get(`${level}/${tx}/${ty}/${samples.join(',')}`);
  }

  /** A tile already decoded (and still cached) with these samples; never starts a read. */
  decoded(level: number, tx: number, ty: number, samples: number[]): DecodedTile | undefined {
    return this.decodedTiles.get(`${level}/${tx}/${ty}/${samples.join(',')}`);
  }

  /** A decoded tile of a level holding the given samples (0-based band indices). */
  tile(level: number, tx: number, ty: number, samples: number[], signal?: AbortSignal): Promise<DecodedTile> {
    const key = `${level}/${tx}/${ty}/${samples.join(',')}`;
    const hit = this.tiles.get(key);
    if (hit) {
      this.tiles.delete(key);
      this.tiles.set(key, hit);
      return hit;
    }
    const L = this.levels[level];
    const x0 = tx * L.tileWidth;
    const y0 = ty * L.tileHeight;
    const x1 = Math.min(L.width, x0 + L.tileWidth);
    const y1 = Math.min(L.height, y0 + L.tileHeight);
    // Not tied to one map tile's signal: other map tiles may wait on the same source tile.
    void signal;
    const p = L.image
      .readRasters({ window: [x0, y0, x1, y1], samples, pool: this.pool, interleave: false })
      .then((r) => {
        const t: DecodedTile = { x0, y0, width: x1 - x0, height: y1 - y0, bands: Array.from(r as unknown as Samples[]) };
        if (this.tiles.get(key) === p) this.decodedTiles.set(key, t);
        return t;
      })
      .catch((e: unknown) => {
        this.tiles.delete(key);
        throw asReadable(e, 'A tile could not be read (the file may be truncated or corrupt)');
      });
    this.tiles.set(key, p);
    while (this.tiles.size > Cog.MAX_TILES) {
      const oldest = this.tiles.keys().next().value as string;
      this.tiles.delete(oldest);
      this.decodedTiles.delete(oldest);
    }
    return p;
  }

  /**
   * The byte ranges of the tiles a window of `readRasters` reads at a level (the samples' own
   * tiles, for a band-separate file), in the order geotiff.js (and fastRaster.ts) visit them;
   * a tile stored with no bytes is no read (geotiff.js fills it with no-data). Strip files have
   * none: geotiff.js reads those itself.
   */
  async tileRanges(level: number, win: [number, number, number, number], samples: number[]): Promise<ByteRange[]> {
    const L = this.levels[level];
    if (!L.image.isTiled) return [];
    const fd = L.image.fileDirectory;
    const across = Math.ceil(L.width / L.tileWidth);
    const down = Math.ceil(L.height / L.tileHeight);
    const planes = Number(fd.getValue('PlanarConfiguration') ?? 1) === 2 ? [...new Set(samples)] : [0];
    const indices: number[] = [];
    for (let ty = Math.max(0, Math.floor(win[1] / L.tileHeight)); ty < Math.min(down, Math.ceil(win[3] / L.tileHeight)); ty++) {
      for (let tx = Math.max(0, Math.floor(win[0] / L.tileWidth)); tx < Math.min(across, Math.ceil(win[2] / L.tileWidth)); tx++) {
        for (const p of planes) indices.push(p * across * down + ty * across + tx);
      }
    }
    const at = (tag: string, i: number) => fd.loadValueIndexed(tag as never, i).then(Number);
    const ranges = await Promise.all(indices.map(async (i) => ({ offset: await at('TileOffsets', i), length: await at('TileByteCounts', i) })));
    return ranges.filter((r) => r.length > 0);
  }

  /**
   * Asks for these tile ranges of a level ahead, merged into few requests (checked as every
   * tile read is); geotiff.js's reads of them are then served from those. Returns what drops
   * the ones not read by then.
   */
  prefetch(level: number, ranges: ByteRange[], signal?: AbortSignal): () => void {
    return this.levels[level].reads.prefetch(ranges, signal);
  }

  /**
   * Every tile of a level (for statistics), through the tile cache: the overview read for the
   * stretch is the one the first view of a whole scene draws, so it is fetched once.
   */
  async levelTiles(level: number, samples: number[]): Promise<DecodedTile[]> {
    const L = this.levels[level];
    const cols = Math.ceil(L.width / L.tileWidth);
    const rows = Math.ceil(L.height / L.tileHeight);
    if (cols * rows > 64) throw new ImageryError('The file has no overview small enough for statistics; set the stretch by hand.');
    const jobs: Promise<DecodedTile>[] = [];
    for (let ty = 0; ty < rows; ty++) for (let tx = 0; tx < cols; tx++) jobs.push(this.tile(level, tx, ty, samples));
    return Promise.all(jobs);
  }

  /** Corners of the image in its CRS: [minX, minY, maxX, maxY]. */
  get extent(): [number, number, number, number] {
    const xs = [this.originX, this.originX + this.width * this.resX];
    const ys = [this.originY, this.originY + this.height * this.resY];
    return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
  }
}

/**
 * Every tile or strip read of one image, now or ahead: inside the file, and no larger than the
 * tile can hold once decoded (twice that, and 64 KB, for compression that does not pay off). A
 * lying byte count never turns into a large read.
 */
function guardedTiles(source: RpcByteSource, layout: ImageLayout): TileReads {
  const most = 2 * layout.blockBytes + 64 * 1024;
  const check = (slices: { offset: number; length: number }[]) => {
    for (const s of slices) {
      const size = source.fileSize;
      if (s.length > most) {
        throw new ImageryError(
          l10n.t(
            'A tile of the file is stored in {0} while it holds {1} of pixels; its byte counts cannot be right, so the map does not read it.',
            byteSize(s.length),
            byteSize(layout.blockBytes),
          ),
        );
      }
      if (size !== null && s.offset + s.length > size) {
        throw new ImageryError(
          l10n.t(
            'A tile of the file lies past its end (bytes {0} to {1} of a {2}-byte file); the file is truncated or corrupt.',
            s.offset,
            s.offset + s.length,
            size,
          ),
        );
      }
    }
  };
  return {
    async fetch(slices, signal) {
      check(slices);
      return source.fetch(slices, signal);
    },
    // the same checks before anything is asked for ahead: a lying byte count is no larger read merged
    prefetch(slices, signal, limits) {
      check(slices);
      return source.prefetch(slices, signal, limits);
    },
  };
}

/** Errors from the extension (already readable) pass through; geotiff.js's internals get a sentence first. */
export function asReadable(e: unknown, what: string): Error {
  if (e instanceof ImageryError) return e;
  const err = e as Error & { status?: number; fromHost?: boolean };
  if (err && (err.status !== undefined || err.fromHost)) return err;
  if (err?.name === 'AbortError') return err;
  return new ImageryError(`${what}: ${err?.message ?? String(e)}.`);
}
