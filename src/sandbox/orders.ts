/**
 * Order requests: validation, feasibility and pricing. Used by `POST /v0/orders` (dry run or
 * not) and by the seeded world, so seeded orders are priced exactly like new ones.
 *
 * Price of an item = billable km² × rate × (images or occurrences), then uplifts:
 * delivery speed (PRIORITY +25 %, RUSH +50 %), and for tasking low cloud cover (<= 10 %, +20 %)
 * and low off-nadir (<= 10°, +15 %). Billable area is at least 25 km² (archive) or 100 km²
 * (tasking).
 */
import type { CloudDelivery, FeasibilityStatus, OrderItemType, Polygon, Uplift, ValidationError } from '../api/records';
import { geodesicArea } from '../geo/area';
import { geometriesIntersect } from '../geo/intersects';
import { HttpError, badRequest, forbidden } from './errors';
import type { ItemRec, OrderRec, State, User } from './state';
import { isoOffset, isoZ, parseTime } from './timefmt';
import { asArray, asEnum, asNumber, asObject, asPolygon, asString, asStringArray, opt, req, type Obj } from './validate';
import { COLLECTION_DEFS } from './world/archive';
import type { World } from './world/world';

export const ARCHIVE_RATES: Record<string, number> = {
  'sentinel-2-l2a': 0.5,
  'landsat-c2-l2': 0.4,
  'pleiades-neo': 12,
  'enmap-l2a': 4,
};
export const TASKING_RATE = 20;
export const MIN_BILLABLE_KM2 = { ARCHIVE: 25, TASKING: 100 } as const;
export const SPEED_UPLIFT: Record<string, number> = { STANDARD: 0, PRIORITY: 25, RUSH: 50 };
export const TASKING_MAX_KM2 = 5000;
const RECURRENCES = ['ONCE', 'WEEKLY', 'MONTHLY'] as const;

export interface OrderCtx {
  user: User;
  now: number;
  world: World;
  state: State;
  newId: () => string;
}

const money = (x: number): number => Math.round(x * 100) / 100;

function readGeometry(v: unknown, field: string): Polygon[] {
  const fc = asObject(v, field);
  if (fc.type !== 'FeatureCollection') throw badRequest(`${field}.type`, 'must be "FeatureCollection"');
  return asArray(fc.features, `${field}.features`, { min: 1, max: 100 }).map((f, i) => {
    const ff = asObject(f, `${field}.features[${i}]`);
    if (ff.type !== 'Feature') throw badRequest(`${field}.features[${i}].type`, 'must be "Feature"');
    return asPolygon(ff.geometry, `${field}.features[${i}].geometry`);
  });
}

function resolveProject(ctx: OrderCtx, id: string | undefined, field: string): string {
  if (id === undefined) return ctx.state.projects.find((p) => p.owner === ctx.user.id)?.id ?? '';
  const p = ctx.state.projects.find((x) => x.id === id);
  if (!p) throw badRequest(field, `no project ${JSON.stringify(id)}`);
  if (p.owner !== ctx.user.id) throw forbidden(`project ${JSON.stringify(id)}`);
  return p.id;
}

function resolveDelivery(ctx: OrderCtx, v: unknown, field: string): CloudDelivery | null {
  if (v === undefined || v === null) return null;
  const o = asObject(v, field);
  const config = req(o, 'config', (x, f) => asString(x, f, { nonEmpty: true, max: 200 }), `${field}.`);
  const path = req(o, 'path', (x, f) => asString(x, f, { max: 1024 }), `${field}.`);
  const store = ctx.state.stores.find((s) => s.id === config && s.owner === ctx.user.id);
  if (!store) throw new HttpError(404, `${field}.config: no store ${JSON.stringify(config)}`, `${field}.config`);
  return { config, path };
}

/** What an item's kind (archive or tasking) decides: its price before uplifts, its dates and its feasibility. */
interface ItemKind {
  type: OrderItemType;
  base: number;
  outcomes: boolean[];
  images: ItemRec['images'];
  bandset: ItemRec['bandset'];
  recurrence: string;
  n: number;
  start: number;
  end: number;
  imageType: string;
  feasibility: FeasibilityStatus;
  /** The OpenAPI's shape: each entry maps a field of this item to its messages. */
  errors: ValidationError[];
}

type Billable = (kind: keyof typeof MIN_BILLABLE_KM2) => number;

