/** Orders, order items and the order report (CSV). */
import { REPORT_COLUMNS, type OrderItem } from '../../api/records';
import { HttpError, badRequest, notFound } from '../errors';
import { buildOrder } from '../orders';
import type { Req, Route } from '../router';
import type { ItemRec, OrderRec } from '../state';
import { inZone } from '../timefmt';
import { itemView, orderStatus, orderView } from '../transitions';
import { pageParams, pathId, queryList } from '../validate';
import { numberRange, page, timeRange } from './common';

const ORDER_STATUSES = ['PAID', 'REFUND', 'UNPAID', 'PAYMENT_IN_PROGRESS'];
const ITEM_STATUSES = ['DRAFT', 'ACTIVE', 'FULFILLED', 'CANCELLED', 'FAILED', 'PARTIALLY_FULFILLED'];
const ITEM_TYPES = ['TASKING', 'ARCHIVE', 'RECURRING'];

/**
 * Each user's orders, newest first, kept between requests: paging through 10,000 order items
 * re-sorted every order on every page. Orders are only ever appended and their owner, `t0` and
 * id never change, so the list is rebuilt only when the store's array or its length changes.
 */
interface Mine {
  orders: OrderRec[];
  /** Their items in listing order, with each one's order (built on the first unfiltered list). */
  items?: { o: OrderRec; it: ItemRec }[];
}
const byUser = new WeakMap<OrderRec[], { length: number; users: Map<string, Mine> }>();

function mine(r: Req): Mine {
  const all = r.app.state.orders;
  let cache = byUser.get(all);
  if (!cache || cache.length !== all.length) {
    cache = { length: all.length, users: new Map() };
    byUser.set(all, cache);
  }
  let m = cache.users.get(r.user.id);
  if (!m) {
    m = { orders: all.filter((o) => o.user_id === r.user.id).sort((a, b) => b.t0 - a.t0 || (a.id < b.id ? -1 : 1)) };
    cache.users.set(r.user.id, m);
  }
  return m;
}

function myOrders(r: Req): readonly OrderRec[] {
  return mine(r).orders;
}

function ownOrder(r: Req, raw: string): OrderRec {
  const id = pathId(raw, 'id');
  const o = r.app.state.orders.find((x) => x.id === id && x.user_id === r.user.id);
  if (!o) throw notFound('order', id);
  return o;
}

/** Filters on stored fields first and builds only the requested page (10,000 items stay fast). */
function listItems(r: Req, offset: number, limit: number): { items: OrderItem[]; total: number } {
  const q = r.query;
  const oneOf = (key: string, allowed?: string[]): string[] | undefined => {
    const l = queryList(q, key);
    const bad = allowed && l?.find((v) => !allowed.includes(v));
    if (bad) throw badRequest(key, `${JSON.stringify(bad)} is not one of ${allowed.join(', ')}`);
    return l;
  };
  const types = oneOf('type', ITEM_TYPES);
  const statuses = oneOf('status', ITEM_STATUSES);
  const users = oneOf('user_id');
  const createdBy = oneOf('created_by');
  const orderIds = oneOf('order_ids');
  const projectIds = oneOf('project_ids');
  const ids = oneOf('ids');
  const created = timeRange(q.get('created_at'), 'created_at');
  const area = numberRange(q.get('area'), 'area');
  if (!types && !statuses && !users && !createdBy && !orderIds && !projectIds && !ids && !created && !area) {
    // The unfiltered list (the sidebar's, page after page): a slice of the cached flat list.
    const m = mine(r);
    m.items ??= m.orders.flatMap((o) => o.items.map((it) => ({ o, it })));
    return { items: m.items.slice(offset, offset + limit).map(({ o, it }) => itemView(o, it, r.now, true)), total: m.items.length };
  }
  // Count every match but build views only for the page's: no per-item allocation for the rest.
  const items: OrderItem[] = [];
  let total = 0;
  for (const o of myOrders(r)) {
    if (orderIds && !orderIds.includes(o.id)) continue;
    if (created && !created(o.t0)) continue;
    for (const it of o.items) {
      if (
        (types && !types.includes(it.type)) ||
        (users && !users.includes(it.user_id)) ||
        (createdBy && !createdBy.includes(it.created_by)) ||
        (projectIds && !projectIds.includes(it.project_id)) ||
        (ids && !ids.includes(it.id)) ||
        (area && !area(it.area)) ||
        (statuses && !statuses.includes(itemView(o, it, r.now, false).status))
      )
        continue;
      if (total >= offset && total < offset + limit) items.push(itemView(o, it, r.now, true));
      total++;
    }
  }
  return { items, total };
}

