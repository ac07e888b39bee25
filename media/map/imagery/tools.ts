/**
 * The imagery tools beside the layer list: the pixel inspector, a histogram with stretch
 * handles, and what the channels ask of the imagery (media/map/channels: the layers a view
 * saves and their clip, a chart's series, a timelapse's frames).
 */
import * as l10n from '@vscode/l10n';
import type * as Leaflet from 'leaflet';
import type { Pool } from 'geotiff';
import type { ReadBytes } from './byteSource';
import { button, el } from '../../shared/dom';
import { clipInfo, clipPlan, readClip, viewPng } from './clip';
import { HistogramPanel } from './histogram';
import type { ImageryLayerHandle } from './imageryLayer';
import { PixelInspector } from './inspector';
import type { ImageryManager } from './manager';
import { SeriesPanel } from './seriesPanel';
import type { StatsJob, StatsResult } from '../../../src/panels/imagery/seriesStats';
import { renderTimelapse } from './timelapse';
import type { ClipLayerInfo, ClipRequest } from '../../../src/panels/imagery/clipMessages';
import type { TimelapseRequest, TimelapseResult, TimelapseSource } from '../../../src/panels/imagery/timelapseMessages';
import type { FromMapMessage } from '../../../src/panels/mapMessages';
import { insideTool, keepEventsInside } from '../toolEvents';
import { dockSlot } from '../frame';

export interface ImageryToolsDeps {
  L: typeof Leaflet;
  map: Leaflet.Map;
  manager: ImageryManager;
  pool?: Pool;
  /** `transfer`: buffers handed to the extension rather than copied (a saved clip's tens of MB). */
  post?(m: FromMapMessage, transfer?: ArrayBuffer[]): void;
  read: ReadBytes;
  /** One date's statistics, in a worker when one starts (chunk.ts). */
  stats(job: StatsJob): Promise<StatsResult>;
}

const PANE_CLASS = 'leaflet-eo-imagery-pane';

export class ImageryTools {
  readonly inspector: PixelInspector;
  /** "Chart Index Over Time": the chart panel and its runs. */
  readonly series: SeriesPanel;
  histogram?: HistogramPanel;
  private readonly histBox: HTMLElement;
  private readonly histToggle: HTMLButtonElement;
  private readonly layerPick: HTMLSelectElement;

  constructor(private readonly deps: ImageryToolsDeps) {
    const { L, map } = deps;
    this.inspector = new PixelInspector({
      L,
      map,
      layers: () => this.underClicks(),
      copyText: (text) => {
        if (deps.post) deps.post({ type: 'copyText', text });
        else void navigator.clipboard?.writeText(text);
      },
      chartPixel: (area) => deps.post?.({ type: 'chartIndex', area }),
    });
    this.layerPick = el('select', { class: 'hist-layer', 'aria-label': l10n.t('Layer') }) as HTMLSelectElement;
    this.layerPick.addEventListener('change', () => void this.openHistogram(this.layerPick.value));
    this.histBox = el(
      'section',
      { class: 'eo-histogram-panel leaflet-bar', id: 'imagery-histogram', 'aria-label': l10n.t('Histogram and stretch'), hidden: true },
      el(
        'div',
        { class: 'head' },
        el('h3', {}, l10n.t('Histogram and stretch')),
        button('✕', () => this.closeHistogram(), { class: 'icon close', title: l10n.t('Close the histogram'), 'aria-label': l10n.t('Close the histogram') }),
      ),
      this.layerPick,
    );
    this.histToggle = button(l10n.t('Histogram'), () => (this.histBox.hidden ? void this.openHistogram() : this.closeHistogram()), {
      class: 'secondary histogram',
      'aria-pressed': 'false',
      title: l10n.t('Histogram of the view, with the stretch handles'),
    });
    const bar = el(
      'div',
      { class: 'eo-imagery-tools leaflet-bar', role: 'toolbar', 'aria-label': l10n.t('Imagery tools') },
      this.inspector.toggle,
      this.histToggle,
    );
    // the toggles are the map's own small control; what they open goes to the dock (media/map/dock.ts)
    const Bar = L.Control.extend({ onAdd: () => bar });
    new Bar({ position: 'topright' }).addTo(map);
    dockSlot(map, 'inspector').append(this.inspector.panel);
    dockSlot(map, 'histogram').append(this.histBox);
    keepEventsInside(L, bar, this.histBox);
    this.series = new SeriesPanel({
      L,
      map,
      read: deps.read,
      pool: deps.pool,
      stats: deps.stats,
      timeline: deps.manager.timeline,
      post: (m) => deps.post?.(m),
    });
    this.captureClicks(map);
  }

  /**
   * The layers a click reads, bottom first: the visible ones, and above them the date the time
   * slider shows (it is drawn over them), so the inspector reads the date a person sees.
   */
  private underClicks(): ImageryLayerHandle[] {
    const { timeline } = this.deps.manager;
    const shown = timeline.active ? timeline.layerOf(timeline.state.index) : undefined;
    return shown ? [...this.visible(), shown] : this.visible();
  }

  /** Visible imagery layers, the one drawn on top last. */
  visible(): ImageryLayerHandle[] {
    return this.deps.manager.specs
      .filter((s) => s.visible !== false)
      .map((s) => this.deps.manager.layer(s.id))
      .filter((l): l is ImageryLayerHandle => !!l);
  }

