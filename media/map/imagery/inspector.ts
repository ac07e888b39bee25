/**
 * The pixel inspector: while it is on, a click on an imagery layer lists every band's value
 * there (scaled by `raster:bands`), the index value of an expression layer, and where the
 * click is in the map's and the scene's CRS; multi-band scenes get a spectral signature chart
 * with up to five pinned pixels, and "Copy as CSV". Values come from tiles already decoded.
 */
import * as l10n from '@vscode/l10n';
import type * as Leaflet from 'leaflet';
import { button, clear, el } from '../../shared/dom';
import { loadAnalysisChunk } from './analysisLoader';
import type { SpectralChart } from '../analysis/spectralChart';
import type { ImageryLayerHandle } from './imageryLayer';
import { readPixel, type PixelReading } from './pixelRead';
import type { ChartAreaFromMap, ImagerySource } from '../../../src/panels/imagery/protocol';
import { csvText } from '../../../src/csvCells';
import { keepEventsInside } from '../toolEvents';

/** The pixel's place, and the AOI or archive collection of the layer it was read from (its dates come first). */
export function pixelArea(r: { lon: number; lat: number }, source: ImagerySource | undefined): ChartAreaFromMap {
  const lon = ((((r.lon + 180) % 360) + 360) % 360) - 180;
  const of =
    source?.kind === 'asset' || source?.kind === 'visualization' || source?.kind === 'visualizationPng' || source?.kind === 'insightOutput'
      ? { aoiId: source.aoiId }
      : source?.kind === 'archiveItem'
        ? { collection: source.collection }
        : {};
  return { kind: 'pixel', lon, lat: r.lat, ...of };
}

export interface InspectorDeps {
  L: typeof Leaflet;
  map: Leaflet.Map;
  /** Visible imagery layers, the one drawn on top last. */
  layers(): ImageryLayerHandle[];
  copyText(text: string): void;
  /** "Chart over time…": a single-pixel series at the place read, with the layer's record. */
  chartPixel(area: ChartAreaFromMap): void;
}

interface Pinned {
  label: string;
  layerId: string;
  reading: PixelReading;
}

const MAX_PINS = 5;

function fmt(v: number | undefined, digits = 4): string {
  if (v === undefined || !Number.isFinite(v)) return l10n.t('no data');
  return Math.abs(v) >= 1000 ? v.toFixed(1) : String(Math.round(v * 10 ** digits) / 10 ** digits);
}

/** A band's wavelength in nm, when the layer knows it. */
function nm(b: { wavelength?: number }): number | undefined {
  return b.wavelength === undefined ? undefined : Math.round(b.wavelength * 1000 * 100) / 100;
}

export class PixelInspector {
  private on = false;
  readonly panel: HTMLElement;
  private readonly body: HTMLElement;
  private readonly chartBox: HTMLElement;
  private readonly hint: HTMLElement;
  private chart?: SpectralChart;
  private current?: { layerId: string; title: string; reading: PixelReading };
  private pins: Pinned[] = [];
  private marker?: Leaflet.CircleMarker;
  readonly toggle: HTMLButtonElement;
  private seq = 0;

  constructor(private readonly deps: InspectorDeps) {
    const { L, map } = deps;
    // the panel is placed by ImageryTools, under its toolbar
    this.body = el('div', { class: 'body', 'aria-live': 'polite' });
    this.chartBox = el('div', { class: 'chart' });
    this.hint = el('p', { class: 'muted hint' }, l10n.t('Click a pixel of an imagery layer.'));
    this.panel = el(
      'section',
      { class: 'eo-inspector leaflet-bar', id: 'pixel-inspector', 'aria-label': l10n.t('Pixel inspector'), hidden: true },
      el(
        'div',
        { class: 'head' },
        el('h3', {}, l10n.t('Pixel inspector')),
        button('✕', () => this.setOn(false), {
          class: 'icon close',
          title: l10n.t('Close the pixel inspector'),
          'aria-label': l10n.t('Close the pixel inspector'),
        }),
      ),
      this.hint,
      this.body,
      this.chartBox,
    );
    keepEventsInside(L, this.panel);
    this.toggle = button(l10n.t('Inspect pixels'), () => this.setOn(!this.on), {
      class: 'secondary inspect',
      'aria-pressed': 'false',
      title: l10n.t('Click a pixel to read its values (Escape to stop)'),
    });
    map.getContainer().addEventListener('keydown', (e) => {
      if (e.key === 'Escape' && this.on) this.setOn(false);
    });
  }

