/**
 * The map panel's extension side: one panel per window. It fetches (the token stays here),
 * sends plain features to the webview, answers its requests (search options, search pages,
 * create AOI), and re-sends everything when the webview reloads (hidden and shown again, or
 * restored by the serializer after a window reload).
 */
import vscode = require('vscode');
import { isCancellation } from '../api/errors';
import type { ArchiveItem, Satellite } from '../api/records';
import type { EoClient } from '../api/client';
import type { UnreadableRecord } from '../api/unreadable';
import { ringToGeoJson } from '../geo/antimeridian';
import { validatePolygon } from '../geo/aoiGeometry';
import { describeError } from '../ui/showError';
import { basemapImgSources, configuredBasemaps, openExternalChecked, panelOptions, renderPanelHtml, responseError, type PanelContext } from './host';
import { runCommand } from '../ui/runCommand';
import { aoiFeature, archiveItemFeature, archiveSearchBody, imagerySearchBody, searchNotes, withoutFootprint, type MapTarget } from './mapData';
import { fetchSource, fetchAssets } from './mapSources';
import { PostRecorder, type PanelProbe } from './probe';
import { ImageryByteServer } from './imagery/byteServer';
import { ClipChannel } from './imagery/clipChannel';
import type { ImageryLayerSpec, TimeFrame } from './imagery/protocol';
import type {
  CreateAoiParams,
  FromMapMessage,
  LayerKind,
  MapFeature,
  MapRequest,
  MapResults,
  MapSource,
  MapState,
  RpcHandlers,
  SearchOptions,
  SearchPage,
  SearchParams,
  ToMapMessage,
} from './protocol';

export const MAP_VIEW_TYPE = 'eoImagery.map';

const PREVIEW_MAX_BYTES = 2 * 1024 * 1024;

