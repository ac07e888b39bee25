/**
 * What a row, picker item, title or file name calls a record: its name and what it belongs
 * to, never a bare id (ids stay in hovers and Copy ID). Pure: no `vscode`, so every builder is
 * unit-tested; the words go through the `l10n` the caller passes (`vscode.l10n` in the
 * extension), which is also what the l10n export finds.
 */
import type { Asset, Catalog, OrderItem } from '../api/records';
import { areaKm2, count, day } from '../format';
import { safeFileName } from '../fileNames';

/** The part of `vscode.l10n` the builders use. */
export interface L10n {
  t(message: string, ...args: (string | number | boolean)[]): string;
}

export interface RowText {
  label: string;
  description: string;
}

/** `3f2a…-…` or any 32-hex string (with or without dashes): what a person must not be shown for a name. */
export const UUID_LIKE = /\b[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}\b/i;

/** "Mosaic 2026-04-07" → "Mosaic": the date shows on its own. */
function withoutDay(name: string, date: string): string {
  if (!date) return name.trim();
  return name.replace(new RegExp(`[\\s·,_-]*${date.replace(/-/g, '\\-')}\\s*$`), '').trim();
}

function capitalised(s: string): string {
  return s ? s.charAt(0).toUpperCase() + s.slice(1) : s;
}

/**
 * An asset by what it is: its name (without the date it repeats), else the name of the index
 * its visualization shows, else its type; then the date and the bands.
 */
export function assetRow(l10n: L10n, a: Pick<Asset, 'name' | 'date' | 'asset_type' | 'band_list'>, indexName?: string): RowText {
  const date = day(a.date);
  const named = withoutDay(a.name ?? '', date);
  const what = (named && !UUID_LIKE.test(named) ? named : '') || indexName || capitalised(a.asset_type ?? '') || l10n.t('Asset');
  const n = a.band_list?.length ?? 0;
  const bands = n === 1 ? l10n.t('1 band ({0})', a.band_list[0]) : l10n.t('{0} bands', count(n));
  const belongs = indexName && indexName !== what ? indexName : '';
  return { label: what, description: [date, bands, belongs].filter(Boolean).join(' · ') };
}

/** Where a catalog entry comes from: the order item that bought it (the place) and when it was ordered. */
export interface CatalogOrigin {
  itemName: string;
  itemId: string;
  orderId: string;
  ordered: string;
}

/** The order item behind each catalog entry: by its own `order_item_id` when sent, else the item that holds its task. */
export function catalogOrigins(catalogs: readonly Catalog[], items: readonly OrderItem[]): Map<string, CatalogOrigin> {
  const byId = new Map(items.map((i) => [i.id, i]));
  const byTask = new Map<string, OrderItem>();
  for (const i of items) for (const t of i.tasks ?? []) byTask.set(t.id, i);
  const out = new Map<string, CatalogOrigin>();
  for (const c of catalogs) {
    const item = (typeof c.order_item_id === 'string' ? byId.get(c.order_item_id) : undefined) ?? byTask.get(c.task_id);
    if (!item) continue;
    out.set(c.id, { itemName: item.name, itemId: item.id, orderId: item.order_id, ordered: day(item.created_at) });
  }
  return out;
}

/** A catalog entry: the place it was bought for and its date; then bandset, area and status. */
export function catalogRow(l10n: L10n, c: Pick<Catalog, 'created_at' | 'bandset_id' | 'area'>, origin: CatalogOrigin | undefined, status: string): RowText {
  const date = day(c.created_at);
  const place = origin?.itemName && !UUID_LIKE.test(origin.itemName) ? origin.itemName : '';
  if (place) return { label: `${place} · ${date}`, description: [c.bandset_id, areaKm2(c.area), status].filter(Boolean).join(' · ') };
  return { label: [date, c.bandset_id || l10n.t('Catalog entry')].filter(Boolean).join(' · '), description: `${areaKm2(c.area)} · ${status}` };
}

/** An order by what it buys: its first item's name, "+N more"; the timestamp when there are none. */
export function orderLabel(l10n: L10n, names: readonly string[], created: string): string {
  const shown = names.filter((n) => n && !UUID_LIKE.test(n));
  if (!shown.length) return created ? l10n.t('Order of {0}', created) : l10n.t('Order');
  const more = names.length - 1;
  return more > 0 ? l10n.t('{0} +{1} more', shown[0], count(more)) : shown[0];
}

/**
 * A file name for a download, from what was bought: place, date, bandset
 * ("Nile Delta 1.1 2026-11-22 bs-s2-rededge.zip"); only characters every file system takes.
 */
export function downloadFileName(parts: readonly (string | undefined)[], ext = '.zip'): string {
  const clean = parts
    .filter((p): p is string => !!p && !UUID_LIKE.test(p))
    .map((p) =>
      p
        .replace(/[\\/:*?"<>|#%\p{Cc}]+/gu, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .filter(Boolean)
    .join(' ');
  // Cut by bytes, not characters; Windows device names altered (src/fileNames.ts).
  return safeFileName(clean, ext, NAME_BYTES) || `eo-imagery-download${ext}`;
}

/** Room for the folder's " (2)" and a server's longer extension. */
const NAME_BYTES = 200;

/** A name for a record in a JSON tab: its label made safe for a path segment. */
export function documentName(label: string, fallback: string): string {
  const safe = label
    .replace(/[\\/:*?"<>|#%\p{Cc}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 80);
  return safe || fallback;
}

/** What a download of one catalog entry is named after: place, date, bandset. */
export function catalogFileParts(c: Pick<Catalog, 'created_at' | 'bandset_id'>, origin: CatalogOrigin | undefined): string[] {
  return [origin?.itemName ?? '', day(c.created_at), c.bandset_id].filter(Boolean);
}

/** What a download of one order item is named after: its name, first day, bandset. */
export function orderItemFileParts(i: Pick<OrderItem, 'name' | 'start_date' | 'bandset'>): string[] {
  return [i.name, day(i.start_date), i.bandset?.bandset_id ?? ''].filter(Boolean);
}
