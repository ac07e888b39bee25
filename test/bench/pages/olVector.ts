/**
 * The OpenLayers contender of map.bench.ts, bundled by esbuild into the bench page: a Web
 * Mercator map with a vector layer (OpenLayers' canvas renderer) over a vector source, the
 * footprints read by `ol/format/GeoJSON`, styled as EO's results (outline 1 px, fill 8 %).
 */
import Map from 'ol/Map';
import View from 'ol/View';
import VectorLayer from 'ol/layer/Vector';
import VectorSource from 'ol/source/Vector';
import GeoJSON from 'ol/format/GeoJSON';
import { Fill, Stroke, Style } from 'ol/style';
import { fromLonLat } from 'ol/proj';

let map: Map | undefined;

const bench = {
  /** The map alone, before the timed window. */
  open(center: [number, number], zoom: number): void {
    map = new Map({ target: 'map', view: new View({ center: fromLonLat([center[1], center[0]]), zoom }) });
    map.renderSync();
  },
  /** Reads the features and adds them on a layer of their own; the map draws them in its next frame. */
  add(collection: unknown, color: string, fill: string): void {
    if (!map) throw new Error('open() first');
    const features = new GeoJSON().readFeatures(collection, { featureProjection: 'EPSG:3857' });
    const source = new VectorSource({ features });
    map.addLayer(new VectorLayer({ source, style: new Style({ stroke: new Stroke({ color, width: 1 }), fill: new Fill({ color: fill }) }) }));
  },
  /** A pan by screen pixels, without animation; the map redraws in its next frame. */
  pan(dx: number, dy: number): void {
    if (!map) throw new Error('open() first');
    const view = map.getView();
    const [x, y] = map.getPixelFromCoordinate(view.getCenter() as number[]);
    view.setCenter(map.getCoordinateFromPixel([x + dx, y + dy]));
  },
};

(window as unknown as { olVector: typeof bench }).olVector = bench;
