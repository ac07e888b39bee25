/**
 * `EoClient`: the typed client of the EO imagery service. Every view and command goes
 * through one instance per base URL.
 *
 * ```ts
 * const client = new EoClient({ baseUrl, token: () => secrets.get('token'), authScheme: 'bearer',
 *   timeoutMs: 30_000, userAgent: `eo-imagery-vscode/${version}`, onRequest: (e) => log(e) });
 * const page = await client.aois.listPage({ offset: 0, limit: 50 }, { signal });   // {items, total, offset, limit}
 * for await (const item of client.orderItems.iterate({}, { pageSize: 100, cap: 1000, signal })) { … }
 * ```
 *
 * Conventions of every method:
 * - the last argument is `{signal?, timeoutMs?}`; an aborted signal rejects with
 *   `ApiError` kind `aborted` (use `isCancellation(e)` to stay quiet about it);
 * - failures reject with `ApiError` (kinds `http`, `network`, `timeout`, `aborted`,
 *   `protocol`) whose `userMessage` can be shown as is; `needsSignIn(e)` tells a 401;
 * - GETs retry transient faults (resets, timeouts, 429/502/503/504); POST/PUT/PATCH/DELETE
 *   never do, so creating an order, store, delivery, download or job happens at most once per call;
 * - `listPage(...)` returns one page `{items, total, offset, limit}` for "Load more";
 *   `iterate(...)` walks all pages lazily with `{pageSize, cap, signal}`;
 * - records are the types of `records.ts`, normalised: archive `bbox` numbers, `paid_at`
 *   absent when empty, `visualizations` plural; unknown fields are kept.
 */
import { AoiDownloadsApi } from './aoiDownloads';
import { AoisApi } from './aois';
import { ArchivesApi } from './archives';
import { BandsetsApi } from './bandsets';
import { BlocksApi } from './blocks';
import { CatalogsApi } from './catalogs';
import { DeliveriesApi } from './deliveries';
import { DownloadsApi } from './downloads';
import { IdListForm } from './idLists';
import { IndicesApi } from './indices';
import { InsightRunsApi } from './insightRuns';
import { OrderItemsApi } from './orderItems';
import { fetchOutputGeoJson, OutputFileError, type GeoJsonCollection, type OutputFetchOptions } from './outputFiles';
import { OrdersApi } from './orders';
import { ProjectsApi } from './projects';
import { ReportsApi } from './reports';
import { SearchApi } from './search';
import { ShapeError } from './shape';
import { StoresApi } from './stores';
import { Transport, type CallOptions, type ClientOptions, type RangeOptions, type RangeResult } from './transport';
import { VisualizationsApi } from './visualizations';
import { VisualizationPngApi } from './visualizationPng';
import { VisualizationStylesApi } from './visualizationStyles';
import { WorkflowsApi } from './workflows';

export class EoClient {
  /** Projects (read-only): `listPage({pageNum, pageSize})`, `iterate`, `get`. */
  readonly projects: ProjectsApi;
  /** AOIs: `listPage`, `iterate`, `get`, `create`, `assetsPage`, `iterateAssets`. */
  readonly aois: AoisApi;
  /** Imagery search (`imagery`, `iterate` over `next_token`) and `satellites()`. */
  readonly search: SearchApi;
  /** Indices: `listPage`, `iterate`, `create` (custom only). */
  readonly indices: IndicesApi;
  /** Visualizations of an AOI: `listPage`, `iterate`, `create`. */
  readonly visualizations: VisualizationsApi;
  /** The service's PNG of a visualization for a date and legend mode: `render`. */
  readonly visualizationPng: VisualizationPngApi;
  /** A visualization's legends and SLD on the service: `saveLegend`, `rollbackLegend`, `sld`. */
  readonly visualizationStyles: VisualizationStylesApi;
  /** Downloads of AOI assets: `create`, `get`, `waitUntilDone`. */
  readonly aoiDownloads: AoiDownloadsApi;
  /** Blocks: `list`, `insights` (the versions of one block). */
  readonly blocks: BlocksApi;
  /** Insight runs on an AOI: `list`, `estimate`, `run`, `delete`, `download`. */
  readonly insightRuns: InsightRunsApi;
  /** Workflows and their jobs: `listPage`, `iterate`, `get`, `estimate`, `run`, `jobs`, `job`, `downloadJob`, `downloadTask`. */
  readonly workflows: WorkflowsApi;
  /** Bandsets: `list`. */
  readonly bandsets: BandsetsApi;
  /** Orders: `create` (also `dry_run`), `listPage`, `iterate`, `get`, `waitUntilSettled`. */
  readonly orders: OrdersApi;
  /** Order items with tasks: `listPage`, `iterate`, `get`. */
  readonly orderItems: OrderItemsApi;
  /** STAC archive: `search`, `iterateSearch`, `collections`, `collection`, `itemsPage`, `iterateItems`, `item`. */
  readonly archives: ArchivesApi;
  /** Catalogs (fulfilled imagery): `searchPage`, `iterate`, `get`. */
  readonly catalogs: CatalogsApi;
  /** Deliveries to cloud stores: `create`, `list`, `get`, `waitUntilDone`. */
  readonly deliveries: DeliveriesApi;
  /** Download links: `create`, `get`, `waitUntilDone`. */
  readonly downloads: DownloadsApi;
  /** Cloud stores: `list`, `create`, `delete`. */
  readonly stores: StoresApi;
  /** Order report: `get({tz})` → `{text, columns, rows}`. */
  readonly reports: ReportsApi;

