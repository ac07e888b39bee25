/** AOIs (list, create, the singular read path), their assets and visualizations. */
import type { Aoi, ExpressionType, Index, LegendItem, VisualizationLegends, VisualizationMetadata, VisualizationMode, Visualization } from '../../api/records';
import { geodesicArea, polygonCentroid } from '../../geo/area';
import { HttpError, badRequest, conflict, notFound } from '../errors';
import { Rng } from '../prng';
import type { Req, Route } from '../router';
import type { AoiRec } from '../state';
import { isoZ } from '../timefmt';
import { aoiView, assetView, visView } from '../transitions';
import { asArray, asEnum, asNumber, asObject, asPolygon, asString, asStringArray, opt, pageParams, queryList, req } from '../validate';
import { COLLECTION_DEFS } from '../world/archive';
import { makeMosaics, makeVisualization } from '../world/seed';
import { satelliteById } from '../world/satellites';
import { ownAoi, ownProject, page, timeRange } from './common';

export const MAX_AOI_KM2 = 50_000;
const PROVIDERS = ['pixxel', 'planetary'] as const;

function listAois(r: Req): Aoi[] {
  const q = r.query;
  const created = timeRange(q.get('created_at'), 'created_at');
  const updated = timeRange(q.get('updated_at'), 'updated_at');
  const ids = queryList(q, 'aoi_id');
  const name = q.get('aoi_name')?.toLowerCase();
  const projects = queryList(q, 'project_ids');
  for (const pid of projects ?? []) {
    const p = r.app.state.projects.find((x) => x.id === pid);
    // List AOIs declares 404 and no 403: another user's project is simply not found.
    if (!p || p.owner !== r.user.id) throw notFound('project', pid);
  }
  return r.app.state.aois
    .filter((a) => a.user_id === r.user.id)
    .map((a) => aoiView(a, r.now))
    .filter(
      (a) =>
        (!created || created(Date.parse(a.created_at))) &&
        (!updated || updated(Date.parse(a.updated_at))) &&
        (!ids || ids.includes(a.aoi_id)) &&
        (!name || a.name.toLowerCase().includes(name)) &&
        (!projects || projects.includes(a.project_id)),
    )
    .sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : a.aoi_id < b.aoi_id ? -1 : 1));
}

function createAoi(r: Req): AoiRec {
  const b = asObject(r.body, 'body');
  const name = req(b, 'name', (v, f) => asString(v, f, { nonEmpty: true, max: 200 }));
  const description = req(b, 'description', (v, f) => asString(v, f, { max: 2000 }));
  const projectId = req(b, 'project_id', (v, f) => asString(v, f, { nonEmpty: true, max: 200 }));
  const satId = req(b, 'satellite_id', (v, f) => asString(v, f, { nonEmpty: true, max: 200 }));
  const geometry = req(b, 'geometry', asPolygon);
  const provider = req(b, 'provider', (v, f) => asEnum(v, f, PROVIDERS));
  const itemIds = req(b, 'item_ids', (v, f) => asStringArray(v, f, { min: 1, max: 24 }));
  const sat = satelliteById(satId);
  if (!sat) throw badRequest('satellite_id', `no satellite ${JSON.stringify(satId)}; see GET /v0/satellites`);
  const own = sat.collections.map((c) => c.provider);
  if (!own.includes(provider)) throw badRequest('provider', `${sat.id} imagery comes from provider ${own.join(' or ')}, not ${provider}`);
  const area = geodesicArea(geometry);
  if (area / 1e6 > MAX_AOI_KM2) throw badRequest('geometry', `area ${(area / 1e6).toFixed(0)} km² exceeds the ${MAX_AOI_KM2} km² limit`);
  const rows = (itemIds ?? []).map((id, k) => {
    const row = r.app.world.archive.get(id);
    if (!row) throw badRequest(`item_ids[${k}]`, `no archive item ${JSON.stringify(id)}`);
    if (!sat.collections.some((c) => c.id === COLLECTION_DEFS[row.c].id)) {
      throw badRequest(`item_ids[${k}]`, `${id} is not ${sat.name} imagery`);
    }
    return row;
  });
  const project = ownProject(r, projectId, 'project_id');
  if (!r.user.satellites.includes(sat.id)) throw new HttpError(403, `satellite_id: ${sat.id} is not in your subscription`, 'satellite_id');
  if (r.app.state.aois.some((a) => a.project_id === project.id && a.name === name)) {
    throw conflict('name', `an AOI named ${JSON.stringify(name)} already exists in this project`);
  }
  const ts = isoZ(r.now);
  const aoi: AoiRec = {
    aoi_id: r.app.newId(),
    name,
    description,
    satellite_id: sat.id,
    project_id: project.id,
    images: Object.fromEntries(rows.map((x) => [x.id, { collection: COLLECTION_DEFS[x.c].id, datetime: new Date(x.t).toISOString() }])),
    eo_bands: sat.bands.map((x) => x.name),
    geometry,
    progress: 0,
    status: 'started',
    is_favourite: false,
    created_at: ts,
    updated_at: ts,
    user_id: r.user.id,
    area_in_sq_m: Math.round(area * 100) / 100,
    centroid: polygonCentroid(geometry),
    t0: r.now,
  };
  const rng = new Rng(r.now ^ 0x5eed);
  const mosaics = makeMosaics(
    aoi,
    rows.length,
    r.now,
    rng,
    rows.map((x) => x.t),
  );
  for (const m of mosaics) m.id = r.app.newId();
  r.app.state.aois.push(aoi);
  r.app.state.assets.push(...mosaics);
  return aoi;
}

