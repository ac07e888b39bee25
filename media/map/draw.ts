/**
 * A small draw tool: a rectangle by dragging, a polygon by clicking vertices (double-click,
 * Enter or a click on the first vertex finishes; Backspace removes the last; Escape cancels).
 * Without a mouse: a crosshair marks the map's centre, the arrow keys move the map under it,
 * Space puts a corner (or a vertex) there and Enter finishes. Our own rather than a plugin: the
 * two shapes are all we need, and it keeps the bundle and the CSP simple (no injected styles or
 * icons).
 */
import * as L from 'leaflet';
import * as l10n from '@vscode/l10n';

export type Shape = 'rectangle' | 'polygon';
export interface DrawnShape {
  shape: Shape;
  /** Closed ring, [lon, lat], longitudes as on the map (may lie beyond ±180). */
  ring: [number, number][];
}

export class DrawTool {
  private mode?: Shape;
  private vertices: L.LatLng[] = [];
  private start?: L.LatLng;
  private preview?: L.Polygon | L.Polyline;
  private readonly keyHandler = (e: KeyboardEvent) => this.onKey(e);
  private readonly crosshair: HTMLElement;
  private readonly hint: HTMLElement;
  /** When the last shape was finished (its finishing click must not reach the map's click handler). */
  private finishedAt = -Infinity;

  constructor(
    private readonly map: L.Map,
    private readonly color: () => string,
    private readonly done: (shape: DrawnShape) => void,
    private readonly onModeChange: (mode: Shape | undefined) => void,
  ) {
    this.crosshair = L.DomUtil.create('div', 'eo-crosshair', map.getContainer());
    this.crosshair.setAttribute('aria-hidden', 'true');
    this.crosshair.hidden = true;
    this.hint = L.DomUtil.create('div', 'eo-sr-only', map.getContainer());
    this.hint.setAttribute('aria-live', 'polite');
  }

  /** Whether a shape was finished a moment ago (the click that finished it is still arriving). */
  justFinished(): boolean {
    return performance.now() - this.finishedAt < 400;
  }

  get active(): Shape | undefined {
    return this.mode;
  }

  begin(mode: Shape): void {
    this.cancel();
    this.mode = mode;
    this.map.getContainer().classList.add('eo-drawing');
    this.map.doubleClickZoom.disable();
    if (mode === 'rectangle') {
      this.map.dragging.disable();
      this.map.on('mousedown', this.onDown, this);
    } else {
      this.map.on('click', this.onClick, this);
      this.map.on('dblclick', this.onDblClick, this);
    }
    this.map.on('mousemove', this.onMove, this);
    document.addEventListener('keydown', this.keyHandler);
    this.crosshair.hidden = false;
    // the arrow keys move the map only while it has the focus
    this.map.getContainer().focus({ preventScroll: true });
    this.hint.textContent =
      mode === 'rectangle'
        ? l10n.t('Drawing a rectangle: drag on the map, or move the map with the arrow keys and press Space at two opposite corners. Escape cancels.')
        : l10n.t(
            'Drawing a polygon: click its corners, or move the map with the arrow keys and press Space at each corner; Enter finishes, Backspace removes the last corner, Escape cancels.',
          );
    this.onModeChange(mode);
  }

  cancel(): void {
    if (!this.mode) return;
    this.map.off('mousedown', this.onDown, this);
    this.map.off('mouseup', this.onUp, this);
    this.map.off('click', this.onClick, this);
    this.map.off('dblclick', this.onDblClick, this);
    this.map.off('mousemove', this.onMove, this);
    this.map.off('move', this.onKeyboardMove, this);
    document.removeEventListener('keydown', this.keyHandler);
    this.map.dragging.enable();
    this.map.doubleClickZoom.enable();
    this.map.getContainer().classList.remove('eo-drawing');
    this.crosshair.hidden = true;
    this.preview?.remove();
    this.preview = undefined;
    this.vertices = [];
    this.start = undefined;
    this.mode = undefined;
    this.onModeChange(undefined);
  }

  /** Test and keyboard entry: finish a polygon from vertices given in code. */
  finishWith(shape: DrawnShape): void {
    this.cancel();
    this.finishedAt = performance.now();
    this.hint.textContent = shape.shape === 'rectangle' ? l10n.t('Rectangle drawn.') : l10n.t('Polygon drawn.');
    this.done(shape);
  }

  private style(): L.PathOptions {
    return { color: this.color(), weight: 2, dashArray: '6 4', fillOpacity: 0.1, interactive: false };
  }

  private onDown(e: L.LeafletMouseEvent): void {
    // a drag draws: it must not select the page's text on the way
    e.originalEvent.preventDefault();
    this.start = e.latlng;
    this.map.on('mouseup', this.onUp, this);
  }

