/**
 * The map webview: Leaflet with configurable XYZ basemaps and an offline Natural Earth base,
 * one canvas footprint layer per kind of record, a layer control, fit-to-bounds, the draw
 * tool and the search panel. It only draws: every record comes from the extension, which
 * holds the token and calls the service.
 */
import * as L from 'leaflet';
import * as l10n from '@vscode/l10n';
import { type Basemap, type LayerKind, type MapFeature, type MapRequest, type MapResults, type MapSource, type MapState } from '../../src/panels/protocol';
import { el } from '../shared/dom';
import { FootprintLayer } from '../shared/footprintLayer';
import { noticeHost, showNotice } from '../shared/notice';
import { bottomCentre, followSize, layoutFrame } from './frame';
import { addOfflinePane, createOfflineBasemap } from '../shared/offlineBasemap';
import { Rpc, type VsCodeApi } from '../shared/vscodeApi';
import { DrawTool, type DrawnShape, type Shape } from './draw';
import { SearchPanel } from './searchPanel';
import { loadImageryChunk } from './imageryLoader';
import type { ImageryManager, ImageryRestore } from './imagery/manager';
import type { DecodeMode } from './imagery/chunk';
import type { ImageryTools } from './imagery/tools';
import { MAP_TO_PAGE, type FromMapMessage, type ToMapImageryMessage } from '../../src/panels/mapMessages';
import type { Dispatcher, Handlers } from '../../src/panels/webview/messages';
import { listen } from '../shared/messages';
import { clipHandlers } from './channels/clip';
import type { ChannelPage } from './channels/page';
import { seriesHandlers } from './channels/series';
import { timelapseHandlers } from './channels/timelapse';
import { addToolbar } from './toolbar';
import { basemapLayers, escapeHtml } from './basemaps';
import { createDock } from './dock';
import { featurePopup } from './featurePopup';
import { cssVar, FILL_PANE, KINDS, layerStyle, layerTitle, type ShownFeature } from './layerKinds';
import { notConnectedBanner } from './notConnected';
import { sharedView } from './sharedView';

/** Narrower than this beside the dock, the map folds the search panel away (roomForMap). */
const MIN_MAP_WIDTH = 480;

export class MapApp {
  readonly map: L.Map;
  readonly layers = {} as Record<LayerKind, FootprintLayer<ShownFeature>>;
  readonly rpc: Rpc<MapRequest, MapResults>;
  private readonly messages: Dispatcher<typeof MAP_TO_PAGE>;
  private readonly panel: SearchPanel;
  private readonly draw: DrawTool;
  private drawn?: L.Polygon;
  /** The drawn area's fill, under the imagery like the footprints' fills. */
  private drawnFill?: L.Polygon;
  private readonly fillRenderer: L.Renderer;
  private drawnShape?: DrawnShape;
  private control?: L.Control.Layers;
  private baseLayers: Record<string, L.Layer> = {};
  private offline = createOfflineBasemap();
  private state: MapState;
  private selection?: { layer: LayerKind; id: string };
  /** Whether a service is connected (the extension says, with each `ready` and on each change). */
  private connected = true;
  /** The "not connected" banner, while no service is. */
  private banner?: HTMLElement;
  /** What the drawing under way is for, when the extension started it. */
  private drawIntent?: 'search' | 'aoi';
  private readonly side: HTMLElement;
  private started = false;
  private imageryManager?: Promise<ImageryManager>;
  /** The imagery layers once loaded: what a shared view reads of the compare and the time slider. */
  private imageryShown?: ImageryManager;
  /** Whether the webview started with nothing saved (a panel revived with the host's state only). */
  private readonly startedEmpty: boolean;
  /** How imagery tiles are decoded here (for the tests and the benchmark). */
  decodeMode?: DecodeMode;
  /** Pixel inspector, histogram and clips, once the imagery chunk is loaded (tests use it). */
  imageryTools?: ImageryTools;

