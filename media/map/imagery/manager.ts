/**
 * The imagery side of the map: adds, restyles and removes imagery layers, shows previews
 * until pixels arrive, and keeps the layer list (visibility, opacity, bands, stretch, zoom-to,
 * remove, progress and problems) and the colour-map legends.
 */
import type * as Leaflet from 'leaflet';
import * as l10n from '@vscode/l10n';
import type { Pool } from 'geotiff';
import type { ImageryClass, ImageryLayerSpec, ImageryRender, ImageryStatusReport, SavedTimeline } from '../../../src/panels/imagery/protocol';
import { el, button, clear } from '../../shared/dom';
import type { ReadBytes } from './byteSource';
import { classColors, colormapLut, colormapName } from './colormaps';
import { createImageryLayer, type ImageryLayerHandle, type LayerStatus } from './imageryLayer';
import { bandControls } from './bandControls';
import { bandControlsState, round } from './bandState';
import { SwipeCompare, type CompareState } from './compare';
import { TimeSlider } from './timeSlider';
import { keepEventsInside } from '../toolEvents';
import { dockSlot } from '../frame';
import { showNotice } from '../../shared/notice';
import { layerStyle } from '../layerKinds';

export interface ImageryManagerDeps {
  L: typeof Leaflet;
  map: Leaflet.Map;
  read: ReadBytes;
  pool?: Pool;
  /** Called whenever the set of layers or a layer's look, the compare or the time slider's date changes (the map saves its state). */
  onChange(specs: ImageryLayerSpec[], compare: CompareState | undefined, timeline: SavedTimeline | undefined): void;
  /** A layer settled (all visible tiles drawn, or failed) or drew its first pixels. */
  onSettled?(id: string, report: ImageryStatusReport): void;
  /** The time slider's "Export Timelapse…" button. */
  onExportTimelapse?(): void;
}

interface Entry {
  spec: ImageryLayerSpec;
  layer?: ImageryLayerHandle;
  preview?: Leaflet.ImageOverlay;
  /** The spec's outline (an insight output's AOI), on the map while the layer is. */
  outline?: Leaflet.GeoJSON;
  row: HTMLElement;
  status: HTMLElement;
  controls: HTMLElement;
  legend?: HTMLElement;
  note?: string;
  lastStatus?: LayerStatus;
  drawn?: boolean;
}

const PANE = 'eo-imagery';

/** What a reloaded page saved of its imagery (media/map/app.ts restores it). */
export interface ImageryRestore {
  type: 'imageryRestore';
  specs: ImageryLayerSpec[];
  compare?: Omit<CompareState, 'showing'>;
  timeline?: SavedTimeline;
}

export class ImageryManager {
  private readonly entries = new Map<string, Entry>();
  private readonly list: HTMLElement;
  private readonly legends: HTMLElement;
  private readonly box: HTMLElement;
  /** Swipe or flicker between two of the layers. */
  readonly compare: SwipeCompare;
  /** One date at a time of a place's imagery (its own layers, not in the list). */
  readonly timeline: TimeSlider;
  /** Whether a service is connected (the page says; see setConnected). */
  private connected = true;

  constructor(private readonly deps: ImageryManagerDeps) {
    const { L, map } = deps;
    if (!map.getPane(PANE)) {
      const pane = map.createPane(PANE);
      // above the basemap tiles (200), the offline outlines and the footprints' fills (340); under their outlines (400)
      pane.style.zIndex = '350';
      pane.style.pointerEvents = 'none';
    }
    this.list = el('div', { class: 'eo-imagery-rows' });
    this.compare = new SwipeCompare({
      L,
      map,
      layer: (id) => {
        const l = this.entries.get(id)?.layer;
        return l && map.hasLayer(l) ? l : undefined;
      },
      layers: () => this.specs.map((s) => ({ id: s.id, title: s.title })),
      onChange: () => this.changed(),
      // one tool at a time draws dates in the pane: the compare's labels would name dates the slider hides
      onStart: () => {
        if (!this.timeline.active) return;
        this.timeline.stop();
        showNotice(l10n.t('Time slider closed: a compare shows two layers now.'));
      },
    });
    this.timeline = new TimeSlider({
      L,
      map,
      read: deps.read,
      pool: deps.pool,
      pane: PANE,
      onSettled: deps.onSettled,
      onExport: deps.onExportTimelapse,
      onChange: () => this.changed(),
      onStart: (title) => {
        if (this.compare.state) this.compare.stop(l10n.t('Compare ended: the time slider shows the dates of {0}.', title));
      },
    });
    const head = el('div', { class: 'list-head' }, el('h3', {}, l10n.t('Imagery')));
    head.append(this.compare.pickerButton(head));
    this.box = el('section', { class: 'eo-imagery-list leaflet-bar', 'aria-label': l10n.t('Imagery layers'), id: 'imagery-layers' }, head, this.list);
    this.box.hidden = true;
    this.legends = el('div', { class: 'eo-legends', id: 'imagery-legends' });
    dockSlot(map, 'layers').append(this.box);
    dockSlot(map, 'legend').append(this.legends);
    keepEventsInside(L, this.box, this.legends);
  }

