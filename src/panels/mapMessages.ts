/**
 * The map's messages: one table per direction, each row a message's name, payload and runtime
 * check, imported by the extension (mapPanel.ts and the channels hold the handlers) and by the
 * page (media/map/app.ts and media/map/channels/ hold theirs). The rows of Save View, Chart
 * Index Over Time and Export Timelapse live with their channels (imagery/clipMessages.ts,
 * seriesMessages.ts, timelapseMessages.ts) and are spread in here. Pure: unit-tested.
 */
import { isObj } from '../api/shape';
import { CLIP_FROM_PAGE, CLIP_TO_PAGE } from './imagery/clipMessages';
import type { ChartAreaFromMap, ColourRangeFromMap, ImageryLayerSpec, ImageryStatusReport, TimeFrame } from './imagery/protocol';
import { SERIES_FROM_PAGE, SERIES_TO_PAGE } from './imagery/seriesMessages';
import { TIMELAPSE_FROM_PAGE, TIMELAPSE_TO_PAGE } from './imagery/timelapseMessages';
import {
  isSearchParams,
  type Basemap,
  type DetailRef,
  type LayerKind,
  type MapFeature,
  type MapRequest,
  type MapSource,
  type MapState,
  type MapViewState,
  type ResponsePayload,
  type SearchParams,
} from './protocol';
import { isId, row, type MessageIn, type MessageOf } from './webview/messages';

/** The longest text "Copy as CSV" may put on the clipboard (a pixel's bands and five pins need a few KiB). */
export const COPY_TEXT_MAX = 64 * 1024;

/** The map's colour range of a visualization layer: ids, two finite numbers low before high, a colour map. */
export function isColourRange(v: unknown): boolean {
  if (!isObj(v) || !isObj(v.visualization) || !Array.isArray(v.rescale) || v.rescale.length !== 2) return false;
  const [lo, hi] = v.rescale as unknown[];
  return (
    typeof v.visualization.aoiId === 'string' &&
    typeof v.visualization.id === 'string' &&
    typeof lo === 'number' &&
    typeof hi === 'number' &&
    Number.isFinite(lo) &&
    Number.isFinite(hi) &&
    lo < hi &&
    typeof v.colormap === 'string' &&
    (v.date === undefined || typeof v.date === 'string')
  );
}

const isLon = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && Math.abs(v) <= 540;
const isLat = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && Math.abs(v) <= 90;
const optStr = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 && v.length <= 200 ? v : undefined);

/**
 * "Chart index over time…" from the map, read into its typed form: an AOI id, a drawn ring
 * (4 to 10,000 points, closed, in map longitudes) or a pixel's place; undefined for anything else.
 */
export function readChartArea(v: unknown): ChartAreaFromMap | undefined {
  if (!isObj(v)) return undefined;
  if (v.kind === 'aoi') return optStr(v.aoiId) ? { kind: 'aoi', aoiId: v.aoiId as string } : undefined;
  if (v.kind === 'pixel') {
    if (!isLon(v.lon) || !isLat(v.lat)) return undefined;
    const aoiId = optStr(v.aoiId);
    const collection = optStr(v.collection);
    return { kind: 'pixel', lon: v.lon, lat: v.lat, ...(aoiId ? { aoiId } : {}), ...(collection ? { collection } : {}) };
  }
  if (v.kind === 'polygon' && Array.isArray(v.ring) && v.ring.length >= 4 && v.ring.length <= 10_000) {
    const ring = v.ring as unknown[];
    if (!ring.every((p) => Array.isArray(p) && p.length === 2 && isLon(p[0]) && isLat(p[1]))) return undefined;
    const pts = ring as [number, number][];
    const [a, z] = [pts[0], pts[pts.length - 1]];
    if (a[0] !== z[0] || a[1] !== z[1]) return undefined;
    return { kind: 'polygon', ring: pts.map(([x, y]) => [x, y]) };
  }
  return undefined;
}

/** A footprint's detail reference, with the fields its kind needs. */
function isDetailRef(v: unknown): boolean {
  if (!isObj(v)) return false;
  const str = (k: string) => typeof v[k] === 'string';
  switch (v.kind) {
    case 'aoi':
    case 'orderItem':
    case 'catalog':
      return str('id');
    case 'asset':
    case 'insightRun':
      return str('aoiId') && str('id');
    case 'archiveItem':
      return str('collection') && str('id');
    default:
      return false;
  }
}

const isArrayOf = (key: string) => (m: Record<string, unknown>) => Array.isArray(m[key]);
const isSpec = (v: unknown): v is ImageryLayerSpec => isObj(v) && typeof v.id === 'string' && typeof v.url === 'string';

