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
 * The item's validation errors as one line per field. The service sends each entry as a map
 * from field name to its messages (`{"geometry": ["…", "…"]}`); the first version's
 * `{field, message, severity}` is still read, and only its `severity: "warning"` entries do
 * not stop the order. Fields named in several entries are gathered on one line.
 */
export function validationMessages(item: Pick<OrderItem, 'validation_errors'>): { text: string; field?: string; warning: boolean }[] {
  const byField = new Map<string, string[]>();
  const out: { text: string; field?: string; warning: boolean }[] = [];
  for (const e of item.validation_errors ?? []) {
    if (typeof e !== 'object' || e === null) continue;
    const rec = e as Record<string, unknown>;
    if (typeof rec.message === 'string') {
      const field = typeof rec.field === 'string' && rec.field ? rec.field : undefined;
      out.push({ text: field ? `${field}: ${rec.message}` : rec.message, field, warning: rec.severity === 'warning' });
      continue;
    }
    for (const [field, msgs] of Object.entries(rec)) {
      const list = Array.isArray(msgs) ? msgs.map((m) => (typeof m === 'string' ? m : JSON.stringify(m))) : [typeof msgs === 'string' ? msgs : JSON.stringify(msgs)];
      byField.set(field, [...(byField.get(field) ?? []), ...list]);
    }
  }
  for (const [field, msgs] of byField) out.push({ text: `${field}: ${msgs.join('; ')}`, field, warning: false });
  return out;
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
