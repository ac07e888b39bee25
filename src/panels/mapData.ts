/**
 * Records → map features, and the map's search form → service requests. Pure (no `vscode`),
 * so it is unit-tested; the map panel host only moves the results around.
 */
import type { Aoi, ArchiveItem, ArchiveSearchRequest, Asset, Catalog, Geometry, ImagerySearchRequest, Insight, OrderItem, Satellite } from '../api/records';
import { imagerySearchRequest } from '../api/imagerySearch';
import { searchCollectionOf } from '../api/normalize';
import { ARCHIVE_QUERYABLES, archiveQuery, commonQueryables, imageryFilters } from '../searchFilters';
import type { GeoJsonCollection } from '../api/outputFiles';
import { dateTime, enumLabel, km2 } from '../format';
import { bboxRing, ringToGeoJson, ringToStacBbox } from '../geo/antimeridian';
import type { UnreadableRecord } from '../api/unreadable';
import type { DetailRef, LayerKind, MapFeature, MapSource, SearchPage, SearchParams } from './protocol';
import { isObj } from '../api/shape';

/** The area, or nothing when the record has none (the detail line then leaves it out). */
const areaOf = (m2: number | undefined): string | undefined => (typeof m2 === 'number' && Number.isFinite(m2) ? km2(m2) : undefined);

const join = (...parts: (string | undefined | false)[]): string => parts.filter(Boolean).join(' · ');

export function aoiFeature(a: Aoi): MapFeature {
  return {
    id: a.aoi_id,
    label: a.name || a.aoi_id,
    detail: join(areaOf(a.area_in_sq_m), a.satellite_id, a.status && enumLabel(a.status)),
    geometry: a.geometry,
    centroid: Array.isArray(a.centroid) ? a.centroid : undefined,
    ref: { kind: 'aoi', id: a.aoi_id },
  };
}

export function assetFeature(a: Asset): MapFeature {
  return {
    id: a.id,
    label: a.name || a.id,
    detail: join(a.date, a.asset_type, areaOf(a.area_in_sq_m)),
    geometry: a.geometry,
    ref: { kind: 'asset', aoiId: a.aoi_id, id: a.id },
  };
}

/** One feature per image of the order item (its `images[].geometry`). */
export function orderItemFeatures(oi: OrderItem): MapFeature[] {
  return (oi.images ?? []).map((img, i) => ({
    id: `${oi.id}/${img.item_id || i}`,
    label: oi.name || oi.id,
    detail: join(oi.type && enumLabel(oi.type), oi.status && enumLabel(oi.status), img.item_id),
    geometry: img.geometry,
    ref: { kind: 'orderItem', id: oi.id } as DetailRef,
  }));
}

/** Catalog entries carry a footprint only when the service adds one; undefined otherwise. */
/**
 * A catalog's footprint is its `details`, a STAC item (docs/service-interface.md,
 * "Catalogs"); a top-level `geometry` (the first version's sandbox) is read too.
 */
export function catalogFeature(c: Catalog): MapFeature | undefined {
  const details = c.details as { id?: unknown; geometry?: Geometry } | undefined;
  const geometry = details?.geometry?.type && Array.isArray(details.geometry.coordinates) ? details.geometry : c.geometry;
  if (!geometry) return undefined;
  const itemId = typeof details?.id === 'string' ? details.id : c.item_id;
  return {
    id: c.id,
    label: itemId ?? c.id,
    detail: join(c.delivery_status, c.created_at?.slice(0, 10)),
    geometry,
    ref: { kind: 'catalog', id: c.id },
  };
}

export function archiveItemFeature(item: ArchiveItem): MapFeature {
  const p = item.properties ?? { datetime: null };
  const cloud = p['eo:cloud_cover'];
  // one date format everywhere, with its zone: "2025-06-27 01:10 UTC"
  const when = typeof p.datetime === 'string' ? dateTime(p.datetime) : undefined;
  return {
    id: `${item.collection}/${item.id}`,
    label: item.id,
    detail: join(when, typeof cloud === 'number' && `☁ ${Math.round(cloud)}%`, item.collection),
    geometry: item.geometry ?? bboxGeometry(item.bbox),
    ref: { kind: 'archiveItem', collection: item.collection, id: item.id },
  };
}

function bboxGeometry(b: readonly number[] | undefined): unknown {
  return b && b.length >= 4 ? { type: 'Polygon', coordinates: [bboxRing(b)] } : null;
}

/** The features of a vector insight output, labelled by their class (or name) property. */
export function insightOutputFeatures(run: Pick<Insight, 'id' | 'name' | 'aoi_id'>, output: string, fc: GeoJsonCollection): MapFeature[] {
  return fc.features.map((f, k) => {
    const p = f.properties ?? {};
    const named = [p.class, p.name, p.label].find((x) => typeof x === 'string' && x !== '') as string | undefined;
    return {
      id: `${run.id}/${output}/${k}`,
      label: named ?? `${output} ${k + 1}`,
      detail: `${run.name} › ${output}`,
      geometry: f.geometry,
      ref: { kind: 'insightRun', aoiId: run.aoi_id, id: run.id },
    };
  });
}

// ---------------------------------------------------------------- tree rows and records

export interface MapTarget {
  layer: LayerKind;
  features: MapFeature[];
  sources: MapSource[];
}

/**
 * What "Show on Map" was given: a sidebar row (`{kind, record}`) or a bare record, told apart
 * by its fields. Undefined when it is nothing with a footprint.
 */