  constructor(
    private readonly vscode: VsCodeApi<MapState>,
    root: HTMLElement,
  ) {
    const own = vscode.getState();
    this.startedEmpty = !own;
    this.state = own ?? {};
    this.rpc = new Rpc<MapRequest, MapResults>((m) => this.post(m));
    const mapEl = el('div', { id: 'map', role: 'application', 'aria-label': l10n.t('Map') });
    this.side = el('aside', { id: 'side' });
    // the tools' dock left of the map, the search panel right of it
    root.append(
      createDock(() => this.roomForMap()),
      mapEl,
      this.side,
    );
    this.map = L.map(mapEl, { zoomControl: true, worldCopyJump: false, minZoom: 1, attributionControl: true });
    this.map.attributionControl.setPrefix(false);
    // every floating part in a cell of its own (media/map/frame.ts)
    layoutFrame(this.map);
    followSize(this.map);
    noticeHost(bottomCentre(this.map));
    addOfflinePane(this.map);
    const fills = this.map.createPane(FILL_PANE);
    fills.style.zIndex = '340';
    fills.style.pointerEvents = 'none';
    this.fillRenderer = L.svg({ pane: FILL_PANE });
    for (const kind of KINDS) this.layers[kind] = new FootprintLayer<ShownFeature>(layerStyle(kind), 'overlayPane', FILL_PANE);
    this.draw = new DrawTool(
      this.map,
      () => cssVar('--eo-c-select', '#fff'),
      (s) => this.onDrawnByHand(s),
      (m) => this.onDrawMode(m),
    );
    this.panel = new SearchPanel(
      {
        rpc: this.rpc,
        startDraw: (s) => {
          this.drawIntent = undefined;
          this.draw.begin(s);
        },
        useView: () => this.useView(),
        openResult: (f) => this.post({ type: 'open', ref: f.ref }),
        showResults: (f, mode) => this.setLayer('results', f, mode, false),
        selectResult: (id, from) => (id ? this.select('results', id, from) : this.select(undefined, '', from)),
        aoiCreated: (f) => this.aoiCreated(f),
        orderResults: (items) => this.post({ type: 'orderResults', items }),
        saveSearch: (params) => this.post({ type: 'saveSearch', params }),
        chartIndex: () => this.drawnShape && this.post({ type: 'chartIndex', area: { kind: 'polygon', ring: this.drawnShape.ring } }),
        saveState: () => this.saveState(),
      },
      this.state.search ?? {},
    );
    this.side.appendChild(this.panel.root);
    this.side.hidden = this.state.panelOpen === false;
    const saved = this.state.results;
    addToolbar(L, this.map, {
      draw: (shape) => this.draw.begin(shape),
      fit: () => this.fit(),
      toggleSide: () => {
        this.side.hidden = !this.side.hidden;
        this.map.invalidateSize();
        this.saveState();
      },
    });
    this.map.on('click', (e) => this.onMapClick(e));
    this.map.on('moveend zoomend overlayadd overlayremove baselayerchange', () => this.saveState());
    if (this.state.center && this.state.zoom !== undefined) this.map.setView(this.state.center, this.state.zoom);
    else this.map.setView([20, 0], 2);
    if (saved) {
      // the webview was reloaded (hidden and shown, or the window reloaded): the list comes back
      this.setLayer('results', saved.features, 'replace', false);
      this.panel.restoreResults(saved);
      if (saved.selectedId) this.select('results', saved.selectedId, 'map');
    }
    this.started = true;
    this.watchTheme();
    this.messages = listen(MAP_TO_PAGE, this.handlers());
    this.post({ type: 'ready' });
  }

  private post(m: FromMapMessage, transfer?: ArrayBuffer[]): void {
    this.vscode.postMessage(m, transfer);
  }

  // ------------------------------------------------------------ messages

  /** A message from the extension, as if it had arrived (the map benchmark feeds it layers). */
  onMessage(m: unknown): Promise<void> {
    return this.messages.receive(m);
  }