/** Deterministic legend numbers from the visualization id, within the index's rescale. */
const CLASS_COLORS = ['#d7191c', '#fdae61', '#ffffbf', '#a6d96a', '#1a9641'];
const CLASS_LABELS = ['Very low', 'Low', 'Moderate', 'High', 'Very high'];

/**
 * Five equal classes over [lo, hi] with their area shares (OpenAPI `LegendItem`); the
 * shares come from the visualization id, so the same visualization always tells the same.
 */
export function legendItems(lo: number, hi: number, seed: string, areaM2: number): LegendItem[] {
  let h = 0;
  for (const c of seed) h = (Math.imul(h, 31) + c.charCodeAt(0)) >>> 0;
  const rng = new Rng(h);
  const weights = CLASS_COLORS.map(() => rng.range(0.5, 3));
  const sum = weights.reduce((a, b) => a + b, 0);
  const r3 = (x: number): number => Math.round(x * 1000) / 1000;
  return CLASS_COLORS.map((color, k) => {
    const pct = r3((weights[k] / sum) * 100);
    return {
      min: r3(lo + ((hi - lo) * k) / 5),
      max: r3(lo + ((hi - lo) * (k + 1)) / 5),
      color,
      label: CLASS_LABELS[k],
      area: Math.round((areaM2 * pct) / 100),
      area_percentage: pct,
    };
  });
}

/**
 * The legend rules of the interface (preset: dynamic and theoretical; custom `index`:
 * dynamic only; composite/grayscale: none), in the OpenAPI's form: keyed by asset date
 * (`YYYY_MM_DD`). The dynamic range is narrower than the theoretical one, as measured
 * values are.
 */
export function legendFor(idx: Index, visId: string, dates: readonly string[], areaM2: number): VisualizationMetadata | undefined {
  const dynamic = legendRange(idx, 'dynamic');
  if (!dynamic) return undefined;
  const theoretical = legendRange(idx, 'theoretical');
  const legend: Record<string, VisualizationLegends> = {};
  for (const d of [...new Set(dates)].sort()) {
    const key = d.replace(/-/g, '_');
    const entry: VisualizationLegends = { dynamic: legendItems(dynamic[0], dynamic[1], `${visId}/${key}`, areaM2) };
    if (theoretical) entry.theoretical = legendItems(theoretical[0], theoretical[1], `${visId}/${key}/t`, areaM2);
    legend[key] = entry;
  }
  return { legend };
}

/**
 * The values a legend mode spans, or undefined when the index has no such legend: the
 * theoretical one is the index's rescale (preset indices only); the dynamic one, the inner
 * 80 % of it (measured values are narrower), for preset and custom `index` indices. The
 * visualization PNG is coloured over the same range as the legend it is asked for.
 */
export function legendRange(idx: Pick<Index, 'type' | 'expression_type' | 'rescale'>, mode: VisualizationMode): [number, number] | undefined {
  if (idx.type !== 'preset' && idx.expression_type !== 'index') return undefined;
  if (mode === 'theoretical' && idx.type !== 'preset') return undefined;
  const [lo, hi] = [idx.rescale[0] ?? 0, idx.rescale[1] ?? 1];
  return mode === 'theoretical' ? [lo, hi] : [lo + (hi - lo) * 0.1, hi - (hi - lo) * 0.1];
}

