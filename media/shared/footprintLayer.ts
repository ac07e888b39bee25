/**
 * A hundred thousand footprints on one canvas.
 *
 * Leaflet's vector layers make one object (and, with SVG, one DOM node) per shape and
 * re-clip every one of them on each pan; at 10,000 footprints that is seconds. This layer
 * projects each shape once to Web Mercator's unit square (zoom-independent) into one packed
 * store, keeps a grid index over it, and on each redraw asks the index for the shapes in view,
 * scales them, drops sub-pixel vertices and paints: one canvas, no per-shape objects. Shapes
 * smaller than two pixels at the current zoom become dots, drawn in one batch with no state
 * change between them. World copies are drawn where the view shows them, so a footprint
 * unwrapped across the antimeridian appears once per copy, in the right place.
 *
 * Why canvas 2D with an index and not WebGL or tiles: at the zooms where every footprint is in
 * view they are nearly all dots (one fillRect each), and where they are large the index keeps
 * the count to what the view shows; the fills keep their stacked transparency (each shape
 * filled on its own), hit testing stays exact, and nothing depends on a GPU, which webviews
 * may not have (WebGL falls back to software there).
 * Hit testing asks the index for the shapes near the point, then tests them exactly.
 * The parts: the packed store (`footprintStore`), the grid index (`footprintIndex`), painting
 * (`footprintPaint`) and the hit test (`footprintHitTest`); this file is the Leaflet layer.
 */
import * as L from 'leaflet';
import { project } from '../../src/geo/mercator';
import { coversView, drawnArea, type DrawnArea } from './drawnArea';
import { shapesAt } from './footprintHitTest';
import { GridIndex } from './footprintIndex';
import { DotPainter, newBatch, paintShape, type View } from './footprintPaint';
import { prepare, Store, type FootprintInput } from './footprintStore';

export type { FootprintInput } from './footprintStore';

export interface FootprintStyle {
  color: string;
  fillOpacity: number;
  weight: number;
  /** Radius in px of point geometries and centroids. */
  pointRadius: number;
  selectedColor: string;
  /** Fill colour when it differs from the outline. */
  fillColor?: string;
}

export class FootprintLayer<T> extends L.Layer {
  private store = new Store();
  private ids_: string[] = [];
  private datas: T[] = [];
  private readonly byId = new Map<string, number>();
  /** Built on first use after the shapes change. */
  private index?: GridIndex;
  private canvas?: HTMLCanvasElement;
  /** The fills' own canvas, in `fillPane` (under the imagery), when the layer has one. */
  private fillCanvas?: HTMLCanvasElement;
  private selectedId?: string;
  private topLeftLatLng?: L.LatLng;
  /** What the canvases hold since the last redraw: a pan that stays inside it redraws nothing. */
  private area?: DrawnArea;
  private zoomAtDraw = 0;
  private mapRef?: L.Map;
  /** Milliseconds the last redraw took, shapes it painted, whether from the world image (for the benchmark). */
  lastDraw = { ms: 0, drawn: 0, world: false };
  private readonly dotPainter = new DotPainter();
  /** The whole world painted once at a low zoom (see `worldImage`), and what it was painted for. */
  private world?: { key: string; outlines: HTMLCanvasElement; fills?: HTMLCanvasElement };
  /** Bumped by every change of shapes, style or selection: a world image of an older one is stale. */
  private version = 0;

  /**
   * `fillPane`: where the fills go when they must sit under other layers than the outlines (the
   * map puts them under its imagery, so that a fill never tints a scene; the outlines stay on
   * top). Without it, fills and outlines share one canvas in `paneName`.
   */
  constructor(
    private style: FootprintStyle,
    paneName = 'overlayPane',
    private readonly fillPane?: string,
  ) {
    super();
    this.options.pane = paneName;
  }

  setStyle(style: FootprintStyle): void {
    this.style = style;
    this.version++;
    this.redraw();
  }

  /** Replaces all shapes; returns how many could be drawn (bad geometries are skipped). */
  setItems(inputs: readonly FootprintInput<T>[]): number {
    this.store = new Store();
    this.ids_ = [];
    this.datas = [];
    this.byId.clear();
    return this.addItems(inputs);
  }

