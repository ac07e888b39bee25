/**
 * The body of `POST /v0/search` in the OpenAPI's form: every satellite with its
 * `collection_id`, cloud cover as an `{id, min, max}` filter of integers (all three
 * required). Pure: used by the map's search and by Create AOI (docs/service-interface.md,
 * "Imagery search").
 */
import { searchCollectionOf } from './normalize';
import type { ImagerySearchRequest, MultiPolygon, Polygon, Satellite } from './records';

export interface ImageryQuery {
  satellites: readonly Satellite[];
  geometry: Polygon | MultiPolygon;
  /** `YYYY-MM-DD`, inclusive; empty means open. */
  from?: string;
  to?: string;
  /** Percent, 0..100. */
  maxCloud?: number;
  limit?: number;
}

export function imagerySearchRequest(q: ImageryQuery): ImagerySearchRequest {
  const today = new Date().toISOString().slice(0, 10);
  const body: ImagerySearchRequest = {
    start_date: `${q.from || '1970-01-01'}T00:00:00Z`,
    end_date: `${q.to || today}T23:59:59Z`,
    satellites: q.satellites.map((s) => {
      const collection = searchCollectionOf(s);
      if (!collection) throw new Error(`The service lists no collection for ${s.name || s.id}, so its imagery cannot be searched.`);
      return { satellite_id: s.id, collection_id: collection };
    }),
    geometry: q.geometry,
  };
  if (q.limit !== undefined) body.limit = Math.max(1, Math.min(10_000, Math.round(q.limit)));
  if (q.maxCloud !== undefined) {
    body.filters = [{ id: 'eo:cloud_cover', min: 0, max: Math.max(0, Math.min(100, Math.ceil(q.maxCloud))) }];
  }
  return body;
}
