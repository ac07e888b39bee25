/**
 * What the extension and the map webview exchange about imagery layers. Pure types, bundled
 * into both ends. A layer is described once (`ImageryLayerSpec`): the extension builds it from
 * an archive item, an AOI asset, a visualization or an insight's raster output, and the webview
 * draws it, reading the file's bytes back through the extension (`readBytes`).
 */

/** One band of the file, in file order (band 1 first). */
export interface ImageryBand {
  /** `eo:bands[].name`, e.g. `B04`; unique within the file. */
  name: string;
  /** `eo:bands[].common_name`, e.g. `red`, `nir`, `swir16`. */
  commonName?: string;
  /** Centre wavelength in micrometres. */
  wavelength?: number;
  /** `raster:bands` scale and offset: physical value = raw × scale + offset. */
  scale?: number;
  offset?: number;
  nodata?: number;
}

/** How pixels become colours. Band references are band names of `ImageryLayerSpec.bands`. */
export type ImageryRender =
  | {
      kind: 'rgb';
      bands: [string, string, string];
      /** Per channel [min, max] in physical units; absent = percentile stretch from the overview. */
      stretch?: [number, number][];
      /** Percentiles of the automatic stretch, default [2, 98]. */
      percentiles?: [number, number];
      /**
       * The automatic stretch takes each band's own percentiles; absent = one range for the
       * three bands together (media/map/imagery/stretch.ts), which keeps their colours.
       */
      perBand?: boolean;
    }
  | {
      kind: 'index';
      /** An `index`/`grayscale` expression of the index grammar (`src/api/indexExpression.ts`). */
      expression: string;
      /** Values mapped to the two ends of the colour map. */
      rescale: [number, number];
      /** A matplotlib colour map name, e.g. `viridis`, `RdYlGn`; `_r` reverses it. */
      colormap: string;
      /** Shown above the legend's colour bar, e.g. `NDVI`. */
      legendTitle: string;
    }
  | {
      /** A picture the service rendered (the visualization PNG), laid over `bbox` as is. */
      kind: 'png';
      /** `data:image/png;base64,…`: the extension fetched it; the webview never fetches. */
      dataUrl: string;
      legend: PngLegend;
    }
  | {
      kind: 'classes';
      /** The band holding the class values; absent = the first. */
      band?: string;
      /** One colour per class value; values not listed are not drawn (transparent). */
      classes: ImageryClass[];
      /** Shown above the legend's list of classes, e.g. `Land cover`. */
      legendTitle: string;
    };

/** The legend beside a service-rendered picture: a colour bar over a range, or classes. */
export interface PngLegend {
  title: string;
  colormap?: string;
  /** The values at the two ends of the colour bar, when known. */
  range?: [number, number];
  /** The service's legend classes for that date and mode, when it sent them. */
  classes?: { min: number; max: number; color: string; label: string }[];
}

/**
 * A class of a classified raster (an insight output's `discretization` or `visualisation`):
 * pixels equal to `value` are drawn in `color`, a CSS hex colour as the service sends it
 * (`#rgb`, `#rgba`, `#rrggbb` or `#rrggbbaa`); the legend shows `name`.
 */
export interface ImageryClass {
  value: number;
  color: string;
  name?: string;
}

/** Where a layer came from, so that "Show Imagery" again replaces it instead of adding a copy. */
export type ImagerySource =
  | { kind: 'archiveItem'; collection: string; id: string; asset: string }
  | { kind: 'asset'; aoiId: string; id: string }
  | { kind: 'visualization'; aoiId: string; id: string; assetId: string }
  /** The service's PNG of a visualization for one date and legend mode. */
  | { kind: 'visualizationPng'; aoiId: string; id: string; date: string; mode: 'dynamic' | 'theoretical' }
  | { kind: 'insightOutput'; aoiId: string; runId: string; output: string }
  | { kind: 'url'; url: string };

export interface ImageryLayerSpec {
  /** Unique on the map; the same record shown again keeps its id. */
  id: string;
  title: string;
  /** The GeoTIFF's http(s) URL; bytes are read through the extension, never fetched here. */
  url: string;
  /** Known bands in file order; empty = read from the file and named `Band 1`, `Band 2`, … */
  bands: ImageryBand[];
  render: ImageryRender;
  /** Pixels outside this polygon (lon/lat, GeoJSON Polygon or MultiPolygon) are not drawn. */
  clip?: unknown;
  /** [west, south, east, north] in degrees: where the preview goes and what zoom-to shows. */
  bbox?: [number, number, number, number];
  /** EPSG code from the item's `proj:epsg`/`proj:code`, used when the file's own is missing. */
  epsg?: number;
  source: ImagerySource;
  opacity?: number;
  visible?: boolean;
  /** Acquisition date `YYYY-MM-DD`, when known: names saved clips. */
  date?: string;
}

