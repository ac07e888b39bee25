/** Orders of tasking and archive items. Creation is never retried: one call, at most one order. */
import { checkLimit } from './listing';
import { normalizeOrder, type OrderRecord } from './normalize';
import { iterateOffset, type IterateOptions, type OffsetQuery, type Page } from './paging';
import { poll, isFinalStatus, type PollOptions } from './poll';
import type { CreateOrderRequest, Order, OrderStatus } from './records';
import { dryRunOrder, order, pagination } from './schemas';
import { arr, assertShape, obj } from './shape';
import { pathOf, type CallOptions, type Transport } from './transport';

const listShape = obj({ orders: arr(order), pagination });
function parsePage(body: unknown): Page<OrderRecord> {
  const b = assertShape<{ orders: Order[]; pagination: Page<Order> }>(body, listShape, '');
  return { items: b.orders.map(normalizeOrder), total: b.pagination.total, offset: b.pagination.offset, limit: b.pagination.limit };
}
const parseOrder = (body: unknown): OrderRecord => normalizeOrder(assertShape<Order>(body, order, 'order'));
const parseDryRun = (body: unknown): OrderRecord => normalizeOrder(assertShape<Order>(body, dryRunOrder, 'order'));

export class OrdersApi {
  constructor(private readonly t: Transport) {}

  /**
   * Submit an order, or price it with `dry_run: true` (200, nothing stored, no `id`; each
   * item carries `feasibility_status` and `validation_errors`). Sent exactly once.
   */
  async create(req: CreateOrderRequest, o?: CallOptions): Promise<OrderRecord> {
    req.order_items.forEach((item, i) => {
      // the service requires a use case on every item; refuse before sending rather than 400
      if (typeof item.usecase !== 'string' || item.usecase.trim() === '') throw new TypeError(`order_items[${i}]: usecase is required`);
    });
    return this.t.json({ method: 'POST', path: '/v0/orders', body: req }, req.dry_run ? parseDryRun : parseOrder, o);
  }

  async listPage(q: OffsetQuery & { status?: OrderStatus } = {}, o?: CallOptions): Promise<Page<OrderRecord>> {
    const { offset, limit, status } = q;
    checkLimit('offset', offset, 0);
    checkLimit('limit', limit, 1);
    const page = await this.t.json({ method: 'GET', path: '/v0/orders', query: { offset: offset ?? 0, limit: limit ?? 10, status } }, parsePage, o);
    // The OpenAPI's list takes only user_id, limit and offset: a service that ignores the
    // status would list every order, so the filter is applied here too. The page keeps the
    // server's offset and total, so paging goes on over what the server holds.
    if (status !== undefined && page.items.some((x) => x.status !== status)) {
      const scanned = page.items.length;
      page.items = page.items.filter((x) => x.status === status);
      // the server's total counts every status: it no longer says how many match
      return { ...page, scanned, total: undefined };
    }
    return page;
  }

  iterate(filter: { status?: OrderStatus } = {}, opts: IterateOptions = {}): AsyncGenerator<OrderRecord, void, undefined> {
    return iterateOffset(
      ({ offset, limit, signal }) => this.listPage({ ...filter, offset, limit }, { signal }),
      (x) => x.id ?? '',
      { method: 'GET', path: '/v0/orders' },
      opts,
    );
  }

  get(id: string, o?: CallOptions): Promise<OrderRecord> {
    return this.t.json({ method: 'GET', path: pathOf`/v0/orders/${id}` }, parseOrder, o);
  }

  /** Re-read an order until it is `PAID` or `REFUND` (or the options' timeout). */
  waitUntilSettled(id: string, opts: Omit<PollOptions<OrderRecord>, 'isFinal'> = {}): Promise<OrderRecord> {
    return poll((signal) => this.get(id, { signal }), {
      what: `order ${id}`,
      path: pathOf`/v0/orders/${id}`,
      ...opts,
      isFinal: (x) => isFinalStatus('order', x.status),
    });
  }
}
