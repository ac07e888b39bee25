/**
 * A picture the service rendered (the visualization PNG) as a layer of the imagery list: a
 * grid layer whose tiles cut the picture laid over its `bbox` (its rows are evenly spaced in
 * Web Mercator, so placing its corners places every pixel), plus its own legend, shown while
 * the layer is on the map. It answers the same handle the list drives for GeoTIFF layers
 * (opacity, visibility, zoom-to, remove); the image arrives as a data URL, nothing is fetched.
 */
import type * as Leaflet from 'leaflet';
import * as l10n from '@vscode/l10n';
import { colormapLut } from '../../src/api/colormaps';
import type { ImageryLayerSpec, PngLegend } from '../../src/panels/imagery/protocol';
import { el } from '../shared/dom';
import { dockSlot } from './frame';

type Status = { state: 'opening' } | { state: 'loading'; done: number; total: number } | { state: 'ready' } | { state: 'error'; text: string };

export interface PngLayerDeps {
  L: typeof Leaflet;
  pane: string;
  onStatus(status: Status): void;
  onFirstPixels(): void;
}

/** The members of the imagery list's layer handle that a picture can answer. */
export interface PngLayerHandle extends Leaflet.GridLayer {
  spec: ImageryLayerSpec;
  ready: Promise<HTMLImageElement>;
  bandNames(): Promise<[]>;
  lookReady(): Promise<void>;
  setLook(spec: ImageryLayerSpec): void;
  lonLatBounds(): Promise<Leaflet.LatLngBounds | undefined>;
  cancel(): void;
  timings: { opened?: number; firstTile?: number; tilesMs: number[] };
}

const SIZE = 256;
const COLOUR = /^(#[0-9a-f]{3,8}|rgba?\([\d\s.,%]+\))$/i;

function loadImage(dataUrl: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    if (!/^data:image\/png;base64,/.test(dataUrl)) return reject(new Error(l10n.t('The service’s picture is not a PNG image.')));
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = () => reject(new Error(l10n.t('The service’s picture could not be decoded.')));
    img.src = dataUrl;
  });
}

function fmt(v: number): string {
  return String(Math.abs(v) >= 100 ? Math.round(v) : Math.round(v * 1000) / 1000);
}

/** The legend box: the service's classes when it sent them, else the colour map over its range. */
export function pngLegendBox(id: string, legend: PngLegend): HTMLElement {
  const box = el('div', { class: 'eo-legend eo-png-legend', 'data-id': id }, el('div', { class: 'title' }, legend.title));
  if (legend.classes?.length) {
    const list = el('ul', { class: 'classes' });
    for (const c of legend.classes) {
      const swatch = el('span', { class: 'swatch', 'aria-hidden': 'true' });
      if (COLOUR.test(c.color.trim())) swatch.style.backgroundColor = c.color.trim();
      list.appendChild(el('li', {}, swatch, el('span', { class: 'label' }, c.label), el('span', { class: 'muted' }, ` ${fmt(c.min)} – ${fmt(c.max)}`)));
    }
    box.appendChild(list);
    box.setAttribute('role', 'img');
    box.setAttribute('aria-label', l10n.t('{0}: {1} classes', legend.title, legend.classes.length));
    return box;
  }
  const lut = legend.colormap ? colormapLut(legend.colormap) : undefined;
  if (lut) {
    const bar = el('canvas', { class: 'bar', width: 256, height: 12, 'aria-hidden': 'true' });
    const ctx = bar.getContext('2d');
    if (ctx) {
      const img = ctx.createImageData(256, 12);
      for (let y = 0; y < 12; y++)
        for (let x = 0; x < 256; x++) {
          const o = (y * 256 + x) * 4;
          img.data.set([lut[x * 3], lut[x * 3 + 1], lut[x * 3 + 2], 255], o);
        }
      ctx.putImageData(img, 0, 0);
    }
    box.appendChild(bar);
  }
  const range = legend.range;
  box.appendChild(
    el(
      'div',
      { class: 'range' },
      el('span', { class: 'min' }, range ? fmt(range[0]) : l10n.t('low')),
      el('span', { class: 'muted' }, legend.colormap ?? ''),
      el('span', { class: 'max' }, range ? fmt(range[1]) : l10n.t('high')),
    ),
  );
  box.setAttribute('role', 'img');
  box.setAttribute(
    'aria-label',
    range
      ? l10n.t('{0} from {1} to {2}, colour map {3}', legend.title, fmt(range[0]), fmt(range[1]), legend.colormap ?? '')
      : l10n.t('{0}, colour map {1}', legend.title, legend.colormap ?? ''),
  );
  return box;
}