  private readonly transport: Transport;

  /** Throws `TypeError`/`RangeError` for a bad base URL or timeout. Opens no connection yet. */
  constructor(options: ClientOptions) {
    const t = new Transport(options);
    this.transport = t;
    this.projects = new ProjectsApi(t);
    this.aois = new AoisApi(t);
    this.search = new SearchApi(t);
    this.indices = new IndicesApi(t);
    this.visualizations = new VisualizationsApi(t, this.indices);
    this.visualizationPng = new VisualizationPngApi(t);
    this.visualizationStyles = new VisualizationStylesApi(t);
    this.aoiDownloads = new AoiDownloadsApi(t);
    this.blocks = new BlocksApi(t);
    this.insightRuns = new InsightRunsApi(t);
    this.workflows = new WorkflowsApi(t);
    this.bandsets = new BandsetsApi(t);
    this.orders = new OrdersApi(t);
    this.orderItems = new OrderItemsApi(t);
    this.archives = new ArchivesApi(t);
    this.catalogs = new CatalogsApi(t);
    // One memory per session of whether the service wants both id lists (deliveries and downloads alike).
    const idLists = new IdListForm();
    this.deliveries = new DeliveriesApi(t, idLists);
    this.downloads = new DownloadsApi(t, idLists);
    this.stores = new StoresApi(t);
    this.reports = new ReportsApi(t);
  }

  /** The base URL requests go to (normalised, no trailing slash). */
  get baseUrl(): string {
    return this.transport.baseUrl;
  }

  /** `GET /ping` (no auth): resolves with the server's string, e.g. "pong". */
  ping(o?: CallOptions): Promise<string> {
    return this.transport.json(
      { method: 'GET', path: '/ping', auth: false },
      (body) => {
        if (typeof body !== 'string') throw new ShapeError(`ping: expected a JSON string, got ${body === null ? 'null' : typeof body}`);
        return body;
      },
      o,
    );
  }

  /**
   * A byte range of a file the service points to (a GeoTIFF asset): the token goes with it only
   * when the file is below the base URL. Used by the map's imagery layers.
   */
  readRange(href: string, offset: number, length: number, opts: RangeOptions): Promise<RangeResult> {
    return this.transport.range(href, offset, length, opts);
  }

  /**
   * A vector insight output's file, checked to be GeoJSON. The token goes with it only when the
   * file is below the base URL (the service's own storage); never to another host.
   */
  async outputGeoJson(href: string, opts: OutputFetchOptions = {}): Promise<GeoJsonCollection> {
    try {
      await this.transport.checkTarget(href);
    } catch (e) {
      throw new OutputFileError(e instanceof Error ? e.message : String(e));
    }
    const headers = { ...opts.headers, ...(await this.transport.authHeadersFor(href)) };
    return fetchOutputGeoJson(href, { ...opts, headers, dispatcher: this.transport.otherHostsDispatcher() });
  }

  /** Close the keep-alive connections; later calls reject with kind `network`. */
  close(): Promise<void> {
    return this.transport.close();
  }
}
