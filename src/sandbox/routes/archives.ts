/** Archive collections and items, and the STAC-style search. Errors carry object `details`. */
import type { Geometry, Link, Position, QueryOperator } from '../../api/records';
import { isValidBbox, type BBox } from '../../geo/bbox';
import type { ArchiveQuery } from '../archiveSearch';
import { badRequest, notFound } from '../errors';
import { pacer } from '../pace';
import type { Req, Res, Route } from '../router';
import { parseTime } from '../timefmt';
import {
  asArray,
  asEnum,
  asNumber,
  asObject,
  asPolygon,
  asPosition,
  asString,
  asStringArray,
  checkSearchVertices,
  opt,
  pathId,
  queryInt,
  type Obj,
} from '../validate';
import { COLLECTION_DEFS, toCollection, toFeature } from '../world/archive';
import { thumbnailPng } from '../world/thumbnail';

/** Fixed so that collection records do not change between reads. */
const COLLECTIONS_CREATED = Date.UTC(2023, 0, 15);
const OPS: QueryOperator[] = ['eq', 'neq', 'lt', 'lte', 'gt', 'gte', 'in'];

function readBbox(v: unknown, field: string): BBox {
  if (!isValidBbox(v)) throw badRequest(field, 'must be [west, south, east, north] in degrees, south <= north (west > east crosses the antimeridian)');
  return v;
}

/** Any GeoJSON geometry; multi-part and collection types become their parts. */
function readGeometry(v: unknown, field: string, depth = 0): Geometry[] {
  const o = asObject(v, field);
  const coords = (): unknown[] => asArray(o.coordinates, `${field}.coordinates`, { max: 10_000 });
  switch (o.type) {
    case 'Point':
      return [{ type: 'Point', coordinates: asPosition(o.coordinates, `${field}.coordinates`) }];
    case 'MultiPoint':
      return coords().map((p, i) => ({ type: 'Point', coordinates: asPosition(p, `${field}.coordinates[${i}]`) }));
    case 'LineString':
    case 'MultiLineString': {
      const lines = o.type === 'LineString' ? [o.coordinates] : coords();
      return lines.map((l, i) => {
        const f = o.type === 'LineString' ? `${field}.coordinates` : `${field}.coordinates[${i}]`;
        const pts = asArray(l, f, { min: 2, max: 10_000 }).map((p, j) => asPosition(p, `${f}[${j}]`) as Position);
        return { type: 'LineString', coordinates: pts };
      });
    }
    case 'Polygon':
      return [asPolygon(v, field)];
    case 'MultiPolygon':
      return coords().map((c, i) => asPolygon({ type: 'Polygon', coordinates: c }, `${field}.coordinates[${i}]`));
    case 'GeometryCollection':
      if (depth > 2) throw badRequest(field, 'geometry collections nest too deeply');
      return asArray(o.geometries, `${field}.geometries`, { min: 1, max: 100 }).flatMap((g, i) => readGeometry(g, `${field}.geometries[${i}]`, depth + 1));
    default:
      throw badRequest(`${field}.type`, 'must be a GeoJSON geometry type');
  }
}

/** `instant`, `start/end`, with `..` (or nothing) for an open end. */
export function readDatetime(s: string, field: string): { from?: number; to?: number } {
  const parts = s.split('/');
  if (parts.length > 2) throw badRequest(field, 'must be a date-time or an interval start/end');
  const one = (x: string): number | undefined => {
    if (x === '..' || x === '') return undefined;
    const t = parseTime(x);
    if (Number.isNaN(t)) throw badRequest(field, `${JSON.stringify(x.slice(0, 40))} is not an RFC 3339 date-time`);
    return t;
  };
  if (parts.length === 1) {
    const t = one(parts[0]);
    if (t === undefined) throw badRequest(field, 'an instant cannot be open');
    return { from: t, to: t };
  }
  const from = one(parts[0]);
  const to = one(parts[1]);
  if (from === undefined && to === undefined) throw badRequest(field, 'an interval needs at least one closed end');
  if (from !== undefined && to !== undefined && from > to) throw badRequest(field, 'interval start is after its end');
  return { from, to };
}

