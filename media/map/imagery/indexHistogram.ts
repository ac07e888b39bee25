/**
 * The histogram of an index layer's values (an expression over bands, drawn through a colour
 * map) over the view's window, from the tiles already decoded. Values are computed with the
 * layer's own look (its inputs, expression and no-data rule), so a pixel counts exactly where
 * the layer draws it: no input band is no-data and the expression gives a finite number.
 */
import type * as Leaflet from 'leaflet';
import type { ImageryLayerHandle } from './imageryLayer';
import { binValues, eachWindowPixel, windowTiles, type WindowHistogram } from './pixelRead';

export async function windowIndexHistogram(handle: ImageryLayerHandle, map: Leaflet.Map, bins: number): Promise<WindowHistogram | undefined> {
  const r = handle.spec.render;
  if (r.kind !== 'index') return undefined;
  const w = await windowTiles(handle, map);
  const look = handle.look;
  if (!w || look?.kind !== 'index') return undefined;
  const vals = new Float64Array(look.inputs.length);
  const each = (fn: (v: number) => void) =>
    eachWindowPixel(w, (t, i) => {
      for (let k = 0; k < look.inputs.length; k++) {
        const bv = look.inputs[k];
        const raw = t.bands[bv.slot][i];
        if (raw === look.nodata || raw !== raw) return;
        vals[k] = raw * bv.scale + bv.offset;
      }
      const v = look.evaluate(vals);
      if (Number.isFinite(v)) fn(v);
    });
  return { level: w.level, window: w.window, missing: w.missing, bands: [{ name: r.legendTitle, ...binValues(each, bins) }] };
}
