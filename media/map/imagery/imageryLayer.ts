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
import { defaultBands } from './presets';
import { createPngLayer } from '../pngLayer';
import { anyVisible, bmpBlob } from './bmp';
import { paint, percentiles, type BandValue, type Look, type TileGrid } from './pixels';
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
}

const SIZE = 256;
const shared = { xy: new Float32Array(SIZE * SIZE * 2), img: new ImageData(SIZE, SIZE) };
let scratch: CanvasRenderingContext2D | null | undefined;

/** A tile-sized canvas off the page, for clipping a tile to its AOI before it becomes an image. */
function scratchContext(): CanvasRenderingContext2D | null {
  if (scratch === undefined) {
    const c = document.createElement('canvas');
    c.width = SIZE;
    c.height = SIZE;
    scratch = c.getContext('2d', { willReadFrequently: true });
  }
  return scratch;
}

/** Shows a drawn tile; a tile that is gone before its image decodes just stays empty. */
async function showTile(tile: HTMLImageElement, bmp: Blob): Promise<void> {
  const url = URL.createObjectURL(bmp);
  tile.src = url;
  // the decoded image keeps its bytes: the URL is not needed once it has loaded
  await tile.decode().catch(() => undefined);
  URL.revokeObjectURL(url);
}

function bandValue(b: ImageryBand | undefined, slot: number): BandValue {
  return { slot, scale: b?.scale ?? 1, offset: b?.offset ?? 0 };
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

  const bandsOf = (cog: Cog): ImageryBand[] =>
    current.bands.length ? current.bands : Array.from({ length: cog.bandCount }, (_, i) => ({ name: `Band ${i + 1}` }));

  /** The samples to read and how to colour them, for the current look. */
  const lookOf = async (cog: Cog): Promise<{ samples: number[]; look: Look }> => {
    const bands = bandsOf(cog);
    const indexOf = (name: string): number => {
      const i = bands.findIndex((b) => b.name === name);
      if (i < 0) throw new ImageryError(`The file has no band named "${name}" (it has ${bands.map((b) => b.name).join(', ')}).`);
      if (i >= cog.bandCount) throw new ImageryError(`Band "${name}" is band ${i + 1}, but the file has only ${cog.bandCount} band(s).`);
      return i;
    };
    const r = current.render;
    if (r.kind === 'rgb') {
      // no bands named yet (the extension did not know the file's bands): the file's default
      const names = r.bands[0] ? r.bands : defaultBands(bands);
      if (!names) throw new ImageryError('The file has no bands to show.');
      const idx = names.map(indexOf);
      const samples = samplesFor(cog, idx);
      const channels = idx.map((i) => bandValue(bands[i], samples.indexOf(i))) as [BandValue, BandValue, BandValue];
      const stretch = r.stretch ?? (await autoStretch(cog, samples, channels, r.percentiles ?? [2, 98]));
      handle.stretch = stretch;
      return { samples, look: { kind: 'rgb', channels, stretch, nodata: bands[idx[0]]?.nodata ?? cog.nodata } };
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

  const report = () => {
    if (cancelled) return;
    if (lastError && pending === 0) deps.onStatus({ state: 'error', text: lastError });
    else if (pending > 0) deps.onStatus({ state: 'loading', done, total: done + pending });
    else deps.onStatus({ state: 'ready' });
  };

  /**
   * A 256-pixel block of the map at zoom `z` (fractional for a timelapse frame) whose top-left
   * map pixel is (px0, py0), painted into `out` (by default the shared buffer, which the caller
   * uses before its next await). Undefined when nothing of the image falls on it.
   */
  async function paintBlock(z: number, px0: number, py0: number, out: ImageData = shared.img): Promise<ImageData | undefined> {
    const cog = await ready;
    const { samples, look: lk } = await look(cog);
    if (cancelled) return;
    const fwd = fromMercator(cog.epsg);
    if (!fwd) throw new ImageryError(`EPSG:${cog.epsg} cannot be reprojected.`);
    const toFull = (mx: number, my: number): [number, number] => {
      const [x, y] = fwd(mx, my);
      return [(x - cog.originX) / cog.resX, (y - cog.originY) / cog.resY];
    };
    // how many full-resolution pixels one screen pixel spans here, to pick the level
    const mid = warpProbe(toFull, z, px0 + SIZE / 2, py0 + SIZE / 2);
    const level = cog.pickLevel(mid);
    const Lv = cog.levels[level];
    const toLevel = (mx: number, my: number): [number, number] => {
      const [x, y] = toFull(mx, my);
      return [x / Lv.scaleX, y / Lv.scaleY];
    };
    // which source tiles: the tile's outline, sampled, with a pixel to spare
    let minX = Infinity,
      minY = Infinity,
      maxX = -Infinity,
      maxY = -Infinity;
    for (let k = 0; k <= 16; k++) {
      for (const [gx, gy] of [
        [k, 0],
        [k, 16],
        [0, k],
        [16, k],
      ]) {
        const [mx, my] = mercatorPixel(z, px0 + (gx * SIZE) / 16, py0 + (gy * SIZE) / 16);
        const [x, y] = toLevel(mx, my);
        if (x < minX) minX = x;
        if (x > maxX) maxX = x;
        if (y < minY) minY = y;
        if (y > maxY) maxY = y;
      }
    }
    minX -= 1;
    minY -= 1;
    maxX += 1;
    maxY += 1;
    if (!(maxX >= 0 && maxY >= 0 && minX < Lv.width && minY < Lv.height)) return undefined; // not on this tile
    const tx0 = Math.max(0, Math.floor(minX / Lv.tileWidth));
    const ty0 = Math.max(0, Math.floor(minY / Lv.tileHeight));
    const tx1 = Math.min(Math.ceil(Lv.width / Lv.tileWidth) - 1, Math.floor(maxX / Lv.tileWidth));
    const ty1 = Math.min(Math.ceil(Lv.height / Lv.tileHeight) - 1, Math.floor(maxY / Lv.tileHeight));
    const cols = tx1 - tx0 + 1;
    const rows = ty1 - ty0 + 1;
    if (cols * rows > 64) throw new ImageryError('The file has no overview for this zoom; zoom in to see it.');
    const jobs: Promise<DecodedTile>[] = [];
    for (let ty = ty0; ty <= ty1; ty++) for (let tx = tx0; tx <= tx1; tx++) jobs.push(cog.tile(level, tx, ty, samples));
    const tiles = await Promise.all(jobs);
    if (cancelled) return undefined;
    const grid: TileGrid = { tiles, tx0, ty0, cols, rows, tileWidth: Lv.tileWidth, tileHeight: Lv.tileHeight, levelWidth: Lv.width, levelHeight: Lv.height };
    // warp and paint synchronously, so every block shares one coordinate and one pixel buffer
    warpGrid(toLevel, z, px0, py0, SIZE, shared.xy);
    return paint(shared.xy, SIZE, grid, lk, out.data) ? out : undefined;
  }

  /** The tile's pixels as a BMP, or undefined when nothing of the image falls on it. */
  async function draw(coords: Leaflet.Coords, map: Leaflet.Map): Promise<Blob | undefined> {
    const t0 = performance.now();
    const img = await paintBlock(coords.z, coords.x * SIZE, coords.y * SIZE);
    if (!img) return undefined;
    // clip and copy synchronously, before another tile paints into the shared buffer
    let pixels: Uint8ClampedArray<ArrayBuffer> = img.data;
    const ctx = current.clip ? scratchContext() : null;
    if (ctx) {
      ctx.putImageData(img, 0, 0);
      clipTo(ctx, current.clip, map, coords);
      pixels = ctx.getImageData(0, 0, SIZE, SIZE).data;
      // paint() counted visible pixels; only the AOI clip can have erased them all since
      if (!anyVisible(pixels)) return undefined;
    }
    const bmp = bmpBlob(pixels, SIZE, SIZE);
    timings.tilesMs.push(performance.now() - t0);
    if (!announcedPixels) {
      announcedPixels = true;
      timings.firstTile = performance.now() - started;
      deps.onFirstPixels();
    }
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
      draw(coords, map)
        .then(
          async (bmp) => {
            if (bmp && !cancelled) await showTile(tile, bmp);
            // an image without a source gets a grey outline from the browser: a tile with nothing on it is not shown
            else tile.style.display = 'none';
            cb(undefined, tile);
          },
          (e: unknown) => {
            if (!cancelled) lastError = asReadable(e, 'The image could not be drawn').message;
            tile.style.display = 'none';
            cb(undefined, tile);
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
  handle.on('loading', () => {
    done = 0;
    lastError = undefined;
  });
  ready.catch((e: unknown) => {
    if (cancelled) return;
    lastError = asReadable(e, 'The image could not be opened').message;
    report();
  });
  handle.bandNames = async () => bandsOf(await ready);
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
  handle.paintBlock = paintBlock;
  handle.cancel = () => {
    cancelled = true;
    abort.abort();
  };
  return handle;
}

/**
 * Which bands to decode: every band when a tile holds them all anyway (the bytes read are the
 * same), so the pixel inspector and a change of bands need no new read; else the look's.
 */
function samplesFor(cog: Cog, idx: number[]): number[] {
  return cog.chunky && cog.bandCount <= 256 ? Array.from({ length: cog.bandCount }, (_, i) => i) : [...new Set(idx)];
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

async function autoStretch(cog: Cog, samples: number[], channels: BandValue[], pct: [number, number]): Promise<[number, number][]> {
  // the coarsest level is the overview; its statistics are those of the scene
  const tiles = await cog.levelTiles(cog.levels.length - 1, samples);
  return channels.map(
    (ch) =>
      percentiles(
        tiles.map((t) => t.bands[ch.slot]),
        ch.scale,
        ch.offset,
        cog.nodata,
        pct[0],
        pct[1],
      ) ?? [0, 1],
  );
}

function clipTo(ctx: CanvasRenderingContext2D, clip: unknown, map: Leaflet.Map, coords: Leaflet.Coords): void {
  const g = clip as { type?: string; coordinates?: unknown };
  const polys: number[][][][] = g?.type === 'Polygon' ? [g.coordinates as number[][][]] : g?.type === 'MultiPolygon' ? (g.coordinates as number[][][][]) : [];
  if (!polys.length) return;
  const origin = { x: coords.x * SIZE, y: coords.y * SIZE };
  ctx.save();
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
