/**
 * A visualization's styling (beyond the interface; OpenAPI `atlas.*`): `PUT …/metadata` saves
 * the legend of one mode for some dates (the PNG is then coloured by its classes), `PATCH
 * …/metadata` rolls it back to the computed one, `POST …/sld` writes SLD XML from the legend
 * in force. docs/service-interface.md, "Visualizations", records what we decided.
 */
import type { Index, LegendItem, VisualizationMetadata, VisualizationMode } from '../../api/records';
import { HttpError, badRequest, notFound } from '../errors';
import type { Req, Route } from '../router';
import { sldXml } from '../sld';
import type { AoiRec, VisRec } from '../state';
import { assetView, visView } from '../transitions';
import { asArray, asEnum, asNumber, asObject, asString, opt, pathId, req } from '../validate';
import { legendFor, legendRange } from './aois';
import { ownAoi } from './common';

const MODES = ['dynamic', 'theoretical'] as const satisfies readonly VisualizationMode[];
const COLOUR = /^#[0-9a-fA-F]{6}([0-9a-fA-F]{2})?$/;

function target(r: Req): { aoi: AoiRec; vis: VisRec; idx: Index; dates: string[] } {
  const aoi = ownAoi(r, r.params.aoi_id);
  const visId = pathId(r.params.visualization_id, 'visualization_id');
  const vis = r.app.state.visualizations.find((v) => v.id === visId && v.aoi_id === aoi.aoi_id);
  if (!vis) throw notFound('visualization', visId);
  const idx = [...r.app.world.presets, ...r.app.state.indices.filter((i) => i.user_id === r.user.id)].find((i) => i.id === vis.index_id);
  if (!idx) throw notFound('index', vis.index_id);
  const dates = [...new Set(r.app.state.assets.filter((a) => a.visualization_id === vis.id).map((a) => a.date.replace(/-/g, '_')))].sort();
  return { aoi, vis, idx, dates };
}

/** A date key of the request: `YYYY_MM_DD`, one the visualization has an image on. */
function dateKey(raw: unknown, field: string, dates: readonly string[], visId: string): string {
  const d = asString(raw, field, { nonEmpty: true, max: 20 });
  if (!/^\d{4}_\d{2}_\d{2}$/.test(d)) throw badRequest(field, `must be YYYY_MM_DD, e.g. 2024_05_06, not ${JSON.stringify(d)}`);
  if (!dates.includes(d)) throw new HttpError(404, `${field}: visualization ${visId} has no image on ${d}; its dates are ${dates.join(', ') || 'none'}`, field);
  return d;
}

function checkMode(idx: Index, mode: VisualizationMode, field: string): [number, number] {
  const range = legendRange(idx, mode);
  if (!range) {
    const has = MODES.filter((m) => legendRange(idx, m));
    throw badRequest(
      field,
      has.length ? `${idx.name} has only a ${has.join(' and ')} legend` : `${idx.name} is a ${idx.expression_type} index: it has no legend`,
    );
  }
  return range;
}

/** Shares of the area per class, the same for the same visualization, date and mode. */
function shares(seed: string, n: number): number[] {
  let h = 2166136261;
  for (const c of seed) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  const w = Array.from({ length: n }, (_, k) => 0.5 + (((h >>> (k % 24)) + k * 7919) % 100) / 40);
  const sum = w.reduce((a, b) => a + b, 0);
  return w.map((x) => Math.round((x / sum) * 100_000) / 1000);
}

/** The legends in force: computed, with the saved ones in their place. */
export function legendsInForce(vis: VisRec, idx: Index, dates: readonly string[], areaM2: number): VisualizationMetadata {
  const computed = legendFor(
    idx,
    vis.id,
    dates.map((d) => d.replace(/_/g, '-')),
    areaM2,
  ) ?? { legend: {} };
  const legend = { ...(computed.legend as Record<string, { dynamic?: LegendItem[]; theoretical?: LegendItem[] }>) };
  for (const [date, saved] of Object.entries(vis.legend_overrides ?? {})) legend[date] = { ...legend[date], ...saved };
  return { legend };
}

