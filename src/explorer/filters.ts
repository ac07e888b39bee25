import vscode = require('vscode');
import { l10n } from 'vscode';
import { enumLabel } from '../format';
import type { OrderItemStatus, OrderItemType, OrderStatus } from '../api/records';

export interface ExplorerFilters {
  /** Server-side `aoi_name` on every project's AOI list. */
  aoiName?: string;
  /** `status` of `GET /v0/orders`. */
  orderStatus?: OrderStatus;
  /** `type` and `status` of `GET /v0/order-items`, under every order. */
  orderItemType?: OrderItemType;
  orderItemStatus?: OrderItemStatus;
}

/** The filters of the sidebar; views reload when they change. Kept for the session only. */
export class FilterState implements vscode.Disposable {
  private value: ExplorerFilters = {};
  private readonly emitter = new vscode.EventEmitter<'projects' | 'orders'>();
  /** Fires with the view whose filter changed. */
  readonly onDidChange = this.emitter.event;

  get current(): Readonly<ExplorerFilters> {
    return this.value;
  }

  /** Applies several changes with one reload; empty strings clear. */
  update(patch: Partial<ExplorerFilters>): void {
    const next: ExplorerFilters = { ...this.value };
    for (const [key, v] of Object.entries(patch) as [keyof ExplorerFilters, string | undefined][]) {
      const clean = typeof v === 'string' && v.trim() === '' ? undefined : v;
      if (clean === undefined) delete next[key];
      else (next as Record<string, string>)[key] = clean;
    }
    const before = this.value;
    this.value = next;
    const projects = before.aoiName !== next.aoiName;
    const orders = before.orderStatus !== next.orderStatus || before.orderItemType !== next.orderItemType || before.orderItemStatus !== next.orderItemStatus;
    void vscode.commands.executeCommand('setContext', 'eoImagery.projects.filtered', next.aoiName !== undefined);
    void vscode.commands.executeCommand(
      'setContext',
      'eoImagery.orders.filtered',
      next.orderStatus !== undefined || next.orderItemType !== undefined || next.orderItemStatus !== undefined,
    );
    if (projects) this.emitter.fire('projects');
    if (orders) this.emitter.fire('orders');
  }

  /** What the Projects view's message says about the filter, if any. */
  projectsText(): string | undefined {
    return this.value.aoiName !== undefined ? l10n.t('AOI name contains "{0}"', this.value.aoiName) : undefined;
  }

  ordersText(): string | undefined {
    const parts: string[] = [];
    if (this.value.orderStatus) parts.push(l10n.t('order status {0}', enumLabel(this.value.orderStatus)));
    if (this.value.orderItemType) parts.push(l10n.t('item type {0}', enumLabel(this.value.orderItemType)));
    if (this.value.orderItemStatus) parts.push(l10n.t('item status {0}', enumLabel(this.value.orderItemStatus)));
    return parts.length ? parts.join(', ') : undefined;
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