  /** What the channels' handlers (media/map/channels) need of the page: the imagery tools, the way back. */
  private channelPage(): ChannelPage {
    return {
      tools: async () => {
        await this.imagery();
        if (!this.imageryTools) throw new Error(l10n.t('The imagery tools did not load.'));
        return this.imageryTools;
      },
      imageryAsked: () => this.imageryManager !== undefined,
      post: (m, transfer) => this.post(m, transfer),
    };
  }

  /** One handler per message of the map's table (src/panels/mapMessages.ts); the channels bring theirs. */
  private handlers(): Handlers<typeof MAP_TO_PAGE> {
    const page = this.channelPage();
    return {
      response: (m) => void this.rpc.handle(m),
      init: (m) => {
        // a panel revived by the serializer hands back what the webview saved
        // (only when the webview kept nothing itself: its own view may already have moved on)
        if (this.startedEmpty && m.state) {
          if (m.state.imagery || m.state.timeline)
            Object.assign(this.state, { imagery: m.state.imagery, compare: m.state.compare, timeline: m.state.timeline });
          if (m.state.center && m.state.zoom !== undefined) this.map.setView(m.state.center, m.state.zoom);
        }
        this.init(m.basemaps);
      },
      layer: (m) => {
        this.setLayer(m.layer, m.features, m.mode, m.fit);
        if (m.sources) this.rememberSources(m.layer, m.sources, m.mode);
      },
      select: (m) => this.select(m.layer, m.id, 'extension'),
      startDraw: (m) => {
        this.side.hidden = false;
        this.drawIntent = m.intent;
        this.draw.begin(m.shape);
      },
      runSearch: (m) => {
        this.onDrawn({ shape: m.params.shape, ring: m.params.ring });
        if (this.drawn) this.map.fitBounds(this.drawn.getBounds(), { padding: [24, 24] });
        if (m.useForm) void this.panel.runWithForm(m.anchors);
        else void this.panel.runSaved(m.params);
      },
      connection: (m) => this.setConnected(m.connected, m.configured),
      searchView: () => {
        this.side.hidden = false;
        this.useView();
        void this.panel.runWithForm();
      },
      notice: (m) => showNotice(m.text, m.level),
      setView: (m) => void this.map.setView(m.center, m.zoom),
      imagery: (m) => this.onImagery(m),
      imageryPreview: (m) => this.onImagery(m),
      imageryNote: (m) => this.onImagery(m),
      imageryCompare: (m) => this.onImagery(m),
      imageryTimeline: (m) => this.onImagery(m),
      ...clipHandlers(page),
      ...seriesHandlers(page),
      ...timelapseHandlers(page),
    };
  }

  private init(basemaps: Basemap[]): void {
    if (this.control) return; // a second init (e.g. after a reload) keeps what is there
    this.baseLayers = basemapLayers(this.map, basemaps, this.offline);
    const overlays: Record<string, L.Layer> = {};
    for (const kind of KINDS) overlays[escapeHtml(layerTitle(kind))] = this.layers[kind];
    this.control = L.control.layers(this.baseLayers, overlays, { collapsed: true, position: 'topright' }).addTo(this.map);
    const wanted = this.state.basemap && this.baseLayers[this.state.basemap] ? this.state.basemap : Object.keys(this.baseLayers)[0];
    this.baseLayers[wanted].addTo(this.map);
    const hidden = new Set(this.state.hiddenLayers ?? []);
    for (const kind of KINDS) if (!hidden.has(kind)) this.layers[kind].addTo(this.map);
    // imagery layers of the last session come back (their code loads on demand), compared as they were
    if (this.state.imagery?.length || this.state.timeline)
      void this.onImagery({ type: 'imageryRestore', specs: this.state.imagery ?? [], compare: this.state.compare, timeline: this.state.timeline });
  }

  // ------------------------------------------------------------ imagery (code loaded on demand)