function findItem(r: Req, raw: string): { order: OrderRec; item: ItemRec } {
  const id = pathId(raw, 'id');
  for (const o of r.app.state.orders) {
    if (o.user_id !== r.user.id) continue;
    const item = o.items.find((i) => i.id === id);
    if (item) return { order: o, item };
  }
  throw notFound('order item', id);
}

function csvCell(v: string | number): string {
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export const orderRoutes: Route[] = [
  {
    method: 'POST',
    path: '/v0/orders',
    handler: async (r) => {
      const { order, dryRun } = buildOrder(r.body, { user: r.user, now: r.now, world: r.app.world, state: r.app.state, newId: () => r.app.newId() });
      if (dryRun) {
        const { id: _id, ...priced } = orderView(order, r.now);
        // A dry run is a quote: every amount and the feasibility verdicts, nothing stored, no ids.
        const items = order.items.map((it) => {
          const { id: _i, order_id: _o, ...rest } = itemView(order, it, r.now, false);
          return { ...rest, validation_errors: it.validation_errors ?? [] };
        });
        return { status: 200, json: { ...priced, order_items: items } };
      }
      r.app.state.orders.push(order);
      await r.app.commit();
      const view = orderView(order, r.now);
      return {
        status: 201,
        json: { ...view, order_items: order.items.map((it) => ({ ...itemView(order, it, r.now, false), validation_errors: it.validation_errors ?? [] })) },
      };
    },
  },
  {
    method: 'GET',
    path: '/v0/orders',
    handler: (r) => {
      const { offset, limit } = pageParams(r.query);
      const status = r.query.get('status');
      if (status !== null && !ORDER_STATUSES.includes(status)) throw badRequest('status', `must be one of ${ORDER_STATUSES.join(', ')}`);
      const all = myOrders(r).filter((o) => status === null || orderStatus(o, r.now) === status);
      const { items, pagination } = page(all, offset, limit);
      return { status: 200, json: { orders: items.map((o) => orderView(o, r.now)), pagination } };
    },
  },
  { method: 'GET', path: '/v0/orders/:id', handler: (r) => ({ status: 200, json: orderView(ownOrder(r, r.params.id), r.now) }) },
  {
    method: 'GET',
    path: '/v0/order-items',
    handler: (r) => {
      const { offset, limit } = pageParams(r.query);
      const { items, total } = listItems(r, offset, limit);
      return { status: 200, json: { order_items: items, pagination: { limit, offset, total } } };
    },
  },
  {
    method: 'GET',
    path: '/v0/order-items/:id',
    handler: (r) => {
      const { order, item } = findItem(r, r.params.id);
      return { status: 200, json: itemView(order, item, r.now, true) };
    },
  },
  {
    method: 'GET',
    path: '/v0/reports',
    handler: (r) => {
      const tz = r.query.get('tz') ?? 'UTC';
      try {
        new Intl.DateTimeFormat('en', { timeZone: tz });
      } catch {
        throw badRequest('tz', `unknown time zone ${JSON.stringify(tz.slice(0, 60))}; use an IANA name such as Europe/Paris`);
      }
      if (!r.user.canReport) throw new HttpError(403, 'reports need billing rights, which this user does not have', 'user');
      const lines = [REPORT_COLUMNS.join(',')];
      for (const o of [...myOrders(r)].reverse()) {
        for (const it of o.items) {
          const v = itemView(o, it, r.now, false);
          lines.push([o.id, v.id, v.name, v.type, v.status, v.payment_status, v.area, v.final_amount, inZone(o.t0, tz)].map(csvCell).join(','));
        }
      }
      return {
        status: 200,
        raw: lines.join('\r\n') + '\r\n',
        contentType: 'text/csv; charset=utf-8',
        headers: { 'content-disposition': 'attachment; filename="orders-report.csv"' },
      };
    },
  },
];
