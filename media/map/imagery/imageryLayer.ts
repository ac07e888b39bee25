/**
 * One imagery layer on the map: a Leaflet grid layer whose 256-pixel tiles are warped from the
 * GeoTIFF's level that matches the zoom, and shown as images (bmp.ts says why not canvases). Leaflet is the map bundle's own copy, handed
 * in, so this chunk does not carry a second one.
 */
import type * as Leaflet from 'leaflet';
import { compileIndexExpression } from '../../../src/api/indexExpression';
import type { ImageryBand, ImageryLayerSpec } from '../../../src/panels/imagery/protocol';
import { Cog, asReadable, type DecodedTile } from './cog';
import { ImageryError } from './imageryError';
import { classColors, colormapLut } from './colormaps';
import type { ReadBytes } from './byteSource';
import { createPngLayer } from '../pngLayer';
import { anyVisible, bmpBlob } from './bmp';
import { paint, type Look, type TileGrid } from './pixels';
import { autoStretch } from './autoStretch';
import { bandIndex, bandsOf, bandValue, compositeOf, samplesFor } from './layerBands';
import type { Range } from './stretch';
import { fromMercator, mercatorPixel, toLonLat, warpGrid } from './projection';
import type { Pool } from 'geotiff';

export type LayerStatus = { state: 'opening' } | { state: 'loading'; done: number; total: number } | { state: 'ready' } | { state: 'error'; text: string };

export interface ImageryLayerDeps {
  L: typeof Leaflet;
  read: ReadBytes;
  pool?: Pool;
  pane: string;
  onStatus(status: LayerStatus): void;
  /** The first time pixels were drawn (the preview can go). */
  onFirstPixels(): void;
  /**
   * A stretch worked out for several layers together (the dates of a time slider or a
   * timelapse), taken when the look names none; undefined: the layer works out its own.
   */
  sharedStretch?: Promise<Range[] | undefined>;
}

export interface ImageryLayerHandle extends Leaflet.GridLayer {
  spec: ImageryLayerSpec;
  /** Resolves once the file is open and the stretch known; rejects with a readable error. */
  ready: Promise<Cog>;
  /** Band names of the file, in order (from the spec, else `Band 1…`). */
  bandNames(): Promise<ImageryBand[]>;
  /** The stretch in use per channel (physical units), once known. */
  stretch?: [number, number][];
  /** Resolves once the look (bands, stretch) is worked out. */
  lookReady(): Promise<void>;
  setLook(spec: ImageryLayerSpec): void;
  /** Bounds of the image on the map, once open. */
  lonLatBounds(): Promise<Leaflet.LatLngBounds | undefined>;
  /**
   * A 256-pixel block at any zoom (fractional too), painted as the tiles are, unclipped, into
   * `out` (256 × 256): the timelapse frames. Undefined when nothing of the image falls on it.
   */
  paintBlock(z: number, px0: number, py0: number, out: ImageData): Promise<ImageData | undefined>;
  /** Stops reading: reads in flight are aborted (their connections closed by the extension). */
  cancel(): void;
  /** Bands (0-based) the decoded tiles hold, once the look is known: the pixel inspector and histogram read them. */
  samples?: number[];
  /** How the tiles are coloured, once known: an index layer's histogram computes its values with it. */
  look?: Look;
  timings: { opened?: number; firstTile?: number; tilesMs: number[] };
  /** Map tiles still being drawn: not shown yet, or shown from another level until their own level's pixels arrive. */
  unrefined(): number;
}

const SIZE = 256;
/** Most source tiles one map tile may sample (more: the file lacks an overview for the zoom). */
const MAX_SOURCE_TILES = 64;

/** A box of full-resolution pixels: [minX, minY, maxX, maxY]. */
type Box = [number, number, number, number];

/** The source tiles of one level that a map tile samples, and how map coordinates reach that level. */
interface Plan {
  level: number;
  toLevel(mx: number, my: number): [number, number];
  tx0: number;
  ty0: number;
  cols: number;
  rows: number;
}
/**
 * A tile painted from a coarser level than its own is painted at that level's detail, at most
 * this many times fewer pixels a side (the image element scales it up): an interim costs a
 * fraction of a full tile, so a zoom step's first frame does not wait for 256 × 256 pixels a
 * tile. Never fewer than 32 a side, even from the coarsest overview.
 */