/** What the layer list and saved state keep: the spec as the person last changed it. */
export type SavedImageryLayer = ImageryLayerSpec;

export type ToMapImageryMessage =
  | { type: 'imagery'; spec: ImageryLayerSpec; fit: boolean }
  /** The thumbnail or overview, shown over `bbox` until the first pixels are drawn. */
  | { type: 'imageryPreview'; id: string; dataUrl: string }
  /** The layer cannot be shown at all (e.g. an `s3://` path): a row with the reason. */
  | { type: 'imageryNote'; id: string; title: string; text: string }
  /** Two layers (added like `imagery`) shown side by side with a swipe divider. */
  /** `position` (0 to 1 from the left, default 0.5) and `mode` (default swipe): a shared view's; `fit` default true. */
  | { type: 'imageryCompare'; left: ImageryLayerSpec; right: ImageryLayerSpec; position?: number; mode?: 'swipe' | 'flicker'; fit?: boolean }
  /** A time slider over one place: one date at a time, in date order. */
  | {
      type: 'imageryTimeline';
      title: string;
      frames: TimeFrame[];
      /** Move the map over the dates' footprints first (default true). */
      fit?: boolean;
      /** `YYYY-MM-DD`: the date to show first (a shared view's); default the latest in view. */
      date?: string;
    };

/** One date of a time slider. */
export interface TimeFrame {
  /** The layer for this date (its `bbox` decides whether the date is in view). */
  spec: ImageryLayerSpec;
  /** `YYYY-MM-DD` */
  date: string;
  /** Cloud cover of the scene, percent (`eo:cloud_cover`), when the record gives it. */
  cloudCover?: number;
}

/** From the webview: a layer finished loading what the view needs (and whether it drew anything), or failed. */
export interface ImageryStatusReport {
  state: 'ready' | 'error';
  text?: string;
  drawn: boolean;
  /** Where tiles are decoded: in blob workers, or on the webview's main thread when workers cannot start. */
  decode?: 'worker' | 'main-thread';
}

export type FromMapImageryMessage =
  | { type: 'imageryStatus'; id: string; report: ImageryStatusReport }
  /** The webview no longer needs the answer to request `id` (a removed layer's byte read): abort it. */
  | { type: 'cancelRequest'; id: number };

/**
 * Test mode only: the extension asks what the imagery pane shows at lon/lat points (read back
 * from its tiles). The webview answers only when the extension's `init` said `testing`, and
 * the extension listens only when VS Code runs it for its tests.
 */
export type ToMapTestMessage = { type: 'imageryPixels'; requestId: number; points: [number, number][] };

/** The answer to `imageryPixels`: RGBA per point, [0, 0, 0, 0] where no imagery is drawn. */
export type FromMapTestMessage = { type: 'imageryPixels'; requestId: number; pixels: [number, number, number, number][] };

export interface ReadBytesParams {
  url: string;
  offset: number;
  length: number;
}

export interface ReadBytesResult {
  bytes: ArrayBuffer | Uint8Array;
  /** The file's size, from `Content-Range` (or the whole body when the server ignored Range). */
  total?: number;
}

export type ImageryRequest = { method: 'readBytes'; params: ReadBytesParams };

/** Largest single read the webview may ask for (src/raster/limits.ts), and largest file read whole (non-tiled, or a server ignoring Range). */
export { MAX_READ_BYTES } from '../../raster/limits';
export const MAX_WHOLE_FILE_BYTES = 50 * 1024 * 1024;

// ---------------------------------------------------------------- saving the view (clips)

/** One imagery layer that can be saved, as the current view frames it. */
export interface ClipLayerInfo {
  id: string;
  title: string;
  date?: string;
  /** Every band of the file, in file order. */
  bands: string[];
  /** The bands the layer draws (the default choice). */
  shown: string[];
  /** The view's window at each level of the file, finest first. */
  levels: { level: number; width: number; height: number; pixelSize: number; bytes: number }[];
  /** The level the map draws now. */
  drawnLevel: number;
  /**
   * Only when the layer is clipped to a polygon (an AOI's mosaic) that overlaps the file, so
   * the clip can be that polygon, masked: the polygon's window at each level, finest first.
   */
  aoiLevels?: { level: number; width: number; height: number; pixelSize: number; bytes: number }[];
  epsg: number;
}

/**
 * `host`: the extension can read the file itself; the webview answers a `ClipPlan` when the
 * file is one the host decodes (clipPlan.ts), else the clip's bytes as before.
 */
export type ClipRequest = { format: 'geotiff'; id: string; bands: string[]; level: number; mask: boolean; host?: boolean } | { format: 'png' };

