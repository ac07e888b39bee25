/**
 * One imagery layer on the map: a Leaflet grid layer whose 256-pixel tiles are warped from the
 * GeoTIFF's level that matches the zoom, and shown as images (bmp.ts says why not canvases).
 * Its parts: layerLook.ts (how tiles are coloured), tilePlan.ts (which source tiles a map tile
 * needs), drawTile.ts (interim first, then the tile's own level), tilePaint.ts (warp, paint,
 * clip, encode), layerProgress.ts (the status line). Leaflet is the map bundle's own copy,
 * handed in, so this chunk does not carry a second one.
 */
import type * as Leaflet from 'leaflet';
import type { ImageryBand, ImageryLayerSpec } from '../../../src/panels/imagery/protocol';
import { Cog, asReadable } from './cog';
import type { ReadBytes } from './byteSource';
import { createPngLayer } from '../pngLayer';
import type { Look } from './pixels';
import { bandsOf } from './layerBands';
import type { Range } from './stretch';
import { toLonLat } from './projection';
import type { Pool } from 'geotiff';
import { lookOf, type LayerLook } from './layerLook';
import { LayerProgress, type LayerStatus } from './layerProgress';
import { decodedOf, fullPixelMapper, planAt, readAll, SIZE, type ToFull } from './tilePlan';
import { paintInto, showTile } from './tilePaint';
import { drawTile } from './drawTile';

export type { LayerStatus };

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

/** The layer's state shared by its tiles: the file, the look, cancellation and timings. */
interface LayerState {
  spec: ImageryLayerSpec;
  deps: ImageryLayerDeps;
  ready: Promise<Cog>;
  look(cog: Cog): Promise<LayerLook>;
  toFull(cog: Cog): ToFull;
  cancelled(): boolean;
  progress: LayerProgress;
  pixelsShown(): void;
  timings: ImageryLayerHandle['timings'];
}

export function createImageryLayer(spec: ImageryLayerSpec, deps: ImageryLayerDeps): ImageryLayerHandle {
  // a picture the service rendered has no file to read: media/map/pngLayer.ts lays it over its box
  if (spec.render.kind === 'png') return createPngLayer(spec, deps) as unknown as ImageryLayerHandle;
  let cancelled = false;
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

  let lookPromise: Promise<LayerLook> | undefined;
  // one proj4 transformer per file, not per tile
  let fullPixel: { cog: Cog; fn: ToFull } | undefined;
  const state: LayerState = {
    spec,
    deps,
    ready,
    look: (cog) =>
      (lookPromise ??= lookOf(state.spec, cog, deps.sharedStretch).then((r) => {
        handle.stretch = r.stretch;
        handle.samples = r.samples;
        handle.look = r.look;
        return r;
      })),
    toFull: (cog) => (fullPixel?.cog === cog ? fullPixel : (fullPixel = { cog, fn: fullPixelMapper(cog) })).fn,
    cancelled: () => cancelled,
    progress: new LayerProgress(deps.onStatus, () => cancelled),
    pixelsShown: () => {
      if (announcedPixels) return;
      announcedPixels = true;
      timings.firstTile = performance.now() - started;
      deps.onFirstPixels();
    },
    timings,
  };

  const handle = gridLayer(state);
  handle.setLook = (next: ImageryLayerSpec) => {
    state.spec = next;
    handle.spec = next;
    lookPromise = undefined;
    handle.stretch = undefined;
    handle.look = undefined;
    state.progress.lastError = undefined;
    handle.redraw();
  };
  handle.cancel = () => {
    cancelled = true;
    abort.abort();
  };
  return handle;
}

