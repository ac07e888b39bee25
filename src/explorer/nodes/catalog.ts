import vscode = require('vscode');
import type { EoClient } from '../../api';
import type { Catalog, Delivery } from '../../api/records';
import type { ExplorerContext } from '../context';
import { areaKm2, dateTime, day } from '../../format';
import { kindIcon, statusIcon } from '../look';
import { PagedChildren } from '../paged';
import { statusLabel } from '../status';
import { recordTooltip } from '../tooltip';
import { RecordNode } from '../tree';

export function catalogRoot(ctx: ExplorerContext): PagedChildren<Catalog> {
  return new PagedChildren<Catalog>(ctx, 'catalog', undefined, {
    what: 'catalog entries',
    empty: 'No fulfilled imagery yet',
    async fetch(client, q) {
      const page = await client.catalogs.searchPage({ offset: q.offset, limit: q.limit }, { signal: q.signal });
      return { items: page.items, total: page.total };
    },
    idOf: (c) => c.id,
    toNode: (c) => new CatalogNode(ctx, c),
  });
}

export class CatalogNode extends RecordNode<Catalog> {
  readonly kind = 'catalog' as const;
  readonly deliveries: PagedChildren<Delivery>;

  constructor(ctx: ExplorerContext, record: Catalog) {
    super('catalog', undefined, `catalog:${record.id}`, record);
    this.deliveries = new PagedChildren<Delivery>(ctx, 'catalog', this, {
      what: 'deliveries',
      empty: 'Not delivered to a cloud store yet',
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

  getTreeItem(): vscode.TreeItem {
    const c = this.record;
    // Entries have no name: the day and bandset say what it is, the tooltip has the ids.
    const item = new vscode.TreeItem(`${day(c.created_at)} · ${c.bandset_id || c.id}`, vscode.TreeItemCollapsibleState.Collapsed);
    item.description = `${areaKm2(c.area)} · ${statusLabel(c.delivery_status)}`;
    item.iconPath = kindIcon('library', c.delivery_status);
    item.contextValue = 'catalog';
    item.tooltip = recordTooltip(`Catalog entry ${c.id}`, [
      ['ID', c.id],
      ['Delivery status', statusLabel(c.delivery_status)],
      ['Area', areaKm2(c.area)],
      ['Bandset', c.bandset_id],
      ['Task', c.task_id],
      ['Order item', typeof c.order_item_id === 'string' ? c.order_item_id : undefined],
      ['Created', dateTime(c.created_at)],
    ]);
    return item;
  }

  protected override childList(): PagedChildren<unknown> {
    return this.deliveries;
  }
}

export class DeliveryNode extends RecordNode<Delivery> {
  readonly kind = 'delivery' as const;

  constructor(parent: CatalogNode, record: Delivery) {
    super('catalog', parent, `delivery:${record.delivery_id}`, record);
  }

  get recordId(): string {
    return this.record.delivery_id;
  }

  override status(): string {
    return this.record.status;
  }

  getTreeItem(): vscode.TreeItem {
    const d = this.record;
    const item = new vscode.TreeItem(d.target_path || d.cloud_delivery?.path || d.delivery_id);
    item.description = `${statusLabel(d.status)} · ${day(d.created_at)}`;
    item.iconPath = statusIcon(d.status);
    item.contextValue = 'delivery';
    item.tooltip = recordTooltip(`Delivery ${d.delivery_id}`, [
      ['Status', statusLabel(d.status)],
      ['Store', d.cloud_delivery?.config],
      ['Target', d.target_path],
      ['Created', dateTime(d.created_at)],
      ['Updated', dateTime(d.updated_at)],
    ]);
    return item;
  }

  override refetch(client: EoClient, signal: AbortSignal): Promise<Delivery> {
    return client.deliveries.get(this.record.delivery_id, { signal });
  }
}