/** An archive item: the archive items named, priced per collection, each one checked against the geometry. */
function archiveKind(o: Obj, p: string, polygons: Polygon[], ctx: OrderCtx, billable: Billable): ItemKind {
  const errors: ValidationError[] = [];
  let feasibility: FeasibilityStatus = 'SUCCESS';
  const ids = asStringArray(o.item_ids, `${p}item_ids`, { min: 1, max: 100 });
  const rows = ids.map((id, k) => {
    const r = ctx.world.archive.get(id);
    if (!r) throw badRequest(`${p}item_ids[${k}]`, `no archive item ${JSON.stringify(id)}`);
    return r;
  });
  const base = rows.reduce((s, r) => s + billable('ARCHIVE') * ARCHIVE_RATES[COLLECTION_DEFS[r.c].id], 0);
  const images: ItemRec['images'] = rows.map((r) => ({ geometry: r.geometry as Polygon, item_id: r.id }));
  rows.forEach((r, k) => {
    if (!polygons.some((g) => geometriesIntersect(g, r.geometry))) {
      feasibility = 'FAILED';
      errors.push({ [`item_ids[${k}]`]: [`archive item ${r.id} does not intersect the requested geometry`] });
    }
  });
  const outcomes = rows.map(() => feasibility !== 'FAILED');
  const times = rows.map((r) => r.t);
  const start = Math.min(...times);
  const end = Math.max(...times);
  const n = rows.length;
  const col = COLLECTION_DEFS[rows[0].c].id;
  const imageType = col === 'enmap-l2a' ? 'HYPERSPECTRAL' : col === 'pleiades-neo' ? 'VNIR' : col === 'landsat-c2-l2' ? 'VNIR+SWIR+TIR' : 'VNIR+SWIR';
  return { type: 'ARCHIVE', base, outcomes, images, bandset: null, recurrence: 'ONCE', n, start, end, imageType, feasibility, errors };
}

/** A tasking item: its window, occurrences and bandset, priced per occurrence, feasible within the limits. */
function taskingKind(o: Obj, p: string, ctx: OrderCtx, asked: { areaKm2: number; cloudIn?: number; offIn?: number }, billable: Billable): ItemKind {
  const { areaKm2, cloudIn, offIn } = asked;
  const errors: ValidationError[] = [];
  let feasibility: FeasibilityStatus = 'SUCCESS';
  const recurrence = req(o, 'recurrence', (x, ff) => asEnum(x, ff, RECURRENCES), p);
  const type: OrderItemType = recurrence === 'ONCE' ? 'TASKING' : 'RECURRING';
  const sd = req(o, 'start_date', (x, ff) => asString(x, ff, { max: 64 }), p);
  const ed = req(o, 'end_date', (x, ff) => asString(x, ff, { max: 64 }), p);
  const start = parseTime(sd);
  const end = parseTime(ed);
  if (Number.isNaN(start)) throw badRequest(`${p}start_date`, 'must be an ISO 8601 date-time');
  if (Number.isNaN(end)) throw badRequest(`${p}end_date`, 'must be an ISO 8601 date-time');
  if (start >= end) throw badRequest(`${p}end_date`, 'must be after start_date');
  const n = req(o, 'no_of_occurrences', (x, ff) => asNumber(x, ff, { min: 1, max: 366, integer: true }), p);
  if (recurrence === 'ONCE' && n !== 1) throw badRequest(`${p}no_of_occurrences`, 'must be 1 when recurrence is ONCE');
  const bs = req(o, 'bandset', (x, ff) => asObject(x, ff), p);
  const bandsetId = req(bs, 'bandset_id', (x, ff) => asString(x, ff, { nonEmpty: true, max: 200 }), `${p}bandset.`);
  const set = ctx.world.bandsets.find((b) => b.id === bandsetId);
  if (!set) throw badRequest(`${p}bandset.bandset_id`, `no bandset ${JSON.stringify(bandsetId)}`);
  const bandset: ItemRec['bandset'] = { bandset_id: set.id, bands: set.bands, custom: [] };
  const imageType = set.bands.some((b) => b.wavelength > 1000) ? 'VNIR+SWIR' : set.bands.length === 1 ? 'PAN' : 'VNIR';
  const base = billable('TASKING') * TASKING_RATE * n;
  if (areaKm2 > TASKING_MAX_KM2) {
    feasibility = 'FAILED';
    errors.push({ geometry: [`area ${areaKm2.toFixed(1)} km² exceeds the ${TASKING_MAX_KM2} km² tasking limit`] });
  } else if (end - start < 86_400_000 * n) {
    feasibility = 'FAILED';
    errors.push({ end_date: ['the window leaves less than one day per occurrence'] });
  } else if ((cloudIn ?? 20) < 10 || (offIn ?? 30) < 5) {
    // weak, not invalid: the OpenAPI's validation_errors has no severity, so nothing is added
    feasibility = 'WEAK_SUCCESS';
  }
  const outcomes = Array.from({ length: n }, (_, k) => feasibility === 'SUCCESS' || (feasibility === 'WEAK_SUCCESS' && !(n >= 2 && k === n - 1)));
  return { type, base, outcomes, images: [], bandset, recurrence, n, start, end, imageType, feasibility, errors };
}

