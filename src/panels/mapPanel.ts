/**
 * The map panel's extension side: one panel per window, kept by `Panels`, which hands commands
 * its `MapView`. A client of the webview controller (webview/controller.ts), it sends plain
 * features (the token stays here) and answers the page through its message table (the
 * handlers below, the channels' spread in: imagery/*Channel.ts) and its requests
 * (mapRequests.ts). Its other parts live beside it: what the layers show (mapLayers.ts), the
 * searches (mapSearch.ts), a revived panel's restore (mapRestore.ts), the imagery files and
 * their bytes (imagery/mapImagery.ts).
 */
import vscode = require('vscode');
import type { ArchiveItem } from '../api/records';
import { describeError } from '../ui/showError';
import { runCommand } from '../ui/runCommand';
import { basemapImgSources, configuredBasemaps, openExternalChecked, type PanelContext } from './host';
import { AllowedFiles } from './imagery/allowedFiles';
import { ClipChannel } from './imagery/clipChannel';
import { MapImagery } from './imagery/mapImagery';
import type { ImageryLayerSpec, TimeFrame } from './imagery/protocol';
import { SeriesChannel, type SeriesState } from './imagery/seriesChannel';
import type { SeriesRequest } from './imagery/seriesMessages';
import { TimelapseChannel } from './imagery/timelapseChannel';
import type { TimelapseRequest, TimelapseResult } from './imagery/timelapseMessages';
import { connectionMessage, followConnection } from './mapConnection';
import type { MapTarget } from './mapData';
import { MapLayers } from './mapLayers';
import { MAP_FROM_PAGE, readChartArea, type MAP_TO_PAGE, type ToMapMessage } from './mapMessages';
import { mapAnswers } from './mapRequests';
import { restoreMap } from './mapRestore';
import { MapSearches } from './mapSearch';
import type { MapView } from './mapView';
import type { LayerKind, MapFeature, MapRequest, MapResults, MapState, MapViewState, SearchParams } from './protocol';
import { WebviewController } from './webview/controller';
import type { Handlers } from './webview/messages';
import { RequestServer } from './webview/requests';
export { MAP_VIEW_TYPE } from './viewTypes';

export interface MapPanelOptions {
  /** What the webview saved, handed back by the serializer (a revived panel). */
  state?: MapState;
  /** Revived after a window reload: its shapes are fetched again and its files re-allowed. */
  revived: boolean;
  onDisposed(): void;
}

export class MapPanel implements MapView, vscode.Disposable {
  private readonly view: WebviewController<typeof MAP_TO_PAGE, typeof MAP_FROM_PAGE>;
  private readonly layers = new MapLayers();
  private readonly searches: MapSearches;
  private readonly imagery: MapImagery;
  private readonly requests: RequestServer<MapRequest, MapResults>;
  private lastView?: MapViewState;
  readonly clips: ClipChannel;
  readonly series: SeriesChannel;
  readonly timelapses: TimelapseChannel;

