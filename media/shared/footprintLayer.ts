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
 */
import * as L from 'leaflet';
import { drawableBounds, toDrawable, type Drawable } from '../../src/geo/drawable';
import { project } from '../../src/geo/mercator';
import { coversView, drawnArea, type DrawnArea } from './drawnArea';

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

export interface FootprintInput<T> {
  id: string;
  geometry: unknown;
  /** Extra dots (e.g. an AOI's centroid), [lon, lat]. */
  extraPoints?: [number, number][];
  data: T;
}

/** Kinds of part in the packed store. */
const OUTER = 0,
  HOLE = 1,
  LINE = 2,
  POINTS = 3;

type Typed = Float64Array | Int32Array | Uint8Array;

/** A growable typed array: one column of the store. */
class Column<A extends Typed> {
  length = 0;
  constructor(
    public a: A,
    private readonly make: (n: number) => A,
  ) {}
  reserve(extra: number): void {
    if (this.length + extra <= this.a.length) return;
    const b = this.make(Math.max(this.length + extra, this.a.length * 2, 64));
    b.set(this.a.subarray(0, this.length));
    this.a = b;
  }
  /** Writes `v` at `k`, growing by one when `k` is the length. */
  put(k: number, v: number): void {
    if (k >= this.length) {
      this.reserve(1);
      this.length++;
    }
    this.a[k] = v;
  }
  /** Drops the spare capacity (after a batch of shapes: a hundred thousand leave megabytes). */
  trim(): void {
    if (this.a.length > this.length) this.a = this.a.slice(0, this.length) as A;
  }
}

const f64 = (n: number) => new Float64Array(n);
const i32 = (n: number) => new Int32Array(n);
const u8 = (n: number) => new Uint8Array(n);

/**
 * Every shape's geometry, packed: unit-square coordinates in one Float64Array, the parts
 * (rings, lines, a shape's dots) as ranges of it, each shape a range of parts, its bounds in
 * columns. As objects (arrays of typed arrays per shape) 100,000 footprints held about 0.6 KB
 * each on the heap; packed they are the numbers themselves.
 */
class Store {
  readonly coords = new Column(f64(0), f64);
  readonly partKind = new Column(u8(0), u8);
  readonly partStart = new Column(i32(0), i32);
  readonly partEnd = new Column(i32(0), i32);
  /** Per shape: its parts, [first, end). */
  readonly first = new Column(i32(0), i32);
  readonly end = new Column(i32(0), i32);
  /** Per shape: unit-square bounds minX, minY, maxX, maxY. */
  readonly ub = new Column(f64(0), f64);
  /** Per shape: lon/lat bounds (lon unwrapped) west, south, east, north. */
  readonly llb = new Column(f64(0), f64);
  /** Per shape: 1 when it has dots (such a shape is never reduced to a dot). */
  readonly hasPoints = new Column(u8(0), u8);
  /** Coordinates no shape points at any more (shapes replaced by id). */
  private garbage = 0;

  get count(): number {
    return this.first.length;
  }

  /** Writes shape `i` (a new one when `i` is the count). */
  set(i: number, d: Drawable, llb: readonly number[]): void {
    if (i < this.count) this.garbage += this.partEnd.a[this.end.a[i] - 1] - this.partStart.a[this.first.a[i]];
    const p0 = this.partKind.length;
    for (const poly of d.polygons) poly.forEach((ring, k) => this.part(k === 0 ? OUTER : HOLE, ring));
    for (const line of d.lines) this.part(LINE, line);
    if (d.points.length) this.part(POINTS, d.points);
    this.first.put(i, p0);
    this.end.put(i, this.partKind.length);
    this.hasPoints.put(i, d.points.length ? 1 : 0);
    const [x0, y1] = project(llb[0], llb[1]);
    const [x1, y0] = project(llb[2], llb[3]);
    this.ub.put(4 * i, x0);
    this.ub.put(4 * i + 1, y0);
    this.ub.put(4 * i + 2, x1);
    this.ub.put(4 * i + 3, y1);
    for (let k = 0; k < 4; k++) this.llb.put(4 * i + k, llb[k]);
  }

  private part(kind: number, ring: readonly (readonly number[])[]): void {
    this.partKind.put(this.partKind.length, kind);
    this.partStart.put(this.partStart.length, this.coords.length);
    this.coords.reserve(ring.length * 2);
    const a = this.coords.a;
    let n = this.coords.length;
    for (const p of ring) {
      const [x, y] = project(p[0], p[1]);
      a[n++] = x;
      a[n++] = y;
    }
    this.coords.length = n;
    this.partEnd.put(this.partEnd.length, n);
  }