  /** The imagery layers, once the chunk is loaded (tests and the benchmark use it). */
  imagery(): Promise<ImageryManager> {
    this.imageryManager ??= loadImageryChunk().then(async (chunk) => {
      const { manager, decode, tools } = await chunk.create({
        L,
        map: this.map,
        post: (m, transfer) => this.post(m, transfer),
        read: async (params, signal) => {
          try {
            return await this.rpc.call({ method: 'readBytes', params }, signal);
          } catch (e) {
            (e as Error & { fromHost?: boolean }).fromHost = true;
            throw e;
          }
        },
        onChange: (imagery, compare, timeline) => this.saveState({ imagery, compare, timeline }),
        onSettled: (id, report) => this.post({ type: 'imageryStatus', id, report: { ...report, decode: this.decodeMode?.mode } }),
        onExportTimelapse: () => this.post({ type: 'exportTimelapse' }),
      });
      manager.setConnected(this.connected);
      void decode.then((mode) => (this.decodeMode = mode));
      this.imageryTools = tools;
      this.imageryShown = manager;
      return manager;
    });
    this.imageryManager.catch(() => (this.imageryManager = undefined));
    return this.imageryManager;
  }

  private async onImagery(m: ToMapImageryMessage | ImageryRestore): Promise<void> {
    let manager: ImageryManager;
    try {
      manager = await this.imagery();
    } catch (e) {
      showNotice(l10n.t('Imagery cannot be shown: {0}', (e as Error).message), 'error');
      return;
    }
    if (m.type === 'imagery') manager.add(m.spec, m.fit);
    else if (m.type === 'imageryRestore') manager.restore(m.specs, m.compare, m.timeline);
    else if (m.type === 'imageryPreview') manager.preview(m.id, m.dataUrl);
    else if (m.type === 'imageryNote') manager.note(m.id, m.title, m.text);
    else if (m.type === 'imageryTimeline') manager.timeline.start(m.title, m.frames, m.fit ?? true, m.date);
    else {
      manager.add(m.left, m.fit ?? true);
      manager.add(m.right, false);
      manager.compare.start(m.left.id, m.right.id, m.mode, m.position);
    }
  }

  // ------------------------------------------------------------ layers and selection

  setLayer(kind: LayerKind, features: MapFeature[], mode: 'replace' | 'append', fit: boolean): number {
    const layer = this.layers[kind];
    // the layer keeps what popups and selection need, not the GeoJSON: it packs the shape itself
    const inputs = features.map(({ geometry, ...data }) => ({ id: data.id, geometry, data, extraPoints: data.centroid ? [data.centroid] : undefined }));
    const n = mode === 'replace' ? layer.setItems(inputs) : layer.addItems(inputs);
    if (mode === 'replace' && this.selection?.layer === kind) this.selection = undefined;
    if (!this.map.hasLayer(layer) && features.length) layer.addTo(this.map);
    if (fit) this.fit(features.length && mode === 'append' ? features.map((f) => f.id) : undefined, kind);
    return n;
  }

  private rememberSources(kind: LayerKind, sources: MapSource[], mode: 'replace' | 'append'): void {
    const all = { ...(this.state.sources ?? {}) };
    const prev = mode === 'append' ? (all[kind] ?? []) : [];
    const seen = new Set(prev.map((s) => JSON.stringify(s)));
    all[kind] = [...prev, ...sources.filter((s) => !seen.has(JSON.stringify(s)))].slice(-200);
    this.state.sources = all;
    this.saveState();
  }

  /** Fits the view to a layer, some of its shapes, or every visible layer. */
  fit(ids?: string[], kind?: LayerKind): void {
    let bounds: L.LatLngBounds | undefined;
    const kinds = kind ? [kind] : KINDS.filter((k) => this.map.hasLayer(this.layers[k]));
    for (const k of kinds) {
      const list = ids ? ids.map((id) => this.layers[k].getBounds(id)) : [this.layers[k].getBounds()];
      for (const b of list) if (b) bounds = bounds ? bounds.extend(b) : L.latLngBounds(b.getSouthWest(), b.getNorthEast());
    }
    if (this.drawn && !kind) bounds = bounds ? bounds.extend(this.drawn.getBounds()) : this.drawn.getBounds();
    if (bounds?.isValid()) this.map.fitBounds(bounds, { padding: [24, 24], maxZoom: 14, animate: false });
  }

