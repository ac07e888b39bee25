/**
 * What the imagery pane shows at a lon/lat: the topmost drawn pixel of its tile canvases
 * there (RGBA), or [0, 0, 0, 0]. The integration tests ask this through the extension to
 * compare colours with what a file's properties declare.
 */
import type * as Leaflet from 'leaflet';

export function imageryPixelsAt(map: Leaflet.Map, pane: HTMLElement, points: readonly [number, number][]): [number, number, number, number][] {
  const mapRect = map.getContainer().getBoundingClientRect();
  const canvases = (Array.from(pane.querySelectorAll('canvas')) as HTMLCanvasElement[]).reverse();
  return points.map(([lon, lat]) => {
    const pt = map.latLngToContainerPoint([lat, lon]);
    const x = mapRect.left + pt.x;
    const y = mapRect.top + pt.y;
    for (const c of canvases) {
      if ((c.closest('.leaflet-layer') as HTMLElement | null)?.style.display === 'none') continue;
      const r = c.getBoundingClientRect();
      if (x < r.left || x >= r.right || y < r.top || y >= r.bottom || !r.width || !r.height) continue;
      const px = Math.floor(((x - r.left) * c.width) / r.width);
      const py = Math.floor(((y - r.top) * c.height) / r.height);
      const d = c.getContext('2d')?.getImageData(px, py, 1, 1).data;
      if (d && d[3] > 0) return [d[0], d[1], d[2], d[3]];
    }
    return [0, 0, 0, 0];
  });
}