  /** After a batch: drops spare capacity, and the coordinates of replaced shapes once they are the larger part. */
  settle(): void {
    if (this.garbage > this.coords.length / 2) this.compact();
    for (const c of [this.coords, this.partKind, this.partStart, this.partEnd, this.first, this.end, this.ub, this.llb, this.hasPoints]) c.trim();
  }

  private compact(): void {
    const old = { coords: this.coords.a, kind: this.partKind.a, start: this.partStart.a, end: this.partEnd.a };
    this.coords.length = this.partKind.length = this.partStart.length = this.partEnd.length = 0;
    for (let i = 0; i < this.count; i++) {
      const p0 = this.partKind.length;
      for (let p = this.first.a[i]; p < this.end.a[i]; p++) {
        this.partKind.put(this.partKind.length, old.kind[p]);
        this.partStart.put(this.partStart.length, this.coords.length);
        const src = old.coords.subarray(old.start[p], old.end[p]);
        this.coords.reserve(src.length);
        this.coords.a.set(src, this.coords.length);
        this.coords.length += src.length;
        this.partEnd.put(this.partEnd.length, this.coords.length);
      }
      this.first.a[i] = p0;
      this.end.a[i] = this.partKind.length;
    }
    this.garbage = 0;
  }
}

/**
 * Which shapes a box of the unit square may touch: a grid of GRID × GRID cells, columns
 * wrapping around the antimeridian (a shape or a view beyond ±180° lands in the cells of the
 * world copy it repeats). A shape covering many cells sits in one list that every query
 * returns. Built on the first use after the shapes change; a view showing a large part of the
 * world skips it, as the cells would list nearly every shape.
 */
const GRID = 128;
const BIG_CELLS = 64;

class GridIndex {
  private readonly cellStart = new Int32Array(GRID * GRID + 1);
  private readonly cellItems: Int32Array;
  private readonly big: number[] = [];
  /** Per shape: the query that last listed it (so a query lists a shape once). */
  private readonly stamp: Uint32Array;
  private query = 0;

  constructor(ub: Float64Array, count: number) {
    const counts = this.cellStart;
    for (let i = 0; i < count; i++) if (!this.cells(ub, i, (cell) => counts[cell + 1]++)) this.big.push(i);
    for (let k = 0; k < GRID * GRID; k++) counts[k + 1] += counts[k];
    const next = counts.slice(0, GRID * GRID);
    const items = new Int32Array(counts[GRID * GRID]);
    for (let i = 0; i < count; i++) this.cells(ub, i, (cell) => (items[next[cell]++] = i));
    this.cellItems = items;
    this.stamp = new Uint32Array(count);
  }

  /** Calls `f` for each cell shape `i` covers; false (and no calls) when it covers too many. */
  private cells(ub: Float64Array, i: number, f: (cell: number) => void): boolean {
    const c0 = Math.floor(ub[4 * i] * GRID);
    const cols = Math.min(GRID, Math.floor(ub[4 * i + 2] * GRID) - c0 + 1);
    const r0 = Math.max(0, Math.floor(ub[4 * i + 1] * GRID));
    const r1 = Math.min(GRID - 1, Math.floor(ub[4 * i + 3] * GRID));
    if (cols * (r1 - r0 + 1) > BIG_CELLS) return false;
    for (let c = c0; c < c0 + cols; c++) {
      const col = ((c % GRID) + GRID) % GRID;
      for (let r = r0; r <= r1; r++) f(r * GRID + col);
    }
    return true;
  }

  /**
   * The shapes listed in the cells the box touches, in store order (the order they are drawn
   * in), or undefined when the box covers so much that every shape is a candidate.
   */
  candidates(x0: number, y0: number, x1: number, y1: number): Int32Array | undefined {
    const c0 = Math.floor(x0 * GRID);
    const cols = Math.floor(x1 * GRID) - c0 + 1;
    const r0 = Math.max(0, Math.floor(y0 * GRID));
    const r1 = Math.min(GRID - 1, Math.floor(y1 * GRID));
    if (Math.min(cols, GRID) * Math.max(0, r1 - r0 + 1) > (GRID * GRID) / 4) return undefined;
    if (++this.query === 0xffffffff) {
      this.stamp.fill(0);
      this.query = 1;
    }
    const q = this.query;
    const out: number[] = [];
    for (let c = c0; c < c0 + Math.min(cols, GRID); c++) {
      const col = ((c % GRID) + GRID) % GRID;
      for (let r = r0; r <= r1; r++) {
        const cell = r * GRID + col;
        for (let k = this.cellStart[cell]; k < this.cellStart[cell + 1]; k++) {
          const i = this.cellItems[k];
          if (this.stamp[i] !== q) {
            this.stamp[i] = q;
            out.push(i);
          }
        }
      }
    }
    for (const i of this.big) out.push(i);
    return Int32Array.from(out).sort();
  }
}

