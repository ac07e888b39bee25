/**
 * A base layer that needs no network: land and country borders from Natural Earth (the
 * `world-atlas` package, 1:110m), bundled into the script and drawn as SVG, one world copy
 * wide until the view crosses ±180°. Coarse at street level, but it shows where a footprint is when tiles
 * cannot load. SVG rather than a canvas: without a GPU, Chromium composites a canvas again on
 * every frame (a pan, a swipe of compared imagery), while SVG is rastered once; about 8,000
 * points per copy are nothing for Leaflet's SVG renderer, which clips and simplifies them.
 */
import * as L from 'leaflet';
import * as l10n from '@vscode/l10n';
import { feature, mesh } from 'topojson-client';
import type { Feature, FeatureCollection, Position } from 'geojson';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { unwrapRing } from '../../src/geo/antimeridian';
import type { Drawable } from '../../src/geo/drawable';
import { clampLat } from '../../src/geo/mercator';
import { coversView, drawnArea, type DrawnArea } from './drawnArea';

/** The base layer's name in the layer control (asked for after the page's bundle is loaded). */
export function offlineName(): string {
  return l10n.t('Offline outlines (Natural Earth)');
}

function cssVar(name: string, fallback: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

/**
 * Outline data already cut at the antimeridian (Natural Earth) still has the odd edge that
 * jumps from +180 to -180; lines are broken there, and a ring that goes round a pole
 * (Antarctica) is closed through the pole instead of across the world.
 */
function outlineDrawable(g: unknown): Drawable {
  const out: Drawable = { polygons: [], lines: [], points: [] };
  const geom = g as { type?: string; coordinates?: unknown };
  const ring = (r: number[][]): [number, number][] => {
    const u = unwrapRing(r);
    const last = u[u.length - 1];
    if (u.length > 1 && Math.abs(last[0] - u[0][0]) >= 180) {
      const pole = u.reduce((s, p) => s + p[1], 0) < 0 ? -90 : 90;
      u.push([last[0], pole], [u[0][0], pole], [u[0][0], u[0][1]]);
    }
    return u.map(([x, y]) => [x, clampLat(y)]);
  };
  const lines = (l: number[][]): void => {
    let cur: [number, number][] = [];
    for (let i = 0; i < l.length; i++) {
      if (i > 0 && Math.abs(l[i][0] - l[i - 1][0]) > 180) {
        if (cur.length > 1) out.lines.push(cur);
        cur = [];
      }
      cur.push([l[i][0], clampLat(l[i][1])]);
    }
    if (cur.length > 1) out.lines.push(cur);
  };
  if (geom?.type === 'Polygon') out.polygons.push((geom.coordinates as number[][][]).map(ring));
  else if (geom?.type === 'MultiPolygon') for (const p of geom.coordinates as number[][][][]) out.polygons.push(p.map(ring));
  else if (geom?.type === 'MultiLineString') for (const l of geom.coordinates as number[][][]) lines(l);
  else if (geom?.type === 'LineString') lines(geom.coordinates as number[][]);
  return out;
}

type Kind = 'land' | 'borders';

function styleOf(kind: Kind): L.PathOptions {
  const coast = cssVar('--eo-coast', '#6e7681');
  return kind === 'land'
    ? { color: coast, weight: 0.8, fillColor: cssVar('--eo-land', '#2d2d30'), fillOpacity: 1, fill: true }
    : { color: coast, weight: 0.8, fill: false };
}

/** The feature's style, by what it outlines. */
function styleOfFeature(f: Feature | undefined): L.PathOptions {
  return styleOf((f?.properties as { kind?: Kind } | null | undefined)?.kind ?? 'land');
}

/**
 * Leaflet's SVG renderer, except that a pan which keeps the view inside the drawn margin keeps
 * the drawing (see `drawnArea.ts`). Leaflet's own re-clips every path on each `moveend` and so
 * rewrites every path's `d`: about 10 ms of script for the outlines at zoom 2, and the browser
 * rasterizes the whole 2 × 2-view SVG again, though no pixel in view changed.
 */
class KeptSvg extends L.SVG {
  private area?: DrawnArea;
  /** One function, so that removing the layer (which asks for the events again) unhooks it. */
  private readonly moveEnd = (): void => this.onMoveEnd();

  override getEvents(): Record<string, L.LeafletEventHandlerFn> {
    return { ...super.getEvents?.(), moveend: this.moveEnd };
  }

  private onMoveEnd(): void {
    const self = this as unknown as { _map?: L.Map; _update(): void };
    if (self._map && !coversView(self._map, this.area)) self._update();
  }

  /** Leaflet's, then what it drew; during a zoom animation Leaflet's draws nothing and so do we. */
  _update(): void {
    const self = this as unknown as { _map?: L.Map & { _animatingZoom?: boolean }; _bounds?: L.Bounds };
    (L.SVG.prototype as unknown as { _update(this: L.SVG): void })._update.call(this);
    const b = self._bounds;
    this.area = self._map && !self._map._animatingZoom && b?.min && b.max ? drawnArea(self._map, b.min, b.max) : undefined;
  }
}

export function createOfflineBasemap(): L.Layer & { restyle(): void } {
  const layer = L.geoJSON(undefined, {
    pane: 'eoOffline',
    // its own renderer in its own pane, under the tiles' overlays
    renderer: new KeptSvg({ pane: 'eoOffline', padding: 0.5 }),
    interactive: false,
    attribution: l10n.t('Outlines: Natural Earth'),
    style: styleOfFeature,
  } as L.GeoJSONOptions & L.PathOptions);
  const restyle = () => layer.setStyle(styleOfFeature);
  // `outlines.js` (loaded first by the page) sets this; without it the layer is just empty.
  const topo = (window as unknown as { eoWorldAtlas?: Topology<{ countries: GeometryCollection; land: GeometryCollection }> }).eoWorldAtlas;
  if (!topo?.objects?.land) return Object.assign(layer, { restyle });
  const land = feature(topo, topo.objects.land) as FeatureCollection | Feature;
  const polygons = ('features' in land ? land.features : [land]).flatMap((f) => outlineDrawable(f.geometry).polygons);
  const lines = outlineDrawable(mesh(topo, topo.objects.countries, (a, b) => a !== b)).lines;
  // One world copy; another (every point moved by whole turns of longitude) only once the
  // view crosses ±180°, each built once: most views never need one, and each costs its own
  // coordinates and SVG paths.
  const built = new Set<number>();
  const addCopy = (turn: number): void => {
    if (built.has(turn)) return;
    built.add(turn);
    const dx = turn * 360;
    const moved = (line: [number, number][]): Position[] => line.map(([x, y]) => [x + dx, y]);
    const features: Feature[] = [
      { type: 'Feature', properties: { kind: 'land' }, geometry: { type: 'MultiPolygon', coordinates: polygons.map((p) => p.map(moved)) } },
      { type: 'Feature', properties: { kind: 'borders' }, geometry: { type: 'MultiLineString', coordinates: lines.map(moved) } },
    ];
    layer.addData({ type: 'FeatureCollection', features } as FeatureCollection);
  };
  addCopy(0);
  const copiesInView = (e: { target: L.Map }): void => {
    const b = e.target.getBounds();
    // a view a whole world wide or more shows a few copies; never build more than three either side
    const from = Math.max(-3, Math.floor((b.getWest() + 180) / 360));
    const to = Math.min(3, Math.floor((b.getEast() + 180) / 360));
    for (let turn = from; turn <= to; turn++) addCopy(turn);
  };
  layer.on('add', () => {
    const map = (layer as unknown as { _map?: L.Map })._map;
    if (!map) return;
    map.on('moveend', copiesInView);
    copiesInView({ target: map });
  });
  layer.on('remove', (e) => (e.target as { _map?: L.Map })._map?.off('moveend', copiesInView));
  return Object.assign(layer, { restyle });
}

/** The pane under the tiles' overlays where the offline outlines live. */
export function addOfflinePane(map: L.Map): void {
  const pane = map.createPane('eoOffline');
  pane.style.zIndex = '150';
  pane.style.pointerEvents = 'none';
}