const MAX_INTERIM_SHRINK = 3;
/** Coordinates and pixels of one tile, per size painted (256, and the interims' smaller ones). */
const buffers = new Map<number, { xy: Float32Array; img: ImageData }>();
const scratch = new Map<number, CanvasRenderingContext2D | null>();

function buffersOf(size: number): { xy: Float32Array; img: ImageData } {
  let b = buffers.get(size);
  if (!b) buffers.set(size, (b = { xy: new Float32Array(size * size * 2), img: new ImageData(size, size) }));
  return b;
}

/** A tile-sized canvas off the page, for clipping a tile to its AOI before it becomes an image. */
function scratchContext(size: number): CanvasRenderingContext2D | null {
  if (!scratch.has(size)) {
    const c = document.createElement('canvas');
    c.width = size;
    c.height = size;
    scratch.set(size, c.getContext('2d', { willReadFrequently: true }));
  }
  return scratch.get(size) ?? null;
}

/**
 * Shows a drawn tile; a tile that is gone before its image decodes just stays empty. A tile
 * that already shows a picture (a coarser level's) keeps it until the new one is decoded.
 */
async function showTile(tile: HTMLImageElement, bmp: Blob): Promise<void> {
  const url = URL.createObjectURL(bmp);
  if (tile.getAttribute('src')) {
    const next = new Image();
    next.src = url;
    await next.decode().catch(() => undefined);
  }
  tile.src = url;
  // the decoded image keeps its bytes: the URL is not needed once it has loaded
  await tile.decode().catch(() => undefined);
  URL.revokeObjectURL(url);
}