  get specs(): ImageryLayerSpec[] {
    return [...this.entries.values()].filter((e) => !e.note).map((e) => e.spec);
  }

  layer(id: string): ImageryLayerHandle | undefined {
    return this.entries.get(id)?.layer;
  }

  /**
   * Signed out, every read fails: a layer that fails then says it waits for a service (the
   * map's banner is the one line that says why), and the layers that failed open again when a
   * service is connected.
   */
  setConnected(connected: boolean): void {
    const back = connected && !this.connected;
    this.connected = connected;
    if (!back) return;
    for (const entry of [...this.entries.values()]) if (!entry.note && entry.lastStatus?.state === 'error') this.add(entry.spec, false);
  }

  /**
   * The layers a reloaded page saved (a tab switched away and back), compared again as they
   * were; a compare that cannot start again says why.
   */
  restore(specs: ImageryLayerSpec[], compare: ImageryRestore['compare'], timeline?: SavedTimeline): void {
    for (const spec of specs) this.add(spec, false);
    if (compare && !this.compare.start(compare.left, compare.right, compare.mode, compare.position))
      showNotice(l10n.t('Compare ended: a compared layer is hidden or no longer on the map.'));
    // the slider on the date it showed, the map where it was (not moved over all the dates)
    if (timeline && !compare) this.timeline.start(timeline.title, timeline.frames, false, timeline.date);
  }

  /** Adds (or replaces, same id, in its place in the list) a layer. */
  add(spec: ImageryLayerSpec, fit: boolean): void {
    const next = this.entries.get(spec.id)?.row.nextSibling;
    this.remove(spec.id, false);
    const { L, map } = this.deps;
    const status = el('div', { class: 'status muted', role: 'status' }, l10n.t('Opening…'));
    const controls = el('div', { class: 'controls' });
    const row = el('div', { class: 'eo-imagery-row', 'data-id': spec.id });
    const entry: Entry = { spec, row, status, controls };
    this.entries.set(spec.id, entry);
    const layer = createImageryLayer(spec, {
      L,
      read: this.deps.read,
      pool: this.deps.pool,
      pane: PANE,
      onStatus: (s) => this.setStatus(entry, s),
      onFirstPixels: () => {
        entry.preview?.remove();
        entry.preview = undefined;
        entry.drawn = true;
      },
    });
    entry.layer = layer;
    entry.outline = this.outlineOf(spec);
    this.buildRow(entry);
    if (next?.parentNode === this.list) this.list.insertBefore(row, next);
    if (spec.visible !== false) layer.addTo(map);
    if (spec.visible !== false) entry.outline?.addTo(map);
    if (spec.visible !== false) this.closePopupOver(spec.bbox);
    if (spec.bbox && spec.visible !== false) {
      const [w, s, e, n] = spec.bbox;
      if (fit)
        map.fitBounds(
          [
            [s, w],
            [n, e],
          ],
          { padding: [24, 24], maxZoom: 14, animate: false },
        );
    }
    layer.ready.then(
      () => {
        this.buildControls(entry);
        if (fit && !spec.bbox) void this.zoomTo(spec.id);
      },
      () => undefined,
    );
    this.updateLegend(entry);
    this.changed();
  }