  get active(): boolean {
    return this.on;
  }

  setOn(on: boolean): void {
    this.on = on;
    this.panel.hidden = !on;
    this.toggle.setAttribute('aria-pressed', String(on));
    document.body.classList.toggle('eo-inspecting', on);
    if (!on) {
      this.marker?.remove();
      this.marker = undefined;
    }
  }

  /** Reads the pixel at a place from the topmost visible layer that has one there. */
  async inspectAt(lon: number, lat: number): Promise<PixelReading | undefined> {
    if (!this.on) this.setOn(true);
    const seq = ++this.seq;
    const layers = this.deps.layers().reverse();
    let note = layers.length ? l10n.t('No imagery layer covers this place.') : l10n.t('Show an imagery layer first.');
    for (const layer of layers) {
      const r = await readPixel(layer, this.deps.map, lon, lat).catch((e: Error) => ({ error: e.message }));
      if (seq !== this.seq) return undefined;
      if ('reading' in r) {
        this.current = { layerId: layer.spec.id, title: layer.spec.title, reading: r.reading };
        this.place(lat, lon);
        await this.render();
        return r.reading;
      }
      if ('notLoaded' in r) note = l10n.t('The tiles here have not been drawn yet; wait for them and click again.');
      if ('error' in r) note = r.error;
    }
    this.current = undefined;
    clear(this.body);
    this.body.append(el('p', { class: 'status muted' }, note));
    this.chart?.destroy();
    this.chart = undefined;
    return undefined;
  }

  private place(lat: number, lon: number): void {
    this.marker?.remove();
    this.marker = this.deps.L.circleMarker([lat, lon], { radius: 5, weight: 2, fill: false, interactive: false, className: 'eo-inspect-marker' }).addTo(
      this.deps.map,
    );
  }

  private async render(): Promise<void> {
    const c = this.current;
    if (!c) return;
    const r = c.reading;
    clear(this.body);
    // a pixel is read: the first-use hint gives way to what else the panel does
    this.hint.textContent = l10n.t('Click another pixel to read it; Pin keeps this one on the chart.');
    const coords = el(
      'dl',
      { class: 'coords' },
      el('dt', {}, l10n.t('Layer')),
      el('dd', { class: 'layer' }, c.title),
      el('dt', {}, l10n.t('Latitude, longitude')),
      el('dd', { class: 'lonlat' }, `${r.lat.toFixed(6)}, ${r.lon.toFixed(6)}`),
      el('dt', {}, l10n.t('EPSG:{0}', String(r.epsg))),
      el('dd', { class: 'scene-crs' }, l10n.t('x {0}, y {1}', r.x.toFixed(2), r.y.toFixed(2))),
      el('dt', {}, l10n.t('Pixel')),
      el(
        'dd',
        { class: 'pixel' },
        r.level > 0 ? l10n.t('column {0}, row {1} (values from overview {2})', r.col, r.row, r.level) : l10n.t('column {0}, row {1}', r.col, r.row),
      ),
    );
    this.body.append(coords);
    if (r.index) {
      this.body.append(el('div', { class: 'index' }, el('strong', {}, r.index.title), ' ', el('span', { class: 'index-value' }, fmt(r.index.value))));
    }
    const rows = r.bands.map((b) =>
      el(
        'tr',
        {},
        el('th', { scope: 'row' }, b.commonName ? `${b.name} (${b.commonName})` : b.name),
        el('td', { class: 'nm' }, nm(b) === undefined ? '' : l10n.t('{0} nm', nm(b) as number)),
        el('td', { class: 'value' }, fmt(b.value)),
      ),
    );
    this.body.append(
      el(
        'div',
        { class: 'bands' },
        el(
          'table',
          {},
          el(
            'thead',
            {},
            el(
              'tr',
              {},
              el('th', { scope: 'col' }, l10n.t('Band')),
              el('th', { scope: 'col' }, l10n.t('Wavelength')),
              el('th', { scope: 'col' }, this.quantity()),
            ),
          ),
          el('tbody', {}, ...rows),
        ),
      ),
    );
    const pinBtn = button(l10n.t('Pin'), () => this.pin(), {
      class: 'secondary pin',
      title: l10n.t('Keep this pixel on the chart (up to {0})', MAX_PINS),
      disabled: this.pins.length >= MAX_PINS,
    });
    const copy = button(l10n.t('Copy as CSV'), () => this.deps.copyText(this.csv()), { class: 'secondary copy-csv' });
    const source = this.deps.layers().find((l) => l.spec.id === c.layerId)?.spec.source;
    const overTime = button(l10n.t('Chart over time…'), () => this.deps.chartPixel(pixelArea(r, source)), {
      class: 'secondary chart-pixel',
      title: l10n.t('Chart an index at this pixel over time'),
    });
    const pinList = el(
      'ul',
      { class: 'pins' },
      ...this.pins.map((p, i) =>
        el(
          'li',
          {},
          el('span', {}, p.label),
          button(
            '✕',
            () => {
              this.pins.splice(i, 1);
              void this.render();
            },
            { class: 'icon', title: l10n.t('Unpin {0}', p.label), 'aria-label': l10n.t('Unpin {0}', p.label) },
          ),
        ),
      ),
    );
    this.body.append(el('div', { class: 'actions' }, pinBtn, copy, overTime), pinList);
    await this.drawChart();
  }