/** One stored tile a host clip reads: its column and row in the level's grid, its plane (band-separate files), its bytes. */
export interface ClipPlanTile {
  tx: number;
  ty: number;
  plane: number;
  offset: number;
  length: number;
}

/**
 * What only the webview knows of a GeoTIFF clip, for the extension host to execute
 * (src/panels/imagery/hostClip.ts): which window of which level, the file's tile layout and
 * encoding, the tiles to read, the mask's rings and the output's georeferencing and band
 * metadata. The host checks every number again before it reads a byte.
 */
export interface ClipPlan {
  url: string;
  /** The file's size in bytes, as its reads reported it. */
  fileSize: number;
  level: number;
  /** [x0, y0, x1, y1] in the level's pixels, x1 and y1 exclusive. */
  window: [number, number, number, number];
  tileWidth: number;
  tileHeight: number;
  samplesPerPixel: number;
  /** 1: a tile holds every sample of its pixels; 2: one tile per sample (plane). */
  planar: 1 | 2;
  bitsPerSample: number;
  /** 1 unsigned integer, 2 signed integer, 3 floating point (TIFF SampleFormat). */
  sampleFormat: 1 | 2 | 3;
  /** TIFF Compression: 1 none, 8 or 32946 deflate (what the host inflates with node:zlib). */
  compression: 1 | 8 | 32946;
  /** TIFF Predictor: 1 none, 2 horizontal differencing, 3 floating point. */
  predictor: 1 | 2 | 3;
  /** The samples (0-based bands) saved, in the order saved. */
  samples: number[];
  tiles: ClipPlanTile[];
  /** The AOI polygon's rings in the level's pixel coordinates: pixels outside become no-data. */
  rings?: [number, number][][];
  nodata?: number;
  epsg: number;
  /** Top-left corner of the window's top-left pixel, in the CRS's units; pixel sizes positive. */
  originX: number;
  originY: number;
  pixelWidth: number;
  pixelHeight: number;
  names: string[];
  scale: number[];
  offset: number[];
}

export interface ClipResult {
  bytes: ArrayBuffer | Uint8Array;
  width: number;
  height: number;
  /** Bytes read from the file for this clip, and the stored size of the tiles its window touches. */
  fetchedBytes?: number;
  tileBytes?: number;
}

/** The extension asks, the webview answers with a `clipReply` of the same `requestId`. */
export type ToMapClipMessage =
  { type: 'clipInfo'; requestId: number } | { type: 'clip'; requestId: number; request: ClipRequest } | { type: 'clipCancel'; requestId: number };

export type FromMapClipMessage =
  | { type: 'clipReply'; requestId: number; ok: true; result: { layers: ClipLayerInfo[] } | ClipResult | { plan: ClipPlan } }
  | { type: 'clipReply'; requestId: number; ok: false; error: string; cancelled?: boolean }
  | { type: 'clipProgress'; requestId: number; done: number; total: number }
  /** "Copy as CSV" of the pixel inspector: the extension puts the text on the clipboard. */
  | { type: 'copyText'; text: string }
  /** "Save Colour Range to Service" under the histogram of a visualization's layer: its handles' range. */
  | { type: 'saveColourRange'; range: ColourRangeFromMap };

/** A visualization layer's colour range as the histogram's handles set it (`rescale`: low, high). */
export interface ColourRangeFromMap {
  visualization: { aoiId: string; id: string };
  /** The layer's date, `YYYY-MM-DD`. */
  date?: string;
  rescale: [number, number];
  colormap: string;
}

// ---------------------------------------------------------------- an index over time (series)

/** One date of a series: the file to read and where its row came from. */
export interface SeriesDate {
  /** `YYYY-MM-DD` */
  date: string;
  /** The date's layer (its url, bands, EPSG): the same description the time slider draws. */
  spec: ImageryLayerSpec;
  /** What the CSV names as the row's source: the asset or item id. */
  source: string;
  /** The record's cloud cover, percent, when it gives one. */
  cloudCover?: number;
}

export interface SeriesRequest {
  /** Names the chart and the legend, e.g. the AOI's name. */
  title: string;
  /** The index's name (legend, CSV) and its expression over the files' band names. */
  index: { name: string; expression: string };
  /**
   * The polygon (lon/lat GeoJSON Polygon or MultiPolygon) the statistics are taken inside, or a
   * GeoJSON Point: a single-pixel series, the value at the full-resolution pixel under it.
   */
  polygon: unknown;
  dates: SeriesDate[];
  /** A date whose record's cloud cover is above this, percent, is drawn as too cloudy (not dropped). */
  maxCloud?: number;
  /** A date with a smaller share of valid pixels is drawn hollow (default 0.5). */
  minValidShare?: number;
}

