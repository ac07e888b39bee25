/**
 * A small draw tool: a rectangle by dragging, a polygon by clicking vertices (double-click,
 * Enter or a click on the first vertex finishes; Backspace removes the last; Escape cancels).
 * Our own rather than a plugin: the two shapes are all we need, and it keeps the bundle and
 * the CSP simple (no injected styles or icons).
 */
import * as L from 'leaflet';

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

  constructor(
    private readonly map: L.Map,
    private readonly color: () => string,
    private readonly done: (shape: DrawnShape) => void,
    private readonly onModeChange: (mode: Shape | undefined) => void,
  ) {}

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
    this.onModeChange(mode);
  }

  cancel(): void {
    if (!this.mode) return;
    this.map.off('mousedown', this.onDown, this);
    this.map.off('mouseup', this.onUp, this);
    this.map.off('click', this.onClick, this);
    this.map.off('dblclick', this.onDblClick, this);
    this.map.off('mousemove', this.onMove, this);
    document.removeEventListener('keydown', this.keyHandler);
    this.map.dragging.enable();
    this.map.doubleClickZoom.enable();
    this.map.getContainer().classList.remove('eo-drawing');
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
    this.done(shape);
  }

  private style(): L.PathOptions {
    return { color: this.color(), weight: 2, dashArray: '6 4', fillOpacity: 0.1, interactive: false };
  }

  private onDown(e: L.LeafletMouseEvent): void {
    this.start = e.latlng;
    this.map.on('mouseup', this.onUp, this);
  }

  private onUp(e: L.LeafletMouseEvent): void {
    const a = this.start;
    this.map.off('mouseup', this.onUp, this);
    if (!a) return;
    const b = e.latlng;
    const p0 = this.map.latLngToContainerPoint(a);
    const p1 = this.map.latLngToContainerPoint(b);
    if (Math.abs(p0.x - p1.x) < 4 || Math.abs(p0.y - p1.y) < 4) {
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
    if (e.key === 'Escape') this.cancel();
    else if (e.key === 'Enter' && this.mode === 'polygon') this.finishPolygon();
    else if (e.key === 'Backspace' && this.mode === 'polygon' && this.vertices.length) {
      this.vertices.pop();
      this.updatePreview();
    }
  }
}
