/**
 * The priced summary of a dry run, as text for a modal: per item its area, base and final
 * amounts, uplifts, feasibility and validation errors, then the total. Also decides whether
 * the order may be confirmed at all. Pure: no `vscode`.
 */
import type { Order, OrderItem } from '../../api/records';

export interface OrderSummary {
  /** One line: "2 items · total 1,234.50". */
  headline: string;
  /** The full breakdown, one item per paragraph. */
  detail: string;
  /** Reasons the order cannot be placed as priced (validation errors, infeasible items). */
  blockers: string[];
  /** Warnings that do not stop the order (weak feasibility). */
  warnings: string[];
  total: number;
}

import { amount as formatAmount, preciseKm2 as formatArea } from '../../format';

/**
 * The item's validation errors as lines; an entry marked `severity: "warning"` does not stop
 * the order (the service prices it anyway), everything else does.
 */
export function validationMessages(item: Pick<OrderItem, 'validation_errors'>): { text: string; warning: boolean }[] {
  return (item.validation_errors ?? []).map((e) => {
    const rec = e as { field?: unknown; message?: unknown; severity?: unknown };
    const msg = typeof rec.message === 'string' ? rec.message : JSON.stringify(e);
    const text = typeof rec.field === 'string' && rec.field ? `${rec.field}: ${msg}` : msg;
    return { text, warning: rec.severity === 'warning' };
  });
}

export function summarizeOrder(order: Pick<Order, 'order_items' | 'total_amount'>): OrderSummary {
  const items = order.order_items ?? [];
  const blockers: string[] = [];
  const warnings: string[] = [];
  const paragraphs = items.map((item, i) => {
    const label = `${i + 1}. ${item.name || '(unnamed)'} — ${item.type}`;
    const lines = [
      label,
      `   Area ${formatArea(item.area)} · base ${formatAmount(item.base_amount)} · final ${formatAmount(item.final_amount)}`,
      `   Feasibility: ${item.feasibility_status || 'not checked'}`,
    ];
    for (const u of item.uplifts ?? []) {
      const what = u.subtitle ? `${u.title} (${u.subtitle})` : u.title;
      lines.push(`   Uplift: ${what} +${u.percentage}% = ${formatAmount(u.amount)}`);
    }
    for (const msg of validationMessages(item)) {
      lines.push(`   ${msg.warning ? '⚠' : '✗'} ${msg.text}`);
      (msg.warning ? warnings : blockers).push(`${item.name || `Item ${i + 1}`}: ${msg.text}`);
    }
    if (item.feasibility_status === 'FAILED') blockers.push(`${item.name || `Item ${i + 1}`} is not feasible.`);
    if (item.feasibility_status === 'WEAK_SUCCESS') warnings.push(`${item.name || `Item ${i + 1}`} is only weakly feasible.`);
    return lines.join('\n');
  });
  const total = typeof order.total_amount === 'number' ? order.total_amount : sum(items.map((i) => i.final_amount));
  const count = `${items.length} item${items.length === 1 ? '' : 's'}`;
  const detail = [...paragraphs, '', `Total: ${formatAmount(total)}`].join('\n');
  return { headline: `${count} · total ${formatAmount(total)}`, detail, blockers, warnings, total };
}

function sum(ns: readonly number[]): number {
  return ns.reduce((a, b) => a + (Number.isFinite(b) ? b : 0), 0);
}