/** The saved classes for a date (`YYYY-MM-DD` or `YYYY_MM_DD`) and mode, when there are any: the PNG draws them. */
export function savedClasses(vis: VisRec, date: string, mode: VisualizationMode): LegendItem[] | undefined {
  return vis.legend_overrides?.[date.replace(/-/g, '_')]?.[mode];
}

function num(v: unknown, field: string, nullable: boolean): number | null {
  if (v === null && nullable) return null;
  return asNumber(v, field, { min: -1e9, max: 1e9 });
}

/** The classes to keep for one date: checked (ascending, each min below its max); a dynamic legend cut into `bins` equal classes. */
function classesOf(
  raw: unknown[],
  field: string,
  mode: VisualizationMode,
  bins: number | undefined,
  computed: [number, number],
  areaM2: number,
  seed: string,
): LegendItem[] {
  const items = raw.map((x, k) => {
    const f = `${field}[${k}]`;
    const o = asObject(x, f);
    const color = req(o, 'color', (v, ff) => asString(v, ff, { nonEmpty: true, max: 9 }), `${f}.`);
    if (!COLOUR.test(color)) throw badRequest(`${f}.color`, `must be a colour #rrggbb or #rrggbbaa, not ${JSON.stringify(color)}`);
    const label = opt(o, 'label', (v, ff) => asString(v, ff, { max: 100 }), `${f}.`);
    const min = num(o.min, `${f}.min`, mode === 'dynamic');
    const max = num(o.max, `${f}.max`, mode === 'dynamic');
    if (min !== null && max !== null && !(min < max)) throw badRequest(f, `min ${min} must be below max ${max}`);
    return { min, max, color, label };
  });
  let out: { min: number; max: number; color: string; label?: string }[];
  if (mode === 'dynamic') {
    const n = bins as number;
    const lo = items[0].min ?? computed[0];
    const hi = items[items.length - 1].max ?? computed[1];
    if (!(lo < hi)) throw badRequest(field, `the legend must run from a lower to a higher value, got ${lo} … ${hi}`);
    out = Array.from({ length: n }, (_, k) => {
      const it = items[Math.min(k, items.length - 1)];
      return { min: lo + ((hi - lo) * k) / n, max: lo + ((hi - lo) * (k + 1)) / n, color: it.color, label: items.length === n ? it.label : undefined };
    });
  } else {
    out = items.map((it, k) => {
      if (k > 0 && (it.min as number) < (items[k - 1].max as number) - 1e-9)
        throw badRequest(`${field}[${k}].min`, `classes must ascend without overlapping: ${it.min} is below the previous class's max ${items[k - 1].max}`);
      return { min: it.min as number, max: it.max as number, color: it.color, label: it.label };
    });
  }
  const pct = shares(seed, out.length);
  const r3 = (x: number): number => Math.round(x * 1000) / 1000;
  return out.map((c, k) => ({
    min: r3(c.min),
    max: r3(c.max),
    color: c.color,
    label: c.label || `${r3(c.min)} – ${r3(c.max)}`,
    area: Math.round((areaM2 * pct[k]) / 100),
    area_percentage: pct[k],
  }));
}