/** From the page to the extension (mapPanel.ts handles these, the channels theirs). */
export const MAP_FROM_PAGE = {
  /** The page (re)loaded: the extension sends its data again (webview/controller.ts). */
  ready: row(),
  /** A request (its `method` checked by the request table, which answers an unknown one). */
  request: row<{ id: number; request: MapRequest }>((m) => isId(m.id) && isObj(m.request) && typeof m.request.method === 'string'),
  /** The page no longer needs the answer to request `id` (a removed layer's byte read): abort it. */
  cancelRequest: row<{ id: number }>((m) => isId(m.id)),
  /** `preview`: a click on a footprint; the detail opens beside the map, which keeps the focus. */
  open: row<{ ref: DetailRef; preview?: boolean }>((m) => isDetailRef(m.ref) && (m.preview === undefined || typeof m.preview === 'boolean')),
  openExternal: row<{ url: string }>((m) => typeof m.url === 'string'),
  /** "Show imagery" in a footprint's popup. */
  showImagery: row<{ ref: DetailRef }>((m) => isDetailRef(m.ref)),
  /** A layer finished loading what the view needs (and whether it drew anything), or failed. */
  imageryStatus: row<{ id: string; report: ImageryStatusReport }>(
    (m) => typeof m.id === 'string' && isObj(m.report) && (m.report.state === 'ready' || m.report.state === 'error'),
  ),
  /** "Copy as CSV" of the pixel inspector: the extension puts the text on the clipboard. */
  copyText: row<{ text: string }>((m) => typeof m.text === 'string' && m.text.length <= COPY_TEXT_MAX),
  /** "Save Colour Range to Service" under the histogram of a visualization's layer: its handles' range. */
  saveColourRange: row<{ range: ColourRangeFromMap }>((m) => isColourRange(m.range)),
  /** "Chart index over time…" on the map: an AOI's popup, the drawn area, or the inspected pixel. */
  chartIndex: row<{ area: ChartAreaFromMap }>((m) => readChartArea(m.area) !== undefined),
  /** Where the map is and what it shows, each time the page saves its state (Copy Link to This View). */
  viewState: row<{ view: MapViewState }>(
    (m) => isObj(m.view) && Array.isArray(m.view.center) && typeof m.view.zoom === 'number' && Array.isArray(m.view.imagery),
  ),
  /** "Order…" under the results list: the archive items of the selected result rows. */
  orderResults: row<{ items: { collection: string; id: string }[] }>(isArrayOf('items')),
  /** "Save Search…": the form and drawn area, to be written to a `*.eosearch.json` file. */
  saveSearch: row<{ params: SearchParams }>((m) => isSearchParams(m.params)),
  /** The not-connected banner's buttons. */
  connect: row<{ how: 'signIn' | 'trySandbox' }>((m) => m.how === 'signIn' || m.how === 'trySandbox'),
  ...CLIP_FROM_PAGE,
  ...SERIES_FROM_PAGE,
  ...TIMELAPSE_FROM_PAGE,
};

/** From the extension to the page (media/map/app.ts handles these, media/map/channels/ theirs). */
export const MAP_TO_PAGE = {
  /** The answer to a `request` of the same id. */
  response: row<ResponsePayload>((m) => isId(m.id)),
  /** The page's basemaps, and the state a revived panel's page saved (handed back by the serializer). */
  init: row<{ basemaps: Basemap[]; state?: MapState }>(isArrayOf('basemaps')),
  /** `append` keeps what is there (same id replaces). */
  layer: row<{ layer: LayerKind; features: MapFeature[]; mode: 'replace' | 'append'; fit: boolean; sources?: MapSource[] }>(isArrayOf('features')),
  select: row<{ layer: LayerKind; id: string }>(),
  startDraw: row<{ shape: 'rectangle' | 'polygon'; intent: 'search' | 'aoi' }>(),
  /**
   * A saved search (`*.eosearch.json`): fill the form, draw its area and run it. `useForm`:
   * search `params.ring` with the form's own filters (their defaults, or what the person
   * set), as "Search Archive Here" does; `anchors`: days the place is known to have imagery (an
   * AOI's images), which the default dates take in. Without it the saved search runs as written.
   */
  runSearch: row<{ params: SearchParams; useForm?: boolean; anchors?: string[] }>((m) => isSearchParams(m.params)),
  /** "Search Archive Here" over the map's current view, with the form's filters. */
  searchView: row(),
  /** Whether a service is connected (mapConnection.ts); `configured`: a service URL is set (none after the sandbox stops). */
  connection: row<{ connected: boolean; configured: boolean }>(),
  notice: row<{ level: 'info' | 'error'; text: string }>((m) => typeof m.text === 'string'),
  /** A shared view opened: move the map there. `center` is [lat, lon], as Leaflet keeps it. */
  setView: row<{ center: [number, number]; zoom: number }>(isArrayOf('center')),
  imagery: row<{ spec: ImageryLayerSpec; fit: boolean }>((m) => isSpec(m.spec)),
  /** The thumbnail or overview, shown over `bbox` until the first pixels are drawn. */
  imageryPreview: row<{ id: string; dataUrl: string }>(),
  /** The layer cannot be shown at all (e.g. an `s3://` path): a row with the reason. */
  imageryNote: row<{ id: string; title: string; text: string }>(),
  /**
   * Two layers (added like `imagery`) shown side by side with a swipe divider. `position` (0 to
   * 1 from the left, default 0.5) and `mode` (default swipe): a shared view's; `fit` default true.
   */
  imageryCompare: row<{ left: ImageryLayerSpec; right: ImageryLayerSpec; position?: number; mode?: 'swipe' | 'flicker'; fit?: boolean }>(
    (m) => isSpec(m.left) && isSpec(m.right),
  ),
  /**
   * A time slider over one place: one date at a time, in date order. `fit`: move the map over
   * the dates' footprints first (default true); `date`: the date to show first (a shared
   * view's), default the latest in view.
   */
  imageryTimeline: row<{ title: string; frames: TimeFrame[]; fit?: boolean; date?: string }>(isArrayOf('frames')),
  ...CLIP_TO_PAGE,
  ...SERIES_TO_PAGE,
  ...TIMELAPSE_TO_PAGE,
};

export type FromMapMessage = MessageIn<typeof MAP_FROM_PAGE>;
export type ToMapMessage = MessageIn<typeof MAP_TO_PAGE>;

/** The imagery layers' messages to the page (the layer list, compare, the time slider). */
export type ToMapImageryMessage = MessageOf<typeof MAP_TO_PAGE, 'imagery' | 'imageryPreview' | 'imageryNote' | 'imageryCompare' | 'imageryTimeline'>;
