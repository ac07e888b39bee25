import vscode = require('vscode');
import { l10n } from 'vscode';
import type { EoClient } from '../../api';
import type { OrderRecord } from '../../api/normalize';
import type { OrderItem, Task } from '../../api/records';
import type { ExplorerContext } from '../context';
import { areaKm2, count, dateTime, day, enumLabel, tokens } from '../../format';
import { amountText } from '../../ui/amounts';
import { orderLabel } from '../labels';
import { kindIcon, statusIcon } from '../look';
import { MessageNode } from '../rows';
import { nodeList, type NodeList } from '../nodeList';
import { statusLabel } from '../status';
import { recordTooltip } from '../tooltip';
import { ExplorerNode, RecordNode } from '../tree';

export function ordersRoot(ctx: ExplorerContext): NodeList<OrderRecord> {
  return nodeList<OrderRecord>(ctx, 'orders', undefined, {
    what: l10n.t('orders'),
    empty: l10n.t('No orders yet'),
    async fetch(client, q) {
      const page = await client.orders.listPage({ status: ctx.filters.current.orderStatus, offset: q.offset, limit: q.limit }, { signal: q.signal });
      return { items: page.items, total: page.total, scanned: page.scanned };
    },
    idOf: (o) => o.id ?? '',
    toNode: (o) => new OrderNode(ctx, o),
  });
}

export class OrderNode extends RecordNode<OrderRecord> {
  readonly kind = 'order' as const;
  readonly items: NodeList<OrderItem>;

  constructor(ctx: ExplorerContext, record: OrderRecord) {
    super('orders', undefined, `order:${record.id ?? ''}`, record);
    this.items = nodeList<OrderItem>(ctx, 'orders', this, {
      what: l10n.t('order items'),
      get empty(): string {
        const f = ctx.filters.current;
        return f.orderItemType || f.orderItemStatus ? l10n.t('No items of this order match the filter') : l10n.t('No items in this order');
      },
      fetch: async (client, q) => {
        const f = ctx.filters.current;
        const page = await client.orderItems.listPage(
          { order_ids: [this.recordId], type: f.orderItemType, status: f.orderItemStatus, offset: q.offset, limit: q.limit },
          { signal: q.signal },
        );
        return { items: page.items, total: page.total };
      },
      idOf: (i) => i.id,
      toNode: (i) => new OrderItemNode(this, i),
    });
  }

  get recordId(): string {
    return this.record.id ?? '';
  }

  override status(): string {
    return this.record.status;
  }

  /** "Nile Delta #1.1 +2 more": what the order buys, by its first item's name. */
  get label(): string {
    const o = this.record;
    return orderLabel(
      l10n,
      (o.order_items ?? []).map((i) => i.name),
      dateTime(o.created_at),
    );
  }

  getTreeItem(): vscode.TreeItem {
    const o = this.record;
    const label = this.label;
    const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.Collapsed);
    const n = o.order_items?.length ?? 0;
    item.description = [statusLabel(o.status), l10n.t('total amount {0}', amountText(o.total_amount)), day(o.created_at)].filter(Boolean).join(' · ');
    item.iconPath = kindIcon('package', o.status);
    item.contextValue = 'order';
    item.tooltip = recordTooltip(label, [
      [l10n.t('Status'), statusLabel(o.status)],
      [l10n.t('Total amount'), amountText(o.total_amount)],
      [l10n.t('Items'), n ? (o.order_items ?? []).map((i) => i.name || i.id).join(', ') : count(0)],
      [l10n.t('Created'), dateTime(o.created_at)],
      [l10n.t('Paid'), o.paid_at ? dateTime(o.paid_at) : l10n.t('not yet')],
      [l10n.t('Transaction'), o.transaction_id],
      [l10n.t('ID'), this.recordId],
    ]);
    return item;
  }

  protected override childList(): NodeList<unknown> {
    return this.items;
  }

  override refetch(client: EoClient, signal: AbortSignal): Promise<OrderRecord> {
    return client.orders.get(this.recordId, { signal });
  }
}

export class OrderItemNode extends RecordNode<OrderItem> {
  readonly kind = 'orderItem' as const;
  private readonly taskNodes = new Map<string, TaskNode>();

  constructor(parent: OrderNode, record: OrderItem) {
    super('orders', parent, `item:${record.id}`, record);
  }