  private onUp(e: L.LeafletMouseEvent): void {
    const a = this.start;
    this.map.off('mouseup', this.onUp, this);
    if (!a) return;
    this.finishRectangle(a, e.latlng, true);
  }

  /** A rectangle between two opposite corners; `fromMouse`: a press that barely moved is a click, not a rectangle. */
  private finishRectangle(a: L.LatLng, b: L.LatLng, fromMouse: boolean): void {
    const p0 = this.map.latLngToContainerPoint(a);
    const p1 = this.map.latLngToContainerPoint(b);
    if (Math.abs(p0.x - p1.x) < 4 || Math.abs(p0.y - p1.y) < 4) {
      if (!fromMouse) {
        this.hint.textContent = l10n.t('The two corners are too close: move the map further before pressing Space.');
        return;
      }
      this.start = undefined; // a click, not a drag: keep waiting
      this.preview?.remove();
      this.preview = undefined;
      return;
    }
    const w = Math.min(a.lng, b.lng),
      e2 = Math.max(a.lng, b.lng);
    const s = Math.min(a.lat, b.lat),
      n = Math.max(a.lat, b.lat);
    const ring: [number, number][] = [
      [w, s],
      [e2, s],
      [e2, n],
      [w, n],
      [w, s],
    ];
    this.finishWith({ shape: 'rectangle', ring });
  }

  private onClick(e: L.LeafletMouseEvent): void {
    if (this.vertices.length >= 3) {
      const first = this.map.latLngToContainerPoint(this.vertices[0]);
      if (first.distanceTo(e.containerPoint) < 8) {
        this.finishPolygon();
        return;
      }
    }
    this.vertices.push(e.latlng);
    this.updatePreview();
  }

  private onDblClick(): void {
    // the two clicks of a double-click each added a vertex; drop the duplicate
    if (this.vertices.length >= 2) this.vertices.pop();
    this.finishPolygon();
  }

  private onMove(e: L.LeafletMouseEvent): void {
    if (this.mode === 'rectangle' && this.start) {
      const bounds = L.latLngBounds(this.start, e.latlng);
      if (!this.preview) this.preview = L.rectangle(bounds, this.style()).addTo(this.map);
      else (this.preview as L.Rectangle).setBounds(bounds);
    } else if (this.mode === 'polygon' && this.vertices.length) {
      this.updatePreview(e.latlng);
    }
  }

  private updatePreview(cursor?: L.LatLng): void {
    const pts = cursor ? [...this.vertices, cursor] : this.vertices;
    if (!this.preview) this.preview = L.polygon(pts, this.style()).addTo(this.map);
    else this.preview.setLatLngs(pts);
  }

  private finishPolygon(): void {
    if (this.vertices.length < 3) return;
    const ring: [number, number][] = this.vertices.map((v) => [v.lng, v.lat]);
    ring.push([ring[0][0], ring[0][1]]);
    this.finishWith({ shape: 'polygon', ring });
  }

  private onKey(e: KeyboardEvent): void {
    const t = e.target as HTMLElement | null;
    if (t && /^(INPUT|SELECT|TEXTAREA)$/.test(t.tagName)) return;
    if (e.key === 'Escape') this.cancel();
    else if (e.key === ' ' || (e.key === 'Enter' && this.mode === 'rectangle')) {
      e.preventDefault();
      this.placeAtCentre();
    } else if (e.key === 'Enter' && this.mode === 'polygon') {
      e.preventDefault();
      this.finishPolygon();
    } else if (e.key === 'Backspace' && this.mode === 'polygon' && this.vertices.length) {
      this.vertices.pop();
      this.updatePreview();
    }
  }

  /** Space (keyboard drawing): a corner of the rectangle, or a vertex of the polygon, at the crosshair. */
  private placeAtCentre(): void {
    const c = this.map.getCenter();
    if (this.mode === 'rectangle') {
      if (!this.start) {
        this.start = c;
        this.preview = L.rectangle(L.latLngBounds(c, c), this.style()).addTo(this.map);
        this.map.on('move', this.onKeyboardMove, this);
        this.hint.textContent = l10n.t('First corner set. Move the map to the opposite corner and press Space.');
        return;
      }
      this.finishRectangle(this.start, c, false);
      return;
    }
    this.vertices.push(c);
    this.updatePreview();
    this.hint.textContent = l10n.t('Corner {0} set.', this.vertices.length);
  }

  /** While a keyboard rectangle is open, it follows the crosshair. */
  private onKeyboardMove(): void {
    if (this.mode === 'rectangle' && this.start && this.preview) (this.preview as L.Rectangle).setBounds(L.latLngBounds(this.start, this.map.getCenter()));
  }
}
