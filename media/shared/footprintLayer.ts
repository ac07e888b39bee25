/**
 * Thousands of footprints on one canvas.
 *
 * Leaflet's vector layers make one object (and, with SVG, one DOM node) per shape and
 * re-clip every one of them on each pan; at 10,000 footprints that is seconds. This layer
 * projects each shape once to Web Mercator's unit square (zoom-independent), and on each
 * redraw only scales, culls against the view, drops sub-pixel vertices and paints: one
 * canvas, no per-shape objects. World copies are drawn where the view shows them, so a
 * footprint unwrapped across the antimeridian appears once per copy, in the right place.
 * Hit testing is a scan of bounding boxes then point-in-polygon, done by the caller on click.
 */
import * as L from 'leaflet';
import { drawableBounds, toDrawable } from '../../src/geo/drawable';
import { project } from '../../src/geo/mercator';

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

interface Prepared<T> {
  id: string;
  data: T;
  /** Per polygon, per ring: interleaved unit-square x, y. */
  polys: Float64Array[][];
  lines: Float64Array[];
  points: Float64Array;
  /** Unit-square bounds: minX, minY, maxX, maxY. */
  ub: [number, number, number, number];
  /** Lon/lat bounds (lon unwrapped): west, south, east, north. */
  llb: [number, number, number, number];
}

function toUnit(ring: readonly (readonly number[])[]): Float64Array {
  const a = new Float64Array(ring.length * 2);
  for (let i = 0; i < ring.length; i++) {
    const [x, y] = project(ring[i][0], ring[i][1]);
    a[2 * i] = x;
    a[2 * i + 1] = y;
  }
  return a;
}

function prepare<T>(input: FootprintInput<T>): Prepared<T> | undefined {
  const d = toDrawable(input.geometry);
  if (input.extraPoints) {
    // an AOI's centroid comes in [-180, 180] while its unwrapped ring may lie beyond -180 or
    // 180 (Fiji): put each dot on the shape's side of the antimeridian, not a world away
    const shape = drawableBounds(d);
    const mid = shape ? (shape[0] + shape[2]) / 2 : 0;
    for (const [x, y] of input.extraPoints) d.points.push([x + Math.round((mid - x) / 360) * 360, y]);
  }
  const llb = drawableBounds(d);
  if (!llb) return undefined;
  const polys = d.polygons.map((p) => p.map(toUnit));
  const lines = d.lines.map(toUnit);
  const points = toUnit(d.points);
  const [x0, y1] = project(llb[0], llb[1]);
  const [x1, y0] = project(llb[2], llb[3]);
  return { id: input.id, data: input.data, polys, lines, points, ub: [x0, y0, x1, y1], llb };
}

