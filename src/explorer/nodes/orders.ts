import vscode = require('vscode');
import type { EoClient } from '../../api';
import type { OrderRecord } from '../../api/normalize';
import type { OrderItem, Task } from '../../api/records';
import type { ExplorerContext } from '../context';
import { amount, areaKm2, count, dateTime, day } from '../../format';
import { kindIcon, statusIcon } from '../look';
import { MessageNode } from '../rows';
import { PagedChildren } from '../paged';
import { statusLabel } from '../status';
import { recordTooltip } from '../tooltip';
import { ExplorerNode, RecordNode } from '../tree';

export function ordersRoot(ctx: ExplorerContext): PagedChildren<OrderRecord> {
  return new PagedChildren<OrderRecord>(ctx, 'orders', undefined, {
    what: 'orders',
    empty: 'No orders yet',
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
  readonly items: PagedChildren<OrderItem>;

  constructor(ctx: ExplorerContext, record: OrderRecord) {
    super('orders', undefined, `order:${record.id ?? ''}`, record);
    this.items = new PagedChildren<OrderItem>(ctx, 'orders', this, {
      what: 'order items',
      get empty(): string {
        const f = ctx.filters.current;
        return f.orderItemType || f.orderItemStatus ? 'No items of this order match the filter' : 'No items in this order';
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

  getTreeItem(): vscode.TreeItem {
    const o = this.record;
    const item = new vscode.TreeItem(dateTime(o.created_at).replace(' UTC', ''), vscode.TreeItemCollapsibleState.Collapsed);
    const n = o.order_items?.length ?? 0;
    item.description = `${statusLabel(o.status)} · ${amount(o.total_amount)}${n ? ` · ${count(n)} item${n === 1 ? '' : 's'}` : ''}`;
    item.iconPath = kindIcon('package', o.status);
    item.contextValue = 'order';
    item.tooltip = recordTooltip(`Order ${this.recordId}`, [
      ['Status', statusLabel(o.status)],
      ['Total', amount(o.total_amount)],
      ['Items', n],
      ['Created', dateTime(o.created_at)],
      ['Paid', o.paid_at ? dateTime(o.paid_at) : 'not yet'],
      ['Transaction', o.transaction_id],
    ]);
    return item;
  }

  protected override childList(): PagedChildren<unknown> {
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
    const item = new vscode.TreeItem(i.name || i.id, vscode.TreeItemCollapsibleState.Collapsed);
    item.description = `${i.type} · ${statusLabel(i.status)} · ${statusLabel(i.payment_status)} · feasibility ${statusLabel(i.feasibility_status).toLowerCase()}`;
    item.iconPath = kindIcon(i.type === 'ARCHIVE' ? 'archive' : i.type === 'RECURRING' ? 'history' : 'rocket', i.status);
    item.contextValue = `orderItem.${i.type.toLowerCase()}`;
    item.tooltip = recordTooltip(i.name || i.id, [
      ['Type', i.type],
      ['Status', statusLabel(i.status)],
      ['Payment', statusLabel(i.payment_status)],
      ['Feasibility', statusLabel(i.feasibility_status)],
      ['Area', areaKm2(i.area)],
      ['Amount', `${amount(i.final_amount)} (base ${amount(i.base_amount)})`],
      ['Window', i.start_date || i.end_date ? `${day(i.start_date)} → ${day(i.end_date)}` : undefined],
      ['Tasks', i.tasks?.length],
      ['ID', i.id],
    ]);
    return item;
  }

  override getChildren(): Promise<ExplorerNode[]> {
    const tasks = this.record.tasks ?? [];
    if (tasks.length === 0) return Promise.resolve([new MessageNode('orders', this, 'notasks', 'No tasks yet')]);
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
    item.description = `${statusLabel(t.status)} · delivery ${statusLabel(t.delivery_status).toLowerCase()}`;
    item.iconPath = statusIcon(t.status);
    item.contextValue = 'task';
    item.tooltip = recordTooltip(`Task ${t.id}`, [
      ['Type', t.type],
      ['Status', statusLabel(t.status)],
      ['Delivery', statusLabel(t.delivery_status)],
      ['Window', `${t.start_date} → ${t.end_date}`],
      ['Strips', t.number_of_strips],
      ['Tokens used', t.tokens_used],
    ]);
    return item;
  }
}
