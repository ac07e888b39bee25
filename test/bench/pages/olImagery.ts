/**
 * The OpenLayers contender of imagery.bench.ts, bundled by esbuild into the bench page: a
 * Web Mercator map with a WebGL tile layer over `ol/source/GeoTIFF`, as STAC Browser builds
 * it. The stretch is the same per-band min/max the other renderers get (the source's
 * `normalize`, linear, clamped). Proj4 knows the WGS 84 UTM zones, so the source reprojects
 * a Sentinel-2 scene onto the map without a network look-up.
 */
import Map from 'ol/Map';
import View from 'ol/View';
import TileLayer from 'ol/layer/WebGLTile';
import GeoTIFF from 'ol/source/GeoTIFF';
import { fromLonLat, toLonLat } from 'ol/proj';
import { register } from 'ol/proj/proj4';
import proj4 from 'proj4';

for (let zone = 1; zone <= 60; zone++) {
  proj4.defs(`EPSG:${32600 + zone}`, `+proj=utm +zone=${zone} +datum=WGS84 +units=m +no_defs`);
  proj4.defs(`EPSG:${32700 + zone}`, `+proj=utm +zone=${zone} +south +datum=WGS84 +units=m +no_defs`);
}
register(proj4);

export interface OlImageryOptions {
  url: string;
  /** 1-based bands of the file for red, green, blue. */
  bands: [number, number, number];
  /** Per file band (index = band - 1): the stretch's low and high ends. */
  min: number[];
  max: number[];
  nodata: number;
}

let map: Map | undefined;

/** Resolves after the next `rendercomplete`: no tile loading or queued, every layer's renderer ready, no transition running. */
const rendered = (m: Map) => new Promise<void>((r) => m.once('rendercomplete', () => r()));

const bench = {
  /** The map alone, before the timed window (as the Leaflet maps are made before theirs). */
  open(center: [number, number], zoom: number): void {
    map = new Map({ target: 'map', view: new View({ center: fromLonLat([center[1], center[0]]), zoom }) });
    map.renderSync();
  },
  /**
   * Opens the file and shows it: resolves at the first `rendercomplete` after the source is
   * ready (one before that can come while the source still reads the file's header, with
   * nothing of the layer drawn).
   */
  async show(o: OlImageryOptions): Promise<void> {
    if (!map) throw new Error('open() first');
    const m = map;
    // no fade-in (transition 0): Leaflet's tiles count as shown when they load, not when their fade ends
    const src = new GeoTIFF({ sources: [{ url: o.url, bands: o.bands, min: o.min, max: o.max, nodata: o.nodata }], transition: 0 });
    m.addLayer(new TileLayer({ source: src }));
    while (src.getState() === 'loading') await new Promise<void>((r) => src.once('change', () => r()));
    if (src.getState() !== 'ready') throw new Error(`the GeoTIFF source is ${src.getState()}: ${String(src.getError())}`);
    await rendered(m);
  },
  /** A pan by screen pixels or a zoom step, without animation; resolves at the next `rendercomplete`. */
  async move(mv: { pan?: [number, number]; zoom?: number }): Promise<void> {
    if (!map) throw new Error('open() first');
    const view = map.getView();
    const done = rendered(map);
    if (mv.pan) {
      const [x, y] = map.getPixelFromCoordinate(view.getCenter() as number[]);
      view.setCenter(map.getCoordinateFromPixel([x + mv.pan[0], y + mv.pan[1]]));
    } else view.setZoom((view.getZoom() as number) + (mv.zoom ?? 0));
    await done;
  },
  view(): { bounds: number[]; zoom: number; size: number[] } {
    if (!map) throw new Error('open() first');
    const v = map.getView();
    const [x0, y0, x1, y1] = v.calculateExtent(map.getSize());
    return { bounds: [...toLonLat([x0, y0]), ...toLonLat([x1, y1])], zoom: v.getZoom() as number, size: map.getSize() as number[] };
  },
};

(window as unknown as { olImagery: typeof bench }).olImagery = bench;
