/**
 * The map webview's imagery pane read back as pixels (the webview tests' page, or the e2e
 * tier's webview frame): what the oracles of the true-colour tests compare.
 */
import type { Frame } from 'playwright-core';
/** The imagery pane as drawn, and where it lies: the map's size and its bounds in EPSG:3857 metres. */
export interface ImageryView {
  width: number;
  height: number;
  /** RGBA, row-major, `width` × `height`. */
  rgba: Uint8Array;
  bounds: [number, number, number, number];
}

/**
 * Every imagery tile image composited as the page places it (scaled as shown, no smoothing),
 * over the whole map, nothing else: what test/webview/imageryPixels.ts `imageryPixelAt` reads at one point, everywhere.
 */
export async function imageryView(page: Pick<Frame, 'evaluate'>): Promise<ImageryView> {
  const got = await page.evaluate(() => {
    type LatLng = { lat: number; lng: number };
    const eo = (
      window as unknown as {
        eoMap: {
          map: {
            getSize(): { x: number; y: number };
            containerPointToLatLng(p: [number, number]): LatLng;
            options: { crs: { project(ll: LatLng): { x: number; y: number } } };
          };
        };
      }
    ).eoMap;
    const size = eo.map.getSize();
    const mapRect = document.getElementById('map')!.getBoundingClientRect();
    const canvas = document.createElement('canvas');
    canvas.width = size.x;
    canvas.height = size.y;
    const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
    ctx.imageSmoothingEnabled = false;
    for (const img of Array.from(document.querySelectorAll('.leaflet-eo-imagery-pane img.leaflet-tile')) as HTMLImageElement[]) {
      if (!img.naturalWidth || img.style.display === 'none') continue;
      const r = img.getBoundingClientRect();
      ctx.drawImage(img, r.left - mapRect.left, r.top - mapRect.top, r.width, r.height);
    }
    const data = ctx.getImageData(0, 0, size.x, size.y).data;
    let bin = '';
    for (let i = 0; i < data.length; i += 0x8000) bin += String.fromCharCode(...data.subarray(i, i + 0x8000));
    const crs = eo.map.options.crs;
    const nw = crs.project(eo.map.containerPointToLatLng([0, 0]));
    const se = crs.project(eo.map.containerPointToLatLng([size.x, size.y]));
    return { width: size.x, height: size.y, b64: btoa(bin), bounds: [nw.x, se.y, se.x, nw.y] as [number, number, number, number] };
  });
  return { width: got.width, height: got.height, rgba: new Uint8Array(Buffer.from(got.b64, 'base64')), bounds: got.bounds };
}

/** The mean colour of what the picture draws (its opaque pixels), and how many it draws. */
export function meanColour(rgba: Uint8Array): { rgb: [number, number, number]; n: number } {
  const sum = [0, 0, 0];
  let n = 0;
  for (let o = 0; o < rgba.length; o += 4) {
    if (rgba[o + 3] === 0) continue;
    sum[0] += rgba[o];
    sum[1] += rgba[o + 1];
    sum[2] += rgba[o + 2];
    n++;
  }
  return { rgb: [sum[0] / Math.max(1, n), sum[1] / Math.max(1, n), sum[2] / Math.max(1, n)], n };
}