  /** The spec's outline drawn as the AOI layer draws its outlines, unfilled so it tints nothing, not clickable. */
  private outlineOf(spec: ImageryLayerSpec): Leaflet.GeoJSON | undefined {
    const g = spec.outline as { type?: unknown } | undefined;
    if (g?.type !== 'Polygon' && g?.type !== 'MultiPolygon') return undefined;
    const { color, weight } = layerStyle('aois');
    return this.deps.L.geoJSON(g as GeoJSON.Polygon | GeoJSON.MultiPolygon, {
      style: { color, weight, fill: false, interactive: false, className: 'eo-imagery-outline' },
      interactive: false,
    });
  }

  /**
   * A footprint's popup (its "Show imagery", say) would stay open over the imagery it brought:
   * closed when it lies over the new layer's box (or the box is not known); one elsewhere stays.
   */
  private closePopupOver(bbox: [number, number, number, number] | undefined): void {
    const { L, map } = this.deps;
    const [w, s, e, n] = bbox ?? [-Infinity, -Infinity, Infinity, Infinity];
    const over: Leaflet.Popup[] = [];
    map.eachLayer((l) => {
      const at = l instanceof L.Popup ? l.getLatLng() : undefined;
      if (at && at.lng >= w && at.lng <= e && at.lat >= s && at.lat <= n) over.push(l as Leaflet.Popup);
    });
    for (const p of over) map.closePopup(p);
  }

  /** A row that explains why a record cannot be shown (no layer). */
  note(id: string, title: string, text: string): void {
    this.remove(id, false);
    const status = el('div', { class: 'status error', role: 'alert' }, text);
    const row = el('div', { class: 'eo-imagery-row', 'data-id': id });
    const entry: Entry = {
      spec: { id, title, url: '', bands: [], render: { kind: 'rgb', bands: ['', '', ''] }, source: { kind: 'url', url: '' } },
      row,
      status,
      controls: el('div'),
      note: text,
    };
    this.entries.set(id, entry);
    this.buildRow(entry);
  }

  preview(id: string, dataUrl: string): void {
    const entry = this.entries.get(id);
    const bbox = entry?.spec.bbox;
    if (!entry || !bbox || entry.preview || entry.lastStatus?.state === 'ready' || !/^data:image\/(png|jpeg|webp);base64,/.test(dataUrl)) return;
    const [w, s, e, n] = bbox;
    entry.preview = this.deps.L.imageOverlay(
      dataUrl,
      [
        [s, w],
        [n, e],
      ],
      { pane: PANE, opacity: entry.spec.opacity ?? 1, interactive: false, className: 'eo-imagery-preview' },
    );
    if (entry.spec.visible !== false) entry.preview.addTo(this.deps.map);
  }

