/**
 * How statuses move on the sandbox clock (docs/service-interface.md, "Transitions the sandbox simulates").
 * Everything here is a pure function of a stored record and `now`.
 */
import { absolutePath } from './imagery/paths';
import type { Aoi, Asset, Catalog, Delivery, Download, Order, OrderItem, Task, Visualization } from '../api/records';
import type { AoiRec, AssetRec, DeliveryRec, DownloadRec, ItemRec, OrderRec, VisRec } from './state';
import { geometryBbox } from '../geo/bbox';
import { dmy, isoOffset, spaceMicro } from './timefmt';

/** Durations in sandbox-clock ms. */
export const T = {
  orderPaying: 10_000,
  orderPaid: 20_000,
  archiveRun: 60_000,
  taskingRun: 300_000,
  aoi: 20_000,
  asset: 20_000,
  visualization: 15_000,
  deliveryStart: 5_000,
  deliveryDone: 30_000,
  downloadStart: 3_000,
  downloadDone: 15_000,
  insightQueued: 5_000,
  insight: 30_000,
  signedUrl: 15 * 60_000,
} as const;

/**
 * The OpenAPI's in-between values: an AOI is `running`, an asset or a visualization
 * `creating`, until it reaches `success` (docs/service-interface.md, "States").
 */
function progressOf(t0: number, dur: number, now: number, working: string): { progress: number; status: string } {
  const p = Math.max(0, Math.min(100, Math.floor(((now - t0) / dur) * 100)));
  return { progress: p, status: p >= 100 ? 'success' : working };
}

export function aoiView(r: AoiRec, now: number): Aoi {
  const { t0, seasonal: _seasonal, ...aoi } = r;
  const p = progressOf(t0, T.aoi, now, 'running');
  return { ...aoi, ...p, status: p.progress === 0 ? 'started' : p.status };
}

/** `base`: the sandbox's own URL, which paths on the sandbox host (kept relative) hang from. */
export function assetView(r: AssetRec, now: number, base = ''): Asset {
  const { t0, ...asset } = r;
  const p = progressOf(t0, T.asset, now, 'creating');
  return { ...asset, path: absolutePath(asset.path, base), ...p, updated_at: p.progress >= 100 ? spaceMicro(t0 + T.asset) : asset.created_at };
}

export function visView(r: VisRec, assets: Asset[], now: number): Visualization {
  const { t0, asset_ids: _ids, ...vis } = r;
  const p = progressOf(t0, T.visualization, now, 'creating');
  return { ...vis, ...p, assets, updated_at: p.progress >= 100 ? spaceMicro(t0 + T.visualization) : vis.created_at };
}

export function orderStatus(o: OrderRec, now: number): Order['status'] {
  if (o.frozen === 'unpaid') return 'UNPAID';
  if (o.frozen === 'cancelled') return 'REFUND';
  const e = now - o.t0;
  return e < T.orderPaying ? 'UNPAID' : e < T.orderPaid ? 'PAYMENT_IN_PROGRESS' : 'PAID';
}

function runOf(item: ItemRec): number {
  return item.type === 'ARCHIVE' ? T.archiveRun : T.taskingRun;
}

function taskDoneAt(o: OrderRec, item: ItemRec, k: number): number {
  return o.t0 + T.orderPaid + (runOf(item) * (k + 1)) / item.outcomes.length;
}

function tasksOf(o: OrderRec, item: ItemRec, now: number): Task[] {
  if (o.frozen || now < o.t0 + T.orderPaid) return [];
  const paidAt = o.t0 + T.orderPaid;
  const start = Date.parse(item.start_date) || paidAt;
  const end = Date.parse(item.end_date) || paidAt;
  const span = Math.max(0, end - start) / item.outcomes.length;
  return item.outcomes.map((ok, k) => {
    const doneAt = taskDoneAt(o, item, k);
    const done = now >= doneAt;
    const ts = done ? doneAt : paidAt;
    return {
      id: `${item.id}-t${k + 1}`,
      order_item_id: item.id,
      type: item.type,
      status: done ? (ok ? 'FULFILLED' : 'FAILED') : 'IN_PROGRESS',
      delivery_status: done ? (ok ? 'SUCCESSFUL' : 'FAILED') : 'PENDING',
      start_date: dmy(start + span * k),
      end_date: dmy(start + span * (k + 1)),
      number_of_strips: item.type === 'ARCHIVE' ? 1 : 1 + (k % 3),
      tokens_used: done && ok ? Math.round(item.tokens_used / item.outcomes.length) : 0,
      transaction_id: item.transaction_id,
      created_at: isoOffset(paidAt),
      updated_at: isoOffset(ts),
      created_by: item.created_by,
      updated_by: item.created_by,
    };
  });
}

