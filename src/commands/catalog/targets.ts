/**
 * What a delivery or download is for: catalog entries or order items, never both (the service
 * refuses a body with both). Built from the arguments a command gets from the sidebar, a
 * search result, a picker, or a test; carries the names a person reads, the ids stay in the body.
 */
import { isObj } from '../../api/shape';
import { catalogFileParts, orderItemFileParts, type CatalogOrigin, type L10n } from '../../explorer/labels';

interface Named {
  /** What each target is called (rows, pickers), in the order of the ids; absent when unknown. */
  names?: string[];
  /** For one target: what its download's file is named after (place, date, bandset). */
  fileParts?: string[];
}

export type Targets = ({ catalogIds: string[] } | { orderItemIds: string[] }) & Named;

/** What a command was given: targets, a mix it must refuse, or nothing (the palette asks). */
export type GivenTargets = Targets | { error: string } | undefined;

/**
 * Accepted: a Catalog row (`{kind: 'catalog', record}`) or an order-item row
 * (`{kind: 'orderItem', record}`), one or a multi-selection (VS Code calls
 * `(clicked, selected[])`); `{catalogIds}` or `{orderItemIds}` (with `names`, `fileParts`). A
 * mix of catalog entries and order items is refused with the reason.
 */
export function targetsOf(...args: unknown[]): GivenTargets {
  const [first, second] = args;
  const named = (v: Record<string, unknown>): Named => ({
    ...(Array.isArray(v.names) ? { names: v.names.map(String) } : {}),
    ...(Array.isArray(v.fileParts) ? { fileParts: v.fileParts.map(String) } : {}),
  });
  if (isObj(first) && Array.isArray(first.catalogIds) && first.catalogIds.length) return { catalogIds: first.catalogIds.map(String), ...named(first) };
  if (isObj(first) && Array.isArray(first.orderItemIds) && first.orderItemIds.length) return { orderItemIds: first.orderItemIds.map(String), ...named(first) };
  const source = Array.isArray(second) && second.length ? second : first;
  const list = Array.isArray(source) ? source : source ? [source] : [];
  const catalogs = new Map<string, { name: string; parts: string[] }>();
  const items = new Map<string, { name: string; parts: string[] }>();
  for (const row of list) {
    if (!isObj(row) || !isObj(row.record) || typeof row.record.id !== 'string') continue;
    const r = row.record;
    if (row.kind === 'catalog') {
      const origin = isObj(row.origin) ? (row.origin as unknown as CatalogOrigin) : undefined;
      const parts = catalogFileParts({ created_at: String(r.created_at ?? ''), bandset_id: String(r.bandset_id ?? '') }, origin);
      catalogs.set(r.id as string, { name: typeof row.label === 'string' ? row.label : '', parts });
    } else if (row.kind === 'orderItem') {
      const bandset = isObj(r.bandset) && typeof r.bandset.bandset_id === 'string' ? { bandset_id: r.bandset.bandset_id, bands: [], custom: [] } : null;
      const name = typeof r.name === 'string' ? r.name : '';
      items.set(r.id as string, { name, parts: orderItemFileParts({ name, start_date: String(r.start_date ?? ''), bandset }) });
    }
  }
  if (catalogs.size && items.size) {
    return { error: 'Select either catalog entries or order items, not both: a delivery or download names one kind.' };
  }
  const chosen = catalogs.size ? catalogs : items;
  if (!chosen.size) return undefined;
  const ids = [...chosen.keys()];
  const names = [...chosen.values()].map((v) => v.name);
  const extra: Named = {
    ...(names.every(Boolean) ? { names } : {}),
    ...(ids.length === 1 && chosen.get(ids[0])!.parts.length ? { fileParts: chosen.get(ids[0])!.parts } : {}),
  };
  return catalogs.size ? { catalogIds: ids, ...extra } : { orderItemIds: ids, ...extra };
}

export function idsOf(t: Targets): string[] {
  return 'catalogIds' in t ? t.catalogIds : t.orderItemIds;
}

/**
 * "catalog entry Nile Delta #1.1 · 2026-11-22", "3 catalog entries": the name when one named
 * target, a count otherwise; never an id.
 */
export function describeTargets(l10n: L10n, t: Targets): string {
  const ids = idsOf(t);
  const name = ids.length === 1 ? t.names?.[0] : undefined;
  if ('catalogIds' in t) {
    if (name) return l10n.t('catalog entry {0}', name);
    return ids.length === 1 ? l10n.t('1 catalog entry') : l10n.t('{0} catalog entries', ids.length);
  }
  if (name) return l10n.t('order item {0}', name);
  return ids.length === 1 ? l10n.t('1 order item') : l10n.t('{0} order items', ids.length);
}

export function targetBody(t: Targets): { catalog_ids: string[] } | { order_item_ids: string[] } {
  return 'catalogIds' in t ? { catalog_ids: t.catalogIds } : { order_item_ids: t.orderItemIds };
}

/** Ids typed in the palette, separated by commas or spaces. */
export function parseIds(text: string): string[] {
  return [...new Set(text.split(/[,\s]+/).filter(Boolean))];
}