  /** Adds shapes; an id already present is replaced. */
  addItems(inputs: readonly FootprintInput<T>[]): number {
    let n = 0;
    for (const input of inputs) {
      const p = prepare(input);
      if (!p) continue;
      const old = this.byId.get(input.id);
      const i = old ?? this.ids_.length;
      this.store.set(i, p.d, p.llb);
      this.ids_[i] = input.id;
      this.datas[i] = input.data;
      this.byId.set(input.id, i);
      n++;
    }
    this.store.settle();
    this.index = undefined;
    this.version++;
    this.redraw();
    return n;
  }

  get size(): number {
    return this.ids_.length;
  }

  ids(): string[] {
    return [...this.ids_];
  }

  get(id: string): T | undefined {
    const i = this.byId.get(id);
    return i === undefined ? undefined : this.datas[i];
  }

  setSelected(id: string | undefined): void {
    this.selectedId = id;
    this.version++;
    this.redraw();
  }

  get selected(): string | undefined {
    return this.selectedId;
  }

  /** Lon/lat bounds of everything, or of one shape. */
  getBounds(id?: string): L.LatLngBounds | undefined {
    const list: number[] = [];
    if (id !== undefined) {
      const i = this.byId.get(id);
      if (i !== undefined) list.push(i);
    } else for (let i = 0; i < this.size; i++) list.push(i);
    if (list.length === 0) return undefined;
    const llb = this.store.llb.a;
    let w = Infinity,
      s = Infinity,
      e = -Infinity,
      n = -Infinity;
    const west0 = llb[4 * list[0]];
    for (const i of list) {
      // Keep a set of shapes together across the dateline: move each by 360s next to the first.
      const shift = Math.round((west0 - llb[4 * i]) / 360) * 360;
      w = Math.min(w, llb[4 * i] + shift);
      e = Math.max(e, llb[4 * i + 2] + shift);
      s = Math.min(s, llb[4 * i + 1]);
      n = Math.max(n, llb[4 * i + 3]);
    }
    return L.latLngBounds([s, w], [n, e]);
  }

  override onAdd(map: L.Map): this {
    const make = (cls: string, pane: HTMLElement | undefined) => {
      const c = L.DomUtil.create('canvas', `${cls} leaflet-zoom-animated`);
      c.style.pointerEvents = 'none';
      c.style.position = 'absolute';
      pane?.appendChild(c);
      return c;
    };
    this.canvas = make('eo-footprints', this.getPane());
    const fills = this.fillPane ? map.getPane(this.fillPane) : undefined;
    this.fillCanvas = fills ? make('eo-footprint-fills', fills) : undefined;
    this.mapRef = map;
    this.redraw();
    return this;
  }

  override onRemove(): this {
    this.canvas?.remove();
    this.fillCanvas?.remove();
    this.canvas = undefined;
    this.fillCanvas = undefined;
    this.world = undefined;
    this.area = undefined;
    this.mapRef = undefined;
    return this;
  }

  override getEvents(): Record<string, L.LeafletEventHandlerFn> {
    return {
      // the canvases hold a quarter of the view's size beyond each edge: a shorter pan shows it as it is
      moveend: () => {
        if (this.mapRef && !coversView(this.mapRef, this.area)) this.redraw();
      },
      viewreset: () => this.redraw(),
      resize: () => this.redraw(),
      zoomanim: (e) => this.onZoomAnim(e as L.ZoomAnimEvent),
    };
  }

  private onZoomAnim(e: L.ZoomAnimEvent): void {
    const map = this.mapRef;
    if (!map || !this.canvas || !this.topLeftLatLng) return;
    // scaled by the animation: whatever comes next redraws
    this.area = undefined;
    const scale = map.getZoomScale(e.zoom, this.zoomAtDraw);
    const panePos = L.DomUtil.getPosition(map.getPane('mapPane') as HTMLElement);
    const newOrigin = map.project(e.center, e.zoom).subtract(map.getSize().divideBy(2)).add(panePos).round();
    const offset = map.project(this.topLeftLatLng, e.zoom).subtract(newOrigin);
    L.DomUtil.setTransform(this.canvas, offset, scale);
    if (this.fillCanvas) L.DomUtil.setTransform(this.fillCanvas, offset, scale);
  }

