/**
 * The messages between the extension and its two webviews (map, STAC item). Pure types plus a
 * few guards: imported by the extension-side hosts (`src/panels`) and bundled into the
 * webview scripts (`media/`), so both ends agree at compile time.
 *
 * Requests from a webview carry an id; the extension answers with a `response` of the same id.
 * The token never crosses: the extension calls the service and sends plain data.
 */
import type { ArchiveItem } from '../api/records';
import type { RangeFilter } from '../searchFilters';
import type {
  FromMapClipMessage,
  FromMapSeriesMessage,
  FromMapTimelapseMessage,
  FromMapImageryMessage,
  ImageryLayerSpec,
  ImageryRequest,
  ReadBytesResult,
  ToMapClipMessage,
  ToMapSeriesMessage,
  ToMapTimelapseMessage,
  ToMapImageryMessage,
  ToMapTestMessage,
} from './imagery/protocol';

// ---------------------------------------------------------------- shared

export interface Basemap {
  name: string;
  /** XYZ template, e.g. `https://tile.openstreetmap.org/{z}/{x}/{y}.png`. */
  url: string;
  attribution: string;
  maxZoom?: number;
  subdomains?: string;
}

/** A request → result table for one webview: its requests (by `method`) and their results. */
export type RpcResults<Req extends { method: string }> = { [K in Req['method']]: unknown };

/** The extension side of a table: one handler per method, returning that method's result. */
export type RpcHandlers<Req extends { method: string }, Res extends RpcResults<Req>> = {
  /** `signal` aborts when the webview cancels the request (`cancelRequest`). */
  [K in Req['method']]: (request: Extract<Req, { method: K }>, signal?: AbortSignal) => Promise<Res[K]>;
};

/**
 * The extension side of a webview's other messages: one handler per `type`, given that
 * message (its fields checked before it gets here).
 */
export type MessageHandlers<M extends { type: string }> = {
  [K in M['type']]: (message: Extract<M, { type: K }>) => void | Promise<void>;
};

export type ResponseMessage =
  { type: 'response'; id: number; ok: true; result: unknown } | { type: 'response'; id: number; ok: false; error: { message: string; status?: number } };

// ---------------------------------------------------------------- map

export type LayerKind = 'aois' | 'assets' | 'orderItems' | 'catalogs' | 'archiveItems' | 'insightOutputs' | 'results';

/** What a click on a footprint opens. */
export type DetailRef =
  | { kind: 'aoi'; id: string }
  | { kind: 'asset'; aoiId: string; id: string }
  | { kind: 'orderItem'; id: string }
  | { kind: 'catalog'; id: string }
  | { kind: 'archiveItem'; collection: string; id: string }
  | { kind: 'insightRun'; aoiId: string; id: string };

/** Where a layer's data came from, so that a restored panel can fetch it again. */
export type MapSource =
  | { kind: 'aoi'; id: string }
  | { kind: 'aoiAssets'; aoiId: string }
  | { kind: 'asset'; aoiId: string; id: string }
  | { kind: 'orderItem'; id: string }
  | { kind: 'catalog'; id: string }
  | { kind: 'archiveItem'; collection: string; id: string }
  | { kind: 'insightOutput'; aoiId: string; runId: string; output: string };

export interface MapFeature {
  /** Unique within its layer. */
  id: string;
  label: string;
  /** A second line: date, cloud cover, collection, area. */
  detail?: string;
  /** Any GeoJSON geometry, as the service sent it; the webview unwraps and clamps. */
  geometry: unknown;
  /** [lon, lat], drawn as a dot (AOI centroids). */
  centroid?: [number, number];
  ref: DetailRef;
}

export type SearchKind = 'archive' | 'imagery';

