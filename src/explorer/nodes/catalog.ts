import vscode = require('vscode');
import { l10n } from 'vscode';
import type { EoClient } from '../../api';
import type { Catalog, Delivery } from '../../api/records';
import type { ExplorerContext } from '../context';
import { areaKm2, dateTime, day } from '../../format';
import { originsOf } from '../catalogOrigins';
import { catalogRow, type CatalogOrigin } from '../labels';
import { kindIcon, statusIcon } from '../look';
import { nodeList, type NodeList } from '../nodeList';
import { statusLabel } from '../status';
import { recordTooltip } from '../tooltip';
import { RecordNode } from '../tree';

export function catalogRoot(ctx: ExplorerContext): NodeList<Catalog> {
  const origins = new Map<string, CatalogOrigin>();
  return nodeList<Catalog>(ctx, 'catalog', undefined, {
    what: l10n.t('catalog entries'),
    empty: l10n.t('No fulfilled imagery yet'),
    async fetch(client, q) {
      const page = await client.catalogs.searchPage({ offset: q.offset, limit: q.limit }, { signal: q.signal });
      for (const [id, o] of await originsOf(client, page.items, q.signal)) origins.set(id, o);
      return { items: page.items, total: page.total };
    },
    idOf: (c) => c.id,
    toNode: (c) => new CatalogNode(ctx, c, origins.get(c.id)),
  });
}

export class CatalogNode extends RecordNode<Catalog> {
  readonly kind = 'catalog' as const;
  readonly deliveries: NodeList<Delivery>;

  constructor(
    ctx: ExplorerContext,
    record: Catalog,
    readonly origin?: CatalogOrigin,
  ) {
    super('catalog', undefined, `catalog:${record.id}`, record);
    this.deliveries = nodeList<Delivery>(ctx, 'catalog', this, {
      what: l10n.t('deliveries'),
      empty: l10n.t('Not delivered to a cloud store yet'),
      fetch: async (client, q) => {
        // The listing is not paged: one call returns every delivery of the entry.
        const all = await client.deliveries.list({ catalog_id: this.record.id }, { signal: q.signal });
        return { items: all, total: all.length, done: true };
      },
      idOf: (d) => d.delivery_id,
      toNode: (d) => new DeliveryNode(this, d),
    });
  }

  get recordId(): string {
    return this.record.id;
  }

  /** What the entry is called where a person reads it (rows, titles, file names). */
  get label(): string {
    return catalogRow(l10n, this.record, this.origin, '').label;
  }

  getTreeItem(): vscode.TreeItem {
    const c = this.record;
    const o = this.origin;
    const row = catalogRow(l10n, c, o, statusLabel(c.delivery_status));
    const item = new vscode.TreeItem(row.label, vscode.TreeItemCollapsibleState.Collapsed);
    item.description = row.description;
    item.iconPath = kindIcon('library', c.delivery_status);
    item.contextValue = 'catalog';
    item.tooltip = recordTooltip(row.label, [
      [l10n.t('Place (order item)'), o?.itemName],
      [l10n.t('Ordered'), o?.ordered],
      [l10n.t('Delivery status'), statusLabel(c.delivery_status)],
      [l10n.t('Area'), areaKm2(c.area)],
      [l10n.t('Bandset'), c.bandset_id],
      [l10n.t('Created'), dateTime(c.created_at)],
      [l10n.t('ID'), c.id],
      [l10n.t('Order'), o?.orderId ?? (typeof c.order_id === 'string' ? c.order_id : undefined)],
      [l10n.t('Order item ID'), o?.itemId ?? (typeof c.order_item_id === 'string' ? c.order_item_id : undefined)],
      [l10n.t('Task'), c.task_id],
    ]);
    return item;
  }

  protected override childList(): NodeList<unknown> {
    return this.deliveries;
  }
}

export class DeliveryNode extends RecordNode<Delivery> {
  readonly kind = 'delivery' as const;

  constructor(
    readonly entry: CatalogNode,
    record: Delivery,
  ) {
    super('catalog', entry, `delivery:${record.delivery_id}`, record);
  }

  get recordId(): string {
    return this.record.delivery_id;
  }

  override status(): string {
    return this.record.status;
  }

  getTreeItem(): vscode.TreeItem {
    const d = this.record;
    const where = d.target_path || d.cloud_delivery?.path || l10n.t('Delivery of {0}', this.entry.label);
    const item = new vscode.TreeItem(where);
    item.description = `${statusLabel(d.status)} · ${day(d.created_at)}`;
    item.iconPath = statusIcon(d.status);
    item.contextValue = 'delivery';
    item.tooltip = recordTooltip(l10n.t('Delivery of {0}', this.entry.label), [
      [l10n.t('Status'), statusLabel(d.status)],
      [l10n.t('Store'), d.cloud_delivery?.config],
      [l10n.t('Target'), d.target_path],
      [l10n.t('Created'), dateTime(d.created_at)],
      [l10n.t('Updated'), dateTime(d.updated_at)],
      [l10n.t('ID'), d.delivery_id],
    ]);
    return item;
  }

  override refetch(client: EoClient, signal: AbortSignal): Promise<Delivery> {
    return client.deliveries.get(this.record.delivery_id, { signal });
  }
}