export function itemView(o: OrderRec, item: ItemRec, now: number, withTasks: boolean): OrderItem {
  const { outcomes, ...base } = item;
  const paidAt = o.t0 + T.orderPaid;
  let status: OrderItem['status'];
  let payment: OrderItem['payment_status'];
  let updated = o.t0;
  if (o.frozen === 'unpaid' || (!o.frozen && now < paidAt)) {
    status = 'DRAFT';
    payment = 'UNPAID';
  } else if (o.frozen === 'cancelled') {
    status = 'CANCELLED';
    payment = 'REFUND';
    updated = o.t0 + T.orderPaid;
  } else {
    const doneAt = taskDoneAt(o, item, outcomes.length - 1);
    const ok = outcomes.filter(Boolean).length;
    updated = paidAt;
    if (now < doneAt) {
      status = 'ACTIVE';
      payment = item.type === 'RECURRING' ? 'PARTIAL-MONTHLY' : 'PAID';
    } else {
      updated = doneAt;
      status = ok === outcomes.length ? 'FULFILLED' : ok === 0 ? 'FAILED' : 'PARTIALLY_FULFILLED';
      payment = ok === 0 ? 'REFUND' : ok < outcomes.length ? 'PARTIAL-REFUND' : item.type === 'RECURRING' ? 'PARTIAL-MONTHLY' : 'PAID';
    }
  }
  const view: OrderItem = { ...base, status, payment_status: payment, updated_at: isoOffset(updated) };
  if (withTasks) view.tasks = tasksOf(o, item, now);
  else delete view.tasks;
  if (!withTasks) delete view.validation_errors;
  return view;
}

export function orderView(o: OrderRec, now: number): Order {
  const status = orderStatus(o, now);
  const paid = status === 'PAID' || status === 'REFUND';
  const paidAt = o.t0 + T.orderPaid;
  const e = now - o.t0;
  const updated = o.frozen ? o.t0 : e >= T.orderPaid ? paidAt : e >= T.orderPaying ? o.t0 + T.orderPaying : o.t0;
  return {
    id: o.id,
    org_id: o.org_id,
    user_id: o.user_id,
    status,
    total_amount: o.total_amount,
    transaction_id: o.transaction_id,
    paid_at: paid && o.frozen !== 'cancelled' ? isoOffset(paidAt) : o.frozen === 'cancelled' ? isoOffset(paidAt) : '',
    created_at: isoOffset(o.t0),
    updated_at: isoOffset(updated),
    created_by: o.created_by,
    updated_by: o.created_by,
    order_items: o.items.map((i) => itemView(o, i, now, false)),
  };
}

/** One catalog per fulfilled task, created when the task finishes. */
export function catalogsOf(o: OrderRec, item: ItemRec, now: number): (Catalog & { t: number })[] {
  const out: (Catalog & { t: number })[] = [];
  if (o.frozen || now < o.t0 + T.orderPaid) return out;
  item.outcomes.forEach((ok, k) => {
    const doneAt = taskDoneAt(o, item, k);
    if (!ok || now < doneAt) return;
    const taskId = `${item.id}-t${k + 1}`;
    const image = item.images[k % Math.max(1, item.images.length)];
    out.push({
      id: `cat-${taskId}`,
      org_id: item.org_id,
      task_id: taskId,
      bandset_id: item.bandset?.bandset_id ?? '',
      area: item.area,
      delivery_status: 'SUCCESSFUL',
      created_at: isoOffset(doneAt),
      updated_at: isoOffset(doneAt),
      created_by: item.created_by,
      updated_by: item.created_by,
      order_id: o.id,
      order_item_id: item.id,
      item_id: image?.item_id ?? '',
      geometry: image?.geometry,
      // the OpenAPI's footprint: the imagery's STAC item
      details: image?.geometry
        ? { id: image.item_id, type: 'Feature', geometry: image.geometry, bbox: [...geometryBbox(image.geometry)], properties: { datetime: isoOffset(doneAt) } }
        : undefined,
      t: doneAt,
    });
  });
  return out;
}

export function deliveryView(d: DeliveryRec, now: number): Delivery {
  const { owner: _o, order_item_id: _i, t0, frozen, ...rest } = d;
  const e = now - t0;
  let status: Delivery['status'] = frozen ?? (e < T.deliveryStart ? 'CREATED' : e < T.deliveryDone ? 'IN_PROGRESS' : 'SUCCESS');
  if (frozen) status = frozen;
  const updated = frozen ? t0 + T.deliveryStart : e >= T.deliveryDone ? t0 + T.deliveryDone : e >= T.deliveryStart ? t0 + T.deliveryStart : t0;
  return { ...rest, status, updated_at: isoOffset(updated) };
}

export function downloadStatus(d: DownloadRec, now: number): Download['status'] {
  if (d.frozen) return d.frozen;
  const e = now - d.t0;
  return e < T.downloadStart ? 'created' : e < T.downloadDone ? 'in_progress' : 'success';
}