function pointInRing(r: Float64Array, x: number, y: number): boolean {
  let inside = false;
  const n = r.length / 2;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const xi = r[2 * i],
      yi = r[2 * i + 1],
      xj = r[2 * j],
      yj = r[2 * j + 1];
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
  private items: Prepared<T>[] = [];
  private readonly byId = new Map<string, Prepared<T>>();
  private canvas?: HTMLCanvasElement;
  /** The fills' own canvas, in `fillPane` (under the imagery), when the layer has one. */
  private fillCanvas?: HTMLCanvasElement;
  private selectedId?: string;
  private topLeftLatLng?: L.LatLng;
  private zoomAtDraw = 0;
  private mapRef?: L.Map;
  /** Milliseconds the last redraw took, and shapes it painted (for the benchmark). */
  lastDraw = { ms: 0, drawn: 0 };

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
    this.redraw();
  }

  /** Replaces all shapes; returns how many could be drawn (bad geometries are skipped). */
  setItems(inputs: readonly FootprintInput<T>[]): number {
    this.items = [];
    this.byId.clear();
    return this.addItems(inputs);
  }

  /** Adds shapes; an id already present is replaced. */
  addItems(inputs: readonly FootprintInput<T>[]): number {
    let n = 0;
    for (const input of inputs) {
      const p = prepare(input);
      if (!p) continue;
      const old = this.byId.get(p.id);
      if (old) this.items[this.items.indexOf(old)] = p;
      else this.items.push(p);
      this.byId.set(p.id, p);
      n++;
    }
    this.redraw();
    return n;
  }

  get size(): number {
    return this.items.length;
  }

  ids(): string[] {
    return this.items.map((i) => i.id);
  }

  get(id: string): T | undefined {
    return this.byId.get(id)?.data;
  }

  setSelected(id: string | undefined): void {
    this.selectedId = id;
    this.redraw();
  }

  get selected(): string | undefined {
    return this.selectedId;
  }

  /** Lon/lat bounds of everything, or of one shape. */
  getBounds(id?: string): L.LatLngBounds | undefined {
    const list = id !== undefined ? [this.byId.get(id)].filter((x): x is Prepared<T> => !!x) : this.items;
    if (list.length === 0) return undefined;
    let w = Infinity,
      s = Infinity,
      e = -Infinity,
      n = -Infinity;
    for (const it of list) {
      // Keep a set of shapes together across the dateline: move each by 360s next to the first.
      const shift = Math.round((list[0].llb[0] - it.llb[0]) / 360) * 360;
      w = Math.min(w, it.llb[0] + shift);
      e = Math.max(e, it.llb[2] + shift);
      s = Math.min(s, it.llb[1]);
      n = Math.max(n, it.llb[3]);
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
    this.mapRef = undefined;
    return this;
  }

  override getEvents(): Record<string, L.LeafletEventHandlerFn> {
    return {
      moveend: () => this.redraw(),
      viewreset: () => this.redraw(),
      resize: () => this.redraw(),
      zoomanim: (e) => this.onZoomAnim(e as L.ZoomAnimEvent),
    };
  }

  private onZoomAnim(e: L.ZoomAnimEvent): void {
    const map = this.mapRef;
    if (!map || !this.canvas || !this.topLeftLatLng) return;
    const scale = map.getZoomScale(e.zoom, this.zoomAtDraw);
    const panePos = L.DomUtil.getPosition(map.getPane('mapPane') as HTMLElement);
    const newOrigin = map.project(e.center, e.zoom).subtract(map.getSize().divideBy(2)).add(panePos).round();
    const offset = map.project(this.topLeftLatLng, e.zoom).subtract(newOrigin);
    L.DomUtil.setTransform(this.canvas, offset, scale);
    if (this.fillCanvas) L.DomUtil.setTransform(this.fillCanvas, offset, scale);
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
    const vx0 = ox / scale,
      vy0 = oy / scale,
      vx1 = (ox + w) / scale,
      vy1 = (oy + h) / scale;

    const st = this.style;
    ctx.lineJoin = 'round';
    const paint = (it: Prepared<T>, color: string, fill: string, fillOpacity: number, weight: number): number =>
      this.paint(ctx, fillCtx, it, scale, ox, oy, vx0, vy0, vx1, vy1, color, fill, fillOpacity, weight);
    let drawn = 0;
    let selected: Prepared<T> | undefined;
    for (const it of this.items) {
      if (it.id === this.selectedId) {
        selected = it;
        continue;
      }
      drawn += paint(it, st.color, st.fillColor ?? st.color, st.fillOpacity, st.weight);
    }
    if (selected) {
      // the selection gets the theme's contrast colour as its outline and keeps its own fill, a
      // little stronger: a fill in the contrast colour (black on light themes) hid the base map
      paint(selected, st.selectedColor, st.fillColor ?? st.color, Math.min(0.5, st.fillOpacity + 0.12), st.weight + 1.5);
      drawn++;
    }
    this.lastDraw = { ms: performance.now() - t0, drawn };
  }

  /** Outlines, lines and dots on `ctx`; polygon fills on `fillCtx` (the same canvas, or the one under the imagery). */
  private paint(
    ctx: CanvasRenderingContext2D,
    fillCtx: CanvasRenderingContext2D,
    it: Prepared<T>,
    scale: number,
    ox: number,
    oy: number,
    vx0: number,
    vy0: number,
    vx1: number,
    vy1: number,
    color: string,
    fill: string,
    fillOpacity: number,
    weight: number,
  ): number {
    const [bx0, by0, bx1, by1] = it.ub;
    if (by1 < vy0 || by0 > vy1) return 0;
    // world copies that intersect the view horizontally
    const kMin = Math.ceil(vx0 - bx1);
    const kMax = Math.floor(vx1 - bx0);
    if (kMin > kMax) return 0;
    ctx.strokeStyle = color;
    ctx.fillStyle = fill;
    ctx.lineWidth = weight;
    fillCtx.fillStyle = fill;
    const r = this.style.pointRadius;
    for (let k = kMin; k <= kMax; k++) {
      const dx = k * scale - ox;
      const pxW = (bx1 - bx0) * scale,
        pxH = (by1 - by0) * scale;
      if (pxW < 2 && pxH < 2 && it.points.length === 0) {
        // smaller than a pixel or two: a dot says as much, for a fraction of the work
        ctx.globalAlpha = 1;
        ctx.fillRect(bx0 * scale + dx - 1, by0 * scale - oy - 1, 2, 2);
        continue;
      }
      if (it.polys.length) {
        const path = new Path2D();
        for (const poly of it.polys) for (const ring of poly) this.trace(path, ring, scale, dx, -oy, true);
        fillCtx.globalAlpha = fillOpacity;
        fillCtx.fill(path, 'evenodd');
        fillCtx.globalAlpha = 1;
        ctx.globalAlpha = 1;
        ctx.stroke(path);
      }
      if (it.lines.length) {
        ctx.beginPath();
        for (const line of it.lines) this.trace(ctx, line, scale, dx, -oy, false);
        ctx.globalAlpha = 1;
        ctx.stroke();
      }
      if (it.points.length) {
        ctx.beginPath();
        for (let i = 0; i < it.points.length; i += 2) {
          const x = it.points[i] * scale + dx,
            y = it.points[i + 1] * scale - oy;
          ctx.moveTo(x + r, y);
          ctx.arc(x, y, r, 0, Math.PI * 2);
        }
        ctx.globalAlpha = 0.9;
        ctx.fill();
        ctx.globalAlpha = 1;
      }
    }
    return 1;
  }

  /** Emits a ring, dropping vertices less than half a pixel from the last one emitted. */
  private trace(ctx: CanvasRenderingContext2D | Path2D, r: Float64Array, scale: number, dx: number, dy: number, close: boolean): void {
    const n = r.length / 2;
    let lx = r[0] * scale + dx,
      ly = r[1] * scale + dy;
    ctx.moveTo(lx, ly);
    for (let i = 1; i < n; i++) {
      const x = r[2 * i] * scale + dx,
        y = r[2 * i + 1] * scale + dy;
      if (i < n - 1 && Math.abs(x - lx) < 0.5 && Math.abs(y - ly) < 0.5) continue;
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
    const hits: { it: Prepared<T>; area: number }[] = [];
    for (const it of this.items) {
      const [bx0, by0, bx1, by1] = it.ub;
      if (py < by0 - tol || py > by1 + tol) continue;
      const kMin = Math.ceil(px - bx1 - tol);
      const kMax = Math.floor(px - bx0 + tol);
      for (let k = kMin; k <= kMax; k++) {
        const x = px - k;
        if (this.contains(it, x, py, tol, this.style.pointRadius / scale)) {
          hits.push({ it, area: (bx1 - bx0) * (by1 - by0) });
          break;
        }
      }
    }
    return hits.sort((a, b) => a.area - b.area).map((h) => h.it.data);
  }

  private contains(it: Prepared<T>, x: number, y: number, tol: number, radius: number): boolean {
    const [bx0, by0, bx1, by1] = it.ub;
    // tiny shapes drawn as dots are picked by their box
    if (x >= bx0 - tol && x <= bx1 + tol && y >= by0 - tol && y <= by1 + tol && bx1 - bx0 < tol && by1 - by0 < tol) return true;
    for (const poly of it.polys) {
      if (pointInRing(poly[0], x, y) && !poly.slice(1).some((hole) => pointInRing(hole, x, y))) return true;
    }
    const t2 = tol * tol;
    for (const line of it.lines) {
      for (let i = 0; i + 3 < line.length; i += 2) {
        if (distToSegment2(x, y, line[i], line[i + 1], line[i + 2], line[i + 3]) <= t2) return true;
      }
    }
    const pr = radius + tol;
    for (let i = 0; i < it.points.length; i += 2) {
      const ddx = it.points[i] - x,
        ddy = it.points[i + 1] - y;
      if (ddx * ddx + ddy * ddy <= pr * pr) return true;
    }
    return false;
  }
}