export interface SearchParams {
  kind: SearchKind;
  /** The drawn ring, in map longitudes (may lie beyond ±180 after panning across the dateline). */
  ring: [number, number][];
  /** A rectangle becomes a STAC `bbox` (west > east across the dateline); a polygon `intersects`. */
  shape: 'rectangle' | 'polygon';
  /** Archive: collection ids (empty = all). */
  collections: string[];
  /** Imagery search: satellite ids (at least one). */
  satellites: string[];
  /** `YYYY-MM-DD`, inclusive; empty = open. */
  from: string;
  to: string;
  /** 0..100; undefined = no filter. */
  maxCloud?: number;
  /** Ranges on the satellite's queryables (off-nadir, sun elevation, gsd…), src/searchFilters.ts. */
  filters?: RangeFilter[];
  sort: 'datetime-desc' | 'datetime-asc' | 'cloud-asc';
  /** Page size. */
  limit: number;
}

export interface SearchPage {
  searchId: number;
  features: MapFeature[];
  /** Items loaded so far, this page included. */
  loaded: number;
  /** Total matches when the service says (archive `numberMatched` / `context.matched`). */
  matched?: number;
  hasMore: boolean;
  /** Results so far without a footprint (a `null` geometry): listed, not drawn. */
  noFootprint?: number;
  /** Results so far the service sent in a form that cannot be read: left out, with the first reasons. */
  unreadable?: { count: number; reasons: string[] };
}

export interface SearchOptions {
  /** `interval`: the collection's overall temporal extent (STAC `extent.temporal.interval[0]`), when given. */
  collections: { id: string; title: string; interval?: (string | null)[] }[];
  /** `queryables`: what the satellite's search collection lists (src/searchFilters.ts gives ranges and units). */
  satellites: { id: string; name: string; collection_id: string; queryables: string[] }[];
  projects: { id: string; name: string }[];
  /** Per-list failures (e.g. satellites could not be listed), shown beside the control. */
  errors: Partial<Record<'collections' | 'satellites' | 'projects', string>>;
}

export interface CreateAoiParams {
  name: string;
  description?: string;
  projectId: string;
  satelliteId: string;
  ring: [number, number][];
}

export type MapRequest =
  | { method: 'searchOptions' }
  | { method: 'search'; params: SearchParams }
  | { method: 'searchMore'; searchId: number }
  | { method: 'createAoi'; params: CreateAoiParams }
  | ImageryRequest;

/** What the extension answers to each map request: the webview's `call` and the host's handlers are checked against it. */
export interface MapResults {
  searchOptions: SearchOptions;
  search: SearchPage;
  searchMore: SearchPage;
  /** `null`: the person cancelled the choice of images. */
  createAoi: MapFeature | null;
  readBytes: ReadBytesResult;
}

export interface MapState {
  center?: [number, number];
  zoom?: number;
  basemap?: string;
  hiddenLayers?: LayerKind[];
  /** Per layer, what to fetch again when the panel is restored. */
  sources?: Partial<Record<LayerKind, MapSource[]>>;
  search?: Partial<Omit<SearchParams, 'ring' | 'shape'>>;
  panelOpen?: boolean;
  /** The results list, so that a reloaded webview shows it (and "Load more") again. */
  results?: SavedResults;
  /** Imagery layers as last shown (bands, stretch, opacity, visibility), drawn again on restore. */
  imagery?: ImageryLayerSpec[];
}

export interface SavedResults {
  /** The last page's summary; `features` are all rows loaded so far. */
  page: Omit<SearchPage, 'features'>;
  features: MapFeature[];
  selectedId?: string;
}

