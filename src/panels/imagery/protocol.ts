/**
 * What the extension and the map webview say about imagery layers. Pure types, bundled into
 * both ends (the messages that carry them are rows of ../mapMessages.ts and of the channels'
 * tables beside this file). A layer is described once (`ImageryLayerSpec`): the extension
 * builds it from an archive item, an AOI asset, a visualization or an insight's raster output,
 * and the webview draws it, reading the file's bytes back through the extension (`readBytes`).
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
  /**
   * A polygon (lon/lat, GeoJSON Polygon or MultiPolygon) outlined in the AOI layer's style with
   * the layer, shown and removed with it: the area an insight output covers (its run's AOI).
   */
  outline?: unknown;
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

/** The time slider as a reloaded page opens it again: its title, dates and the date shown. */
export interface SavedTimeline {
  title: string;
  frames: TimeFrame[];
  date: string;
}

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

// ---------------------------------------------------------------- what the map hands the commands

/** A visualization layer's colour range as the histogram's handles set it (`rescale`: low, high). */
export interface ColourRangeFromMap {
  visualization: { aoiId: string; id: string };
  /** The layer's date, `YYYY-MM-DD`. */
  date?: string;
  rescale: [number, number];
  colormap: string;
}

/**
 * What the map hands "Chart Index Over Time…": an AOI shown on it, the area drawn (its ring,
 * in map longitudes), or the pixel the inspector read, with the AOI or archive item of the
 * layer it was read from (the dates to offer first).
 */
export type ChartAreaFromMap =
  | { kind: 'aoi'; aoiId: string }
  | { kind: 'polygon'; ring: [number, number][] }
  | { kind: 'pixel'; lon: number; lat: number; aoiId?: string; collection?: string };