export function createImageryLayer(spec: ImageryLayerSpec, deps: ImageryLayerDeps): ImageryLayerHandle {
  // a picture the service rendered has no file to read: media/map/pngLayer.ts lays it over its box
  if (spec.render.kind === 'png') return createPngLayer(spec, deps) as unknown as ImageryLayerHandle;
  const L = deps.L;
  let cancelled = false;
  let current = spec;
  let pending = 0;
  let done = 0;
  let lastError: string | undefined;
  let announcedPixels = false;
  const started = performance.now();
  const timings: ImageryLayerHandle['timings'] = { tilesMs: [] };

  // Every byte read of this layer carries this signal: removing the layer aborts the reads in
  // flight, and the extension closes their connections.
  const abort = new AbortController();
  const read: ReadBytes = (p) => deps.read(p, abort.signal);
  const ready: Promise<Cog> = Cog.open(spec.url, read, { epsg: spec.epsg, pool: deps.pool });
  ready.then(
    () => (timings.opened = performance.now() - started),
    () => undefined,
  );

  /** The samples to read and how to colour them, for the current look. */
  const lookOf = async (cog: Cog): Promise<{ samples: number[]; look: Look }> => {
    const bands = bandsOf(current, cog);
    const indexOf = (name: string): number => bandIndex(bands, cog, name);
    const r = current.render;
    if (r.kind === 'rgb') {
      const composite = compositeOf(r, bands, cog);
      const stretch = r.stretch ?? (await deps.sharedStretch) ?? (await autoStretch(cog, bands, composite, r));
      handle.stretch = stretch;
      return { samples: composite.samples, look: { kind: 'rgb', channels: composite.channels, stretch, nodata: composite.nodata } };
    }
    if (r.kind === 'classes') {
      const i = r.band ? indexOf(r.band) : 0;
      if (cog.bandCount < 1) throw new ImageryError('The file has no bands to show.');
      return { samples: [i], look: { kind: 'classes', slot: 0, colors: classColors(r.classes), nodata: bands[i]?.nodata ?? cog.nodata } };
    }
    if (r.kind !== 'index') throw new ImageryError('This layer has no index to compute.');
    const compiled = compileIndexExpression(r.expression);
    if ('error' in compiled) throw new ImageryError(`The expression "${r.expression}" does not parse: ${compiled.error}.`);
    const idx = compiled.bands.map(indexOf);
    const samples = samplesFor(cog, idx);
    const lut = colormapLut(r.colormap) ?? (colormapLut('viridis') as Uint8ClampedArray);
    return {
      samples,
      look: {
        kind: 'index',
        inputs: idx.map((i) => bandValue(bands[i], samples.indexOf(i))),
        evaluate: compiled.evaluate,
        rescale: r.rescale,
        lut,
        nodata: bands[idx[0]]?.nodata ?? cog.nodata,
      },
    };
  };

  let lookPromise: Promise<{ samples: number[]; look: Look }> | undefined;
  const look = (cog: Cog) =>
    (lookPromise ??= lookOf(cog).then((r) => {
      handle.samples = r.samples;
      handle.look = r.look;
      return r;
    }));

  // "Loading tiles: n of m" changes with every tile: written once a frame, not once a tile (a
  // zoom step starts dozens); ready and errors are told at once
  let reportFrame: number | undefined;
  const report = () => {
    if (cancelled) return;
    if (pending > 0) {
      reportFrame ??= requestAnimationFrame(() => {
        reportFrame = undefined;
        if (!cancelled && pending > 0) deps.onStatus({ state: 'loading', done, total: done + pending });
      });
      return;
    }
    if (reportFrame !== undefined) cancelAnimationFrame(reportFrame);
    reportFrame = undefined;
    if (lastError) deps.onStatus({ state: 'error', text: lastError });
    else deps.onStatus({ state: 'ready' });
  };

  /**
   * The full-resolution pixel box a map tile covers: its outline sampled (16 points a side)
   * through the projection once, whichever levels are then planned from it.
   */
  function outlineOf(toFull: (mx: number, my: number) => [number, number], z: number, px0: number, py0: number): Box {
    const box: Box = [Infinity, Infinity, -Infinity, -Infinity];
    for (let k = 0; k <= 16; k++) {
      for (const [gx, gy] of [
        [k, 0],
        [k, 16],
        [0, k],
        [16, k],
      ]) {
        const [mx, my] = mercatorPixel(z, px0 + (gx * SIZE) / 16, py0 + (gy * SIZE) / 16);
        const [x, y] = toFull(mx, my);
        if (x < box[0]) box[0] = x;
        if (x > box[2]) box[2] = x;
        if (y < box[1]) box[1] = y;
        if (y > box[3]) box[3] = y;
      }
    }
    return box;
  }

  /** Which source tiles of a level one map tile needs (its outline's box, a pixel to spare); undefined when none. */
  function planFor(cog: Cog, level: number, toFull: (mx: number, my: number) => [number, number], box: Box): Plan | undefined {
    const Lv = cog.levels[level];
    const toLevel = (mx: number, my: number): [number, number] => {
      const [x, y] = toFull(mx, my);
      return [x / Lv.scaleX, y / Lv.scaleY];
    };
    const minX = box[0] / Lv.scaleX - 1;
    const minY = box[1] / Lv.scaleY - 1;
    const maxX = box[2] / Lv.scaleX + 1;
    const maxY = box[3] / Lv.scaleY + 1;
    if (!(maxX >= 0 && maxY >= 0 && minX < Lv.width && minY < Lv.height)) return undefined; // not on this tile
    const tx0 = Math.max(0, Math.floor(minX / Lv.tileWidth));
    const ty0 = Math.max(0, Math.floor(minY / Lv.tileHeight));
    const tx1 = Math.min(Math.ceil(Lv.width / Lv.tileWidth) - 1, Math.floor(maxX / Lv.tileWidth));
    const ty1 = Math.min(Math.ceil(Lv.height / Lv.tileHeight) - 1, Math.floor(maxY / Lv.tileHeight));
    return { level, toLevel, tx0, ty0, cols: tx1 - tx0 + 1, rows: ty1 - ty0 + 1 };
  }

  /** Every source tile of a plan, when all are decoded already; else undefined (no read is started). */
  function decodedOf(cog: Cog, plan: Plan, samples: number[]): DecodedTile[] | undefined {
    if (plan.cols * plan.rows > MAX_SOURCE_TILES) return undefined;
    const out: DecodedTile[] = [];
    for (let ty = plan.ty0; ty < plan.ty0 + plan.rows; ty++) {
      for (let tx = plan.tx0; tx < plan.tx0 + plan.cols; tx++) {
        const t = cog.decoded(plan.level, tx, ty, samples);
        if (!t) return undefined;
        out.push(t);
      }
    }
    return out;
  }

  /** Reads (or takes from the cache) every source tile of a plan. */
  function readAll(cog: Cog, plan: Plan, samples: number[]): Promise<DecodedTile[]> {
    const jobs: Promise<DecodedTile>[] = [];
    for (let ty = plan.ty0; ty < plan.ty0 + plan.rows; ty++)
      for (let tx = plan.tx0; tx < plan.tx0 + plan.cols; tx++) jobs.push(cog.tile(plan.level, tx, ty, samples));
    return Promise.all(jobs);
  }

  /**
   * Warps and paints a plan's decoded tiles into `out`, synchronously; false when nothing shows.
   * `out` may be smaller than the 256-pixel block (an interim): the block is sampled at its size.
   */
  function paintInto(cog: Cog, plan: Plan, tiles: DecodedTile[], lk: Look, z: number, px0: number, py0: number, out: ImageData): boolean {
    const Lv = cog.levels[plan.level];
    const size = out.width;
    // a block of 256 map pixels at zoom z is one of `size` map pixels at a zoom lower by the ratio's log
    const k = Math.log2(SIZE / size);
    const grid: TileGrid = {
      tiles,
      tx0: plan.tx0,
      ty0: plan.ty0,
      cols: plan.cols,
      rows: plan.rows,
      tileWidth: Lv.tileWidth,
      tileHeight: Lv.tileHeight,
      levelWidth: Lv.width,
      levelHeight: Lv.height,
    };
    const { xy } = buffersOf(size);
    warpGrid(plan.toLevel, z - k, px0 / 2 ** k, py0 / 2 ** k, size, xy);
    return paint(xy, size, grid, lk, out.data) > 0;
  }

  /**
   * Warps, paints, clips and encodes one map tile from a plan's decoded tiles, synchronously,
   * so every tile of a size shares one coordinate and one pixel buffer. `size` is 256 but for an
   * interim (fewer pixels, scaled up by the image). Undefined when nothing shows.
   */
  function paintPlan(cog: Cog, plan: Plan, tiles: DecodedTile[], lk: Look, coords: Leaflet.Coords, map: Leaflet.Map, size = SIZE): Blob | undefined {
    const img = buffersOf(size).img;
    if (!paintInto(cog, plan, tiles, lk, coords.z, coords.x * SIZE, coords.y * SIZE, img)) return undefined;
    let pixels: Uint8ClampedArray<ArrayBuffer> = img.data;
    const ctx = current.clip ? scratchContext(size) : null;
    if (ctx) {
      ctx.putImageData(img, 0, 0);
      clipTo(ctx, current.clip, map, coords, size / SIZE);
      pixels = ctx.getImageData(0, 0, size, size).data;
      // paint() counted visible pixels; only the AOI clip can have erased them all since
      if (!anyVisible(pixels)) return undefined;
    }
    return bmpBlob(pixels, size, size);
  }

  /**
   * How many pixels a side an interim from `level` needs to keep that level's detail on a
   * block whose own level needs `srcPerScreen` full-resolution pixels per screen pixel: a
   * level twice as coarse, 128; a finer one (after zooming out) is sampled at 128 as well.
   */
  function interimSize(cog: Cog, level: number, srcPerScreen: number): number {
    const coarser = Math.log2(cog.levels[level].scaleX / srcPerScreen);
    const shrink = Math.min(MAX_INTERIM_SHRINK, Math.max(1, Math.floor(coarser + 1e-6)));
    return SIZE >> shrink;
  }

  /** Web Mercator metres to the file's full-resolution pixel coordinates (one proj4 transformer per file, not per tile). */
  let fullPixel: { cog: Cog; fn: (mx: number, my: number) => [number, number] } | undefined;
  function fullPixelOf(cog: Cog): (mx: number, my: number) => [number, number] {
    if (fullPixel?.cog === cog) return fullPixel.fn;
    const fwd = fromMercator(cog.epsg);
    if (!fwd) throw new ImageryError(`EPSG:${cog.epsg} cannot be reprojected.`);
    const fn = (mx: number, my: number): [number, number] => {
      const [x, y] = fwd(mx, my);
      return [(x - cog.originX) / cog.resX, (y - cog.originY) / cog.resY];
    };
    fullPixel = { cog, fn };
    return fn;
  }

  /** The plan of the level a block at zoom `z` needs (how many full-resolution pixels one screen pixel spans there). */
  function planAt(
    cog: Cog,
    toFull: (mx: number, my: number) => [number, number],
    z: number,
    px0: number,
    py0: number,
  ): (Plan & { srcPerScreen: number; box: Box }) | undefined {
    const srcPerScreen = warpProbe(toFull, z, px0 + SIZE / 2, py0 + SIZE / 2);
    const level = cog.pickLevel(srcPerScreen);
    const box = outlineOf(toFull, z, px0, py0);
    const plan = planFor(cog, level, toFull, box);
    if (plan && plan.cols * plan.rows > MAX_SOURCE_TILES) throw new ImageryError('The file has no overview for this zoom; zoom in to see it.');
    return plan && { ...plan, srcPerScreen, box };
  }

  async function paintBlock(z: number, px0: number, py0: number, out: ImageData): Promise<ImageData | undefined> {
    const cog = await ready;
    const { samples, look: lk } = await look(cog);
    if (cancelled) return undefined;
    const plan = planAt(cog, fullPixelOf(cog), z, px0, py0);
    if (!plan) return undefined;
    const tiles = decodedOf(cog, plan, samples) ?? (await readAll(cog, plan, samples));
    if (cancelled) return undefined;
    return paintInto(cog, plan, tiles, lk, z, px0, py0, out) ? out : undefined;
  }

  const pixelsShown = () => {
    if (announcedPixels) return;
    announcedPixels = true;
    timings.firstTile = performance.now() - started;
    deps.onFirstPixels();
  };

  /**
   * The tile's pixels as a BMP, or undefined when nothing of the image falls on it. When the
   * level the zoom needs is not decoded yet, another level that is (the one drawn before a
   * zoom step, or the overview read for the stretch) is painted and handed to `interim` at
   * once, scaled by the warp; the tile is painted again when its own tiles arrive.
   */
  async function draw(coords: Leaflet.Coords, map: Leaflet.Map, interim: (bmp: Blob) => Promise<void>): Promise<Blob | undefined> {
    const t0 = performance.now();
    const cog = await ready;
    const { samples, look: lk } = await look(cog);
    if (cancelled) return;
    const toFull = fullPixelOf(cog);
    const px0 = coords.x * SIZE;
    const py0 = coords.y * SIZE;
    const plan = planAt(cog, toFull, coords.z, px0, py0);
    if (!plan) return undefined;
    const level = plan.level;
    let tiles = decodedOf(cog, plan, samples);
    if (!tiles) {
      let shown: Promise<void> | undefined;
      // nearest coarser levels first (fewer tiles to sample), then finer ones
      const others = [...cog.levels.keys()]
        .filter((l) => l !== level)
        .sort((a, b) => (a > level ? a - level : 100 + level - a) - (b > level ? b - level : 100 + level - b));
      for (const other of others) {
        const p = planFor(cog, other, toFull, plan.box);
        const got = p && decodedOf(cog, p, samples);
        if (!p || !got) continue;
        const bmp = paintPlan(cog, p, got, lk, coords, map, interimSize(cog, other, plan.srcPerScreen));
        if (bmp && !cancelled) {
          pixelsShown();
          shown = interim(bmp);
        }
        break;
      }
      // the reads start once the interim is shown: a zoom step's first frame does not wait
      // behind dozens of read requests (and their replies) of its own making
      if (shown) await shown;
      if (cancelled) return undefined;
      tiles = await readAll(cog, plan, samples);
      if (cancelled) return undefined;
    }
    const bmp = paintPlan(cog, plan, tiles, lk, coords, map);
    if (!bmp) return undefined;
    timings.tilesMs.push(performance.now() - t0);
    pixelsShown();
    return bmp;
  }

  const Grid = L.GridLayer.extend({
    createTile(this: Leaflet.GridLayer & { _map: Leaflet.Map }, coords: Leaflet.Coords, cb: Leaflet.DoneCallback): HTMLElement {
      const tile = document.createElement('img');
      tile.alt = '';
      tile.setAttribute('role', 'presentation');
      pending++;
      report();
      const map = this._map;
      // Leaflet counts the tile shown from its first picture (a coarser level's, scaled, when
      // the zoom's own tiles are still on their way); the layer is ready once every tile has
      // its own level's pixels
      let shown = false;
      const markShown = () => {
        if (shown) return;
        shown = true;
        cb(undefined, tile);
      };
      draw(coords, map, async (bmp) => {
        if (cancelled) return;
        await showTile(tile, bmp);
        markShown();
      })
        .then(
          async (bmp) => {
            if (bmp && !cancelled) await showTile(tile, bmp);
            // an image without a source gets a grey outline from the browser: a tile with nothing on it is not shown
            else tile.style.display = 'none';
            markShown();
          },
          (e: unknown) => {
            if (!cancelled) lastError = asReadable(e, 'The image could not be drawn').message;
            tile.style.display = 'none';
            markShown();
          },
        )
        .finally(() => {
          pending--;
          done++;
          report();
        });
      return tile;
    },
  });

  const handle = new (Grid as unknown as new (o: Leaflet.GridLayerOptions) => Leaflet.GridLayer)({
    pane: deps.pane,
    tileSize: SIZE,
    opacity: spec.opacity ?? 1,
    updateWhenZooming: false,
    keepBuffer: 1,
    maxNativeZoom: 22,
    maxZoom: 22,
  }) as unknown as ImageryLayerHandle;
  handle.spec = spec;
  handle.ready = ready;
  handle.timings = timings;
  handle.unrefined = () => pending;
  handle.paintBlock = paintBlock;
  handle.on('loading', () => {
    done = 0;
    lastError = undefined;
  });
  ready.catch((e: unknown) => {
    if (cancelled) return;
    lastError = asReadable(e, 'The image could not be opened').message;
    report();
  });
  handle.bandNames = async () => bandsOf(current, await ready);
  handle.lookReady = async () => {
    await look(await ready);
  };
  handle.setLook = (next: ImageryLayerSpec) => {
    current = next;
    handle.spec = next;
    lookPromise = undefined;
    handle.stretch = undefined;
    handle.look = undefined;
    lastError = undefined;
    handle.redraw();
  };
  handle.lonLatBounds = async () => {
    const cog = await ready;
    const inv = toLonLat(cog.epsg);
    if (!inv) return undefined;
    const [x0, y0, x1, y1] = cog.extent;
    const pts = [
      [x0, y0],
      [x0, y1],
      [x1, y0],
      [x1, y1],
      [(x0 + x1) / 2, y0],
      [(x0 + x1) / 2, y1],
    ].map(([x, y]) => inv(x, y));
    return L.latLngBounds(pts.map(([lon, lat]) => L.latLng(lat, lon)));
  };
  handle.cancel = () => {
    cancelled = true;
    abort.abort();
  };
  return handle;
}