/** `input` as drawable parts and their lon/lat bounds, or undefined when nothing can be drawn. */
function prepare(input: FootprintInput<unknown>): { d: Drawable; llb: [number, number, number, number] } | undefined {
  const d = toDrawable(input.geometry);
  if (input.extraPoints) {
    // an AOI's centroid comes in [-180, 180] while its unwrapped ring may lie beyond -180 or
    // 180 (Fiji): put each dot on the shape's side of the antimeridian, not a world away
    const shape = drawableBounds(d);
    const mid = shape ? (shape[0] + shape[2]) / 2 : 0;
    for (const [x, y] of input.extraPoints) d.points.push([x + Math.round((mid - x) / 360) * 360, y]);
  }
  const llb = drawableBounds(d);
  return llb ? { d, llb } : undefined;
}

function pointInRing(a: Float64Array, start: number, end: number, x: number, y: number): boolean {
  let inside = false;
  for (let i = start, j = end - 2; i < end; j = i, i += 2) {
    const xi = a[i],
      yi = a[i + 1],
      xj = a[j],
      yj = a[j + 1];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

function distToSegment2(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax,
    dy = by - ay;
  const len2 = dx * dx + dy * dy;
  let t = len2 ? ((px - ax) * dx + (py - ay) * dy) / len2 : 0;
  t = Math.max(0, Math.min(1, t));
  const qx = ax + t * dx - px,
    qy = ay + t * dy - py;
  return qx * qx + qy * qy;
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
  /** Where many dots are written as pixels; kept while redraws have many. */
  private scratch?: { canvas: HTMLCanvasElement; cx: CanvasRenderingContext2D; pixels: ImageData };
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
      // the selection gets the theme's contrast colour as its outline and keeps its own fill, a
      // little stronger: a fill in the contrast colour (black on light themes) hid the base map
      ctx.strokeStyle = st.selectedColor;
      ctx.lineWidth = st.weight + 1.5;
      const one: Batch = { outlines: new Path2D(), fillAlpha: Math.min(0.5, st.fillOpacity + 0.12), dots: new Column(f64(0), f64) };
      this.paint(ctx, fillCtx, selected, view, one);
      this.dots(ctx, one.dots, w, h);
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
    const batch: Batch = { outlines: new Path2D(), fillAlpha: st.fillOpacity, dots: new Column(f64(0), f64) };
    let drawn = 0;
    for (let k = 0; k < count; k++) {
      const i = candidates ? candidates[k] : k;
      if (i === selected) continue;
      drawn += this.paint(ctx, fillCtx, i, view, batch);
    }
    this.dots(ctx, batch.dots, w, h);
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
   * Shape `i` in each world copy the view shows: polygon fills on `fillCtx` (the same canvas, or
   * the one under the imagery) at the batch's opacity, outlines into the batch's path, lines and
   * dots on `ctx`, whose styles the caller set. Returns 1 when painted.
   */
  private paint(ctx: CanvasRenderingContext2D, fillCtx: CanvasRenderingContext2D, i: number, v: View, batch: Batch): number {
    const s = this.store;
    const ub = s.ub.a;
    const bx0 = ub[4 * i],
      by0 = ub[4 * i + 1],
      bx1 = ub[4 * i + 2],
      by1 = ub[4 * i + 3];
    if (by1 < v.y0 || by0 > v.y1) return 0;
    // world copies that intersect the view horizontally
    const kMin = Math.ceil(v.x0 - bx1);
    const kMax = Math.floor(v.x1 - bx0);
    if (kMin > kMax) return 0;
    const scale = v.scale;
    const tiny = (bx1 - bx0) * scale < 2 && (by1 - by0) * scale < 2 && !s.hasPoints.a[i];
    const r = this.style.pointRadius;
    for (let k = kMin; k <= kMax; k++) {
      const dx = k * scale - v.ox;
      const dy = -v.oy;
      if (tiny) {
        // smaller than a pixel or two: a dot says as much, for a fraction of the work
        batch.dots.put(batch.dots.length, bx0 * scale + dx - 1);
        batch.dots.put(batch.dots.length, by0 * scale + dy - 1);
        continue;
      }
      let poly: Path2D | undefined;
      let lines = false;
      let dots = false;
      for (let p = s.first.a[i]; p < s.end.a[i]; p++) {
        const kind = s.partKind.a[p];
        const a = s.partStart.a[p],
          b = s.partEnd.a[p];
        if (kind === OUTER || kind === HOLE) {
          poly ??= new Path2D();
          this.trace(poly, a, b, scale, dx, dy, true);
          this.trace(batch.outlines, a, b, scale, dx, dy, true);
        } else if (kind === LINE) {
          if (!lines) ctx.beginPath();
          lines = true;
          this.trace(ctx, a, b, scale, dx, dy, false);
        } else {
          const c = s.coords.a;
          if (lines) ctx.stroke();
          lines = false;
          ctx.beginPath();
          for (let j = a; j < b; j += 2) {
            const x = c[j] * scale + dx,
              y = c[j + 1] * scale + dy;
            ctx.moveTo(x + r, y);
            ctx.arc(x, y, r, 0, Math.PI * 2);
          }
          dots = true;
        }
      }
      if (poly) {
        fillCtx.globalAlpha = batch.fillAlpha;
        fillCtx.fill(poly, 'evenodd');
        fillCtx.globalAlpha = 1;
      }
      if (lines) ctx.stroke();
      if (dots) {
        ctx.globalAlpha = 0.9;
        ctx.fill();
        ctx.globalAlpha = 1;
      }
    }
    return 1;
  }

  /**
   * The dots (top-left corners of 2 × 2 px squares, in CSS px) in `ctx`'s fill colour. A few
   * are fillRects; many (the whole world at a low zoom: 100,000 fillRects took longer than the
   * rest of the frame) are written into pixels and drawn as one image, snapped to whole pixels.
   */
  private dots(ctx: CanvasRenderingContext2D, dots: Column<Float64Array>, w: number, h: number): void {
    const xy = dots.a;
    if (dots.length < 2 * MANY_DOTS) {
      for (let j = 0; j < dots.length; j += 2) ctx.fillRect(xy[j], xy[j + 1], 2, 2);
      if (this.scratch) this.scratch = undefined;
      return;
    }
    if (!this.scratch || this.scratch.canvas.width !== w || this.scratch.canvas.height !== h) {
      const canvas = document.createElement('canvas');
      canvas.width = w;
      canvas.height = h;
      const cx = canvas.getContext('2d');
      if (!cx) return;
      this.scratch = { canvas, cx, pixels: cx.createImageData(w, h) };
    }
    const { canvas, cx, pixels } = this.scratch;
    const px = new Uint32Array(pixels.data.buffer);
    px.fill(0);
    const color = rgba32(ctx.fillStyle);
    for (let j = 0; j < dots.length; j += 2) {
      const x = Math.round(xy[j]),
        y = Math.round(xy[j + 1]);
      if (x < 0 || y < 0 || x + 1 >= w || y + 1 >= h) continue;
      const k = y * w + x;
      px[k] = px[k + 1] = px[k + w] = px[k + w + 1] = color;
    }
    cx.putImageData(pixels, 0, 0);
    const smooth = ctx.imageSmoothingEnabled;
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(canvas, 0, 0, w, h);
    ctx.imageSmoothingEnabled = smooth;
  }

  /** Emits coordinates [a, b) of the store, dropping vertices less than half a pixel from the last one emitted. */
  private trace(ctx: CanvasRenderingContext2D | Path2D, a: number, b: number, scale: number, dx: number, dy: number, close: boolean): void {
    const c = this.store.coords.a;
    let lx = c[a] * scale + dx,
      ly = c[a + 1] * scale + dy;
    ctx.moveTo(lx, ly);
    for (let j = a + 2; j < b; j += 2) {
      const x = c[j] * scale + dx,
        y = c[j + 1] * scale + dy;
      if (j < b - 2 && Math.abs(x - lx) < 0.5 && Math.abs(y - ly) < 0.5) continue;
      ctx.lineTo(x, y);
      lx = x;
      ly = y;
    }
    if (close) ctx.closePath();
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
    const reach = tol + this.style.pointRadius / scale;
    const ub = this.store.ub.a;
    const hits: { i: number; area: number }[] = [];
    const candidates = this.near(px - reach, py - reach, px + reach, py + reach);
    const count = candidates ? candidates.length : this.store.count;
    for (let n = 0; n < count; n++) {
      const i = candidates ? candidates[n] : n;
      const bx0 = ub[4 * i],
        by0 = ub[4 * i + 1],
        bx1 = ub[4 * i + 2],
        by1 = ub[4 * i + 3];
      if (py < by0 - tol || py > by1 + tol) continue;
      const kMin = Math.ceil(px - bx1 - tol);
      const kMax = Math.floor(px - bx0 + tol);
      for (let k = kMin; k <= kMax; k++) {
        if (this.contains(i, px - k, py, tol, this.style.pointRadius / scale)) {
          hits.push({ i, area: (bx1 - bx0) * (by1 - by0) });
          break;
        }
      }
    }
    return hits.sort((a, b) => a.area - b.area).map((h) => this.datas[h.i]);
  }

  private contains(i: number, x: number, y: number, tol: number, radius: number): boolean {
    const s = this.store;
    const c = s.coords.a;
    const ub = s.ub.a;
    const bx0 = ub[4 * i],
      by0 = ub[4 * i + 1],
      bx1 = ub[4 * i + 2],
      by1 = ub[4 * i + 3];
    // tiny shapes drawn as dots are picked by their box
    if (x >= bx0 - tol && x <= bx1 + tol && y >= by0 - tol && y <= by1 + tol && bx1 - bx0 < tol && by1 - by0 < tol) return true;
    const t2 = tol * tol;
    const pr = radius + tol;
    // a polygon's outer ring, then its holes (until the next outer ring or another kind)
    let inPoly = false;
    for (let p = s.first.a[i]; p < s.end.a[i]; p++) {
      const kind = s.partKind.a[p];
      const a = s.partStart.a[p],
        b = s.partEnd.a[p];
      if (kind !== HOLE && inPoly) return true;
      if (kind === OUTER) inPoly = pointInRing(c, a, b, x, y);
      else if (kind === HOLE) {
        if (inPoly && pointInRing(c, a, b, x, y)) inPoly = false;
      } else if (kind === LINE) {
        for (let j = a; j + 3 < b; j += 2) if (distToSegment2(x, y, c[j], c[j + 1], c[j + 2], c[j + 3]) <= t2) return true;
      } else {
        for (let j = a; j < b; j += 2) {
          const ddx = c[j] - x,
            ddy = c[j + 1] - y;
          if (ddx * ddx + ddy * ddy <= pr * pr) return true;
        }
      }
    }
    return inPoly;
  }
}

/** The view in the unit square and the pixel mapping of one redraw. */
interface View {
  scale: number;
  ox: number;
  oy: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** What a redraw gathers across shapes: every outline, stroked once at the end. */
interface Batch {
  outlines: Path2D;
  /** The polygons' fill opacity. */
  fillAlpha: number;
  /** Dots to draw: x, y of each square's top-left corner, CSS px. */
  dots: Column<Float64Array>;
}

/** Above this many dots a redraw writes them as pixels (see FootprintLayer.dots). */
const MANY_DOTS = 2000;
/** Shapes from which a low zoom paints the world once (see `worldImage`). */
const WORLD_IMAGE_MIN_SHAPES = 5000;
/** The widest world image, in device pixels (2048² is 16 MB of pixels per image). */
const WORLD_IMAGE_MAX = 2048;

/** A canvas colour as the canvas normalizes it ("#rrggbb" or "rgba(r, g, b, a)") in ImageData's byte order, as one 32-bit word. */
function rgba32(style: string | CanvasGradient | CanvasPattern): number {
  const bytes = new Uint8ClampedArray(4);
  if (typeof style === 'string' && style.startsWith('#') && style.length === 7) {
    for (let k = 0; k < 3; k++) bytes[k] = parseInt(style.slice(1 + 2 * k, 3 + 2 * k), 16);
    bytes[3] = 255;
  } else if (typeof style === 'string') {
    const n = style.match(/[\d.]+/g)?.map(Number) ?? [0, 0, 0];
    bytes[0] = n[0];
    bytes[1] = n[1];
    bytes[2] = n[2];
    bytes[3] = n.length > 3 ? Math.round(n[3] * 255) : 255;
  }
  return new Uint32Array(bytes.buffer)[0];
}