  get recordId(): string {
    return this.record.id;
  }

  override status(): string {
    return this.record.status;
  }

  getTreeItem(): vscode.TreeItem {
    const i = this.record;
    const item = new vscode.TreeItem(i.name || l10n.t('{0} order item', enumLabel(i.type)), vscode.TreeItemCollapsibleState.Collapsed);
    item.description = `${enumLabel(i.type)} · ${statusLabel(i.status)} · ${statusLabel(i.payment_status)} · ${statusLabel(i.feasibility_status, 'feasibility').toLowerCase()}`;
    item.iconPath = kindIcon(i.type === 'ARCHIVE' ? 'archive' : i.type === 'RECURRING' ? 'history' : 'rocket', i.status);
    item.contextValue = `orderItem.${i.type.toLowerCase()}`;
    item.tooltip = recordTooltip(i.name || l10n.t('{0} order item', enumLabel(i.type)), [
      [l10n.t('Type'), `${enumLabel(i.type)} (${i.type})`],
      [l10n.t('Status'), statusLabel(i.status)],
      [l10n.t('Payment'), statusLabel(i.payment_status)],
      [l10n.t('Feasibility'), statusLabel(i.feasibility_status, 'feasibility')],
      [l10n.t('Area'), areaKm2(i.area)],
      [l10n.t('Amount'), l10n.t('{0} (base amount {1})', amountText(i.final_amount), amountText(i.base_amount))],
      [l10n.t('Tokens used'), typeof i.tokens_used === 'number' && i.tokens_used > 0 ? tokens(i.tokens_used) : undefined],
      [l10n.t('Recurrence'), i.recurrence ? enumLabel(i.recurrence) : undefined],
      [l10n.t('Delivery speed'), i.delivery_speed ? enumLabel(i.delivery_speed) : undefined],
      [l10n.t('Window'), i.start_date || i.end_date ? `${day(i.start_date)} → ${day(i.end_date)}` : undefined],
      [l10n.t('Tasks'), i.tasks?.length],
      [l10n.t('ID'), i.id],
    ]);
    return item;
  }

  override getChildren(): Promise<ExplorerNode[]> {
    const tasks = this.record.tasks ?? [];
    if (tasks.length === 0) return Promise.resolve([new MessageNode('orders', this, 'notasks', l10n.t('No tasks yet'))]);
    return Promise.resolve(
      tasks.map((t) => {
        let node = this.taskNodes.get(t.id);
        if (node) node.record = t;
        else this.taskNodes.set(t.id, (node = new TaskNode(this, t)));
        return node;
      }),
    );
  }

  /** The listing carries the tasks; reading one item by id may not, so ask the listing. */
  override async refetch(client: EoClient, signal: AbortSignal): Promise<OrderItem> {
    const page = await client.orderItems.listPage({ ids: [this.record.id], limit: 1 }, { signal });
    return page.items.find((i) => i.id === this.record.id) ?? this.record;
  }
}

export class TaskNode extends RecordNode<Task> {
  readonly kind = 'task' as const;

  constructor(parent: OrderItemNode, record: Task) {
    super('orders', parent, `task:${record.id}`, record);
  }

  get recordId(): string {
    return this.record.id;
  }

  getTreeItem(): vscode.TreeItem {
    const t = this.record;
    const item = new vscode.TreeItem(`${day(t.start_date)} → ${day(t.end_date)}`);
    item.description = l10n.t('{0} · delivery {1}', statusLabel(t.status), statusLabel(t.delivery_status).toLowerCase());
    item.iconPath = statusIcon(t.status);
    item.contextValue = 'task';
    const owner = (this.parent as OrderItemNode).record;
    item.tooltip = recordTooltip(l10n.t('Task of {0}, {1} → {2}', owner.name || enumLabel(owner.type), day(t.start_date), day(t.end_date)), [
      [l10n.t('Type'), enumLabel(t.type)],
      [l10n.t('Status'), statusLabel(t.status)],
      [l10n.t('Delivery'), statusLabel(t.delivery_status)],
      [l10n.t('Window'), `${t.start_date} → ${t.end_date}`],
      [l10n.t('Strips'), t.number_of_strips],
      [l10n.t('Tokens used'), typeof t.tokens_used === 'number' ? tokens(t.tokens_used) : undefined],
      [l10n.t('ID'), t.id],
    ]);
    return item;
  }
}