  select(kind: LayerKind | undefined, id: string, from: 'map' | 'list' | 'extension'): void {
    if (this.selection) this.layers[this.selection.layer].setSelected(undefined);
    if (!kind) {
      this.selection = undefined;
      this.panel.markSelected(undefined, false);
      this.saveState();
      return;
    }
    const layer = this.layers[kind];
    if (layer.get(id) === undefined) return;
    this.selection = { layer: kind, id };
    layer.setSelected(id);
    this.panel.markSelected(kind === 'results' ? id : undefined, from !== 'list');
    // the selected row is part of the saved results: a reload shows it selected again
    this.saveState();
    if (from !== 'map') {
      const b = layer.getBounds(id);
      if (b && !this.map.getBounds().contains(b)) this.map.fitBounds(b, { padding: [40, 40], maxZoom: 12, animate: false });
      const f = layer.get(id);
      if (f && from === 'extension' && b) this.popup(f, b.getCenter());
    }
  }

  get selected(): { layer: LayerKind; id: string } | undefined {
    return this.selection;
  }

  private onMapClick(e: L.LeafletMouseEvent): void {
    // the click that finished a drawing is not a click on what lies under it
    if (this.draw.active || this.draw.justFinished()) return;
    // the layer drawn on top wins: results, then archive items, ... AOIs last
    for (const kind of [...KINDS].reverse()) {
      const layer = this.layers[kind];
      if (!this.map.hasLayer(layer)) continue;
      const hits = layer.hitTest(e.latlng);
      if (hits.length) {
        this.select(kind, hits[0].id, 'map');
        this.popup(hits[0], e.latlng);
        // a click also opens the detail (beside the map, which keeps the focus)
        this.post({ type: 'open', ref: hits[0].ref, preview: true });
        return;
      }
    }
    this.select(undefined, '', 'map');
    this.map.closePopup();
  }

  private popup(f: ShownFeature, at: L.LatLng): void {
    const content = featurePopup(f, (m) => this.post(m));
    L.popup({ maxWidth: 320, autoPan: true }).setLatLng(at).setContent(content).openOn(this.map);
  }

  // ------------------------------------------------------------ drawing, AOIs

  private onDrawMode(mode: Shape | undefined): void {
    document.body.dataset.drawing = mode ?? '';
  }

  /**
   * A shape the person drew. Started from "Search Archive Here" (intent `search`) the search runs
   * over it at once; from "Create AOI from Drawing" (intent `aoi`) the AOI form opens.
   */
  private onDrawnByHand(s: DrawnShape): void {
    const intent = this.drawIntent;
    this.drawIntent = undefined;
    this.onDrawn(s);
    if (intent === 'search') void this.panel.search();
    else if (intent === 'aoi') this.panel.openAoiForm();
  }

  /** The map's current view (a little inside its edges, so the outline shows) as the search area. */
  useView(): void {
    this.draw.cancel();
    const size = this.map.getSize();
    const inset = Math.round(Math.min(size.x, size.y) * 0.05);
    const nw = this.map.containerPointToLatLng([inset, inset]);
    const se = this.map.containerPointToLatLng([size.x - inset, size.y - inset]);
    const [w, e] = [nw.lng, se.lng];
    const [s, n] = [Math.max(-85, se.lat), Math.min(85, nw.lat)];
    this.onDrawn({
      shape: 'rectangle',
      ring: [
        [w, s],
        [e, s],
        [e, n],
        [w, n],
        [w, s],
      ],
    });
  }

  onDrawn(s: DrawnShape): void {
    this.drawn?.remove();
    this.drawnFill?.remove();
    this.drawnShape = s;
    const latlngs = s.ring.slice(0, -1).map(([x, y]) => L.latLng(y, x));
    const color = cssVar('--eo-c-select', '#fff');
    this.drawnFill = L.polygon(latlngs, {
      renderer: this.fillRenderer,
      pane: FILL_PANE,
      stroke: false,
      fillColor: color,
      fillOpacity: 0.05,
      interactive: false,
    }).addTo(this.map);
    this.drawn = L.polygon(latlngs, {
      color,
      weight: 2,
      dashArray: '6 4',
      fill: false,
      interactive: false,
    }).addTo(this.map);
    this.side.hidden = false;
    this.panel.setShape(s);
  }

