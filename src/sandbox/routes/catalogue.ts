/** Satellites, imagery search (cursor paging), indices, bandsets and blocks. */
import { createHash } from 'node:crypto';
import type { ExpressionType, Geometry, Index } from '../../api/records';
import { HttpError, badRequest, conflict, notFound } from '../errors';
import type { Req, Route } from '../router';
import { isoZ, parseTime } from '../timefmt';
import { asArray, asEnum, asNumber, asObject, asPolygon, asString, checkSearchVertices, opt, pageParams, req } from '../validate';
import { parseIndexExpression } from '../../api/indexExpression';
import { toFeature } from '../world/archive';
import { toBlockRecord } from '../world/blocks';
import { satelliteById } from '../world/satellites';
import { onlyParams, page } from './common';

const FILTER_FIELDS = ['eo:cloud_cover', 'view:off_nadir', 'view:sun_elevation', 'gsd'];
const EXPRESSION_TYPES: ExpressionType[] = ['composite', 'grayscale', 'index'];

function readSearchGeometry(v: unknown, field: string): Geometry {
  // Each candidate row is tested against every vertex, as in the archive search.
  checkSearchVertices(v, field);
  const o = asObject(v, field);
  if (o.type === 'MultiPolygon') {
    const polys = asArray(o.coordinates, `${field}.coordinates`, { min: 1, max: 100 }).map(
      (c, i) => asPolygon({ type: 'Polygon', coordinates: c }, `${field}.coordinates[${i}]`).coordinates,
    );
    return { type: 'MultiPolygon', coordinates: polys };
  }
  return asPolygon(v, field);
}

function imagerySearch(r: Req): { status: number; json: unknown } {
  const b = asObject(r.body, 'body');
  const sd = req(b, 'start_date', (v, f) => asString(v, f, { max: 64 }));
  const ed = req(b, 'end_date', (v, f) => asString(v, f, { max: 64 }));
  const from = parseTime(sd);
  const to = parseTime(ed);
  if (Number.isNaN(from)) throw badRequest('start_date', 'must be an ISO 8601 date or date-time');
  if (Number.isNaN(to)) throw badRequest('end_date', 'must be an ISO 8601 date or date-time');
  if (from > to) throw badRequest('end_date', 'must not be before start_date');
  const sats = req(b, 'satellites', (v, f) => asArray(v, f, { min: 1, max: 10 })).map((x, i) => {
    const o = asObject(x, `satellites[${i}]`);
    const id = req(o, 'satellite_id', (v, f) => asString(v, f, { nonEmpty: true, max: 100 }), `satellites[${i}].`);
    const sat = satelliteById(id);
    if (!sat) throw badRequest(`satellites[${i}].satellite_id`, `no satellite ${JSON.stringify(id)}`);
    // The OpenAPI requires collection_id beside satellite_id (it picks the provider's catalogue).
    const cid = req(o, 'collection_id', (v, f) => asString(v, f, { nonEmpty: true, max: 100 }), `satellites[${i}].`);
    if (!sat.collections.some((c) => c.id === cid)) {
      throw badRequest(`satellites[${i}].collection_id`, `${id} has collection(s) ${sat.collections.map((c) => c.id).join(', ')}`);
    }
    if (!r.user.satellites.includes(sat.id))
      throw new HttpError(403, `satellites[${i}].satellite_id: ${sat.id} is not in your subscription`, `satellites[${i}].satellite_id`);
    return { cid, queryables: sat.collections.find((c) => c.id === cid)?.queryables ?? [] };
  });
  const geometry = req(b, 'geometry', readSearchGeometry);
  const query: Record<string, { gte?: number; lte?: number }> = {};
  (opt(b, 'filters', (v, f) => asArray(v, f, { max: 10 })) ?? []).forEach((x, i) => {
    const o = asObject(x, `filters[${i}]`);
    const id = req(o, 'id', (v, f) => asEnum(v, f, FILTER_FIELDS), `filters[${i}].`);
    // A filter is on a queryable of the searched collections (each lists its own).
    const lacking = sats.filter((x) => !x.queryables.includes(id)).map((x) => x.cid);
    if (lacking.length) throw badRequest(`filters[${i}].id`, `${id} is not a queryable of ${lacking.join(', ')}`);
    // id, min and max are all required, and integers (OpenAPI lens.Filter)
    const min = req(o, 'min', (v, f) => asNumber(v, f, { integer: true }), `filters[${i}].`);
    const max = req(o, 'max', (v, f) => asNumber(v, f, { integer: true }), `filters[${i}].`);
    if (min > max) throw badRequest(`filters[${i}].min`, 'must not exceed max');
    query[id] = { gte: min, lte: max };
  });
  const limit = opt(b, 'limit', (v, f) => asNumber(v, f, { min: 1, max: 10_000, integer: true })) ?? 10;
  const { next_token: tokenIn, limit: _l, ...rest } = b;
  const hash = createHash('sha256').update(JSON.stringify(rest)).digest('base64url').slice(0, 22);
  let offset = 0;
  if (tokenIn !== undefined && tokenIn !== null) {
    const t = r.app.verify(asString(tokenIn, 'next_token', { max: 4096 }));
    if (!t || t.u !== r.user.id || t.h !== hash || typeof t.o !== 'number' || !Number.isInteger(t.o) || t.o < 0) {
      throw badRequest('next_token', 'is not a token this search issued (tampered, foreign, or for a different query)');
    }
    offset = t.o;
  }
  const result = r.app.world.archive.search({
    intersects: geometry,
    from,
    to: to + (/T/.test(ed) ? 0 : 86_399_999),
    collections: sats.map((x) => x.cid),
    query,
    limit,
    offset,
    count: true,
  });
  // The OpenAPI's shape: items keyed by id (insertion order keeps the ranking), `pagination`
  // with `skip`; plus the interface's `next_token` cursor.
  const items: Record<string, unknown> = {};
  for (const row of result.rows) items[row.id] = toFeature(row, r.app.base);
  return {
    status: 200,
    json: {
      items,
      pagination: { limit, skip: offset, total: result.total ?? result.rows.length },
      next_token: result.hasMore ? r.app.sign({ u: r.user.id, h: hash, o: offset + limit }) : null,
    },
  };
}

