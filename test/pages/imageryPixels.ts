/**
 * What the map's imagery pane shows at a lon/lat: the topmost drawn pixel of its tiles there
 * (RGBA), or [0, 0, 0, 0]. The integration tests ask it through the test page to compare
 * colours with what a file's properties declare.
 */
import type * as Leaflet from 'leaflet';
import { drawnTiles } from '../../media/map/imagery/drawnTiles';

let probe: CanvasRenderingContext2D | null | undefined;

/** One pixel of a tile, read through a 1 × 1 canvas. */
function pixelOf(t: HTMLImageElement | HTMLCanvasElement, px: number, py: number): Uint8ClampedArray | undefined {
  if (probe === undefined) {
    const c = document.createElement('canvas');
    c.width = c.height = 1;
    probe = c.getContext('2d', { willReadFrequently: true });
  }
  if (!probe) return undefined;
  probe.clearRect(0, 0, 1, 1);
  probe.drawImage(t, px, py, 1, 1, 0, 0, 1, 1);
  return probe.getImageData(0, 0, 1, 1).data;
}

export function imageryPixelsAt(map: Leaflet.Map, pane: HTMLElement, points: readonly [number, number][]): [number, number, number, number][] {
  const mapRect = map.getContainer().getBoundingClientRect();
  const tiles = drawnTiles(pane).reverse();
  return points.map(([lon, lat]) => {
    const pt = map.latLngToContainerPoint([lat, lon]);
    const x = mapRect.left + pt.x;
    const y = mapRect.top + pt.y;
    for (const t of tiles) {
      if ((t.closest('.leaflet-layer') as HTMLElement | null)?.style.display === 'none') continue;
      const r = t.getBoundingClientRect();
      if (x < r.left || x >= r.right || y < r.top || y >= r.bottom || !r.width || !r.height) continue;
      const w = t instanceof HTMLImageElement ? t.naturalWidth : t.width;
      const h = t instanceof HTMLImageElement ? t.naturalHeight : t.height;
      const d = pixelOf(t, Math.floor(((x - r.left) * w) / r.width), Math.floor(((y - r.top) * h) / r.height));
      if (d && d[3] > 0) return [d[0], d[1], d[2], d[3]];
    }
    return [0, 0, 0, 0];
  });
}
