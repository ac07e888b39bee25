/**
 * The map panel's extension side: one panel per window, kept by `Panels`, which hands commands
 * its `MapView`. It sends plain features to the webview (the token stays here), keeps what it
 * sent so that a reloaded webview (hidden and shown again, or revived after a window reload)
 * gets it again, and answers the webview through two tables: its messages (`MessageHandlers`,
 * checked by mapMessages.ts) and its requests (`RpcHandlers`). Its parts live beside it: the
 * searches (mapSearch.ts), a revived panel's restore (mapRestore.ts), the imagery files and
 * their bytes (imagery/mapImagery.ts).
 */
import vscode = require('vscode');
import { isCancellation } from '../api/errors';
import { isObj } from '../api/shape';
import type { ArchiveItem } from '../api/records';
import type { EoClient } from '../api/client';
import { ringToGeoJson } from '../geo/antimeridian';
import { validatePolygon } from '../geo/aoiGeometry';
import { describeError } from '../ui/showError';
import { runCommand } from '../ui/runCommand';
import { basemapImgSources, configuredBasemaps, openExternalChecked, renderPanelHtml, responseError, type PanelContext } from './host';
import { ClipChannel } from './imagery/clipChannel';
import { SeriesChannel, type SeriesState } from './imagery/seriesChannel';
import { TimelapseChannel } from './imagery/timelapseChannel';
import { AllowedFiles } from './imagery/allowedFiles';
import { MapImagery } from './imagery/mapImagery';
import type { ImageryLayerSpec, TimeFrame } from './imagery/protocol';
import { connectionMessage, followConnection } from './mapConnection';
import { aoiFeature, type MapTarget } from './mapData';
import { MAP_FROM_PAGE, readChartArea } from './mapMessages';
import { restoreMap } from './mapRestore';
import { MapSearches } from './mapSearch';
import type { MapView } from './mapView';
import { Dispatcher, logOnce, type Handlers } from './webview/messages';
import type {
  CreateAoiParams,
  DetailRef,
  LayerKind,
  MapFeature,
  MapRequest,
  MapResults,
  MapSource,
  MapState,
  MapViewState,
  RpcHandlers,
  SearchParams,
} from './protocol';
import type { ToMapMessage } from './mapMessages';
import type { SeriesPoint, SeriesRequest } from './imagery/seriesMessages';
import type { TimelapseRequest, TimelapseResult } from './imagery/timelapseMessages';
export { MAP_VIEW_TYPE } from './viewTypes';

export interface MapPanelOptions {
  /** What the webview saved, handed back by the serializer (a revived panel). */
  state?: MapState;
  /** Revived after a window reload: its shapes are fetched again and its files re-allowed. */
  revived: boolean;
  onDisposed(): void;
}

