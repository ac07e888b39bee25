/**
 * A visualization's styling on the service (beyond interface.md; OpenAPI `atlas.*`): save a
 * legend for some dates and one mode (`PUT …/metadata`), roll it back to the service's own
 * (`PATCH …/metadata`), and generate SLD styles for QGIS or GeoServer (`POST …/sld`).
 * docs/service-interface.md, "Visualizations", records the shapes and what we decided.
 */
import { colormapLut } from './colormaps';
import { isObj } from './shape';
import { legendDate, pngDate } from './legend';
import type {
  LegendItemUpdate,
  SldRequest,
  SldResponse,
  VisualizationMetadata,
  VisualizationMetadataRollback,
  VisualizationMetadataUpdate,
  VisualizationMode,
} from './records';
import { ShapeError, describe } from './shape';
import { pathOf, type CallOptions, type Transport } from './transport';

/** Classes a saved colour range is cut into: the service's own legends have five. */
export const LEGEND_CLASSES = 5;

/** `#rrggbb` of the colour map at `t` in 0..1 (viridis when the name is unknown). */
function colourAt(colormap: string, t: number): string {
  const lut = colormapLut(colormap) ?? (colormapLut('viridis') as Uint8ClampedArray);
  const k = Math.max(0, Math.min(255, Math.round(t * 255))) * 3;
  return `#${[lut[k], lut[k + 1], lut[k + 2]].map((c) => c.toString(16).padStart(2, '0')).join('')}`;
}

/** A bound as a label shows it: three significant decimals at most, no trailing zeros. */
function bound(v: number): string {
  return String(Math.round(v * 1000) / 1000);
}

/**
 * A colour range as a legend the service keeps: `classes` equal intervals over [lo, hi], each
 * coloured by the colour map at its middle, labelled by its bounds ("0.2 – 0.4"). Pure.
 */
export function legendFromRange(range: readonly [number, number], colormap: string, classes = LEGEND_CLASSES): LegendItemUpdate[] {
  const [lo, hi] = range;
  if (!Number.isFinite(lo) || !Number.isFinite(hi) || !(hi > lo)) throw new RangeError(`a colour range runs from a lower to a higher value, got ${lo} … ${hi}`);
  if (!Number.isInteger(classes) || classes < 1 || classes > 15) throw new RangeError(`a legend has 1 to 15 classes, got ${classes}`);
  const step = (hi - lo) / classes;
  return Array.from({ length: classes }, (_, k) => {
    const min = k === 0 ? lo : lo + step * k;
    const max = k === classes - 1 ? hi : lo + step * (k + 1);
    return { min, max, color: colourAt(colormap, (k + 0.5) / classes), label: `${bound(min)} – ${bound(max)}` };
  });
}

/** The answer of `PUT …/metadata`: `{legend}` (OpenAPI); also the detail's `{metadata: {legend}}`. */
export function readMetadata(body: unknown): VisualizationMetadata {
  const m = isObj(body) && isObj(body.metadata) ? body.metadata : body;
  if (!isObj(m)) throw new ShapeError(`metadata: expected an object, got ${describe(m)}`);
  if (m.legend !== undefined && m.legend !== null && !isObj(m.legend)) throw new ShapeError(`metadata.legend: expected an object, got ${describe(m.legend)}`);
  return m as VisualizationMetadata;
}

/**
 * The answer of `POST …/sld`: `{sld: {mode: {date: xml}}}` (OpenAPI); also keyed date first,
 * one XML text per mode, or one XML text alone. Always read through `sldFor`.
 */
export function readSld(body: unknown): SldResponse {
  if (!isObj(body)) throw new ShapeError(`sld: expected an object, got ${describe(body)}`);
  const s = body.sld;
  if (typeof s === 'string') return { sld: { theoretical: { '': s }, dynamic: { '': s } } };
  if (!isObj(s)) throw new ShapeError(`sld: expected XML by mode and date, got ${describe(s)}`);
  return body as unknown as SldResponse;
}

const MODES: readonly VisualizationMode[] = ['dynamic', 'theoretical'];

/** The XML for one mode and date (`YYYY-MM-DD`), whichever way the answer nests them; undefined when it has none. */
export function sldFor(res: SldResponse, mode: VisualizationMode, date: string): string | undefined {
  const sld = res.sld as Record<string, unknown>;
  const dateKeys = [pngDate(date), legendDate(pngDate(date)), ''];
  const pick = (m: unknown, keys: readonly string[]): string | undefined => {
    if (typeof m === 'string') return m;
    if (!isObj(m)) return undefined;
    for (const k of keys) if (typeof m[k] === 'string') return m[k] as string;
    return undefined;
  };
  const byMode = pick(sld[mode], dateKeys);
  if (byMode) return byMode;
  for (const k of dateKeys) {
    const byDate = sld[k];
    if (isObj(byDate) && !MODES.some((x) => x === k)) {
      const hit = pick(byDate, [mode]);
      if (hit) return hit;
    }
  }
  return undefined;
}

/** XML that a GIS can read as an SLD: a root element, and that element a StyledLayerDescriptor. Pure. */
export function looksLikeSld(xml: string): boolean {
  const body = xml.replace(/^\uFEFF?\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*/, '');
  return /^<([A-Za-z_][\w.-]*:)?StyledLayerDescriptor[\s>]/.test(body);
}

export class VisualizationStylesApi {
  constructor(private readonly t: Transport) {}

  /** Saves the legend of one mode for the dates given (the other mode is kept). `PUT`, not retried. */
  saveLegend(aoiId: string, visualizationId: string, req: VisualizationMetadataUpdate, o?: CallOptions): Promise<VisualizationMetadata> {
    return this.t.json({ method: 'PUT', path: pathOf`/v0/aois/${aoiId}/visualizations/${visualizationId}/metadata`, body: req }, readMetadata, o);
  }

  /** The service computes the legend of one mode again for the dates given (`PATCH`); answers with the visualization's metadata. */
  rollbackLegend(aoiId: string, visualizationId: string, req: VisualizationMetadataRollback, o?: CallOptions): Promise<VisualizationMetadata> {
    return this.t.json({ method: 'PATCH', path: pathOf`/v0/aois/${aoiId}/visualizations/${visualizationId}/metadata`, body: req }, readMetadata, o);
  }

  /** SLD XML per mode and date. */
  sld(aoiId: string, visualizationId: string, req: SldRequest, o?: CallOptions): Promise<SldResponse> {
    return this.t.json({ method: 'POST', path: pathOf`/v0/aois/${aoiId}/visualizations/${visualizationId}/sld`, body: req }, readSld, o);
  }
}
