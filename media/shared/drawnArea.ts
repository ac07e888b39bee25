/**
 * What a layer drew last, in Leaflet's layer points, and whether a pan can keep it. Leaflet's
 * renderers (and ours) draw a margin around the view and, on every `moveend`, draw it all again,
 * though a pan shorter than the margin leaves the view inside what is already drawn: the map
 * pane's move shows it. Redrawing then changed no pixel in view, yet the browser rasterized the
 * whole padded surface again (a 2,560 × 1,600 SVG of the offline outlines, the footprints'
 * 1,920 × 1,200 canvases): with 100,000 footprints at zoom 2, that was most of a pan's frame.
 */
import type * as L from 'leaflet';

export interface DrawnArea {
  zoom: number;
  /** The map's pixel origin then: layer points mean the same place only while it stands. */
  originX: number;
  originY: number;
  /** The map's size then (a resize redraws). */
  width: number;
  height: number;
  /** The drawn surface, layer points. */
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/** The area drawn from `min` to `max` (layer points) in the map's current frame of reference. */
export function drawnArea(map: L.Map, min: L.Point, max: L.Point): DrawnArea {
  const origin = map.getPixelOrigin();
  const size = map.getSize();
  return { zoom: map.getZoom(), originX: origin.x, originY: origin.y, width: size.x, height: size.y, minX: min.x, minY: min.y, maxX: max.x, maxY: max.y };
}

/** Whether `area` still holds the whole view: same zoom, pixel origin and size, the view inside it. */
export function coversView(map: L.Map, area: DrawnArea | undefined): boolean {
  if (!area) return false;
  const origin = map.getPixelOrigin();
  const size = map.getSize();
  if (map.getZoom() !== area.zoom || origin.x !== area.originX || origin.y !== area.originY || size.x !== area.width || size.y !== area.height) return false;
  const tl = map.containerPointToLayerPoint([0, 0]);
  return tl.x >= area.minX && tl.y >= area.minY && tl.x + size.x <= area.maxX && tl.y + size.y <= area.maxY;
}