  private label(r: PixelReading): string {
    return l10n.t('lat {0} lon {1}', r.lat.toFixed(5), r.lon.toFixed(5));
  }

  pin(): void {
    const c = this.current;
    if (!c || this.pins.length >= MAX_PINS) return;
    this.pins.push({ label: this.label(c.reading), layerId: c.layerId, reading: c.reading });
    void this.render();
  }

  /** Bands with a wavelength, when there are at least three: a spectrum worth drawing. */
  private spectralBands(r: PixelReading): number[] {
    const idx = r.bands.map((b, i) => (b.wavelength !== undefined ? i : -1)).filter((i) => i >= 0);
    return idx.length >= 3 ? idx.sort((a, b) => (r.bands[a].wavelength as number) - (r.bands[b].wavelength as number)) : [];
  }

  private async drawChart(): Promise<void> {
    const c = this.current;
    const idx = c ? this.spectralBands(c.reading) : [];
    if (!c || !idx.length) {
      this.chart?.destroy();
      this.chart = undefined;
      return;
    }
    const chunk = await loadAnalysisChunk();
    this.chart ??= chunk.spectralChart(this.chartBox, 320);
    const names = idx.map((i) => c.reading.bands[i].name);
    const series = [
      { label: l10n.t('This pixel'), reading: c.reading },
      ...this.pins.filter((p) => p.layerId === c.layerId).map((p) => ({ label: p.label, reading: p.reading })),
    ];
    this.chart.set(
      idx.map((i) => nm(c.reading.bands[i]) as number),
      series.map((s) => ({
        label: s.label,
        values: names.map((n) => s.reading.bands.find((b) => b.name === n)?.value ?? null),
      })),
      this.quantity(),
    );
  }

  /**
   * What the values are: reflectance when the layer's bands give a scale (STAC `raster:bands`,
   * or the satellite's record for a mosaic: the values are scaled to it), else the values as
   * the file stores them.
   */
  private quantity(): string {
    const layer = this.deps.layers().find((l) => l.spec.id === this.current?.layerId);
    return layer?.spec.bands.some((b) => b.scale !== undefined && b.scale !== 1) ? l10n.t('Reflectance') : l10n.t('Value as stored');
  }

  /** Band, wavelength, then one column per pixel (this one, then the pinned ones). */
  csv(): string {
    const c = this.current;
    if (!c) return '';
    const cols = [{ label: this.label(c.reading), reading: c.reading }, ...this.pins.map((p) => ({ label: p.label, reading: p.reading }))];
    // a band name from the file or the service may begin like a formula: pasted, it must stay text
    const lines = [['band', 'wavelength_nm', ...cols.map((x) => x.label)].map(csvText).join(',')];
    for (const b of c.reading.bands) {
      const vals = cols.map((x) => {
        const v = x.reading.bands.find((o) => o.name === b.name)?.value;
        return v === undefined ? '' : String(v);
      });
      lines.push([csvText(b.name), nm(b) === undefined ? '' : String(nm(b)), ...vals].join(','));
    }
    return `${lines.join('\n')}\n`;
  }
}
