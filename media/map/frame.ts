/**
 * Where the map's floating parts go, so that none ever covers another: Leaflet's four control
 * corners and two cells of our own are laid out as one CSS grid over the map (map.css,
 * `.eo-frame`):
 *
 *     tl  tc  tc  tr        tl: zoom, drawing tools       tr: layers, imagery tools, inspector,
 *     bl  bl  .   tr            tc: compare bar, time slider   histogram (scrolls when tall)
 *     bl  bl  bc  br        bl: index chart, imagery list br: legends, attribution
 *                               (both scroll)
 *                           bc: notices
 *
 * Each part stays in its cell, and a cell's content scrolls rather than spilling into another.
 * The top centre spans the imagery list's width too, so the time slider gets the room between
 * the drawing tools and the imagery tools.
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

/** The cell at the top, between the corners: the compare bar and the time slider. */
export function topCentre(map: Leaflet.Map): HTMLElement {
  return cells(map).topCentre;
}

/** The cell at the bottom, between the imagery list and the legends: notices. */
export function bottomCentre(map: Leaflet.Map): HTMLElement {
  return cells(map).bottomCentre;
}
