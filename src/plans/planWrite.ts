/**
 * Writes order plans: the text layout a diff reads line by line (a key per line; a reference,
 * a scene, a position or a box on one line), and plans made from what the person clicked (the
 * wizards' request and names, an order already placed). Pure: no vscode, no I/O.
 */
import type { FeatureCollection, OrderItemRequest, OrderRecord, Polygon } from '../api';
import type { OrderItem } from '../api/records';
import { geometryBbox } from '../geo/bbox';
import type { OrderPlan, PlanGeometry, PlanItem, PlanScene, Ref } from './planFile';

/** Longer than this, a small object is written over several lines. */
const INLINE_WIDTH = 240;

const isScalar = (v: unknown): boolean => v === null || typeof v !== 'object';
const isFlat = (v: unknown): boolean =>
  Array.isArray(v)
    ? v.every(isScalar)
    : v !== null && typeof v === 'object' && Object.values(v).every((x) => isScalar(x) || (Array.isArray(x) && x.every(isScalar)));

function inline(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(inline).join(', ')}]`;
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v).filter(([, x]) => x !== undefined);
    return entries.length ? `{ ${entries.map(([k, x]) => `${JSON.stringify(k)}: ${inline(x)}`).join(', ')} }` : '{}';
  }
  return JSON.stringify(v);
}

function layout(v: unknown, indent: string): string {
  if (isScalar(v)) return JSON.stringify(v);
  const one = isFlat(v) ? inline(v) : undefined;
  if (one !== undefined && one.length + indent.length <= INLINE_WIDTH) return one;
  const inner = `${indent}  `;
  if (Array.isArray(v)) return v.length ? `[\n${v.map((x) => inner + layout(x, inner)).join(',\n')}\n${indent}]` : '[]';
  const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined);
  if (!entries.length) return '{}';
  return `{\n${entries.map(([k, x]) => `${inner}${JSON.stringify(k)}: ${layout(x, inner)}`).join(',\n')}\n${indent}}`;
}

/** The file's text, ending in a newline. */
export function planText(plan: OrderPlan): string {
  return `${layout(plan, '')}\n`;
}

/** The names a plan writes beside the ids of the request it is made from. */
export interface PlanNames {
  name?: string;
  project?: string;
  store?: string;
  bandset?: string;
  aoi?: string;
  /** The archive scenes: their collection, title, date and footprint's box. */
  scenes?: readonly PlanScene[];
}

const ref = (id: string, name: string | undefined): Ref => (name && name !== id ? { id, name } : { id });

/** One polygon when there is one, else a MultiPolygon of the parts (archive footprints). */
export function planGeometry(fc: FeatureCollection<Polygon>): PlanGeometry | undefined {
  const polys = fc.features.map((f) => f.geometry).filter((g): g is Polygon => g?.type === 'Polygon');
  if (!polys.length) return undefined;
  return polys.length === 1 ? polys[0] : { type: 'MultiPolygon', coordinates: polys.map((p) => p.coordinates) };
}

const day = (iso: string | undefined): string => (iso && /T00:00:00(\.000)?Z$/.test(iso) ? iso.slice(0, 10) : (iso ?? ''));

/** A plan of the request a wizard (or a chat tool) would send, with the names it showed. */
export function planFromRequest(items: readonly OrderItemRequest[], names: PlanNames = {}): OrderPlan {
  const first = items[0];
  const scenesById = new Map((names.scenes ?? []).map((s) => [s.id, s]));
  const plan: OrderPlan = {
    name: names.name ?? first?.name,
    project: ref(first?.project_id ?? '', names.project),
    usecase: first?.usecase,
    delivery: first?.cloud_delivery ? { store: ref(first.cloud_delivery.config, names.store), path: first.cloud_delivery.path } : undefined,
    items: items.map((req): PlanItem => {
      const aoiId = req.geometry.features.map((f) => f.properties?.aoi_id).find((x): x is string => typeof x === 'string');
      const base = { name: req.name ?? '', aoi: aoiId ? ref(aoiId, names.aoi) : undefined, geometry: planGeometry(req.geometry) };
      if (req.item_ids) return { kind: 'archive', ...base, scenes: req.item_ids.map((id) => scenesById.get(id) ?? { collection: '', id }) };
      return {
        kind: 'tasking',
        ...base,
        start: day(req.start_date),
        end: day(req.end_date),
        recurrence: req.recurrence ?? 'ONCE',
        occurrences: req.no_of_occurrences ?? 1,
        bandset: ref(req.bandset?.bandset_id ?? '', names.bandset),
        cloudCover: req.cloud_cover,
        offNadir: req.off_nadir,
        speed: req.delivery_speed,
      };
    }),
  };
  return plan;
}

/** A scene as a plan lists it, from an archive item (its footprint's box keeps the offline check). */
export function planScene(item: {
  id: string;
  collection?: string;
  geometry?: Parameters<typeof geometryBbox>[0] | null;
  properties?: { title?: string; datetime?: string | null } | null;
}): PlanScene {
  const scene: PlanScene = { collection: item.collection ?? '', id: item.id };
  if (item.properties?.title && item.properties.title !== item.id) scene.title = item.properties.title;
  if (item.properties?.datetime) scene.acquired = item.properties.datetime.slice(0, 10);
  if (item.geometry) scene.bbox = geometryBbox(item.geometry).map((n) => Math.round(n * 1e6) / 1e6) as PlanScene['bbox'];
  return scene;
}

/**
 * A new plan from an order already placed, to order it again or adapt it: its items as the
 * order record tells them (an archive item's scenes and footprints; a tasking item's entries,
 * whose area the record does not carry), without `placed`: it is a new order.
 */
export function planFromOrder(order: OrderRecord, names: PlanNames = {}): OrderPlan {
  const items = (order.order_items ?? []).map((it: OrderItem): OrderItemRequest => {
    const footprints: FeatureCollection<Polygon> = {
      type: 'FeatureCollection',
      features: (it.images ?? []).map((im) => ({ type: 'Feature', geometry: im.geometry, properties: {} })),
    };
    const req: OrderItemRequest = { project_id: it.project_id, name: it.name, usecase: it.usecase, geometry: footprints };
    if (it.type === 'ARCHIVE') req.item_ids = (it.images ?? []).map((im) => im.item_id);
    else
      Object.assign(req, {
        recurrence: it.recurrence,
        start_date: it.start_date,
        end_date: it.end_date,
        no_of_occurrences: it.no_of_occurrences,
        bandset: it.bandset ? { bandset_id: it.bandset.bandset_id } : undefined,
        cloud_cover: it.cloud_cover,
        off_nadir: it.off_nadir,
        delivery_speed: it.delivery_speed,
      });
    if (it.cloud_delivery) req.cloud_delivery = { ...it.cloud_delivery };
    return req;
  });
  const scenes = (order.order_items ?? []).flatMap((it) => (it.images ?? []).map((im) => planScene({ id: im.item_id, geometry: im.geometry })));
  return planFromRequest(items, { ...names, scenes: names.scenes ?? scenes });
}
