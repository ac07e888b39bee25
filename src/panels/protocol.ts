/**
 * What the extension and its webviews (map, STAC item) say to each other: pure types plus a
 * few guards, imported by the extension-side hosts (`src/panels`) and bundled into the webview
 * scripts (`media/`), so both ends agree at compile time. The messages that carry them are the
 * rows of mapMessages.ts and stacMessages.ts.
 *
 * Requests from a webview carry an id; the extension answers with a `response` of the same id.
 * The token never crosses: the extension calls the service and sends plain data.
 */
import type { RangeFilter } from '../searchFilters';
import type { ImageryLayerSpec, ImageryRequest, ReadBytesResult, SavedTimeline } from './imagery/protocol';

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

/** The answer to a page's request of the same `id`: its result, or the failure in words (and the HTTP status). */
export type ResponsePayload = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: { message: string; status?: number } };
export type ResponseMessage = { type: 'response' } & ResponsePayload;

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
  /** Two of those layers compared (by id), started again on restore. */
  compare?: { left: string; right: string; position: number; mode: 'swipe' | 'flicker' };
  /** The time slider's dates and the one shown, opened again on restore. */
  timeline?: SavedTimeline;
}

export interface SavedResults {
  /** The last page's summary; `features` are all rows loaded so far. */
  page: Omit<SearchPage, 'features'>;
  features: MapFeature[];
  selectedId?: string;
}

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