  constructor(
    private readonly ctx: PanelContext,
    panel: vscode.WebviewPanel,
    private readonly opts: MapPanelOptions,
  ) {
    const services = ctx.services;
    const client = () => services.connection.getClient();
    const post = (m: ToMapMessage) => this.view.post(m);
    this.searches = new MapSearches(client);
    this.imagery = new MapImagery(client, new AllowedFiles(services.context.workspaceState, opts.revived));
    this.clips = new ClipChannel(post, (p, signal) => this.imagery.read(p, signal));
    this.series = new SeriesChannel(
      post,
      (format) => void runCommand(format === 'csv' ? 'exportIndexSeriesCsv' : 'saveIndexChartPng'),
      (p, signal) => this.imagery.read(p, signal),
    );
    this.timelapses = new TimelapseChannel(post, () => void runCommand('exportTimelapse'));
    // a byte read is already a request line in the log; its failure shows in the layer list
    this.requests = new RequestServer({
      name: 'map',
      log: services.log,
      handlers: mapAnswers(ctx, this.layers, this.searches, this.imagery),
      send: (m) => this.view.send(m),
      quiet: (m) => m === 'readBytes',
    });
    this.view = new WebviewController({
      name: 'map',
      panel,
      services,
      page: { name: 'map', title: vscode.l10n.t('EO Map'), imgSources: basemapImgSources(configuredBasemaps(services.log)) },
      fromPage: MAP_FROM_PAGE,
      handlers: this.handlers(),
      onReady: () => this.onReady(),
      onHidden: () => this.dropAll('hidden'),
      onDisposed: () => {
        opts.onDisposed();
        this.dropAll('closed');
        this.searches.endAll();
      },
    });
    this.view.own(
      // the map looks live only while a service is connected
      followConnection(services.connection, post),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('eoImagery.map.basemaps')) this.view.render(basemapImgSources(configuredBasemaps(services.log)));
      }),
    );
    if (opts.revived) {
      const show = (t: MapTarget) => this.showTarget(t, { fit: false, reveal: false });
      void restoreMap({ client, imagery: this.imagery, show, notice: (text, level) => this.notice(text, level) }, opts.state);
    }
  }

  get panel(): vscode.WebviewPanel {
    return this.view.panel;
  }

  dispose(): void {
    this.view.dispose();
  }

  /** The page went away: nothing the channels asked will be answered. */
  private dropAll(why: 'hidden' | 'closed'): void {
    for (const channel of [this.clips, this.series, this.timelapses]) channel.dropAll(why);
  }

  /** A page that (re)loaded: its basemaps and saved state, the connection, what the layers show; then what was queued. */
  private onReady(): void {
    this.view.post({ type: 'init', basemaps: configuredBasemaps(this.ctx.services.log), state: this.opts.state });
    this.view.post(connectionMessage(this.ctx.services.connection));
    for (const m of this.layers.again()) this.view.post(m);
  }

  // ------------------------------------------------------------ what commands call (MapView)

  reveal(keepFocus = false): void {
    this.panel.reveal(undefined, keepFocus);
  }

  showTarget(t: MapTarget, opts: { fit?: boolean; select?: boolean; mode?: 'replace' | 'append'; reveal?: boolean } = {}): void {
    const mode = opts.mode ?? 'append';
    this.layers.put(t, mode);
    this.view.post({ type: 'layer', layer: t.layer, features: t.features, mode, fit: opts.fit ?? true, sources: t.sources });
    if (opts.select && t.features[0]) this.view.post({ type: 'select', layer: t.layer, id: t.features[0].id });
    if (opts.reveal !== false) this.reveal();
  }

  shown(layer: LayerKind): readonly MapFeature[] {
    return this.layers.shown(layer);
  }

  startDraw(shape: 'rectangle' | 'polygon', intent: 'search' | 'aoi'): void {
    this.view.post({ type: 'startDraw', shape, intent });
    this.reveal();
  }

  showImagery(spec: ImageryLayerSpec, opts: { previewUrl?: string; fit?: boolean } = {}): void {
    this.imagery.allow([spec.url]);
    this.view.post({ type: 'imagery', spec, fit: opts.fit ?? true });
    this.reveal();
    if (opts.previewUrl) {
      void this.imagery.preview(opts.previewUrl).then((dataUrl) => dataUrl && this.view.post({ type: 'imageryPreview', id: spec.id, dataUrl }));
    }
  }

  showCompare(left: ImageryLayerSpec, right: ImageryLayerSpec, opts: { position?: number; mode?: 'swipe' | 'flicker'; fit?: boolean } = {}): void {
    this.imagery.allow([left.url, right.url]);
    this.view.post({ type: 'imageryCompare', left, right, ...opts });
    this.reveal();
  }

  showTimeline(title: string, frames: TimeFrame[], opts: { date?: string; fit?: boolean } = {}): void {
    this.imagery.allow(frames.map((f) => f.spec.url));
    this.view.post({ type: 'imageryTimeline', title, frames, ...opts });
    this.reveal();
  }

  chartSeries(request: SeriesRequest, o: Parameters<MapView['chartSeries']>[1] = {}): Promise<SeriesState> {
    this.imagery.allow(request.dates.map((d) => d.spec.url));
    this.reveal();
    return this.series.start(request, o);
  }

  timelapse(request: TimelapseRequest, o: Parameters<MapView['timelapse']>[1] = {}): Promise<TimelapseResult> {
    if (request.frames) this.imagery.allow(request.frames.map((f) => f.spec.url));
    this.reveal();
    return this.timelapses.render(request, o);
  }

  imageryNote(id: string, title: string, text: string): void {
    this.view.post({ type: 'imageryNote', id, title, text });
    this.reveal();
  }

  notice(text: string, level: 'info' | 'error' = 'info'): void {
    this.view.post({ type: 'notice', level, text });
  }

  runSearch(params: SearchParams, opts: { useForm?: boolean; anchors?: string[] } = {}): void {
    this.reveal();
    this.view.post({ type: 'runSearch', params, ...opts });
  }

  searchView(): void {
    this.reveal();
    this.view.post({ type: 'searchView' });
  }

  get lastSearch(): SearchParams | undefined {
    return this.searches.last;
  }

  /** What the page last said it shows (unchecked: the page's to write). */
  get viewState(): MapViewState | undefined {
    return this.lastView;
  }

  setView(center: [number, number], zoom: number): void {
    this.view.post({ type: 'setView', center, zoom });
  }

  get searchResults(): ArchiveItem[] {
    return this.searches.results;
  }

  // ------------------------------------------------------------ the page's messages and requests

  /** One handler per row of the map's table but `ready` (the controller's); the channels bring theirs. */
  private handlers(): Omit<Handlers<typeof MAP_FROM_PAGE>, 'ready'> {
    return {
      request: (m) => this.requests.answer(m.id, m.request),
      cancelRequest: (m) => this.requests.cancel(m.id),
      open: (m) => this.ctx.openDetail(m.ref, m.preview === true),
      openExternal: async (m) => void (await openExternalChecked(m.url)),
      orderResults: (m) => this.searches.order(m.items).catch((e: unknown) => this.notice(describeError(e), 'error')),
      saveSearch: (m) => this.ctx.saveSearch(m.params),
      copyText: async (m) => vscode.env.clipboard.writeText(m.text),
      saveColourRange: async (m) => void (await runCommand('saveColourRange', m.range)),
      chartIndex: async (m) => {
        const area = readChartArea(m.area);
        if (area) await runCommand('chartIndexOverTime', area);
      },
      // the layer list shows each layer's outcome
      imageryStatus: () => undefined,
      showImagery: (m) => this.searches.showImagery(m.ref),
      connect: async (m) => void (await runCommand(m.how === 'trySandbox' ? 'trySandbox' : 'signIn')),
      viewState: (m) => void (this.lastView = m.view),
      ...this.clips.handlers,
      ...this.series.handlers,
      ...this.timelapses.handlers,
    };
  }
}