/** The Leaflet grid layer and the handle's reads of the file. */
function gridLayer(s: LayerState): ImageryLayerHandle {
  const L = s.deps.L;
  const Grid = L.GridLayer.extend({
    createTile(this: Leaflet.GridLayer & { _map: Leaflet.Map }, coords: Leaflet.Coords, cb: Leaflet.DoneCallback): HTMLElement {
      return createTile(s, coords, this._map, cb);
    },
  });
  const handle = new (Grid as unknown as new (o: Leaflet.GridLayerOptions) => Leaflet.GridLayer)({
    pane: s.deps.pane,
    tileSize: SIZE,
    opacity: s.spec.opacity ?? 1,
    updateWhenZooming: false,
    keepBuffer: 1,
    maxNativeZoom: 22,
    maxZoom: 22,
  }) as unknown as ImageryLayerHandle;
  handle.spec = s.spec;
  handle.ready = s.ready;
  handle.timings = s.timings;
  handle.unrefined = () => s.progress.pending;
  handle.paintBlock = (z, px0, py0, out) => paintBlock(s, z, px0, py0, out);
  handle.on('loading', () => s.progress.restart());
  s.ready.catch((e: unknown) => {
    if (!s.cancelled()) s.progress.fail(asReadable(e, 'The image could not be opened').message);
  });
  handle.bandNames = async () => bandsOf(s.spec, await s.ready);
  handle.lookReady = async () => {
    await s.look(await s.ready);
  };
  handle.lonLatBounds = async () => {
    const cog = await s.ready;
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
  return handle;
}

/**
 * One map tile's image. Leaflet counts the tile shown from its first picture (a coarser level's,
 * scaled, when the zoom's own tiles are still on their way); the layer is ready once every tile
 * has its own level's pixels.
 */
function createTile(s: LayerState, coords: Leaflet.Coords, map: Leaflet.Map, cb: Leaflet.DoneCallback): HTMLElement {
  const tile = document.createElement('img');
  tile.alt = '';
  tile.setAttribute('role', 'presentation');
  s.progress.tileStarted();
  let shown = false;
  const markShown = () => {
    if (shown) return;
    shown = true;
    cb(undefined, tile);
  };
  draw(s, coords, map, async (bmp) => {
    s.pixelsShown();
    await showTile(tile, bmp);
    markShown();
  })
    .then(
      async (bmp) => {
        if (bmp && !s.cancelled()) await showTile(tile, bmp);
        // an image without a source gets a grey outline from the browser: a tile with nothing on it is not shown
        else tile.style.display = 'none';
        markShown();
      },
      (e: unknown) => {
        if (!s.cancelled()) s.progress.lastError = asReadable(e, 'The image could not be drawn').message;
        tile.style.display = 'none';
        markShown();
      },
    )
    .finally(() => s.progress.tileFinished());
  return tile;
}

/** A map tile's pixels as a BMP (see drawTile.ts), timed; undefined when nothing of the image falls on it. */
async function draw(s: LayerState, coords: Leaflet.Coords, map: Leaflet.Map, interim: (bmp: Blob) => Promise<void>): Promise<Blob | undefined> {
  const t0 = performance.now();
  const cog = await s.ready;
  const { samples, look } = await s.look(cog);
  if (s.cancelled()) return undefined;
  const bmp = await drawTile({ cog, samples, look, clip: s.spec.clip, coords, map, toFull: s.toFull(cog), cancelled: s.cancelled, interim });
  if (!bmp) return undefined;
  s.timings.tilesMs.push(performance.now() - t0);
  s.pixelsShown();
  return bmp;
}

/** A 256-pixel block at any zoom, painted as the tiles are but unclipped (the timelapse frames). */
async function paintBlock(s: LayerState, z: number, px0: number, py0: number, out: ImageData): Promise<ImageData | undefined> {
  const cog = await s.ready;
  const { samples, look } = await s.look(cog);
  if (s.cancelled()) return undefined;
  const plan = planAt(cog, s.toFull(cog), z, px0, py0);
  if (!plan) return undefined;
  const tiles = decodedOf(cog, plan, samples) ?? (await readAll(cog, plan, samples));
  if (s.cancelled()) return undefined;
  return paintInto(cog, plan, tiles, look, z, px0, py0, out) ? out : undefined;
}
