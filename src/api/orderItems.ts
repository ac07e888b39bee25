/** Order items (with their tasks). */
import { offsetListing, offsetPageParser, recordParser, type OffsetListing } from './listing';
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
  /** One page (offset/limit, the service's default limit 10), and every item lazily. */
  readonly listPage: OffsetListing<OrderItem, OrderItemFilter>['page'];
  readonly iterate: OffsetListing<OrderItem, OrderItemFilter>['iterate'];

  constructor(private readonly t: Transport) {
    ({ page: this.listPage, iterate: this.iterate } = offsetListing<OrderItem, OrderItemFilter>(t, {
      method: 'GET',
      path: '/v0/order-items',
      parse: parsePage,
      idOf: (x) => x.id,
      toQuery,
    }));
  }

  get(id: string, o?: CallOptions): Promise<OrderItem> {
    return this.t.json({ method: 'GET', path: pathOf`/v0/order-items/${id}` }, parseOne, o);
  }
}