/** Validates and prices one item request. */
export function priceItem(raw: unknown, i: number, orderId: string, ctx: OrderCtx): ItemRec {
  const f = `order_items[${i}]`;
  const o: Obj = asObject(raw, f);
  const p = `${f}.`;
  const polygons = req(o, 'geometry', readGeometry, p);
  const project_id = resolveProject(
    ctx,
    opt(o, 'project_id', (x, ff) => asString(x, ff, { nonEmpty: true, max: 200 }), p),
    `${p}project_id`,
  );
  const name = opt(o, 'name', (x, ff) => asString(x, ff, { nonEmpty: true, max: 200 }), p) ?? `Item ${i + 1}`;
  // required by the OpenAPI for every item, tasking and archive alike
  const usecase = req(o, 'usecase', (x, ff) => asString(x, ff, { nonEmpty: true, max: 200 }), p);
  const cloudIn = opt(o, 'cloud_cover', (x, ff) => asNumber(x, ff, { min: 0, max: 100, integer: true }), p);
  const offIn = opt(o, 'off_nadir', (x, ff) => asNumber(x, ff, { min: 0, max: 60, integer: true }), p);
  const speed = opt(o, 'delivery_speed', (x, ff) => asEnum(x, ff, Object.keys(SPEED_UPLIFT)), p) ?? 'STANDARD';
  const cloud_delivery = resolveDelivery(ctx, o.cloud_delivery, `${p}cloud_delivery`);
  const areaKm2 = polygons.reduce((s, g) => s + geodesicArea(g), 0) / 1e6;
  const itemId = ctx.newId();
  const billable = (kind: keyof typeof MIN_BILLABLE_KM2): number => Math.max(MIN_BILLABLE_KM2[kind], areaKm2);
  const kind = o.item_ids !== undefined ? archiveKind(o, p, polygons, ctx, billable) : taskingKind(o, p, ctx, { areaKm2, cloudIn, offIn }, billable);
  const { type, images, bandset, recurrence, n, start, end, imageType, outcomes, errors, feasibility } = kind;
  const base = money(kind.base);
  const uplifts: Uplift[] = [];
  const up = (title: string, subtitle: string, pct: number): void => {
    uplifts.push({ amount: money((base * pct) / 100), item_id: itemId, percentage: pct, subtitle, title });
  };
  if (SPEED_UPLIFT[speed] > 0) up('Delivery speed', `${speed} delivery`, SPEED_UPLIFT[speed]);
  if (type !== 'ARCHIVE' && cloudIn !== undefined && cloudIn <= 10) up('Low cloud cover', `at most ${cloudIn} % cloud`, 20);
  if (type !== 'ARCHIVE' && offIn !== undefined && offIn <= 10) up('Low off-nadir', `at most ${offIn}° off-nadir`, 15);
  const final = money(base + uplifts.reduce((s, u) => s + u.amount, 0));
  const span = (end - start) / n;
  const ts = isoOffset(ctx.now);
  const bandCount = bandset ? bandset.bands.length : type === 'ARCHIVE' ? ctx.world.bandsForArchive(images[0].item_id) : 0;
  return {
    id: itemId,
    order_id: orderId,
    org_id: ctx.user.org_id,
    user_id: ctx.user.id,
    project_id,
    name,
    type,
    status: 'DRAFT',
    payment_status: 'UNPAID',
    feasibility_status: feasibility,
    last_feasibility_check: ts,
    usecase,
    area: money(areaKm2),
    base_amount: base,
    final_amount: final,
    tokens_used: Math.round(final),
    cloud_cover: cloudIn ?? (type === 'ARCHIVE' ? 100 : 20),
    off_nadir: offIn ?? 30,
    number_of_bands: bandCount,
    image_type: imageType,
    delivery_speed: speed,
    recurrence,
    no_of_occurrences: n,
    start_date: isoZ(start),
    end_date: isoZ(end),
    occurrences: Array.from({ length: type === 'ARCHIVE' ? 0 : n }, (_, k) => ({ start: isoZ(start + span * k), end: isoZ(start + span * (k + 1)) })),
    bandset,
    images,
    uplifts,
    cloud_delivery,
    validation_errors: errors,
    transaction_id: '',
    created_at: ts,
    updated_at: ts,
    created_by: ctx.user.id,
    updated_by: ctx.user.id,
    outcomes,
  };
}

export function buildOrder(body: unknown, ctx: OrderCtx): { order: OrderRec; dryRun: boolean } {
  const o = asObject(body, 'body');
  const dryRun =
    opt(o, 'dry_run', (x, f) => {
      if (typeof x !== 'boolean') throw badRequest(f, 'must be a boolean');
      return x;
    }) ?? false;
  const reqs = req(o, 'order_items', (x, f) => asArray(x, f, { min: 1, max: 50 }));
  const id = ctx.newId();
  const items = reqs.map((r, i) => priceItem(r, i, id, ctx));
  const txn = `txn_${id.replace(/-/g, '').slice(0, 20)}`;
  for (const it of items) it.transaction_id = txn;
  return {
    dryRun,
    order: {
      id,
      org_id: ctx.user.org_id,
      user_id: ctx.user.id,
      total_amount: money(items.reduce((s, it) => s + it.final_amount, 0)),
      transaction_id: txn,
      created_by: ctx.user.id,
      t0: ctx.now,
      items,
    },
  };
}