function readQuery(v: unknown): ArchiveQuery['query'] {
  const o = asObject(v, 'query');
  const out: NonNullable<ArchiveQuery['query']> = {};
  for (const [prop, opsRaw] of Object.entries(o)) {
    const ops = asObject(opsRaw, `query.${prop}`);
    out[prop] = {};
    for (const [op, val] of Object.entries(ops)) {
      const f = `query.${prop}.${op}`;
      if (!OPS.includes(op as QueryOperator)) throw badRequest(f, `unknown operator; use one of ${OPS.join(', ')}`);
      if (op === 'in') {
        out[prop].in = asArray(val, f, { min: 1, max: 1000 }).map((x, i) => {
          if (typeof x !== 'string' && !(typeof x === 'number' && Number.isFinite(x))) throw badRequest(`${f}[${i}]`, 'must be a string or a number');
          return x;
        });
      } else {
        if (typeof val !== 'string' && typeof val !== 'boolean' && !(typeof val === 'number' && Number.isFinite(val)))
          throw badRequest(f, 'must be a string, number or boolean');
        out[prop][op as QueryOperator] = val;
      }
    }
  }
  return out;
}

function readIntersects(v: unknown, field: string): Geometry[] {
  // Counted before the geometry is read: reading checks every ring for self-intersection.
  checkSearchVertices(v, field);
  return readGeometry(v, field);
}

/**
 * The query and the body of its next-page link. The link is rebuilt from the checked fields
 * only: echoing the raw body copied any unknown (and arbitrarily deep) key into the answer.
 */
function readSearch(body: unknown): { q: ArchiveQuery; raw: Obj } {
  const b = asObject(body, 'body');
  const dt = opt(b, 'datetime', (v, f) => asString(v, f, { max: 100 }));
  const q: ArchiveQuery = {
    bbox: opt(b, 'bbox', readBbox),
    intersects: opt(b, 'intersects', (v, f) => readIntersects(v, f)),
    ids: opt(b, 'ids', (v, f) => asStringArray(v, f)),
    collections: opt(b, 'collections', (v, f) => asStringArray(v, f, { max: 100 })),
    query: opt(b, 'query', readQuery),
    sortby: opt(b, 'sortby', (v, f) =>
      asArray(v, f, { max: 10 }).map((x, i) => {
        const o = asObject(x, `${f}[${i}]`);
        const field = asString(o.field, `${f}[${i}].field`, { nonEmpty: true, max: 100 });
        const direction = o.direction === undefined ? 'asc' : asEnum(o.direction, `${f}[${i}].direction`, ['asc', 'desc'] as const);
        return { field, direction };
      }),
    ),
    limit: opt(b, 'limit', (v, f) => asNumber(v, f, { min: 1, max: 1000, integer: true })) ?? 10,
    offset: opt(b, 'offset', (v, f) => asNumber(v, f, { min: 0, max: 10_000_000, integer: true })) ?? 0,
    ...(dt !== undefined ? readDatetime(dt, 'datetime') : {}),
  };
  if (q.bbox && q.intersects) throw badRequest('intersects', 'give either bbox or intersects, not both');
  const parts = q.intersects === undefined ? undefined : [q.intersects].flat();
  const raw: Obj = {};
  if (q.bbox) raw.bbox = q.bbox;
  if (parts) raw.intersects = parts.length === 1 ? parts[0] : { type: 'GeometryCollection', geometries: parts };
  if (dt !== undefined) raw.datetime = dt;
  if (q.ids) raw.ids = q.ids;
  if (q.collections) raw.collections = q.collections;
  if (q.query) raw.query = q.query;
  if (q.sortby) raw.sortby = q.sortby;
  return { q, raw };
}

/**
 * A page of items as GeoJSON, built and serialised item by item, letting the event loop turn
 * every few milliseconds: a page of 1,000 items takes a few hundred milliseconds (each item's
 * assets describe its scene), which would freeze the extension host that runs the sandbox for
 * Try the Sandbox. The text is what `JSON.stringify` gives for the whole page.
 */