/** Draws the part of the picture (spanning `bbox`) that falls on one tile; false when none does. */
function placePicture(
  ctx: CanvasRenderingContext2D,
  img: CanvasImageSource,
  map: Leaflet.Map,
  coords: Leaflet.Coords,
  [w, s, e, n]: readonly number[],
): boolean {
  const a = map.project([n, w], coords.z);
  const b = map.project([s, e], coords.z);
  const x = a.x - coords.x * SIZE;
  const y = a.y - coords.y * SIZE;
  if (x > SIZE || y > SIZE || b.x - coords.x * SIZE < 0 || b.y - coords.y * SIZE < 0) return false;
  // the service's pixels, not a blur of them, when zoomed in past its resolution
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(img, x, y, b.x - a.x, b.y - a.y);
  return true;
}

export function createPngLayer(spec: ImageryLayerSpec, deps: PngLayerDeps): PngLayerHandle {
  const L = deps.L;
  const render = spec.render;
  if (render.kind !== 'png') throw new Error('createPngLayer takes a picture layer');
  const [w, s, e, n] = spec.bbox ?? [0, 0, 0, 0];
  const started = performance.now();
  const timings: PngLayerHandle['timings'] = { tilesMs: [] };
  let cancelled = false;
  let announced = false;
  let pending = 0;
  let done = 0;
  const ready = loadImage(render.dataUrl);
  ready.then(
    () => (timings.opened = performance.now() - started),
    (err: unknown) => {
      if (!cancelled) deps.onStatus({ state: 'error', text: err instanceof Error ? err.message : String(err) });
    },
  );
  deps.onStatus({ state: 'opening' });

  const report = () => {
    if (cancelled) return;
    deps.onStatus(pending > 0 ? { state: 'loading', done, total: done + pending } : { state: 'ready' });
  };

  async function draw(canvas: HTMLCanvasElement, coords: Leaflet.Coords, map: Leaflet.Map): Promise<void> {
    const img = await ready;
    const ctx = canvas.getContext('2d');
    if (cancelled || !ctx) return;
    const t0 = performance.now();
    if (!placePicture(ctx, img, map, coords, [w, s, e, n])) return;
    timings.tilesMs.push(performance.now() - t0);
    if (!announced) {
      announced = true;
      timings.firstTile = performance.now() - started;
      deps.onFirstPixels();
    }
  }

  let legend: HTMLElement | undefined;
  const Grid = L.GridLayer.extend({
    createTile(this: Leaflet.GridLayer & { _map: Leaflet.Map }, coords: Leaflet.Coords, cb: Leaflet.DoneCallback): HTMLElement {
      const canvas = document.createElement('canvas');
      canvas.width = SIZE;
      canvas.height = SIZE;
      pending++;
      report();
      draw(canvas, coords, this._map)
        .then(
          () => cb(undefined, canvas),
          () => cb(undefined, canvas),
        )
        .finally(() => {
          pending--;
          done++;
          if (pending === 0) ready.then(report, () => undefined);
          else report();
        });
      return canvas;
    },
    onAdd(this: Leaflet.GridLayer & { _map: Leaflet.Map }, map: Leaflet.Map) {
      (L.GridLayer.prototype as unknown as { onAdd(m: Leaflet.Map): void }).onAdd.call(this, map);
      legend = pngLegendBox(spec.id, render.legend);
      // in the dock's legend section, beside the map (media/map/dock.ts)
      dockSlot(map, 'legend').append(legend);
      return this;
    },
    onRemove(this: Leaflet.GridLayer, map: Leaflet.Map) {
      legend?.remove();
      (L.GridLayer.prototype as unknown as { onRemove(m: Leaflet.Map): void }).onRemove.call(this, map);
      return this;
    },
  });

  const handle = new (Grid as unknown as new (o: Leaflet.GridLayerOptions) => Leaflet.GridLayer)({
    pane: deps.pane,
    tileSize: SIZE,
    opacity: spec.opacity ?? 1,
    updateWhenZooming: false,
    keepBuffer: 1,
    maxNativeZoom: 22,
    maxZoom: 22,
    bounds: L.latLngBounds([s, w], [n, e]),
  }) as PngLayerHandle;
  handle.spec = spec;
  handle.ready = ready;
  handle.timings = timings;
  handle.on('loading', () => (done = 0));
  handle.bandNames = () => Promise.resolve([]);
  handle.lookReady = () => ready.then(() => undefined);
  // the picture is the service's: there is no look to change here
  handle.setLook = (next) => (handle.spec = next);
  handle.lonLatBounds = () => Promise.resolve(spec.bbox ? L.latLngBounds([s, w], [n, e]) : undefined);
  handle.cancel = () => {
    cancelled = true;
  };
  return handle;
}