  /**
   * While inspecting, a click on the map reads a pixel and goes no further (footprints under it
   * are not selected). A press that moved is a pan, not a click.
   */
  private captureClicks(map: Leaflet.Map): void {
    const c = map.getContainer();
    let down: { x: number; y: number } | undefined;
    c.addEventListener('pointerdown', (e) => (down = { x: e.clientX, y: e.clientY }), true);
    c.addEventListener(
      'click',
      (e) => {
        if (!this.inspector.active) return;
        if (insideTool(e.target)) return;
        e.stopPropagation();
        if (down && Math.hypot(e.clientX - down.x, e.clientY - down.y) > 4) return;
        const ll = map.mouseEventToLatLng(e);
        void this.inspector.inspectAt(ll.lng, ll.lat);
      },
      true,
    );
  }

  async openHistogram(id?: string): Promise<HistogramPanel | undefined> {
    const layers = this.visible();
    this.layerPick.replaceChildren(...layers.map((l) => el('option', { value: l.spec.id }, l.spec.title)));
    this.layerPick.hidden = layers.length < 2;
    const layer = layers.find((l) => l.spec.id === id) ?? layers[layers.length - 1];
    this.histogram?.destroy();
    this.histogram = undefined;
    this.histBox.querySelector(':scope > .save-range')?.remove();
    this.histBox.hidden = false;
    this.histToggle.setAttribute('aria-pressed', 'true');
    if (!layer) {
      this.histBox.querySelector('.status')?.remove();
      this.histBox.append(el('div', { class: 'status muted' }, l10n.t('Show an imagery layer first.')));
      return undefined;
    }
    this.histBox.querySelector(':scope > .status')?.remove();
    this.layerPick.value = layer.spec.id;
    const panel = new HistogramPanel(layer, this.deps.map, (render) => this.deps.manager.restyle(layer.spec.id, render));
    this.histogram = panel;
    this.histBox.append(panel.root);
    const save = this.saveRangeButton(layer.spec.id);
    if (save) this.histBox.append(save);
    await panel.refresh();
    return panel;
  }

  /**
   * "Save Colour Range to Service" under the histogram of a visualization's index layer: the
   * handles' range as the layer is drawn when it is pressed; the extension asks the rest.
   */
  private saveRangeButton(id: string): HTMLButtonElement | undefined {
    const spec = this.deps.manager.layer(id)?.spec;
    const post = this.deps.post;
    if (!post || spec?.source.kind !== 'visualization' || spec.render.kind !== 'index') return undefined;
    const { aoiId, id: visId } = spec.source;
    return button(
      l10n.t('Save Colour Range to Service'),
      () => {
        const r = this.deps.manager.layer(id)?.spec.render;
        if (r?.kind !== 'index') return;
        post({
          type: 'saveColourRange',
          range: { visualization: { aoiId, id: visId }, date: spec.date, rescale: [r.rescale[0], r.rescale[1]], colormap: r.colormap },
        });
      },
      { class: 'secondary save-range', title: l10n.t('Save the range of the handles as this visualization’s legend on the service') },
    );
  }

  closeHistogram(): void {
    this.histogram?.destroy();
    this.histogram = undefined;
    this.histBox.hidden = true;
    this.histToggle.setAttribute('aria-pressed', 'false');
  }

  // ------------------------------------------------------------ saving the view

  async clipInfo(): Promise<ClipLayerInfo[]> {
    const out: ClipLayerInfo[] = [];
    for (const l of this.visible().reverse()) {
      const info = await clipInfo(l, this.deps.map).catch(() => undefined);
      if (info) out.push(info);
    }
    return out;
  }

  async clip(req: ClipRequest, signal?: AbortSignal, onProgress?: (done: number, total: number) => void) {
    if (req.format === 'png') {
      const pane = this.deps.map.getContainer().querySelector(`.${PANE_CLASS}`) as HTMLElement | null;
      if (!pane) throw new Error(l10n.t('No imagery is drawn in the view.'));
      return viewPng(this.deps.map, pane);
    }
    const layer = this.deps.manager.layer(req.id);
    if (!layer) throw new Error(l10n.t('That layer is no longer on the map.'));
    // the extension reads the file itself when it can: a plan crosses, not the tiles and the file
    const plan = req.host ? await clipPlan(layer, this.deps.map, req) : undefined;
    if (plan) return { plan };
    return readClip(layer, this.deps.map, { bands: req.bands, level: req.level, mask: req.mask, pool: this.deps.pool, signal, onProgress });
  }

  // ------------------------------------------------------------ a timelapse (media/map/channels/timelapse.ts)

  /** What the time slider shows, for the palette's "Export Timelapse…"; undefined: no slider open. */
  timelapseSource(): TimelapseSource | undefined {
    const shown = this.deps.manager.timeline.dates;
    return (
      shown && {
        title: shown.title,
        dates: shown.frames.map((f) => f.date),
        ...(shown.frames[0]?.spec.clip ? { outline: shown.frames[0].spec.clip } : {}),
      }
    );
  }

  /** Each date drawn as the time slider would, and the frames encoded. */
  renderTimelapse(request: TimelapseRequest, signal: AbortSignal, onProgress: (done: number, total: number, date: string) => void): Promise<TimelapseResult> {
    const { L, map, read, pool, manager } = this.deps;
    return renderTimelapse(request, { L, map, read, pool, sliderFrames: () => manager.timeline.dates?.frames }, signal, onProgress);
  }
}
