import type { EoClient } from '../api';
import type { Catalog, OrderItem } from '../api/records';
import { catalogOrigins, type CatalogOrigin } from './labels';

/**
 * The order items behind a page of entries, in one request (per fifty): by the entries' `order_item_id`
 * when the service sends it, else the recent items whose tasks made them. A failure only
 * costs the names, never the page.
 */
export async function originsOf(client: EoClient, catalogs: readonly Catalog[], signal?: AbortSignal): Promise<Map<string, CatalogOrigin>> {
  if (!catalogs.length) return new Map();
  const ids = [...new Set(catalogs.map((c) => c.order_item_id).filter((id): id is string => typeof id === 'string' && id !== ''))];
  try {
    if (!ids.length) return catalogOrigins(catalogs, (await client.orderItems.listPage({ limit: 100 }, { signal })).items);
    // A search can return hundreds of entries: ask for their items fifty ids at a time.
    const items: OrderItem[] = [];
    for (let i = 0; i < ids.length; i += 50) {
      const chunk = ids.slice(i, i + 50);
      items.push(...(await client.orderItems.listPage({ ids: chunk, limit: chunk.length }, { signal })).items);
    }
    return catalogOrigins(catalogs, items);
  } catch (err) {
    if (signal?.aborted) throw err;
    return new Map();
  }
}