/** PNG, JPEG or WebP by their first bytes (a preview is never trusted by its name). */
function sniffImage(b: Buffer): string | undefined {
  if (b.length > 8 && b[0] === 0x89 && b.toString('latin1', 1, 4) === 'PNG') return 'image/png';
  if (b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.length > 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  return undefined;
}

interface SearchSession {
  id: number;
  items: AsyncGenerator<ArchiveItem, void, undefined>;
  /** One item read ahead, so "Load more" is offered only when there is more. */
  ahead?: ArchiveItem;
  done: boolean;
  loaded: number;
  limit: number;
  abort: AbortController;
  /** Results the service sent that could not be read (left out; the list says so). */
  unreadable: UnreadableRecord[];
  /** Results without a footprint so far (listed, not drawn). */
  noFootprint: number;
}

export class MapPanel implements vscode.Disposable {
  private static current: MapPanel | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly layers = new Map<LayerKind, { features: MapFeature[]; sources: MapSource[] }>();
  private readonly queue: ToMapMessage[] = [];
  private isReady = false;
  private searches = new Map<number, SearchSession>();
  private nextSearch = 1;
  private satellites: Satellite[] = [];
  /** The current search's items by `collection/id`, so "Order…" hands over whole items (footprints included). */
  private resultItems = new Map<string, ArchiveItem>();
  private readonly recorder = new PostRecorder();
  /** The last search the webview ran ("Save Search…" from the command palette saves it). */
  lastSearch?: SearchParams;
  /** Called on the webview's "Save Search…" (set by src/commands/searchFiles). */
  static saveSearch: (params: SearchParams) => Promise<void> = async () => undefined;
  private readonly bytes = new ImageryByteServer();
  /** Webview requests being answered, by id: a `cancelRequest` aborts one (and closes its connection). */
  private readonly inflight = new Map<number, AbortController>();
  private readonly pixelWaiters = new Map<number, (pixels: [number, number, number, number][]) => void>();
  private nextPixelRequest = 1;
  private readonly imageryReports: unknown[] = [];
  /** "Save View as GeoTIFF…/PNG": the webview reads and encodes, the command writes. */
  readonly clips = new ClipChannel((m) => this.post(m));

  /** Opens the map (or brings the open one forward). */
  static show(ctx: PanelContext): MapPanel {
    if (MapPanel.current) {
      MapPanel.current.panel.reveal(undefined, false);
      return MapPanel.current;
    }
    const panel = vscode.window.createWebviewPanel(MAP_VIEW_TYPE, 'EO Map', vscode.ViewColumn.Active, panelOptions(ctx.services.context));
    return new MapPanel(ctx, panel, undefined);
  }

  /** Called by the serializer after a window reload, with the state the webview saved. */
  static revive(ctx: PanelContext, panel: vscode.WebviewPanel, state: MapState | undefined): MapPanel {
    MapPanel.current?.dispose();
    panel.webview.options = panelOptions(ctx.services.context);
    const p = new MapPanel(ctx, panel, state);
    // the restored webview draws its saved imagery layers again and reads their files
    for (const spec of state?.imagery ?? []) p.bytes.allow(spec.url);
    void p.restoreSources(state?.sources ?? {});
    return p;
  }

  static get open(): MapPanel | undefined {
    return MapPanel.current;
  }

  /** For integration tests (see `services.panels`). */
  get probe(): PanelProbe {
    return {
      panel: this.panel,
      posted: this.recorder.posted,
      whenReady: () => this.recorder.whenReady(),
      receive: (m) => this.onMessage(m as FromMapMessage),
      imageryReports: this.imageryReports,
      imageryPixels: (points) => this.imageryPixels(points),
    };
  }

  private constructor(
    private readonly ctx: PanelContext,
    readonly panel: vscode.WebviewPanel,
    private readonly state: MapState | undefined,
  ) {
    MapPanel.current = this;
    const services = ctx.services;
    const basemaps = configuredBasemaps(services.log);
    panel.webview.html = renderPanelHtml(panel.webview, services.context, 'map', 'EO Map', basemapImgSources(basemaps));
    this.disposables.push(
      panel.onDidDispose(() => this.dispose()),
      // a hidden webview is torn down (no retained context): what is posted meanwhile would be
      // lost, so it waits in the queue for the 'ready' of the reloaded page
      panel.onDidChangeViewState(() => {
        if (!panel.visible && this.isReady) {
          this.isReady = false;
          this.recorder.reset();
          this.clips.dropAll(vscode.l10n.t('The map was hidden before the clip was ready; show it and save again.'));
        }
      }),
      panel.webview.onDidReceiveMessage((m: FromMapMessage) => void this.onMessage(m)),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('eoImagery.map.basemaps')) {
          const b = configuredBasemaps(services.log);
          this.isReady = false;
          this.recorder.reset();
          panel.webview.html = renderPanelHtml(panel.webview, services.context, 'map', 'EO Map', basemapImgSources(b));
        }
      }),
    );
  }

  private get services() {
    return this.ctx.services;
  }

  dispose(): void {
    if (MapPanel.current === this) MapPanel.current = undefined;
    this.clips.dropAll(vscode.l10n.t('The map was closed before the clip was ready.'));
    for (const s of this.searches.values()) s.abort.abort();
    this.searches.clear();
    while (this.disposables.length) this.disposables.pop()?.dispose();
    this.panel.dispose();
  }

  private post(m: ToMapMessage): void {
    if (!this.isReady && m.type !== 'response') {
      this.queue.push(m);
      return;
    }
    this.send(m);
  }

  /** Every message to the webview goes out here (and is recorded for the tests). */
  private send(m: ToMapMessage): void {
    this.recorder.record(m);
    void this.panel.webview.postMessage(m);
  }

  // ------------------------------------------------------------ what commands call

  /** Puts records on a layer (kept here, so they come back when the webview reloads). */
  showTarget(t: MapTarget, opts: { fit?: boolean; select?: boolean; mode?: 'replace' | 'append'; reveal?: boolean } = {}): void {
    const mode = opts.mode ?? 'append';
    const prev = this.layers.get(t.layer) ?? { features: [], sources: [] };
    const ids = new Set(t.features.map((f) => f.id));
    const features = mode === 'append' ? [...prev.features.filter((f) => !ids.has(f.id)), ...t.features] : t.features;
    this.layers.set(t.layer, { features, sources: mode === 'append' ? [...prev.sources, ...t.sources] : t.sources });
    this.post({ type: 'layer', layer: t.layer, features: t.features, mode, fit: opts.fit ?? true, sources: t.sources });
    if (opts.select && t.features[0]) this.post({ type: 'select', layer: t.layer, id: t.features[0].id });
    if (opts.reveal !== false) this.panel.reveal(undefined, false);
  }

  /** What a layer shows now (the AOIs on the map are offered as a search area). */
  shown(layer: LayerKind): readonly MapFeature[] {
    return this.layers.get(layer)?.features ?? [];
  }

  startDraw(shape: 'rectangle' | 'polygon', intent: 'search' | 'aoi'): void {
    this.post({ type: 'startDraw', shape, intent });
    this.panel.reveal(undefined, false);
  }

  /**
   * Draws a GeoTIFF on the map (an archive item, an AOI asset, a visualization, or any COG such
   * as an insight's output): the layer list shows its progress and problems. `previewUrl` is a
   * picture shown over the footprint until the pixels arrive.
   */
  showImagery(spec: ImageryLayerSpec, opts: { previewUrl?: string; fit?: boolean } = {}): void {
    this.bytes.allow(spec.url);
    this.post({ type: 'imagery', spec, fit: opts.fit ?? true });
    this.panel.reveal(undefined, false);
    if (opts.previewUrl) void this.sendPreview(spec.id, opts.previewUrl);
  }

  /** What the imagery pane shows at lon/lat points (RGBA), asked of the webview; for tests. */
  private imageryPixels(points: [number, number][]): Promise<[number, number, number, number][]> {
    const requestId = this.nextPixelRequest++;
    return new Promise((resolve) => {
      this.pixelWaiters.set(requestId, resolve);
      this.post({ type: 'imageryPixels', requestId, points });
    });
  }

  /** Two layers side by side with a swipe divider (src/commands/imagery/compare.ts). */
  showCompare(left: ImageryLayerSpec, right: ImageryLayerSpec): void {
    this.bytes.allow(left.url);
    this.bytes.allow(right.url);
    this.post({ type: 'imageryCompare', left, right });
    this.panel.reveal(undefined, false);
  }

  /** A time slider over one place's dates (src/commands/imagery/timeSlider.ts). */
  showTimeline(title: string, frames: TimeFrame[]): void {
    for (const f of frames) this.bytes.allow(f.spec.url);
    this.post({ type: 'imageryTimeline', title, frames });
    this.panel.reveal(undefined, false);
  }

  /** The items of the map's current search, in the order they came. */
  get searchResults(): ArchiveItem[] {
    return [...this.resultItems.values()];
  }

  /** A row in the layer list saying why a record cannot be drawn (e.g. an `s3://` path). */
  imageryNote(id: string, title: string, text: string): void {
    this.post({ type: 'imageryNote', id, title, text });
    this.panel.reveal(undefined, false);
  }

  private async sendPreview(id: string, url: string): Promise<void> {
    try {
      const client = await this.client();
      const r = await client.readRange(url, 0, PREVIEW_MAX_BYTES, { maxWholeFile: PREVIEW_MAX_BYTES });
      const type = sniffImage(r.body);
      if (!type || (r.total !== undefined && r.total > PREVIEW_MAX_BYTES)) return;
      this.post({ type: 'imageryPreview', id, dataUrl: `data:${type};base64,${r.body.toString('base64')}` });
    } catch {
      // no preview: the layer list shows the GeoTIFF's own progress
    }
  }

  notice(text: string, level: 'info' | 'error' = 'info'): void {
    this.post({ type: 'notice', level, text });
  }

  // ------------------------------------------------------------ messages

  private async onMessage(m: FromMapMessage): Promise<void> {
    switch (m?.type) {
      case 'ready': {
        this.isReady = true;
        this.send({ type: 'init', basemaps: configuredBasemaps(this.services.log), state: this.state });
        // a reloaded webview has lost its layers: send them again, then anything queued
        for (const [layer, { features }] of this.layers) {
          this.send({ type: 'layer', layer, features, mode: 'replace', fit: false });
        }
        for (const q of this.queue.splice(0)) this.send(q);
        this.recorder.markReady();
        return;
      }
      case 'request': {
        const abort = new AbortController();
        this.inflight.set(m.id, abort);
        try {
          const result = await this.handle(m.request, abort.signal);
          this.send({ type: 'response', id: m.id, ok: true, result });
        } catch (e) {
          // a byte read is already a request line in the log; its failure shows in the layer list
          if (!isCancellation(e) && !abort.signal.aborted && m.request.method !== 'readBytes')
            this.services.log.warn(`map: ${m.request.method} failed: ${describeError(e)}`);
          if (!abort.signal.aborted) this.send({ type: 'response', id: m.id, ok: false, error: responseError(e) });
        } finally {
          this.inflight.delete(m.id);
        }
        return;
      }
      case 'cancelRequest':
        this.inflight.get(m.id)?.abort();
        return;
      case 'imageryPixels':
        this.pixelWaiters.get(m.requestId)?.(m.pixels);
        this.pixelWaiters.delete(m.requestId);
        return;
      case 'open':
        await this.ctx.openDetail(m.ref, m.preview === true);
        return;
      case 'openExternal':
        await openExternalChecked(m.url);
        return;
      case 'orderResults':
        await this.orderResults(m.items);
        return;
      case 'saveSearch':
        await MapPanel.saveSearch(m.params);
        return;
      case 'clipReply':
      case 'clipProgress':
        this.clips.receive(m);
        return;
      case 'copyText':
        if (typeof m.text === 'string') await vscode.env.clipboard.writeText(m.text);
        return;
      case 'imageryStatus':
        this.imageryReports.push({ id: m.id, ...m.report });
        if (this.imageryReports.length > 200) this.imageryReports.shift();
        return;
      case 'showImagery': {
        const ref = m.ref;
        const arg =
          ref.kind === 'archiveItem' ? (this.resultItems.get(`${ref.collection}/${ref.id}`) ?? { collection: ref.collection, id: ref.id }) : undefined;
        if (!arg) return;
        await runCommand('showImagery', arg);
        return;
      }
      default:
        return;
    }
  }

  /**
   * The webview names the rows; the items are the ones this search read (a reloaded window
   * has none, and the order flow reads such references from the archive itself).
   */
  private async orderResults(refs: unknown): Promise<void> {
    const items = (Array.isArray(refs) ? refs : [])
      .filter((r): r is { collection: string; id: string } => typeof r?.collection === 'string' && typeof r?.id === 'string')
      .map((r) => this.resultItems.get(`${r.collection}/${r.id}`) ?? { collection: r.collection, id: r.id });
    if (!items.length) return;
    try {
      await runCommand('orderArchiveItems', items);
    } catch (e) {
      this.notice(describeError(e), 'error');
    }
  }

  private client(): Promise<EoClient> {
    return this.services.connection.getClient();
  }

  /** One handler per request of the protocol, each returning what `MapResults` says. */
  private readonly handlers: RpcHandlers<MapRequest, MapResults> = {
    searchOptions: () => this.searchOptions(),
    search: (r) => this.search(r.params),
    searchMore: async (r) => {
      const s = this.searches.get(r.searchId);
      if (!s) throw new Error('That search has ended; search again.');
      return this.page(s);
    },
    createAoi: (r) => this.createAoi(r.params),
    readBytes: async (r, signal) => this.bytes.read(await this.client(), r.params, signal),
  };

  private async handle(r: MapRequest, signal: AbortSignal): Promise<unknown> {
    const handler = Object.hasOwn(this.handlers, r?.method) ? (this.handlers[r.method] as (r: MapRequest, signal: AbortSignal) => Promise<unknown>) : undefined;
    if (!handler) throw new Error('Unknown request.');
    return handler(r, signal);
  }

  private async searchOptions(): Promise<SearchOptions> {
    const client = await this.client();
    const [collections, satellites, projects] = await Promise.allSettled([
      client.archives.collections(),
      client.search.satellites(),
      client.projects.listPage({ pageNum: 1, pageSize: 100 }),
    ]);
    const errors: SearchOptions['errors'] = {};
    const val = <T>(p: PromiseSettledResult<T>, key: keyof SearchOptions['errors']): T | undefined => {
      if (p.status === 'fulfilled') return p.value;
      errors[key] = describeError(p.reason);
      return undefined;
    };
    const sats = val(satellites, 'satellites') ?? [];
    this.satellites = sats;
    return {
      collections: (val(collections, 'collections') ?? []).map((c) => ({ id: c.id, title: c.title, interval: overallInterval(c.extent?.temporal?.interval) })),
      satellites: sats.map((s) => ({ id: s.id, name: s.name, collection_id: s.collection_id ?? '' })),
      projects: (val(projects, 'projects')?.items ?? []).map((p) => ({ id: p.id, name: p.title || p.name })),
      errors,
    };
  }

  /** Runs a saved search in the webview: its form, its area drawn, its results listed. */
  runSearch(params: SearchParams): void {
    this.panel.reveal(undefined, false);
    this.post({ type: 'runSearch', params });
  }

  private async search(p: SearchParams): Promise<SearchPage> {
    this.lastSearch = p;
    // a new search ends the previous ones (their pages would only confuse the list)
    for (const s of this.searches.values()) s.abort.abort();
    this.searches.clear();
    this.resultItems.clear();
    const client = await this.client();
    const abort = new AbortController();
    const unreadable: UnreadableRecord[] = [];
    const opts = { pageSize: p.limit, signal: abort.signal, onUnreadable: (r: UnreadableRecord[]) => unreadable.push(...r) };
    let items: AsyncGenerator<ArchiveItem, void, undefined>;
    if (p.kind === 'imagery') {
      if (this.satellites.length === 0) this.satellites = await client.search.satellites({ signal: abort.signal });
      items = client.search.iterate(imagerySearchBody(p, this.satellites), opts);
    } else {
      items = client.archives.iterateSearch(archiveSearchBody(p), opts);
    }
    const s: SearchSession = { id: this.nextSearch++, items, done: false, loaded: 0, limit: p.limit, abort, unreadable, noFootprint: 0 };
    this.searches.set(s.id, s);
    const page = await this.page(s);
    this.layers.set('results', { features: page.features, sources: [] });
    return page;
  }

  private async page(s: SearchSession): Promise<SearchPage> {
    const out: ArchiveItem[] = [];
    if (s.ahead) {
      out.push(s.ahead);
      s.ahead = undefined;
    }
    while (!s.done && out.length < s.limit + 1) {
      const n = await s.items.next();
      if (n.done) s.done = true;
      else out.push(n.value);
    }
    if (out.length > s.limit) s.ahead = out.pop();
    s.loaded += out.length;
    for (const item of out) this.resultItems.set(`${item.collection}/${item.id}`, item);
    const features = out.map(archiveItemFeature);
    s.noFootprint += withoutFootprint(features);
    if (s.loaded > out.length) {
      const prev = this.layers.get('results');
      if (prev) prev.features.push(...features);
    }
    const hasMore = s.ahead !== undefined;
    if (!hasMore) this.searches.delete(s.id);
    return { searchId: s.id, features, loaded: s.loaded, hasMore, ...searchNotes(s.noFootprint, s.unreadable) };
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

  /** After a window reload: fetch what the layers showed, again. */
  private async restoreSources(sources: Partial<Record<LayerKind, MapSource[]>>): Promise<void> {
    const all = Object.values(sources)
      .flat()
      .filter((s): s is MapSource => !!s);
    if (!all.length) return;
    let client: EoClient;
    try {
      client = await this.client();
    } catch (e) {
      this.notice(`Sign in to show the map's shapes again (${describeError(e)}).`, 'error');
      return;
    }
    const failures: string[] = [];
    // single assets are found by listing their AOI's assets once per AOI (the service has no
    // GET for one asset)
    const assets = new Map<string, Set<string>>();
    for (const s of all) if (s.kind === 'asset') assets.set(s.aoiId, (assets.get(s.aoiId) ?? new Set()).add(s.id));
    const jobs: Promise<MapTarget | undefined>[] = all.filter((s) => s.kind !== 'asset').map((s) => fetchSource(client, s));
    for (const [aoiId, ids] of assets) jobs.push(fetchAssets(client, aoiId, ids));
    await Promise.all(
      jobs.map(async (job) => {
        try {
          const t = await job;
          if (t) this.showTarget(t, { fit: false, reveal: false });
        } catch (e) {
          failures.push(describeError(e));
        }
      }),
    );
    if (failures.length) this.notice(`${failures.length} shape(s) could not be loaded again: ${failures[0]}`, 'error');
  }
}

/** A collection's overall temporal extent: the first interval, when it is a pair of strings or nulls. */
function overallInterval(intervals: unknown): (string | null)[] | undefined {
  const first: unknown = Array.isArray(intervals) ? intervals[0] : undefined;
  if (!Array.isArray(first) || first.length !== 2) return undefined;
  return first.every((t) => t === null || typeof t === 'string') ? (first as (string | null)[]) : undefined;
}
