import type * as vscode from 'vscode';
import { l10n } from 'vscode';
import { enumLabel } from '../../format';
import type { OrderItemStatus, OrderItemType, OrderStatus } from '../../api/records';
import type { ExplorerApi } from '../../explorer/explorer';
import type { ExtensionServices } from '../../services';

const ORDER_STATUSES: readonly OrderStatus[] = ['UNPAID', 'PAYMENT_IN_PROGRESS', 'PAID', 'REFUND'];
const ITEM_TYPES: readonly OrderItemType[] = ['TASKING', 'ARCHIVE', 'RECURRING'];
const ITEM_STATUSES: readonly OrderItemStatus[] = ['DRAFT', 'ACTIVE', 'FULFILLED', 'PARTIALLY_FULFILLED', 'FAILED', 'CANCELLED'];

interface Choice<T> extends vscode.QuickPickItem {
  value: T | undefined;
}

function choices<T extends string>(values: readonly T[], current: T | undefined, anyLabel: string): Choice<T>[] {
  return [
    { label: anyLabel, value: undefined, picked: current === undefined, description: current === undefined ? l10n.t('current') : undefined },
    // The words, with the service's value for whoever knows it by that name.
    ...values.map((v) => ({ label: enumLabel(v), value: v, picked: v === current, description: v === current ? l10n.t('current · {0}', v) : v })),
  ];
}

/** Server-side `aoi_name` filter on every project's AOIs. */
export async function filterAois(services: ExtensionServices, explorer: ExplorerApi): Promise<void> {
  const name = await services.ui.input({
    title: l10n.t('Filter AOIs by Name'),
    prompt: l10n.t('Show only AOIs whose name matches (the service compares); leave empty to show all.'),
    value: explorer.filters.current.aoiName ?? '',
    placeHolder: l10n.t('e.g. Delhi'),
  });
  if (name === undefined) return;
  explorer.filters.update({ aoiName: name.trim() || undefined });
}

export async function filterOrders(services: ExtensionServices, explorer: ExplorerApi): Promise<void> {
  const picked = await services.ui.pick(choices(ORDER_STATUSES, explorer.filters.current.orderStatus, l10n.t('Any status')), {
    title: l10n.t('Filter Orders by Status'),
    placeHolder: l10n.t('Order status'),
  });
  if (!picked) return;
  explorer.filters.update({ orderStatus: picked.value });
}

/** Type and status of the order items shown under each order (`type`, `status` params). */
export async function filterOrderItems(services: ExtensionServices, explorer: ExplorerApi): Promise<void> {
  const f = explorer.filters.current;
  const type = await services.ui.pick(choices(ITEM_TYPES, f.orderItemType, l10n.t('Any type')), {
    title: l10n.t('Filter Order Items (1/2): Type'),
    placeHolder: l10n.t('Order item type'),
  });
  if (!type) return;
  const status = await services.ui.pick(choices(ITEM_STATUSES, f.orderItemStatus, l10n.t('Any status')), {
    title: l10n.t('Filter Order Items (2/2): Status'),
    placeHolder: l10n.t('Order item status'),
  });
  if (!status) return;
  explorer.filters.update({ orderItemType: type.value, orderItemStatus: status.value });
}

export function clearProjectsFilter(explorer: ExplorerApi): void {
  explorer.filters.update({ aoiName: undefined });
}

export function clearOrdersFilter(explorer: ExplorerApi): void {
  explorer.filters.update({ orderStatus: undefined, orderItemType: undefined, orderItemStatus: undefined });
}