export function mapTargetOf(arg: unknown): MapTarget | { reason: string } {
  const row = isObj(arg) && isObj(arg.record) ? arg : undefined;
  const kind = row && typeof row.kind === 'string' ? row.kind : undefined;
  const r = row ? (row.record as Record<string, unknown>) : isObj(arg) ? arg : undefined;
  if (!r) return { reason: 'Pick an AOI, asset, order item, catalog entry or archive item to show on the map.' };
  if (kind === 'aoi' || (typeof r.aoi_id === 'string' && isObj(r.geometry) && 'centroid' in r && !('visualization_id' in r))) {
    const a = r as unknown as Aoi;
    return { layer: 'aois', features: [aoiFeature(a)], sources: [{ kind: 'aoi', id: a.aoi_id }] };
  }
  if (kind === 'asset' || typeof r.visualization_id === 'string') {
    const a = r as unknown as Asset;
    return { layer: 'assets', features: [assetFeature(a)], sources: [{ kind: 'asset', aoiId: a.aoi_id, id: a.id }] };
  }
  if (kind === 'orderItem' || (typeof r.order_id === 'string' && Array.isArray(r.images))) {
    const oi = r as unknown as OrderItem;
    const features = orderItemFeatures(oi);
    if (!features.length) return { reason: `Order item ${oi.id} has no image footprints to show.` };
    return { layer: 'orderItems', features, sources: [{ kind: 'orderItem', id: oi.id }] };
  }
  if (kind === 'catalog' || (typeof r.task_id === 'string' && typeof r.bandset_id === 'string')) {
    const f = catalogFeature(r as unknown as Catalog);
    if (!f) return { reason: `Catalog entry ${String(r.id)} carries no footprint; the service did not send a geometry for it.` };
    return { layer: 'catalogs', features: [f], sources: [{ kind: 'catalog', id: f.id }] };
  }
  if (kind === 'archiveItem' || (r.type === 'Feature' && typeof r.collection === 'string' && typeof r.id === 'string')) {
    const item = r as unknown as ArchiveItem;
    return { layer: 'archiveItems', features: [archiveItemFeature(item)], sources: [{ kind: 'archiveItem', collection: item.collection, id: item.id }] };
  }
  return { reason: 'This row has no footprint to show on the map.' };
}

// ---------------------------------------------------------------- search requests

function datetimeRange(from: string, to: string): string | undefined {
  if (!from && !to) return undefined;
  return `${from ? `${from}T00:00:00Z` : '..'}/${to ? `${to}T23:59:59Z` : '..'}`;
}

/** The STAC search body: a rectangle as `bbox` (west > east across the dateline), a polygon as `intersects`. */
export function archiveSearchBody(p: SearchParams): ArchiveSearchRequest {
  const body: ArchiveSearchRequest = { limit: p.limit };
  if (p.collections.length) body.collections = p.collections;
  if (p.shape === 'rectangle') body.bbox = ringToStacBbox(p.ring);
  else body.intersects = ringToGeoJson(p.ring);
  const dt = datetimeRange(p.from, p.to);
  if (dt) body.datetime = dt;
  const query = archiveQuery(p.filters ?? []);
  if (p.maxCloud !== undefined) query['eo:cloud_cover'] = { lte: p.maxCloud };
  if (Object.keys(query).length) body.query = query;
  body.sortby =
    p.sort === 'cloud-asc'
      ? [{ field: 'properties.eo:cloud_cover', direction: 'asc' }]
      : [{ field: 'properties.datetime', direction: p.sort === 'datetime-asc' ? 'asc' : 'desc' }];
  return body;
}

/** The `POST /v0/search` body, in the OpenAPI's form (imagerySearch.ts). */
export function imagerySearchBody(p: SearchParams, satellites: readonly Satellite[]): ImagerySearchRequest {
  if (p.satellites.length === 0) throw new Error('Pick at least one satellite.');
  const picked = p.satellites.map((id) => satellites.find((x) => x.id === id) ?? { id, name: id, bands: [], collections: [] });
  const body = imagerySearchRequest({ satellites: picked, geometry: ringToGeoJson(p.ring), from: p.from, to: p.to, maxCloud: p.maxCloud, limit: p.limit });
  if (p.filters?.length) body.filters = [...(body.filters ?? []), ...imageryFilters(p.filters)];
  return body;
}

/** The properties a search can filter on: the chosen satellites' queryables in common, or the archive items' view properties. */
export function offeredQueryables(p: Pick<SearchParams, 'kind' | 'satellites'>, satellites: readonly Satellite[]): string[] {
  if (p.kind === 'archive') return [...ARCHIVE_QUERYABLES];
  return commonQueryables(p.satellites.map((id) => queryablesOf(satellites.find((s) => s.id === id))));
}

/** What a satellite's search collection lists as queryable. */
export function queryablesOf(s: Satellite | undefined): string[] {
  if (!s) return [];
  const cid = searchCollectionOf(s);
  return s.collections.find((c) => c.id === cid)?.queryables ?? [];
}

/** Features without a footprint (a `null` geometry): listed, not drawn. */
export const withoutFootprint = (features: readonly MapFeature[]): number => features.filter((f) => f.geometry === null || f.geometry === undefined).length;

/** What a search page says of the results so far that it could not show whole. */
export function searchNotes(noFootprint: number, unreadable: readonly UnreadableRecord[]): Pick<SearchPage, 'noFootprint' | 'unreadable'> {
  return {
    ...(noFootprint > 0 ? { noFootprint } : {}),
    ...(unreadable.length > 0
      ? { unreadable: { count: unreadable.length, reasons: unreadable.slice(0, 10).map((r) => (r.id ? `${r.id}: ${r.reason}` : r.reason)) } }
      : {}),
  };
}
