/**
 * Where the map's parts go, so that none ever covers another. The tools (compare, time slider,
 * imagery layers, legends, inspector, histogram, index chart) live in the dock beside the map
 * (media/map/dock.ts), a section each. Over the map float only its own small controls, in
 * Leaflet's four corners and a cell of our own, laid out as one CSS grid (map.css, `.eo-frame`):
 *
 *     tl  tc  tr        tl: zoom, drawing tools    tr: basemaps and layers, imagery tools
 *     bl  bc  bc        bc: notices, a row of their own above the attribution
 *     bl  br  br        br: attribution
 *
 * Each part stays in its cell, and a cell's content scrolls rather than spilling into another.
 */
import type * as Leaflet from 'leaflet';

/** The cells, found in the map's DOM (the imagery chunk is a bundle of its own: no shared module state). */
function cells(map: Leaflet.Map): { topCentre: HTMLElement; bottomCentre: HTMLElement } {
  const root = map.getContainer();
  const found = {
    topCentre: root.querySelector<HTMLElement>('.eo-top-centre'),
    bottomCentre: root.querySelector<HTMLElement>('.eo-bottom-centre'),
  };
  if (found.topCentre && found.bottomCentre) return { topCentre: found.topCentre, bottomCentre: found.bottomCentre };
  const container = root.querySelector<HTMLElement>(':scope > .leaflet-control-container');
  const topCentre = document.createElement('div');
  topCentre.className = 'eo-top-centre';
  const bottomCentre = document.createElement('div');
  bottomCentre.className = 'eo-bottom-centre';
  if (container) {
    container.classList.add('eo-frame');
    container.append(topCentre, bottomCentre);
  } else {
    root.append(topCentre, bottomCentre);
  }
  return { topCentre, bottomCentre };
}

/** Lays the map's controls out in the grid (once per map). */
export function layoutFrame(map: Leaflet.Map): void {
  cells(map);
}

/** The dock's sections, one per tool (media/map/dock.ts). */
export type DockSlot = 'compare' | 'timeline' | 'layers' | 'legend' | 'inspector' | 'histogram' | 'series';

/**
 * Where a tool goes: its section of the dock. A page without a dock (none today) would show the
 * tool at the map's top centre rather than nowhere.
 */
export function dockSlot(map: Leaflet.Map, slot: DockSlot): HTMLElement {
  return document.querySelector<HTMLElement>(`#eo-dock [data-slot="${slot}"] > .body`) ?? cells(map).topCentre;
}

/** The cell at the bottom, between the imagery list and the legends: notices. */
export function bottomCentre(map: Leaflet.Map): HTMLElement {
  return cells(map).bottomCentre;
}

/**
 * The dock and the search panel come and go, and the panel resizes: the map follows, keeping its
 * centre exactly. Only on a real change: invalidateSize forgets the centre it was given, and its
 * pan (like an unanimated setView) rounds the shift to a pixel, so the centre would drift.
 */
export function followSize(map: Leaflet.Map): void {
  const el = map.getContainer();
  new ResizeObserver(() => {
    const size = map.getSize();
    if (size.x === el.clientWidth && size.y === el.clientHeight) return;
    const centre = map.getCenter();
    map.invalidateSize({ pan: false });
    // `reset` (in Leaflet's setView, not in its typings) sets the view as given, with no rounded pan
    map.setView(centre, map.getZoom(), { reset: true } as Leaflet.ZoomPanOptions);
  }).observe(el);
}