export class MapPanel implements MapView, vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private readonly layers = new Map<LayerKind, { features: MapFeature[]; sources: MapSource[] }>();
  private readonly queue: ToMapMessage[] = [];
  private isReady = false;
  private lastView?: MapViewState;
  private disposed = false;
  private readonly searches: MapSearches;
  private readonly imagery: MapImagery;
  private readonly messages: Dispatcher<typeof MAP_FROM_PAGE>;
  /** Webview requests being answered, by id: a `cancelRequest` aborts one (and closes its connection). */
  private readonly inflight = new Map<number, AbortController>();
  readonly clips = new ClipChannel(
    (m) => this.post(m),
    (p, signal) => this.imagery.read(p, signal),
  );
  readonly series = new SeriesChannel(
    (m) => this.post(m),
    (format) => void runCommand(format === 'csv' ? 'exportIndexSeriesCsv' : 'saveIndexChartPng'),
  );
  readonly timelapses = new TimelapseChannel(
    (m) => this.post(m),
    () => void runCommand('exportTimelapse'),
  );

  constructor(
    private readonly ctx: PanelContext,
    readonly panel: vscode.WebviewPanel,
    private readonly opts: MapPanelOptions,
  ) {
    const services = ctx.services;
    this.searches = new MapSearches(() => this.client());
    this.imagery = new MapImagery(() => this.client(), new AllowedFiles(services.context.workspaceState, opts.revived));
    this.messages = new Dispatcher(MAP_FROM_PAGE, this.handlers, logOnce('map', services.log, describeError));
    panel.webview.html = renderPanelHtml(panel.webview, services.context, 'map', 'EO Map', basemapImgSources(configuredBasemaps(services.log)));
    this.disposables.push(
      panel.onDidDispose(() => this.dispose()),
      // a hidden webview is torn down (no retained context): what is posted meanwhile would be
      // lost, so it waits in the queue for the 'ready' of the reloaded page
      panel.onDidChangeViewState(() => {
        if (!panel.visible && this.isReady) {
          this.isReady = false;
          this.clips.dropAll(vscode.l10n.t('The map was hidden before the clip was ready; show it and save again.'));
          this.series.dropAll(vscode.l10n.t('The map was hidden while the chart was being computed; keep it visible and chart again.'));
          this.timelapses.dropAll(vscode.l10n.t('The map was hidden while the timelapse was being drawn; keep it visible and export again.'));
        }
      }),
      // the listener's promise is the message handled
      panel.webview.onDidReceiveMessage((m: unknown) => this.messages.receive(m)),
      // the map looks live only while a service is connected
      followConnection(services.connection, (m) => this.post(m)),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('eoImagery.map.basemaps')) {
          const b = configuredBasemaps(services.log);
          this.isReady = false;
          panel.webview.html = renderPanelHtml(panel.webview, services.context, 'map', 'EO Map', basemapImgSources(b));
        }
      }),
    );
    if (opts.revived) {
      void restoreMap(
        {
          client: () => this.client(),
          imagery: this.imagery,
          show: (t) => this.showTarget(t, { fit: false, reveal: false }),
          notice: (text, level) => this.notice(text, level),
        },
        opts.state,
      );
    }
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.opts.onDisposed();
    this.clips.dropAll(vscode.l10n.t('The map was closed before the clip was ready.'));
    this.series.dropAll(vscode.l10n.t('The map was closed before the chart was ready.'));
    this.timelapses.dropAll(vscode.l10n.t('The map was closed before the timelapse was ready.'));
    this.searches.endAll();
    while (this.disposables.length) this.disposables.pop()?.dispose();
    this.panel.dispose();
  }

  private client(): Promise<EoClient> {
    return this.ctx.services.connection.getClient();
  }

  private post(m: ToMapMessage): void {
    if (!this.isReady && m.type !== 'response') {
      this.queue.push(m);
      return;
    }
    this.send(m);
  }

  /** Every message to the webview goes out here. */
  private send(m: ToMapMessage): void {
    void this.panel.webview.postMessage(m);
  }

  // ------------------------------------------------------------ what commands call (MapView)

  reveal(): void {
    this.panel.reveal(undefined, false);
  }

  showTarget(t: MapTarget, opts: { fit?: boolean; select?: boolean; mode?: 'replace' | 'append'; reveal?: boolean } = {}): void {
    const mode = opts.mode ?? 'append';
    const prev = this.layers.get(t.layer) ?? { features: [], sources: [] };
    const ids = new Set(t.features.map((f) => f.id));
    const features = mode === 'append' ? [...prev.features.filter((f) => !ids.has(f.id)), ...t.features] : t.features;
    this.layers.set(t.layer, { features, sources: mode === 'append' ? [...prev.sources, ...t.sources] : t.sources });
    this.post({ type: 'layer', layer: t.layer, features: t.features, mode, fit: opts.fit ?? true, sources: t.sources });
    if (opts.select && t.features[0]) this.post({ type: 'select', layer: t.layer, id: t.features[0].id });
    if (opts.reveal !== false) this.reveal();
  }

  shown(layer: LayerKind): readonly MapFeature[] {
    return this.layers.get(layer)?.features ?? [];
  }

  startDraw(shape: 'rectangle' | 'polygon', intent: 'search' | 'aoi'): void {
    this.post({ type: 'startDraw', shape, intent });
    this.reveal();
  }

  showImagery(spec: ImageryLayerSpec, opts: { previewUrl?: string; fit?: boolean } = {}): void {
    this.imagery.allow([spec.url]);
    this.post({ type: 'imagery', spec, fit: opts.fit ?? true });
    this.reveal();
    if (opts.previewUrl) {
      void this.imagery.preview(opts.previewUrl).then((dataUrl) => dataUrl && this.post({ type: 'imageryPreview', id: spec.id, dataUrl }));
    }
  }

  showCompare(left: ImageryLayerSpec, right: ImageryLayerSpec, opts: { position?: number; mode?: 'swipe' | 'flicker'; fit?: boolean } = {}): void {
    this.imagery.allow([left.url, right.url]);
    this.post({ type: 'imageryCompare', left, right, ...opts });
    this.reveal();
  }

  showTimeline(title: string, frames: TimeFrame[], opts: { date?: string; fit?: boolean } = {}): void {
    this.imagery.allow(frames.map((f) => f.spec.url));
    this.post({ type: 'imageryTimeline', title, frames, ...opts });
    this.reveal();
  }

  chartSeries(
    request: SeriesRequest,
    o: { onPoint?(index: number, point: SeriesPoint, state: SeriesState): void; signal?: AbortSignal; overlay?: boolean } = {},
  ): Promise<SeriesState> {
    this.imagery.allow(request.dates.map((d) => d.spec.url));
    this.reveal();
    return this.series.start(request, o);
  }

  timelapse(
    request: TimelapseRequest,
    o: { onProgress?(done: number, total: number, date: string): void; signal?: AbortSignal } = {},
  ): Promise<TimelapseResult> {
    if (request.frames) this.imagery.allow(request.frames.map((f) => f.spec.url));
    this.reveal();
    return this.timelapses.render(request, o);
  }

  imageryNote(id: string, title: string, text: string): void {
    this.post({ type: 'imageryNote', id, title, text });
    this.reveal();
  }

  notice(text: string, level: 'info' | 'error' = 'info'): void {
    this.post({ type: 'notice', level, text });
  }

  runSearch(params: SearchParams, opts: { useForm?: boolean; anchors?: string[] } = {}): void {
    this.reveal();
    this.post({ type: 'runSearch', params, ...opts });
  }

  searchView(): void {
    this.reveal();
    this.post({ type: 'searchView' });
  }

  get lastSearch(): SearchParams | undefined {
    return this.searches.last;
  }

  /** What the page last said it shows (unchecked: the page's to write). */
  get viewState(): MapViewState | undefined {
    return this.lastView;
  }

  setView(center: [number, number], zoom: number): void {
    this.post({ type: 'setView', center, zoom });
  }

  get searchResults(): ArchiveItem[] {
    return this.searches.results;
  }

  // ------------------------------------------------------------ the webview's messages

  /** One handler per message of the protocol (their fields checked by `MAP_MESSAGE_CHECKS`). */
  private readonly handlers: Handlers<typeof MAP_FROM_PAGE> = {
    ready: () => this.onReady(),
    request: (m) => this.answer(m.id, m.request),
    cancelRequest: (m) => this.inflight.get(m.id)?.abort(),
    open: (m) => this.ctx.openDetail(m.ref, m.preview === true),
    openExternal: async (m) => void (await openExternalChecked(m.url)),
    orderResults: (m) => this.orderResults(m.items),
    saveSearch: (m) => this.ctx.saveSearch(m.params),
    clipReply: (m) => this.clips.receive(m),
    clipProgress: (m) => this.clips.receive(m),
    copyText: async (m) => vscode.env.clipboard.writeText(m.text),
    saveColourRange: async (m) => void (await runCommand('saveColourRange', m.range)),
    seriesPoint: (m) => this.series.receive(m),
    seriesDone: (m) => this.series.receive(m),
    seriesPngReply: (m) => this.series.receive(m),
    seriesExport: (m) => this.series.receive(m),
    seriesClosed: (m) => this.series.receive(m),
    chartIndex: async (m) => {
      const area = readChartArea(m.area);
      if (area) await runCommand('chartIndexOverTime', area);
    },
    timelapseReply: (m) => this.timelapses.receive(m),
    timelapseProgress: (m) => this.timelapses.receive(m),
    exportTimelapse: (m) => this.timelapses.receive(m),
    // the layer list shows each layer's outcome
    imageryStatus: () => undefined,
    showImagery: (m) => this.showImageryOf(m.ref),
    connect: async (m) => void (await runCommand(m.how === 'trySandbox' ? 'trySandbox' : 'signIn')),
    viewState: (m) => void (this.lastView = m.view),
  };

  private onReady(): void {
    this.isReady = true;
    this.send({ type: 'init', basemaps: configuredBasemaps(this.ctx.services.log), state: this.opts.state });
    this.send(connectionMessage(this.ctx.services.connection));
    // a reloaded webview has lost its layers: send them again, then anything queued
    for (const [layer, { features }] of this.layers) {
      this.send({ type: 'layer', layer, features, mode: 'replace', fit: false });
    }
    for (const q of this.queue.splice(0)) this.send(q);
  }

  /** "Show imagery" in a footprint's popup: the whole item when this search read it. */
  private async showImageryOf(ref: DetailRef): Promise<void> {
    if (ref.kind !== 'archiveItem') return;
    await runCommand('showImagery', this.searches.item(ref.collection, ref.id) ?? { collection: ref.collection, id: ref.id });
  }

  /**
   * The webview names the rows; the items are the ones this search read (a reloaded window
   * has none, and the order flow reads such references from the archive itself).
   */
  private async orderResults(refs: unknown[]): Promise<void> {
    const items = refs
      .filter((r): r is { collection: string; id: string } => isObj(r) && typeof r.collection === 'string' && typeof r.id === 'string')
      .map((r) => this.searches.item(r.collection, r.id) ?? { collection: r.collection, id: r.id });
    if (!items.length) return;
    try {
      await runCommand('orderArchiveItems', items);
    } catch (e) {
      this.notice(describeError(e), 'error');
    }
  }

  // ------------------------------------------------------------ the webview's requests

  /** One handler per request of the protocol, each returning what `MapResults` says. */
  private readonly requests: RpcHandlers<MapRequest, MapResults> = {
    searchOptions: () => this.searches.options(),
    search: async (r) => {
      const page = await this.searches.start(r.params);
      this.layers.set('results', { features: [...page.features], sources: [] });
      return page;
    },
    searchMore: async (r) => {
      const page = await this.searches.more(r.searchId);
      this.layers.get('results')?.features.push(...page.features);
      return page;
    },
    createAoi: (r) => this.createAoi(r.params),
    readBytes: (r, signal) => this.imagery.read(r.params, signal),
  };

  private async answer(id: number, request: MapRequest): Promise<void> {
    const abort = new AbortController();
    this.inflight.set(id, abort);
    try {
      const handler = Object.hasOwn(this.requests, request.method)
        ? (this.requests[request.method] as (r: MapRequest, signal: AbortSignal) => Promise<unknown>)
        : undefined;
      if (!handler) throw new Error(vscode.l10n.t('Unknown request.'));
      const result = await handler(request, abort.signal);
      this.send({ type: 'response', id, ok: true, result });
    } catch (e) {
      // a byte read is already a request line in the log; its failure shows in the layer list
      if (!isCancellation(e) && !abort.signal.aborted && request.method !== 'readBytes')
        this.ctx.services.log.warn(`map: ${request.method} failed: ${describeError(e)}`);
      if (!abort.signal.aborted) this.send({ type: 'response', id, ok: false, error: responseError(e) });
    } finally {
      this.inflight.delete(id);
    }
  }

  /**
   * The form's name, project and satellite, then the shared flow (commands/aois/createAoi):
   * imagery over the shape, the images picked, the AOI created. Cancelled → `null`.
   */
  private async createAoi(p: CreateAoiParams): Promise<MapFeature | null> {
    const g = ringToGeoJson(p.ring);
    if (g.type !== 'Polygon') throw new Error('The shape crosses the antimeridian; an AOI must be a single Polygon.');
    const checked = validatePolygon(g);
    if (!checked.ok) throw new Error(checked.reason);
    const aoi = await this.ctx.createAoi({
      polygon: checked.polygon,
      source: 'the map',
      name: p.name,
      description: p.description,
      projectId: p.projectId,
      satelliteId: p.satelliteId,
    });
    if (!aoi) return null;
    const f = aoiFeature(aoi);
    const prev = this.layers.get('aois') ?? { features: [], sources: [] };
    this.layers.set('aois', { features: [...prev.features, f], sources: [...prev.sources, { kind: 'aoi', id: aoi.aoi_id }] });
    void this.ctx.revealInSidebar({ kind: 'aoi', id: aoi.aoi_id }, { focus: false });
    return f;
  }
}