function visibleIndices(r: Req): Index[] {
  return [...r.app.world.presets, ...r.app.state.indices.filter((i) => i.user_id === r.user.id)];
}

async function createIndex(r: Req): Promise<{ status: number; json: unknown }> {
  const b = asObject(r.body, 'body');
  const name = req(b, 'name', (v, f) => asString(v, f, { nonEmpty: true, max: 100 }));
  const description = req(b, 'description', (v, f) => asString(v, f, { max: 2000 }));
  const expression = req(b, 'expression', (v, f) => asString(v, f, { nonEmpty: true, max: 1000 }));
  const expressionType = req(b, 'expression_type', (v, f) => asEnum(v, f, EXPRESSION_TYPES));
  const satId = req(b, 'satellite_id', (v, f) => asString(v, f, { nonEmpty: true, max: 100 }));
  const colormap = req(b, 'colormap', (v, f) => asString(v, f, { max: 100 }));
  const rescale = req(b, 'rescale', (v, f) => asArray(v, f, { min: 2, max: 2 })).map((x, i) => asNumber(x, `rescale[${i}]`, { integer: true }));
  const sat = satelliteById(satId);
  if (!sat) throw badRequest('satellite_id', `no satellite ${JSON.stringify(satId)}`);
  const parsed = parseIndexExpression(expression, expressionType);
  if ('error' in parsed) throw badRequest('expression', parsed.error);
  const missing = parsed.bands.filter((band) => !sat.bands.some((x) => x.name === band));
  if (missing.length > 0) throw badRequest('expression', `band(s) ${missing.join(', ')} do not exist on ${sat.id}`);
  if (rescale[0] >= rescale[1]) throw badRequest('rescale', 'min must be smaller than max');
  if (visibleIndices(r).some((i) => i.name.toLowerCase() === name.toLowerCase() && i.satellite_id === sat.id)) {
    throw conflict('name', `an index named ${JSON.stringify(name)} already exists for ${sat.id}`);
  }
  const ts = isoZ(r.now);
  const idx: Index = {
    id: r.app.newId(),
    name,
    description,
    org_id: r.user.org_id,
    user_id: r.user.id,
    satellite_id: sat.id,
    type: 'custom',
    expression,
    expression_type: expressionType,
    bands: parsed.bands,
    colormap,
    rescale,
    created_at: ts,
    updated_at: ts,
  };
  r.app.state.indices.push(idx);
  await r.app.commit();
  return { status: 201, json: idx };
}