  /** Shapes whose cells touch the unit-square box, or undefined for "all of them". */
  private near(x0: number, y0: number, x1: number, y1: number): Int32Array | undefined {
    this.index ??= new GridIndex(this.store.ub.a, this.store.count);
    return this.index.candidates(x0, y0, x1, y1);
  }

  /** Paints every visible shape; synchronous, so a caller can time it. */
  redraw(): void {
    const map = this.mapRef;
    const canvas = this.canvas;
    if (!map || !canvas) return;
    const t0 = performance.now();
    const pad = 0.25;
    const size = map.getSize();
    const topLeft = map.containerPointToLayerPoint([-size.x * pad, -size.y * pad]).round();
    const w = Math.round(size.x * (1 + 2 * pad));
    const h = Math.round(size.y * (1 + 2 * pad));
    const dpr = window.devicePixelRatio || 1;
    this.area = undefined;
    const contexts: CanvasRenderingContext2D[] = [];
    for (const c of [canvas, this.fillCanvas]) {
      if (!c) continue;
      if (c.width !== Math.round(w * dpr) || c.height !== Math.round(h * dpr)) {
        c.width = Math.round(w * dpr);
        c.height = Math.round(h * dpr);
        c.style.width = `${w}px`;
        c.style.height = `${h}px`;
      }
      L.DomUtil.setTransform(c, topLeft, 1);
      // Fills in their own canvas are painted opaque and shown at the layer's opacity: footprints
      // that overlap (25 results over one place) tint the map once, not 25 times over.
      if (c === this.fillCanvas) c.style.opacity = String(this.style.fillOpacity);
      const cx = c.getContext('2d');
      if (!cx) return;
      cx.setTransform(dpr, 0, 0, dpr, 0, 0);
      cx.clearRect(0, 0, w, h);
      contexts.push(cx);
    }
    this.topLeftLatLng = map.layerPointToLatLng(topLeft);
    this.zoomAtDraw = map.getZoom();
    const ctx = contexts[0];
    const fillCtx = contexts[1] ?? ctx;

    const scale = 256 * Math.pow(2, this.zoomAtDraw);
    const origin = map.getPixelOrigin();
    const ox = origin.x + topLeft.x;
    const oy = origin.y + topLeft.y;
    const view: View = { scale, ox, oy, x0: ox / scale, y0: oy / scale, x1: (ox + w) / scale, y1: (oy + h) / scale };

    const st = this.style;
    const selected = this.selectedId === undefined ? undefined : this.byId.get(this.selectedId);
    const world = this.worldImage(scale, dpr, selected);
    let drawn = 0;
    if (world) {
      // every copy of the world the view shows, as images: a pan at this zoom paints no shape
      for (let k = Math.floor(view.x0); k < view.x1; k++) {
        ctx.drawImage(world.outlines, k * scale - ox, -oy, scale, scale);
        if (world.fills) fillCtx.drawImage(world.fills, k * scale - ox, -oy, scale, scale);
      }
      drawn = this.store.count - (selected === undefined ? 0 : 1);
    } else {
      drawn = this.paintAll(ctx, fillCtx, view, w, h, selected);
    }
    if (selected !== undefined) {
      ctx.lineJoin = 'round';
      ctx.fillStyle = fillCtx.fillStyle = st.fillColor ?? st.color;
      // the selection gets the theme's contrast colour as its outline and keeps its own fill (a
      // little stronger where fills share the outlines' canvas): a fill in the contrast colour
      // (black on light themes) hid the base map
      ctx.strokeStyle = st.selectedColor;
      ctx.lineWidth = st.weight + 1.5;
      const one = newBatch(this.fillCanvas ? 1 : Math.min(0.5, st.fillOpacity + 0.12));
      paintShape(this.store, st.pointRadius, ctx, fillCtx, selected, view, one);
      this.dotPainter.draw(ctx, one.dots, w, h);
      ctx.stroke(one.outlines);
      drawn++;
    }
    this.area = drawnArea(map, topLeft, topLeft.add([w, h]));
    this.lastDraw = { ms: performance.now() - t0, drawn, world: world !== undefined };
  }