export type ToMapMessage =
  /** `testing`: VS Code runs the extension for its tests, and the webview answers test-only messages. */
  | { type: 'init'; basemaps: Basemap[]; state?: MapState; testing?: boolean }
  | {
      type: 'layer';
      layer: LayerKind;
      features: MapFeature[];
      /** `append` keeps what is there (same id replaces). */
      mode: 'replace' | 'append';
      fit: boolean;
      sources?: MapSource[];
    }
  | { type: 'select'; layer: LayerKind; id: string }
  | { type: 'startDraw'; shape: 'rectangle' | 'polygon'; intent: 'search' | 'aoi' }
  /** A saved search (`*.eosearch.json`): fill the form, draw its area and run it. */
  /**
   * `useForm`: search `params.ring` with the form's own filters (their defaults, or what the person
   * set), as "Search Archive Here" does; `anchors`: days the place is known to have imagery (an
   * AOI's images), which the default dates take in. Without it the saved search runs as written.
   */
  | { type: 'runSearch'; params: SearchParams; useForm?: boolean; anchors?: string[] }
  /** "Search Archive Here" over the map's current view, with the form's filters. */
  | { type: 'searchView' }
  /** Whether a service is connected (src/panels/mapConnection.ts); `configured`: a service URL is set (none after the sandbox stops). */
  | { type: 'connection'; connected: boolean; configured: boolean }
  | { type: 'notice'; level: 'info' | 'error'; text: string }
  /** A shared view opened: move the map there. `center` is [lat, lon], as Leaflet keeps it. */
  | { type: 'setView'; center: [number, number]; zoom: number }
  | ToMapImageryMessage
  | ToMapClipMessage
  | ToMapSeriesMessage
  | ToMapTimelapseMessage
  | ToMapTestMessage
  | ResponseMessage;

export type FromMapMessage =
  | { type: 'ready' }
  | { type: 'request'; id: number; request: MapRequest }
  /** `preview`: a click on a footprint; the detail opens beside the map, which keeps the focus. */
  | { type: 'open'; ref: DetailRef; preview?: boolean }
  | { type: 'openExternal'; url: string }
  /** "Show imagery" in a footprint's popup. */
  | { type: 'showImagery'; ref: DetailRef }
  | FromMapImageryMessage
  | FromMapClipMessage
  | FromMapSeriesMessage
  | FromMapTimelapseMessage
  /** "Order…" under the results list: the archive items of the selected result rows. */
  | { type: 'orderResults'; items: { collection: string; id: string }[] }
  /** "Save Search…": the form and drawn area, to be written to a `*.eosearch.json` file. */
  | { type: 'saveSearch'; params: SearchParams }
  /** The not-connected banner's buttons. */
  | { type: 'connect'; how: 'signIn' | 'trySandbox' }
  /** Where the map is and what it shows, each time the page saves its state (Copy Link to This View). */
  | { type: 'viewState'; view: MapViewState };

/**
 * What the page says it shows: the page's to write, so "Copy Link to This View" checks every
 * field again (src/commands/shareView) before any of it goes into a link or a file.
 */
export interface MapViewState {
  /** [lat, lon] */
  center: [number, number];
  zoom: number;
  sources: Partial<Record<LayerKind, MapSource[]>>;
  /** `id`: the layer's id on the map, which `compare` names. */
  imagery: { id?: string; title: string; source: unknown; render?: unknown; opacity?: number; visible?: boolean }[];
  /** The two imagery layers compared (by id), the divider (0 to 1 from the left) and the mode. */
  compare?: { left: string; right: string; position: number; mode: string };
  /** The time slider: its title, its dates (each by its layer's source) and the date it shows. */
  timeline?: { title: string; date?: string; frames: { date: string; source: unknown; cloudCover?: number }[] };
}

// ---------------------------------------------------------------- STAC item

export type StacAction = 'order' | 'copyStacUrl' | 'insightInput' | 'showImagery';

export type ToStacMessage =
  | { type: 'item'; item: ArchiveItem; stacUrl: string }
  | { type: 'thumbnail'; dataUrl: string; assetKey: string }
  | { type: 'loading'; label: string }
  | { type: 'error'; message: string }
  | { type: 'notice'; level: 'info' | 'error'; text: string };

export type FromStacMessage =
  { type: 'ready' } | { type: 'action'; action: StacAction } | { type: 'openExternal'; url: string } | { type: 'copy'; text: string };

export interface StacState {
  collection?: string;
  id?: string;
  rawOpen?: boolean;
}

// ---------------------------------------------------------------- guards

/** A search's form and area as the map sends it (its fields are checked when it runs). */
export function isSearchParams(v: unknown): v is SearchParams {
  return typeof v === 'object' && v !== null && Array.isArray((v as SearchParams).ring) && typeof (v as SearchParams).kind === 'string';
}

/** Only these schemes become clickable links or reach `openExternal`. */
export function isWebUrl(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > 8192) return false;
  try {
    const u = new URL(value);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}