/** One date's statistics of the index inside the polygon, or why it has none. */
export interface SeriesPoint {
  date: string;
  source: string;
  /** Pixel centres inside the polygon at the level read, and those valid among them. */
  pixels: number;
  valid: number;
  /** valid / pixels (0 when the polygon misses the file). */
  validShare: number;
  mean?: number;
  median?: number;
  p10?: number;
  p90?: number;
  /** The pyramid level read (0 = full resolution) and its pixel size in the file's units. */
  level?: number;
  pixelSize?: number;
  /** Of the pixels inside, those the scene classification marks as cloud, shadow or cirrus. */
  cloudyPixels?: number;
  /** The record's cloud cover was above the request's limit. */
  overCloudLimit?: boolean;
  /** The date could not be read: the sentence why (the rest of the series goes on). */
  error?: string;
  /** A single-pixel series: the index at the pixel, valid or not (undefined: no data there). */
  value?: number;
  /** Bytes fetched for this date, and the stored size of the tiles it needed. */
  fetchedBytes?: number;
  tileBytes?: number;
}

export type ToMapSeriesMessage =
  /** `overlay`: drawn beside the series already on the chart instead of replacing them. */
  | { type: 'seriesStart'; requestId: number; request: SeriesRequest; overlay?: boolean }
  | { type: 'seriesCancel'; requestId: number }
  /** The chart as a PNG, for "Save Chart as PNG…". */
  | { type: 'seriesPng'; requestId: number };

export type FromMapSeriesMessage =
  | { type: 'seriesPoint'; requestId: number; index: number; point: SeriesPoint }
  | { type: 'seriesDone'; requestId: number; ok: true }
  | { type: 'seriesDone'; requestId: number; ok: false; error: string; cancelled?: boolean }
  | { type: 'seriesPngReply'; requestId: number; ok: true; bytes: ArrayBuffer | Uint8Array }
  | { type: 'seriesPngReply'; requestId: number; ok: false; error: string }
  /** The person asked for an export from the chart's own buttons. */
  | { type: 'seriesExport'; format: 'csv' | 'png' }
  /** The chart was closed: nothing is left to export or add to. */
  | { type: 'seriesClosed' }
  /** "Chart index over time…" on the map: an AOI's popup, the drawn area, or the inspected pixel. */
  | { type: 'chartIndex'; area: ChartAreaFromMap };

/**
 * What the map hands "Chart Index Over Time…": an AOI shown on it, the area drawn (its ring,
 * in map longitudes), or the pixel the inspector read, with the AOI or archive item of the
 * layer it was read from (the dates to offer first).
 */
export type ChartAreaFromMap =
  | { kind: 'aoi'; aoiId: string }
  | { kind: 'polygon'; ring: [number, number][] }
  | { kind: 'pixel'; lon: number; lat: number; aoiId?: string; collection?: string };

// ---------------------------------------------------------------- a timelapse of dates

/** "Export Timelapse…": what the webview draws and encodes (media/map/imagery/timelapse.ts). */
export interface TimelapseRequest {
  /** Names the place in the frames' label (the AOI, or the time slider's title). */
  title: string;
  /** The dates to draw, oldest first; absent: the time slider's dates. */
  frames?: TimeFrame[];
  /** The place to frame, [west, south, east, north] in degrees; absent: the map's view. */
  bbox?: [number, number, number, number];
  /** A GeoJSON (Multi)Polygon drawn as an outline on every frame (the AOI). */
  outline?: unknown;
  width: number;
  height: number;
  /** Frames per second. */
  fps: number;
  format: 'gif' | 'webm';
}

/** What the time slider shows, for the palette's "Export Timelapse…" (undefined: no slider open). */
export interface TimelapseSource {
  title: string;
  dates: string[];
  /** The first date's AOI polygon, when the slider shows an AOI's mosaics. */
  outline?: unknown;
}

export interface TimelapseResult {
  bytes: ArrayBuffer | Uint8Array;
  /** The dates drawn, one frame each, oldest first. */
  dates: string[];
  /** Dates left out, with the reason (a file that cannot be read, say). */
  skipped: { date: string; error: string }[];
  width: number;
  height: number;
  fps: number;
  /** The video codec of a WebM ('vp09…' or 'vp8'). */
  codec?: string;
}

export type ToMapTimelapseMessage =
  | { type: 'timelapseSource'; requestId: number }
  | { type: 'timelapse'; requestId: number; request: TimelapseRequest }
  | { type: 'timelapseCancel'; requestId: number };

export type FromMapTimelapseMessage =
  | { type: 'timelapseReply'; requestId: number; ok: true; result: TimelapseResult | { source?: TimelapseSource } }
  | { type: 'timelapseReply'; requestId: number; ok: false; error: string; cancelled?: boolean }
  | { type: 'timelapseProgress'; requestId: number; done: number; total: number; date: string }
  | { type: 'exportTimelapse' };