export const aoiRoutes: Route[] = [
  {
    method: 'GET',
    path: '/v0/aois',
    handler: (r) => {
      const { offset, limit } = pageParams(r.query);
      const { items, pagination } = page(listAois(r), offset, limit);
      return { status: 200, json: { aois: items, pagination } };
    },
  },
  {
    method: 'POST',
    path: '/v0/aois',
    handler: async (r) => {
      const aoi = createAoi(r);
      await r.app.commit();
      return { status: 201, json: aoiView(aoi, r.now) };
    },
  },
  { method: 'GET', path: '/v0/aoi/:aoi_id', handler: (r) => ({ status: 200, json: aoiView(ownAoi(r, r.params.aoi_id), r.now) }) },
  {
    method: 'GET',
    path: '/v0/aois/:aoi_id/assets',
    handler: (r) => {
      const aoi = ownAoi(r, r.params.aoi_id);
      const { offset, limit } = pageParams(r.query);
      const all = r.app.state.assets.filter((a) => a.aoi_id === aoi.aoi_id).map((a) => assetView(a, r.now, r.app.base));
      const { items, pagination } = page(all, offset, limit);
      return { status: 200, json: { assets: items, pagination } };
    },
  },
  {
    method: 'GET',
    path: '/v0/aois/:aoi_id/visualizations',
    handler: (r) => {
      const aoi = ownAoi(r, r.params.aoi_id);
      const { offset, limit } = pageParams(r.query);
      const q = r.query;
      const f = (k: string): string | null => q.get(k);
      const assets = new Map(r.app.state.assets.filter((a) => a.aoi_id === aoi.aoi_id).map((a) => [a.id, a]));
      const all = r.app.state.visualizations
        .filter((v) => v.aoi_id === aoi.aoi_id)
        .filter(
          (v) =>
            (f('type') === null || v.type === f('type')) &&
            (f('user_id') === null || v.user_id === f('user_id')) &&
            (f('expression_type') === null || v.expression_type === f('expression_type')) &&
            (f('index_id') === null || v.index_id === f('index_id')) &&
            (f('visualization_id') === null || v.id === f('visualization_id')),
        )
        .map((v) =>
          visView(
            v,
            v.asset_ids
              .map((id) => assets.get(id))
              .filter((a) => a !== undefined)
              .map((a) => assetView(a, r.now, r.app.base)),
            r.now,
          ),
        );
      const { items, pagination } = page(all, offset, limit);
      // The OpenAPI's list item: no index name, expression or assets (those are on the detail).
      const listItem = ({ id, aoi_id, index_id, user_id, tenant_id, progress, status, created_at, updated_at }: Visualization) => ({
        id,
        aoi_id,
        index_id,
        user_id,
        tenant_id,
        progress,
        status,
        created_at,
        updated_at,
      });
      return { status: 200, json: { visualization: items.map(listItem), pagination } };
    },
  },
  {
    method: 'POST',
    path: '/v0/aois/:aoi_id/visualizations',
    handler: async (r) => {
      const aoi = ownAoi(r, r.params.aoi_id);
      const b = asObject(r.body, 'body');
      const indexId = req(b, 'index_id', (v, f) => asString(v, f, { nonEmpty: true, max: 200 }));
      const srcIds = req(b, 'src_asset_ids', (v, f) => asArray(v, f, { min: 1, max: 50 })).map((v, i) =>
        asString(v, `src_asset_ids[${i}]`, { nonEmpty: true, max: 200 }),
      );
      opt(b, 'resolution', (v, f) => asNumber(v, f, { min: 0.3, max: 1000 }));
      const idx = [...r.app.world.presets, ...r.app.state.indices.filter((i) => i.user_id === r.user.id)].find((i) => i.id === indexId);
      if (!idx) throw notFound('index', indexId);
      if (idx.satellite_id !== aoi.satellite_id) throw badRequest('index_id', `index is for ${idx.satellite_id} but the AOI uses ${aoi.satellite_id}`);
      const sources = srcIds.map((id) => {
        const a = r.app.state.assets.find((x) => x.id === id && x.aoi_id === aoi.aoi_id);
        if (!a) throw notFound('asset', id);
        if (a.visualization_id !== '') throw badRequest('src_asset_ids', `asset ${id} is a visualization output, not a mosaic`);
        return a;
      });
      const key = [...srcIds].sort().join(',');
      if (r.app.state.visualizations.some((v) => v.aoi_id === aoi.aoi_id && v.index_id === idx.id && [...v.source_ids].sort().join(',') === key)) {
        throw conflict('index_id', 'a visualization of this index over these assets already exists');
      }
      const rec = makeVisualization(
        aoi,
        { ...idx, expression_type: idx.expression_type as ExpressionType, user_id: r.user.id },
        sources.map((s) => assetView(s, r.now)),
        r.now,
        new Rng(r.now),
        r.app.state,
      );
      rec.user_id = r.user.id;
      rec.id = r.app.newId();
      const derived = r.app.state.assets.filter((a) => rec.asset_ids.includes(a.id));
      for (const d of derived) {
        d.visualization_id = rec.id;
        d.id = r.app.newId();
        d.path = d.path.replace(/\/visualizations\/[^/]+\//, `/visualizations/${rec.id}/`);
      }
      rec.asset_ids = derived.map((d) => d.id);
      rec.progress = 0;
      rec.status = 'creating';
      r.app.state.visualizations.push(rec);
      await r.app.commit();
      const view = visView(
        rec,
        derived.map((d) => assetView(d, r.now, r.app.base)),
        r.now,
      );
      const metadata = legendFor(
        idx,
        rec.id,
        derived.map((d) => d.date),
        aoi.area_in_sq_m,
      );
      return { status: 201, json: metadata ? { ...view, metadata } : view };
    },
  },
];