async function featureCollection(r: Req, q: ArchiveQuery, next: Link | undefined): Promise<Res> {
  const result = r.app.world.archive.search(q);
  const links: Link[] = [];
  if (result.hasMore && next) links.push(next);
  const turn = pacer();
  const features: string[] = [];
  for (const row of result.rows) {
    features.push(JSON.stringify(toFeature(row, r.app.base)));
    await turn();
  }
  const rest = JSON.stringify({ links, numberReturned: result.rows.length, context: { returned: result.rows.length, limit: q.limit } });
  return {
    status: 200,
    contentType: 'application/geo+json',
    raw: `{"type":"FeatureCollection","features":[${features.join(',')}],${rest.slice(1)}`,
  };
}

function collectionIndex(r: Req): number {
  const cid = pathId(r.params.cid, 'cid');
  const c = COLLECTION_DEFS.findIndex((d) => d.id === cid);
  if (c < 0) throw notFound('collection', cid);
  return c;
}

export const archiveRoutes: Route[] = [
  {
    method: 'POST',
    path: '/v0/archives/search',
    style: 'archive',
    handler: (r) => {
      const { q, raw } = readSearch(r.body);
      const next: Link = {
        href: `${r.app.base}/v0/archives/search`,
        rel: 'next',
        title: 'Next page',
        type: 'application/geo+json',
        method: 'POST',
        body: { ...raw, limit: q.limit, offset: q.offset + q.limit },
      };
      return featureCollection(r, q, next);
    },
  },
  {
    method: 'GET',
    path: '/v0/archives/collections',
    style: 'archive',
    handler: (r) => ({ status: 200, json: { collections: COLLECTION_DEFS.map((_, c) => toCollection(c, r.app.world.rows, r.app.base, COLLECTIONS_CREATED)) } }),
  },
  {
    method: 'GET',
    path: '/v0/archives/collections/:cid',
    style: 'archive',
    handler: (r) => ({ status: 200, json: toCollection(collectionIndex(r), r.app.world.rows, r.app.base, COLLECTIONS_CREATED) }),
  },
  {
    method: 'GET',
    path: '/v0/archives/collections/:cid/items',
    style: 'archive',
    handler: (r) => {
      const c = collectionIndex(r);
      const qs = r.query;
      const bboxRaw = qs.get('bbox');
      const dt = qs.get('datetime');
      const q: ArchiveQuery = {
        collections: [COLLECTION_DEFS[c].id],
        limit: queryInt(qs, 'limit', 1, 1000) ?? 10,
        offset: queryInt(qs, 'offset', 0, 10_000_000) ?? 0,
        bbox:
          bboxRaw === null
            ? undefined
            : readBbox(
                bboxRaw.split(',').map((x) => (x.trim() === '' ? NaN : Number(x))),
                'bbox',
              ),
        ...(dt !== null ? readDatetime(dt, 'datetime') : {}),
      };
      const params = new URLSearchParams(qs);
      params.set('limit', String(q.limit));
      params.set('offset', String(q.offset + q.limit));
      const next: Link = {
        href: `${r.app.base}/v0/archives/collections/${COLLECTION_DEFS[c].id}/items?${params}`,
        rel: 'next',
        title: 'Next page',
        type: 'application/geo+json',
        method: 'GET',
      };
      return featureCollection(r, q, next);
    },
  },
  {
    method: 'GET',
    path: '/v0/archives/collections/:cid/items/:id',
    style: 'archive',
    handler: (r) => {
      const c = collectionIndex(r);
      const id = pathId(r.params.id, 'id');
      const row = r.app.world.archive.get(id);
      if (!row || row.c !== c) throw notFound('item', id);
      return { status: 200, contentType: 'application/geo+json', json: toFeature(row, r.app.base) };
    },
  },
  {
    // Quick-looks are public, like a provider's thumbnail CDN: no token is sent to asset hosts.
    method: 'GET',
    path: '/assets/:cid/:id/thumbnail.png',
    auth: false,
    handler: async (r) => {
      const c = collectionIndex(r);
      const id = pathId(r.params.id, 'id');
      const row = r.app.world.archive.get(id);
      if (!row || row.c !== c) throw notFound('item', id);
      return { status: 200, raw: await thumbnailPng(row), contentType: 'image/png', headers: { 'cache-control': 'public, max-age=86400' } };
    },
  },
];
