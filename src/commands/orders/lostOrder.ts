/**
 * After an order POST whose answer was lost (the connection dropped or timed out once the
 * request had gone out), the service is asked what it did instead of sending the POST again.
 * The service takes no idempotency key or client reference (its published OpenAPI has
 * neither), so the order is recognised by what was asked: order items created since just
 * before the POST, in the same projects, with the same names, type and archive images.
 */
import type { EoClient, OrderItem, OrderItemRequest, OrderRecord } from '../../api';

/** What the service says became of the order: placed (this one), or nothing was placed. */
export type LostOrderAnswer = { placed: OrderRecord } | { placed: undefined };

/**
 * How far the service's clock may be behind ours when we look for items created "since the
 * POST"; an order the person placed by hand this long before is told apart by its content.
 */
const CLOCK_SKEW_MS = 15 * 60_000;
/** The upper end of the created_at range: far enough for a service clock that runs ahead. */
const AHEAD_MS = 366 * 24 * 60 * 60_000;
/** A burst of orders in a few minutes is far below this; the look-up stops here. */
const MAX_ITEMS = 500;

/**
 * Asks the service whether the order `requested` (sent at `sentAt`, ms since epoch) was
 * placed. Throws when the service cannot be asked either: then nobody knows, and the caller
 * says so.
 */
export async function findLostOrder(client: EoClient, requested: readonly OrderItemRequest[], sentAt: number): Promise<LostOrderAnswer> {
  const projects = [...new Set(requested.map((r) => r.project_id).filter((p): p is string => !!p))];
  const created_at = [new Date(sentAt - CLOCK_SKEW_MS).toISOString(), new Date(sentAt + AHEAD_MS).toISOString()] as const;
  const byOrder = new Map<string, OrderItem[]>();
  for await (const item of client.orderItems.iterate({ created_at, project_ids: projects.length ? projects : undefined }, { cap: MAX_ITEMS })) {
    byOrder.set(item.order_id, [...(byOrder.get(item.order_id) ?? []), item]);
  }
  const matches = [...byOrder.entries()].filter(([, items]) => sameOrder(requested, items));
  if (matches.length === 0) return { placed: undefined };
  // Two identical orders in the window: the newest is the one just sent.
  const newest = matches.sort(([, a], [, b]) => latest(b).localeCompare(latest(a)))[0][0];
  return { placed: await client.orders.get(newest) };
}

/** True when `items` (one order's) are the requested items, one for one. */
export function sameOrder(requested: readonly OrderItemRequest[], items: readonly OrderItem[]): boolean {
  if (items.length !== requested.length) return false;
  const left = [...items];
  return requested.every((r) => {
    const i = left.findIndex((it) => sameItem(r, it));
    if (i < 0) return false;
    left.splice(i, 1);
    return true;
  });
}

function sameItem(r: OrderItemRequest, it: OrderItem): boolean {
  if (r.project_id !== undefined && r.project_id !== it.project_id) return false;
  if ((r.name ?? '') !== (it.name ?? '')) return false;
  if (r.item_ids === undefined) return it.type !== 'ARCHIVE';
  const images = new Set((it.images ?? []).map((x) => x.item_id));
  return it.type === 'ARCHIVE' && images.size === new Set(r.item_ids).size && r.item_ids.every((id) => images.has(id));
}

function latest(items: readonly OrderItem[]): string {
  return (
    items
      .map((x) => x.created_at ?? '')
      .sort()
      .at(-1) ?? ''
  );
}