export const visualizationStyleRoutes: Route[] = [
  {
    method: 'PUT',
    path: '/v0/aois/:aoi_id/visualizations/:visualization_id/metadata',
    handler: async (r) => {
      const { aoi, vis, idx, dates } = target(r);
      const b = asObject(r.body, 'body');
      const mode = req(b, 'visualization_mode', (v, f) => asEnum(v, f, MODES));
      const computed = checkMode(idx, mode, 'visualization_mode');
      const bins = opt(b, 'dynamic_bins', (v, f) => asNumber(v, f, { min: 1, max: 15, integer: true }));
      if (mode === 'dynamic' && bins === undefined) throw badRequest('dynamic_bins', 'is required for the dynamic mode (1 to 15 equal classes)');
      const legend = req(b, 'legend', (v, f) => asObject(v, f));
      const keys = Object.keys(legend);
      if (keys.length === 0) throw badRequest('legend', 'names no date');
      const saved: Record<string, LegendItem[]> = {};
      for (const k of keys) {
        const date = dateKey(k, `legend.${k}`, dates, vis.id);
        const raw = asArray(legend[k], `legend.${k}`, { min: 1, max: 15 });
        saved[date] = classesOf(raw, `legend.${k}`, mode, bins, computed, aoi.area_in_sq_m, `${vis.id}/${date}/${mode}/saved`);
      }
      vis.legend_overrides ??= {};
      for (const [date, classes] of Object.entries(saved)) vis.legend_overrides[date] = { ...vis.legend_overrides[date], [mode]: classes };
      await r.app.commit();
      return { status: 200, json: legendsInForce(vis, idx, dates, aoi.area_in_sq_m) };
    },
  },
  {
    method: 'PATCH',
    path: '/v0/aois/:aoi_id/visualizations/:visualization_id/metadata',
    handler: async (r) => {
      const { aoi, vis, idx, dates } = target(r);
      const b = asObject(r.body, 'body');
      const indexId = req(b, 'index_id', (v, f) => asString(v, f, { nonEmpty: true, max: 200 }));
      if (indexId !== vis.index_id) throw badRequest('index_id', `visualization ${vis.id} shows index ${vis.index_id}, not ${indexId}`);
      const mode = req(b, 'visualization_mode', (v, f) => asEnum(v, f, MODES));
      checkMode(idx, mode, 'visualization_mode');
      const which = req(b, 'dates', (v, f) => asArray(v, f, { min: 1, max: 400 })).map((d, i) => dateKey(d, `dates[${i}]`, dates, vis.id));
      for (const d of which) {
        const o = vis.legend_overrides?.[d];
        if (!o) continue;
        delete o[mode];
        if (!o.dynamic && !o.theoretical) delete vis.legend_overrides?.[d];
      }
      await r.app.commit();
      const assets = r.app.state.assets.filter((a) => vis.asset_ids.includes(a.id)).map((a) => assetView(a, r.now, r.app.base));
      // The detail (OpenAPI `VisualizationDetailResponse`), without what only the sandbox keeps.
      const { legend_overrides: _o, source_ids: _s, ...detail } = visView(vis, assets, r.now) as ReturnType<typeof visView> & Partial<VisRec>;
      return { status: 200, json: { ...detail, index_name: idx.name, metadata: legendsInForce(vis, idx, dates, aoi.area_in_sq_m) } };
    },
  },
  {
    method: 'POST',
    path: '/v0/aois/:aoi_id/visualizations/:visualization_id/sld',
    handler: (r) => {
      const { aoi, vis, idx, dates } = target(r);
      const b = asObject(r.body, 'body');
      const which = req(b, 'dates', (v, f) => asArray(v, f, { min: 1, max: 400 })).map((d, i) => dateKey(d, `dates[${i}]`, dates, vis.id));
      const modes = req(b, 'visualization_modes', (v, f) => asArray(v, f, { min: 1, max: 2 })).map((m, i) => asEnum(m, `visualization_modes[${i}]`, MODES));
      for (const [i, m] of modes.entries()) checkMode(idx, m, `visualization_modes[${i}]`);
      const legend = legendsInForce(vis, idx, dates, aoi.area_in_sq_m).legend as Record<string, Partial<Record<VisualizationMode, LegendItem[]>>>;
      const sld: Record<string, Record<string, string>> = {};
      for (const m of modes) {
        sld[m] = {};
        for (const d of which) {
          const day = d.replace(/_/g, '-');
          sld[m][d] = sldXml({ layer: `${aoi.name} ${idx.name} ${day}`, title: `${idx.name} on ${day} (${m} legend)`, classes: legend[d]?.[m] ?? [] });
        }
      }
      return { status: 200, json: { sld } };
    },
  },
];
