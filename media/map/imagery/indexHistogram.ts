/**
 * The histogram of an index layer's values (an expression over bands, drawn through a colour
 * map) over the view's window, from the tiles already decoded. A pixel counts where the layer
 * draws it: no input band is no-data and the expression gives a finite number.
 */
import type * as Leaflet from 'leaflet';
import { compileIndexExpression } from '../../../src/api/indexExpression';
import type { ImageryBand } from '../../../src/panels/imagery/protocol';
import type { ImageryLayerHandle } from './imageryLayer';
import { binValues, eachWindowPixel, windowTiles, type WindowHistogram } from './pixelRead';

export async function windowIndexHistogram(handle: ImageryLayerHandle, map: Leaflet.Map, bins: number): Promise<WindowHistogram | undefined> {
  const r = handle.spec.render;
  if (r.kind !== 'index') return undefined;
  const compiled = compileIndexExpression(r.expression);
  if ('error' in compiled) return undefined;
  const w = await windowTiles(handle, map);
  if (!w) return undefined;
  const meta: ImageryBand[] = handle.spec.bands.length ? handle.spec.bands : Array.from({ length: w.cog.bandCount }, (_, i) => ({ name: `Band ${i + 1}` }));
  const inputs = compiled.bands.map((name) => {
    const b = meta.findIndex((m) => m.name === name);
    return { slot: w.samples.indexOf(b), scale: meta[b]?.scale ?? 1, offset: meta[b]?.offset ?? 0 };
  });
  if (inputs.some((i) => i.slot < 0)) return undefined;
  // the no-data rule of the drawing (pixels.ts): the first input band's value, else the file's
  const nodata = meta[meta.findIndex((m) => m.name === compiled.bands[0])]?.nodata ?? w.cog.nodata;
  const vals = new Float64Array(inputs.length);
  const each = (fn: (v: number) => void) => eachWindowPixel(w, (t, i) => {
    for (let k = 0; k < inputs.length; k++) {
      const raw = t.bands[inputs[k].slot][i];
      if (raw === nodata || raw !== raw) return;
      vals[k] = raw * inputs[k].scale + inputs[k].offset;
    }
    const v = compiled.evaluate(vals);
    if (Number.isFinite(v)) fn(v);
  });
  return { level: w.level, window: w.window, missing: w.missing, bands: [{ name: r.legendTitle, ...binValues(each, bins) }] };
}