  remove(id: string, notify = true): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    entry.layer?.cancel();
    entry.layer?.remove();
    entry.preview?.remove();
    entry.outline?.remove();
    entry.row.remove();
    entry.legend?.remove();
    this.entries.delete(id);
    this.box.hidden = this.entries.size === 0;
    if (notify) this.changed();
  }

  async zoomTo(id: string): Promise<void> {
    const entry = this.entries.get(id);
    if (!entry?.layer) return;
    const b = await entry.layer.lonLatBounds().catch(() => undefined);
    const bounds =
      b ?? (entry.spec.bbox ? this.deps.L.latLngBounds([entry.spec.bbox[1], entry.spec.bbox[0]], [entry.spec.bbox[3], entry.spec.bbox[2]]) : undefined);
    if (bounds?.isValid()) this.deps.map.fitBounds(bounds, { padding: [24, 24], animate: false });
  }

  /** Changes a layer's look (bands, stretch, colour map) and redraws it. */
  restyle(id: string, render: ImageryRender): void {
    const entry = this.entries.get(id);
    if (!entry?.layer) return;
    entry.spec = { ...entry.spec, render };
    entry.layer.setLook(entry.spec);
    void entry.layer.ready.then(
      () => this.buildControls(entry),
      () => undefined,
    );
    this.updateLegend(entry);
    this.changed();
  }

  private changed(): void {
    const dates = this.timeline.dates;
    const date = this.timeline.state.date;
    this.deps.onChange(this.specs, this.compare.state, dates && date ? { ...dates, date } : undefined);
  }

  private setStatus(entry: Entry, s: LayerStatus): void {
    const was = entry.lastStatus;
    entry.lastStatus = s;
    if ((s.state === 'ready' || s.state === 'error') && (was?.state !== s.state || (s.state === 'error' && was.state === 'error' && was.text !== s.text))) {
      this.deps.onSettled?.(entry.spec.id, { state: s.state, text: s.state === 'error' ? s.text : undefined, drawn: !!entry.drawn });
    }
    entry.row.dataset.state = s.state;
    const alert = s.state === 'error' && this.connected;
    entry.status.className = `status ${alert ? 'error' : 'muted'}`;
    entry.status.setAttribute('role', alert ? 'alert' : 'status');
    entry.status.textContent =
      s.state === 'opening'
        ? l10n.t('Opening…')
        : s.state === 'loading'
          ? l10n.t('Loading tiles: {0} of {1}', s.done, s.total)
          : s.state === 'error'
            ? alert
              ? s.text
              : l10n.t('Waits for a service: shown when you sign in or try the sandbox.')
            : '';
    if (s.state === 'error') {
      entry.preview?.remove();
      entry.preview = undefined;
    }
  }

  private buildRow(entry: Entry): void {
    const { spec } = entry;
    const visible = el('input', { type: 'checkbox', 'aria-label': l10n.t('Show {0}', spec.title), class: 'visible' }) as HTMLInputElement;
    visible.checked = spec.visible !== false;
    visible.disabled = !!entry.note;
    visible.addEventListener('change', () => {
      entry.spec = { ...entry.spec, visible: visible.checked };
      for (const l of [entry.layer, entry.outline]) {
        if (!l) continue;
        if (visible.checked) l.addTo(this.deps.map);
        else l.remove();
      }
      if (!visible.checked) entry.preview?.remove();
      entry.legend?.toggleAttribute('hidden', !visible.checked);
      this.changed();
    });
    // one layer's settings open at a time (the newest), so the list stays short over the map
    const expand = entry.note
      ? null
      : button('▾', () => this.openRow(entry.row.classList.contains('collapsed') ? entry : undefined), {
          class: 'icon expand',
          title: l10n.t('Show or hide the settings of {0}', spec.title),
          'aria-label': l10n.t('Settings of {0}', spec.title),
          'aria-expanded': 'true',
        });
    const head = el(
      'div',
      { class: 'head' },
      visible,
      el('span', { class: 'title', title: spec.url || spec.title }, spec.title),
      expand,
      entry.note
        ? null
        : button('⤢', () => void this.zoomTo(spec.id), { title: l10n.t('Zoom to layer'), 'aria-label': l10n.t('Zoom to {0}', spec.title), class: 'icon zoom' }),
      button('✕', () => this.remove(spec.id), {
        title: l10n.t('Remove layer (stops loading)'),
        'aria-label': l10n.t('Remove {0}', spec.title),
        class: 'icon remove',
      }),
    );
    clear(entry.row);
    entry.row.append(head, entry.status, entry.controls);
    this.list.appendChild(entry.row);
    this.box.hidden = false;
    if (!entry.note) this.openRow(entry);
  }

  /** Opens one row's settings and folds the others' (undefined: folds them all). */
  private openRow(open: Entry | undefined): void {
    for (const e of this.entries.values()) {
      const folded = e !== open;
      e.row.classList.toggle('collapsed', folded);
      const b = e.row.querySelector<HTMLButtonElement>('button.expand');
      if (!b) continue;
      b.setAttribute('aria-expanded', String(!folded));
      b.textContent = folded ? '▸' : '▾';
    }
  }

  private buildControls(entry: Entry): void {
    const { spec, layer } = entry;
    if (!layer) return;
    clear(entry.controls);
    const opacity = el('input', { type: 'range', min: 0, max: 1, step: 0.05, 'aria-label': l10n.t('Opacity'), class: 'opacity' }) as HTMLInputElement;
    opacity.value = String(spec.opacity ?? 1);
    opacity.addEventListener('input', () => {
      layer.setOpacity(Number(opacity.value));
      entry.preview?.setOpacity(Number(opacity.value));
      entry.spec = { ...entry.spec, opacity: Number(opacity.value) };
    });
    opacity.addEventListener('change', () => this.changed());
    entry.controls.append(el('label', { class: 'field-inline' }, l10n.t('Opacity'), ' ', opacity));
    if (spec.render.kind === 'rgb') void this.bandControls(entry);
  }

  /** An RGB layer's bands and stretch, once the file's bands and the look are known. */
  private async bandControls(entry: Entry): Promise<void> {
    const layer = entry.layer;
    if (!layer || entry.spec.render.kind !== 'rgb') return;
    const bands = await layer.bandNames();
    await layer.lookReady().catch(() => undefined);
    if (entry.layer !== layer || entry.spec.render.kind !== 'rgb') return;
    const render = entry.spec.render;
    const state = bandControlsState(bands, render, layer.stretch ?? render.stretch);
    entry.controls.append(...bandControls(entry.spec.id, bands, render, state, (look) => this.restyle(entry.spec.id, look)));
  }

  private updateLegend(entry: Entry): void {
    entry.legend?.remove();
    entry.legend = undefined;
    const r = entry.spec.render;
    if (r.kind === 'classes') {
      this.showLegend(entry, classLegend(entry.spec.id, r.legendTitle, r.classes));
      return;
    }
    if (r.kind !== 'index') return;
    const bar = el('canvas', { class: 'bar', width: 256, height: 12, 'aria-hidden': 'true' }) as HTMLCanvasElement;
    const ctx = bar.getContext('2d');
    const lut = colormapLut(r.colormap) ?? colormapLut('viridis');
    if (ctx && lut) {
      const img = ctx.createImageData(256, 12);
      for (let y = 0; y < 12; y++)
        for (let x = 0; x < 256; x++) {
          const o = (y * 256 + x) * 4;
          img.data[o] = lut[x * 3];
          img.data[o + 1] = lut[x * 3 + 1];
          img.data[o + 2] = lut[x * 3 + 2];
          img.data[o + 3] = 255;
        }
      ctx.putImageData(img, 0, 0);
    }
    const known = colormapLut(r.colormap) ? colormapName(r.colormap) : l10n.t('{0} (unknown, shown as viridis)', r.colormap);
    // the title says which date the layer shows; under the bar, the value at its middle (where
    // the middle colour belongs), the colour map's name in the hover
    const date = entry.spec.date?.slice(0, 10);
    const title = date && !r.legendTitle.includes(date) ? l10n.t('{0} · {1}', r.legendTitle, date) : r.legendTitle;
    const mid = (r.rescale[0] + r.rescale[1]) / 2;
    this.showLegend(
      entry,
      el(
        'div',
        {
          class: 'eo-legend',
          'data-id': entry.spec.id,
          role: 'img',
          title: l10n.t('Colour map: {0}', known),
          'aria-label': l10n.t('{0} from {1} to {2}, colour map {3}', title, r.rescale[0], r.rescale[1], known),
        },
        el('div', { class: 'title' }, title),
        bar,
        el(
          'div',
          { class: 'range' },
          el('span', { class: 'min' }, String(r.rescale[0])),
          el('span', { class: 'mid' }, String(round(mid))),
          el('span', { class: 'max' }, String(r.rescale[1])),
        ),
      ),
    );
  }

  private showLegend(entry: Entry, legend: HTMLElement): void {
    entry.legend = legend;
    if (entry.spec.visible === false) legend.hidden = true;
    this.legends.appendChild(legend);
  }
}

/** A classified layer's legend: one swatch and name per class, in the order the service lists them. */
function classLegend(id: string, title: string, classes: readonly ImageryClass[]): HTMLElement {
  const colors = classColors(classes);
  const list = el('ul', { class: 'classes' });
  for (const c of classes) {
    const rgba = colors.get(c.value);
    const swatch = el('span', { class: 'swatch', 'aria-hidden': 'true' });
    if (rgba) swatch.style.background = `rgba(${rgba[0]}, ${rgba[1]}, ${rgba[2]}, ${Math.round((rgba[3] / 255) * 100) / 100})`;
    const name = c.name?.trim() || l10n.t('Class {0}', c.value);
    list.appendChild(
      el(
        'li',
        { 'data-value': String(c.value), title: l10n.t('Value {0}', c.value) },
        swatch,
        el('span', { class: 'name' }, name),
        rgba && rgba[3] === 0 ? el('span', { class: 'muted' }, ` ${l10n.t('(not drawn)')}`) : null,
      ),
    );
  }
  return el(
    'div',
    { class: 'eo-legend', 'data-id': id, role: 'group', 'aria-label': l10n.t('Legend of {0}', title) },
    el('div', { class: 'title' }, title),
    list,
  );
}
