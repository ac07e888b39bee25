// Moves the map webview's Leaflet map from a test or a benchmark (a webview harness's page or
// the workbench's webview frame). One place for it because Leaflet's fitBounds, setView and
// panBy return the map, and a page function that hands it back has Playwright serialize it to
// Node whole (thousands of footprints' typed arrays, decoded tiles): seconds per call.
import type { Frame } from 'playwright-core';

type LatLng = [number, number];

/** Where to move: one of Leaflet's calls, its options passed as given (none: Leaflet's defaults). */
export type MapMove =
  { fitBounds: [LatLng, LatLng]; options?: object } | { setView: LatLng; zoom: number; options?: object } | { panBy: [number, number]; options?: object };

interface LeafletMap {
  fitBounds(b: [LatLng, LatLng], o?: object): unknown;
  setView(c: LatLng, z: number, o?: object): unknown;
  panBy(p: [number, number], o?: object): unknown;
}

/** Runs the move in the page (a webview harness's `page`, or a workbench webview frame). */
export async function moveMap(target: Pick<Frame, 'evaluate'>, move: MapMove): Promise<void> {
  await target.evaluate((m: MapMove) => {
    const map = (window as unknown as { eoMap: { map: LeafletMap } }).eoMap.map;
    // nothing returned: what these calls return is the map itself
    if ('fitBounds' in m) map.fitBounds(m.fitBounds, m.options);
    else if ('setView' in m) map.setView(m.setView, m.zoom, m.options);
    else map.panBy(m.panBy, m.options);
  }, move);
}
