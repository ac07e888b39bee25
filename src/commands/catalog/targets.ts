/**
 * What a delivery or download is for: catalog entries or order items, never both (the service
 * refuses a body with both). Built from the arguments a command gets from the sidebar, a
 * search result, or a test.
 */

export type Targets = { catalogIds: string[] } | { orderItemIds: string[] };

/**
 * Accepted: a Catalog row (`{kind: 'catalog', record}`) or an order-item row
 * (`{kind: 'orderItem', record}`), one or a multi-selection (VS Code calls
 * `(clicked, selected[])`); `{catalogIds}` or `{orderItemIds}`. A mix of catalog entries and
 * order items is refused with the reason.
 */
export function targetsOf(...args: unknown[]): Targets | { error: string } | undefined {
  const [first, second] = args;
  if (isRecord(first) && Array.isArray(first.catalogIds) && first.catalogIds.length) return { catalogIds: first.catalogIds.map(String) };
  if (isRecord(first) && Array.isArray(first.orderItemIds) && first.orderItemIds.length) return { orderItemIds: first.orderItemIds.map(String) };
  const source = Array.isArray(second) && second.length ? second : first;
  const list = Array.isArray(source) ? source : source ? [source] : [];
  const catalogIds: string[] = [];
  const orderItemIds: string[] = [];
  for (const row of list) {
    if (!isRecord(row) || !isRecord(row.record) || typeof row.record.id !== 'string') continue;
    if (row.kind === 'catalog') catalogIds.push(row.record.id);
    else if (row.kind === 'orderItem') orderItemIds.push(row.record.id);
  }
  if (catalogIds.length && orderItemIds.length) {
    return { error: 'Select either catalog entries or order items, not both: a delivery or download names one kind.' };
  }
  if (catalogIds.length) return { catalogIds: [...new Set(catalogIds)] };
  if (orderItemIds.length) return { orderItemIds: [...new Set(orderItemIds)] };
  return undefined;
}

export function describeTargets(t: Targets): string {
  const ids = 'catalogIds' in t ? t.catalogIds : t.orderItemIds;
  const kind = 'catalogIds' in t ? 'catalog entr' : 'order item';
  const plural = 'catalogIds' in t ? (ids.length === 1 ? 'y' : 'ies') : ids.length === 1 ? '' : 's';
  return ids.length === 1 ? `${kind}${plural} ${ids[0]}` : `${ids.length} ${kind}${plural}`;
}

export function targetBody(t: Targets): { catalog_ids: string[] } | { order_item_ids: string[] } {
  return 'catalogIds' in t ? { catalog_ids: t.catalogIds } : { order_item_ids: t.orderItemIds };
}

/** Ids typed in the palette, separated by commas or spaces. */
export function parseIds(text: string): string[] {
  return [...new Set(text.split(/[,\s]+/).filter(Boolean))];
}

function isRecord(v: unknown): v is Record<string, unknown> & { record?: unknown } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