export const catalogueRoutes: Route[] = [
  {
    method: 'GET',
    path: '/v0/satellites',
    handler: (r) => {
      onlyParams(r.query, []);
      return { status: 200, json: { satellites: r.app.world.satellites } };
    },
  },
  { method: 'POST', path: '/v0/search', handler: imagerySearch },
  {
    method: 'GET',
    path: '/v0/indices',
    handler: (r) => {
      const { offset, limit } = pageParams(r.query);
      const q = r.query;
      const type = q.get('type');
      if (type !== null && type !== 'custom' && type !== 'preset') throw badRequest('type', 'must be custom or preset');
      const et = q.get('expression_type');
      if (et !== null && !EXPRESSION_TYPES.includes(et as ExpressionType)) throw badRequest('expression_type', `must be one of ${EXPRESSION_TYPES.join(', ')}`);
      const all = visibleIndices(r).filter(
        (i) =>
          (type === null || i.type === type) &&
          (et === null || i.expression_type === et) &&
          (q.get('satellite_id') === null || i.satellite_id === q.get('satellite_id')) &&
          (q.get('index_id') === null || i.id === q.get('index_id')),
      );
      const { items, pagination } = page(all, offset, limit);
      return { status: 200, json: { indices: items, pagination } };
    },
  },
  { method: 'POST', path: '/v0/indices', handler: createIndex },
  { method: 'GET', path: '/v0/bandsets', handler: (r) => ({ status: 200, json: { bandsets: r.app.world.bandsets } }) },
  {
    method: 'GET',
    path: '/v0/blocks',
    handler: (r) => {
      const mode = r.query.get('mode');
      if (mode !== null && mode !== 'insight' && mode !== 'workflow') throw badRequest('mode', 'must be insight or workflow');
      return { status: 200, json: { blocks: r.app.world.blocks.filter((b) => mode === null || b.mode === mode).map(toBlockRecord) } };
    },
  },
  {
    // the interface's path (listed before /v0/blocks/:name, which would otherwise take it)
    method: 'GET',
    path: '/v0/blocks/insights',
    handler: (r) => {
      const name = r.query.get('name');
      const version = r.query.get('version');
      return {
        status: 200,
        json: {
          blocks: r.app.world.blocks
            .filter((b) => b.mode === 'insight' && (name === null || b.spec.name === name) && (version === null || b.spec.version === version))
            .map(toBlockRecord),
        },
      };
    },
  },
  {
    // the OpenAPI's: every version of one block
    method: 'GET',
    path: '/v0/blocks/:name',
    handler: (r) => {
      const versions = r.app.world.blocks.filter((b) => b.spec.name === r.params.name);
      if (versions.length === 0) throw notFound('block', r.params.name);
      return { status: 200, json: { blocks: versions.map(toBlockRecord) } };
    },
  },
  {
    method: 'GET',
    path: '/v0/blocks/:name/versions/:version',
    handler: (r) => {
      const b = r.app.world.blocks.find((x) => x.spec.name === r.params.name && x.spec.version === r.params.version);
      if (!b) throw notFound('block', `${r.params.name} ${r.params.version}`);
      return { status: 200, json: toBlockRecord(b) };
    },
  },
];
