/** Order items (with their tasks). */
import { offsetListing, offsetPageParser, recordParser, type OffsetListing } from './listing';
import type { IterateOptions, OffsetQuery, Page } from './paging';
import type { OrderItem, OrderItemStatus, OrderItemType } from './records';
import { orderItem } from './schemas';
import { pathOf, type CallOptions, type Query, type Transport } from './transport';

export interface OrderItemFilter {
  user_id?: string;
  type?: OrderItemType;
  status?: OrderItemStatus;
  order_ids?: readonly string[];
  created_by?: string;
  /** `[from, to]` ISO 8601, sent as `from,to`. */
  created_at?: readonly [string, string];
  project_ids?: readonly string[];
  ids?: readonly string[];
  /** `[min, max]` square metres, sent as `min,max`. */
  area?: readonly [number, number];
}

const parsePage = offsetPageParser<OrderItem>('order_items', orderItem);
const parseOne = recordParser<OrderItem>(orderItem, 'order_item');

function toQuery(f: OrderItemFilter): Query {
  const { area, ...rest } = f;
  return { ...rest, area: area ? area.map(String) : undefined };
}

export class OrderItemsApi {
  private readonly items: OffsetListing<OrderItem, OrderItemFilter>;

  constructor(private readonly t: Transport) {
    this.items = offsetListing<OrderItem, OrderItemFilter>(t, { method: 'GET', path: '/v0/order-items', parse: parsePage, idOf: (x) => x.id, toQuery });
  }

  listPage(q: OrderItemFilter & OffsetQuery = {}, o?: CallOptions): Promise<Page<OrderItem>> {
    return this.items.page(q, o);
  }

  iterate(filter: OrderItemFilter = {}, opts: IterateOptions = {}): AsyncGenerator<OrderItem, void, undefined> {
    return this.items.iterate(filter, opts);
  }

  get(id: string, o?: CallOptions): Promise<OrderItem> {
    return this.t.json({ method: 'GET', path: pathOf`/v0/order-items/${id}` }, parseOne, o);
  }
}
