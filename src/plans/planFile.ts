/**
 * An order plan (`*.eoorder.json`): an order as the service takes it (docs/service-interface.md,
 * `POST /v0/orders`), written so that people review it in a pull request: names beside the ids
 * they stand for, one key per line, a scene per line, so that a diff of two versions reads
 * line by line. The file says what the order is; `placed` says what became of it. Pure: no
 * vscode, no I/O.
 */
import { createHash } from 'node:crypto';
import type { FeatureCollection, OrderItemRequest, Polygon } from '../api/records';
import { parseOrderDate } from '../orders/orderDates';
import { collectionOfPolygon } from '../orders/orderGeometry';
import { usecaseOf } from '../orders/usecase';
export { PLAN_FILE_SUFFIX } from '../fileKinds';

/** A record named by its id, with the name people read beside it. */
export interface Ref {
  id: string;
  name?: string;
}

/** An archive scene: its collection and id, with what tells it apart (its date) and where it is (its bbox). */
export interface PlanScene {
  collection: string;
  id: string;
  title?: string;
  acquired?: string;
  /** [west, south, east, north]: checks offline that the scene lies over the item's area. */
  bbox?: [number, number, number, number];
}

interface ItemBase {
  name: string;
  /** The AOI the item is over, when it came from one; its polygon is in `geometry`. */
  aoi?: Ref;
  /** What is ordered over: a Polygon, or a MultiPolygon (archive footprints, one part per scene). */
  geometry?: PlanGeometry;
}

export interface ArchivePlanItem extends ItemBase {
  kind: 'archive';
  scenes: PlanScene[];
}

export interface TaskingPlanItem extends ItemBase {
  kind: 'tasking';
  /** `YYYY-MM-DD` (UTC) or an ISO 8601 date-time. */
  start: string;
  end: string;
  recurrence: string;
  occurrences: number;
  bandset: Ref;
  cloudCover?: number;
  offNadir?: number;
  speed?: string;
}

export type PlanItem = ArchivePlanItem | TaskingPlanItem;
export type PlanGeometry = Polygon | { type: 'MultiPolygon'; coordinates: Polygon['coordinates'][] };

/** What happened when the plan was placed: a second Place, a copy or a revert asks again. */
export interface PlacedRecord {
  order_id: string;
  /** ISO 8601 UTC. */
  at: string;
  amount?: number;
  unit?: string;
  /** The fingerprint of the order request placed (`requestFingerprint`): a later edit shows. */
  request: string;
}

export interface OrderPlan {
  $schema?: string;
  name?: string;
  project: Ref;
  usecase?: string;
  delivery?: { store: Ref; path: string };
  items: PlanItem[];
  placed?: PlacedRecord;
}

/** The geometry as the service takes it: a FeatureCollection of Polygon features. */
export function featuresOf(g: PlanGeometry | undefined, properties: Record<string, unknown> = {}): FeatureCollection<Polygon> {
  if (!g) return { type: 'FeatureCollection', features: [] };
  if (g.type === 'Polygon') return collectionOfPolygon(g, properties);
  return {
    type: 'FeatureCollection',
    features: g.coordinates.map((coordinates) => ({ type: 'Feature', geometry: { type: 'Polygon', coordinates }, properties })),
  };
}

const isoOf = (text: string): string => {
  const d = parseOrderDate(text);
  return d.ok ? d.iso : text;
};

/** The order request the plan makes: the same request the wizards send for the same entries. */
export function requestOf(plan: OrderPlan): OrderItemRequest[] {
  return plan.items.map((item) => {
    const req: OrderItemRequest = {
      project_id: plan.project.id,
      name: item.name,
      usecase: usecaseOf(plan.usecase),
      geometry: featuresOf(item.geometry, item.aoi ? { aoi_id: item.aoi.id } : {}),
    };
    if (item.kind === 'archive') req.item_ids = item.scenes.map((s) => s.id);
    else {
      Object.assign(req, {
        recurrence: item.recurrence,
        start_date: isoOf(item.start),
        end_date: isoOf(item.end),
        no_of_occurrences: item.occurrences,
        bandset: { bandset_id: item.bandset.id },
      });
      if (item.cloudCover !== undefined) req.cloud_cover = item.cloudCover;
      if (item.offNadir !== undefined) req.off_nadir = item.offNadir;
      if (item.speed !== undefined) req.delivery_speed = item.speed;
    }
    if (plan.delivery) req.cloud_delivery = { config: plan.delivery.store.id, path: plan.delivery.path };
    return req;
  });
}

/**
 * A short fingerprint of what an order request buys. Names are left out (renaming an AOI in
 * the file does not change the order); every id, date, number and coordinate counts.
 */
export function requestFingerprint(items: readonly OrderItemRequest[]): string {
  const canonical = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(canonical);
    if (v && typeof v === 'object') {
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
      );
    }
    return v;
  };
  return `sha256:${createHash('sha256')
    .update(JSON.stringify(canonical(items)))
    .digest('hex')
    .slice(0, 16)}`;
}

/** Whether the plan was placed, and whether it still says what was placed. */
export type Placement = { state: 'new' } | { state: 'placed'; placed: PlacedRecord } | { state: 'changed'; placed: PlacedRecord };

export function placementOf(plan: OrderPlan): Placement {
  if (!plan.placed) return { state: 'new' };
  return requestFingerprint(requestOf(plan)) === plan.placed.request ? { state: 'placed', placed: plan.placed } : { state: 'changed', placed: plan.placed };
}

/** How many ids and names of each kind the plan names (for the service checks and completion). */
export function planRefs(plan: OrderPlan): { aois: Ref[]; bandsets: Ref[]; scenes: PlanScene[] } {
  const aois: Ref[] = [];
  const bandsets: Ref[] = [];
  const scenes: PlanScene[] = [];
  for (const item of plan.items) {
    if (item.aoi) aois.push(item.aoi);
    if (item.kind === 'tasking') bandsets.push(item.bandset);
    else scenes.push(...item.scenes);
  }
  return { aois, bandsets, scenes };
}