  /** Paints every shape in `view` but the selected one, in the layer's style; returns how many. */
  private paintAll(ctx: CanvasRenderingContext2D, fillCtx: CanvasRenderingContext2D, view: View, w: number, h: number, selected: number | undefined): number {
    const st = this.style;
    const fill = st.fillColor ?? st.color;
    ctx.lineJoin = 'round';
    const candidates = this.near(view.x0, view.y0, view.x1, view.y1);
    const count = candidates ? candidates.length : this.store.count;
    // one style for every shape but the selection: set once, not per shape
    ctx.strokeStyle = st.color;
    ctx.fillStyle = fill;
    ctx.lineWidth = st.weight;
    fillCtx.fillStyle = fill;
    const batch = newBatch(this.fillCanvas ? 1 : st.fillOpacity);
    let drawn = 0;
    for (let k = 0; k < count; k++) {
      const i = candidates ? candidates[k] : k;
      if (i === selected) continue;
      drawn += paintShape(this.store, st.pointRadius, ctx, fillCtx, i, view, batch);
    }
    this.dotPainter.draw(ctx, batch.dots, w, h);
    // the outlines in one stroke, over the fills
    ctx.stroke(batch.outlines);
    return drawn;
  }

  /**
   * At a low zoom with many shapes, the whole world painted once into images (outlines, and
   * fills when they have their own pane), reused by every redraw until the zoom, the shapes,
   * the style or the selection change. With 100,000 footprints in view, a pan repainted all of
   * them (90 ms of script a frame); now it draws one or two images. Undefined when it does not
   * pay: few shapes (they paint fast), or a world wider than WORLD_IMAGE_MAX device pixels (the
   * images would be large, and the view shows a small part of the world anyway).
   */
  private worldImage(scale: number, dpr: number, selected: number | undefined): FootprintLayer<T>['world'] {
    const px = Math.round(scale * dpr);
    if (this.store.count < WORLD_IMAGE_MIN_SHAPES || px > WORLD_IMAGE_MAX) {
      this.world = undefined;
      return undefined;
    }
    const key = `${this.version}|${px}`;
    if (this.world?.key === key) return this.world;
    const make = () => {
      const c = document.createElement('canvas');
      c.width = px;
      c.height = px;
      const cx = c.getContext('2d');
      cx?.setTransform(dpr, 0, 0, dpr, 0, 0);
      return { c, cx };
    };
    const outlines = make();
    const fills = this.fillCanvas ? make() : undefined;
    if (!outlines.cx || (fills && !fills.cx)) return undefined;
    const view: View = { scale, ox: 0, oy: 0, x0: 0, y0: 0, x1: 1, y1: 1 };
    this.paintAll(outlines.cx, fills?.cx ?? outlines.cx, view, scale, scale, selected);
    this.world = { key, outlines: outlines.c, fills: fills?.c };
    return this.world;
  }

  /**
   * Shapes under a map point, smallest first (so a small footprint inside a large one can be
   * picked). `tolerancePx` widens lines and dots.
   */
  hitTest(latlng: L.LatLng, tolerancePx = 4): T[] {
    const map = this.mapRef;
    if (!map) return [];
    const scale = 256 * Math.pow(2, map.getZoom());
    const [px, py] = project(latlng.lng, latlng.lat);
    const tol = tolerancePx / scale;
    const radius = this.style.pointRadius / scale;
    const reach = tol + radius;
    const candidates = this.near(px - reach, py - reach, px + reach, py + reach);
    return shapesAt(this.store, candidates, px, py, tol, radius).map((i) => this.datas[i]);
  }
}

/** Shapes from which a low zoom paints the world once (see `worldImage`). */
const WORLD_IMAGE_MIN_SHAPES = 5000;
/** The widest world image, in device pixels (2048² is 16 MB of pixels per image). */
const WORLD_IMAGE_MAX = 2048;