/** Full-resolution source pixels per screen pixel at a map pixel (a finite difference). */
export function warpProbe(toFull: (x: number, y: number) => [number, number], z: number, px: number, py: number): number {
  const size = 2 * Math.PI * 6378137;
  const res = size / (256 * 2 ** z);
  const mx = px * res - size / 2;
  const my = size / 2 - py * res;
  const [ax, ay] = toFull(mx, my);
  const [bx, by] = toFull(mx + res, my);
  const [cx, cy] = toFull(mx, my - res);
  return Math.max(Math.hypot(bx - ax, by - ay), Math.hypot(cx - ax, cy - ay));
}

/** Clips a painted tile to the AOI; `scale` is the canvas's pixels per map pixel (below 1 for an interim). */
function clipTo(ctx: CanvasRenderingContext2D, clip: unknown, map: Leaflet.Map, coords: Leaflet.Coords, scale: number): void {
  const g = clip as { type?: string; coordinates?: unknown };
  const polys: number[][][][] = g?.type === 'Polygon' ? [g.coordinates as number[][][]] : g?.type === 'MultiPolygon' ? (g.coordinates as number[][][][]) : [];
  if (!polys.length) return;
  const origin = { x: coords.x * SIZE, y: coords.y * SIZE };
  ctx.save();
  ctx.scale(scale, scale);
  ctx.globalCompositeOperation = 'destination-in';
  ctx.beginPath();
  for (const poly of polys) {
    for (const ring of poly) {
      ring.forEach(([lon, lat], i) => {
        const p = map.project([lat, lon], coords.z);
        if (i === 0) ctx.moveTo(p.x - origin.x, p.y - origin.y);
        else ctx.lineTo(p.x - origin.x, p.y - origin.y);
      });
      ctx.closePath();
    }
  }
  ctx.fillStyle = '#000';
  ctx.fill('evenodd');
  ctx.restore();
}