  get drawnRing(): DrawnShape | undefined {
    return this.drawnShape;
  }

  private aoiCreated(f: MapFeature): void {
    // the drawing is now the AOI: clear it (and Create AOI with it) so a duplicate is not one click away
    this.drawn?.remove();
    this.drawnFill?.remove();
    this.drawn = undefined;
    this.drawnFill = undefined;
    this.drawnShape = undefined;
    this.panel.setShape(undefined, l10n.t('AOI "{0}" created and shown on the map. Draw a new shape to search or create another.', f.label));
    this.setLayer('aois', [f], 'append', true);
    this.rememberSources('aois', [{ kind: 'aoi', id: f.ref.kind === 'aoi' ? f.ref.id : f.id }], 'append');
    this.select('aois', f.id, 'extension');
    showNotice(l10n.t('AOI "{0}" created.', f.label));
  }

  // ------------------------------------------------------------ chrome

  /**
   * Not connected (signed out, or the sandbox stopped): a banner says so with the ways back, the
   * map's footprints and imagery are dimmed (what was loaded before, not live) and the search is
   * off until a service is connected again.
   */
  private setConnected(connected: boolean, configured: boolean): void {
    document.body.classList.toggle('eo-signed-out', !connected);
    this.connected = connected;
    this.panel.setConnected(connected);
    void this.imageryManager?.then(
      (m) => m.setConnected(connected),
      () => undefined,
    );
    if (connected) {
      this.banner?.remove();
      this.banner = undefined;
      return;
    }
    this.banner?.remove();
    this.banner = notConnectedBanner(configured, (m) => this.post(m));
    this.side.prepend(this.banner);
    this.side.hidden = false;
  }

  private watchTheme(): void {
    const restyle = () => {
      for (const kind of KINDS) this.layers[kind].setStyle(layerStyle(kind));
      this.offline.restyle();
    };
    const obs = new MutationObserver(restyle);
    obs.observe(document.body, { attributes: true, attributeFilter: ['class'] });
    obs.observe(document.documentElement, { attributes: true, attributeFilter: ['style'] });
  }

  /**
   * The dock opened beside the search panel in an editor too narrow for both (1280 × 800 with
   * the side bar: a 312 px map between them): the panel folds, ☰ on the map brings it back, so
   * the map keeps room. A panel listing results stays: folding it would hide what was asked for.
   */
  private roomForMap(): void {
    if (this.side.hidden || this.panel.hasResults()) return;
    if (this.map.getContainer().clientWidth >= MIN_MAP_WIDTH) return;
    this.side.hidden = true;
    this.map.invalidateSize();
    this.saveState();
  }

  /** `changed`: what the imagery layers say changed (their list, the compare). */
  saveState(changed: Pick<MapState, 'imagery' | 'compare' | 'timeline'> = {}): void {
    if (!this.started) return;
    const c = this.map.getCenter();
    const base = Object.entries(this.baseLayers).find(([, l]) => this.map.hasLayer(l))?.[0];
    this.state = {
      ...this.state,
      ...changed,
      center: [c.lat, c.lng],
      zoom: this.map.getZoom(),
      basemap: base ?? this.state.basemap,
      hiddenLayers: this.control ? KINDS.filter((k) => !this.map.hasLayer(this.layers[k])) : this.state.hiddenLayers,
      search: this.panel?.formState() ?? this.state.search,
      panelOpen: this.side ? !this.side.hidden : this.state.panelOpen,
      results: this.panel?.savedResults(),
    };
    this.vscode.setState(this.state);
    // what Copy Link to This View shares (media/map/sharedView.ts)
    this.post({ type: 'viewState', view: sharedView([c.lat, c.lng], this.map.getZoom(), this.state, this.imageryShown) });
  }
}
