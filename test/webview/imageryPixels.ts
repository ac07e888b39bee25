/** What the map webview's imagery pane and layer list show, read from the page for the imagery suites. */
import type { Harness } from './harness';
import { waitUntil } from '../support/waitUntil';

/**
 * The imagery pane's pixel at a lon/lat (RGBA): the topmost tile image there with a visible
 * pixel, read through a 1 × 1 canvas (tiles are images, media/map/imagery/bmp.ts); [0, 0, 0, 0]
 * where nothing is drawn.
 */
export async function imageryPixelAt(h: Harness, lonlat: [number, number]): Promise<[number, number, number, number]> {
  return h.page.evaluate(([lon, lat]) => {
    const map = (window as unknown as { eoMap: { map: { latLngToContainerPoint(ll: [number, number]): { x: number; y: number } } } }).eoMap.map;
    const pt = map.latLngToContainerPoint([lat, lon]);
    const mapRect = document.getElementById('map')!.getBoundingClientRect();
    const x = mapRect.left + pt.x;
    const y = mapRect.top + pt.y;
    const probe = document.createElement('canvas').getContext('2d', { willReadFrequently: true })!;
    for (const c of Array.from(document.querySelectorAll('.leaflet-eo-imagery-pane img.leaflet-tile')) as HTMLImageElement[]) {
      const r = c.getBoundingClientRect();
      if (!c.naturalWidth || x < r.left || x >= r.right || y < r.top || y >= r.bottom) continue;
      probe.clearRect(0, 0, 1, 1);
      probe.drawImage(c, Math.floor(((x - r.left) * c.naturalWidth) / r.width), Math.floor(((y - r.top) * c.naturalHeight) / r.height), 1, 1, 0, 0, 1, 1);
      const d = probe.getImageData(0, 0, 1, 1).data;
      if (d[3] > 0) return [d[0], d[1], d[2], d[3]] as [number, number, number, number];
    }
    return [0, 0, 0, 0] as [number, number, number, number];
  }, lonlat);
}

/**
 * What the page shows at a lon/lat (RGB), everything composited: a screenshot of that one
 * pixel, decoded in the page. Unlike `imageryPixelAt` it sees whatever lies over the imagery
 * (footprint fills, outlines, controls).
 */
export async function screenPixelAt(h: Harness, lonlat: [number, number]): Promise<[number, number, number]> {
  const at = await h.page.evaluate(([lon, lat]) => {
    const map = (window as unknown as { eoMap: { map: { latLngToContainerPoint(ll: [number, number]): { x: number; y: number } } } }).eoMap.map;
    const pt = map.latLngToContainerPoint([lat, lon]);
    const mapRect = document.getElementById('map')!.getBoundingClientRect();
    return { x: Math.round(mapRect.left + pt.x), y: Math.round(mapRect.top + pt.y) };
  }, lonlat);
  const png = await h.page.screenshot({ clip: { x: at.x, y: at.y, width: 1, height: 1 } });
  return h.page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = document.createElement('canvas').getContext('2d', { willReadFrequently: true })!;
    c.drawImage(img, 0, 0);
    const d = c.getImageData(0, 0, 1, 1).data;
    return [d[0], d[1], d[2]] as [number, number, number];
  }, png.toString('base64'));
}

/** Waits until the layer's row says it is done (ready or error) and returns its state and text. */
export async function layerSettled(h: Harness, id: string, timeoutMs = 20000): Promise<{ state: string; text: string }> {
  const row = h.page.locator(`.eo-imagery-row[data-id="${id}"]`);
  await row.waitFor({ timeout: timeoutMs });
  await waitUntil(
    h.page,
    (rid) => {
      const r = document.querySelector(`.eo-imagery-row[data-id="${rid}"]`) as HTMLElement | null;
      return r && (r.dataset.state === 'ready' || r.dataset.state === 'error');
    },
    id,
    { timeout: timeoutMs },
  );
  return row.evaluate((r) => ({ state: (r as HTMLElement).dataset.state ?? '', text: r.querySelector('.status')?.textContent ?? '' }));
}
