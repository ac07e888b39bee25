/**
 * The priced summary of a dry run, as text for a modal: per item what is bought (restated from
 * the request: dates, captures, bandset, limits, delivery; or the scenes with their dates),
 * then its area, base and final amounts, uplifts, feasibility and validation errors, then the
 * total amount. Also decides whether the order may be confirmed at all. Pure: no `vscode`;
 * the words go through the `l10n` the caller passes.
 */
import type { Order, OrderItem, OrderItemRequest } from '../../api/records';
import type { L10n } from '../../explorer/labels';

export interface OrderSummary {
  /** One line: "2 items · total amount 1,234.50 EUR". */
  headline: string;
  /** The full breakdown, one item per paragraph. */
  detail: string;
  /** Reasons the order cannot be placed as priced (validation errors, infeasible items). */
  blockers: string[];
  /** Warnings that do not stop the order (weak feasibility). */
  warnings: string[];
  total: number;
}

import { amount, day, enumLabel, preciseKm2 as formatArea } from '../../format';
import { safeText } from '../../safeText';

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
      const list = Array.isArray(msgs)
        ? msgs.map((m) => (typeof m === 'string' ? m : JSON.stringify(m)))
        : [typeof msgs === 'string' ? msgs : JSON.stringify(msgs)];
      byField.set(field, [...(byField.get(field) ?? []), ...list]);
    }
  }
  for (const [field, msgs] of byField) out.push({ text: `${field}: ${msgs.join('; ')}`, field, warning: false });
  return out;
}

/** Names for what a request names by id, from the wizard that built it. */
export interface RequestLabels {
  /** The bandset as the person picked it ("Red edge · Sentinel-2"). */
  bandset?: string;
  satellite?: string;
  /** The cloud store's name; empty for no cloud delivery. */
  store?: string;
  /** Archive scenes: what each `item_ids` entry is, with its acquisition date (and, for a plan, its collection and footprint's box). */
  scenes?: { id: string; title?: string; date?: string; collection?: string; bbox?: [number, number, number, number] }[];
  /** The project billed and the AOI ordered over, as the person picked them (an order plan writes them beside the ids). */
  project?: string;
  aoi?: string;
}

/** English, for callers without a translation (tests, logs). */
const ENGLISH: L10n = { t: (m, ...a) => m.replace(/\{(\d+)\}/g, (_, i: string) => String(a[Number(i)])) };

/**
 * What one item buys, in words, from the request the person confirmed: tasking — dates,
 * captures, bandset and satellite, cloud and angle limits, speed, delivery; archive — the
 * scenes with their dates. Ids appear only where nothing names them.
 */
export function restateRequest(l10n: L10n, req: OrderItemRequest, labels: RequestLabels = {}): string[] {
  const lines: string[] = [];
  if (req.item_ids?.length) {
    const byId = new Map((labels.scenes ?? []).map((s) => [s.id, s]));
    lines.push(req.item_ids.length === 1 ? l10n.t('1 archive scene:') : l10n.t('{0} archive scenes:', req.item_ids.length));
    for (const id of req.item_ids) {
      const s = byId.get(id);
      const date = s?.date ? day(s.date) : '';
      lines.push(date ? l10n.t('• {0}, acquired {1}', s?.title || id, date) : `• ${s?.title || id}`);
    }
  } else {
    if (req.start_date || req.end_date) lines.push(l10n.t('Dates: {0} → {1}', day(req.start_date) || '…', day(req.end_date) || '…'));
    const n = req.recurrence === 'ONCE' || req.no_of_occurrences === undefined ? 1 : req.no_of_occurrences;
    lines.push(n === 1 ? l10n.t('Captures: 1 ({0})', enumLabel(req.recurrence ?? 'ONCE')) : l10n.t('Captures: {0} ({1})', n, enumLabel(req.recurrence)));
    const bandset = labels.bandset || req.bandset?.bandset_id;
    if (bandset) lines.push(labels.satellite ? l10n.t('Bandset: {0} · satellite {1}', bandset, labels.satellite) : l10n.t('Bandset: {0}', bandset));
    const limits = [
      typeof req.cloud_cover === 'number' ? l10n.t('cloud cover at most {0} %', req.cloud_cover) : '',
      typeof req.off_nadir === 'number' ? l10n.t('off-nadir angle at most {0}°', req.off_nadir) : '',
    ].filter(Boolean);
    if (limits.length) lines.push(l10n.t('Limits: {0}', limits.join(', ')));
    if (req.delivery_speed) lines.push(l10n.t('Delivery speed: {0}', enumLabel(req.delivery_speed)));
  }
  lines.push(
    req.cloud_delivery
      ? l10n.t('Delivered to: {0} / {1}', labels.store || req.cloud_delivery.config, req.cloud_delivery.path)
      : l10n.t('Delivered to: no cloud store (kept in the catalog)'),
  );
  return lines;
}

export interface SummaryOptions {
  l10n?: L10n;
  /** The unit the organisation is billed in (setting), shown after every amount. */
  unit?: string;
  /** Per item, the lines of `restateRequest` (same order as the items). */
  requested?: readonly string[][];
}

export function summarizeOrder(order: Pick<Order, 'order_items' | 'total_amount'>, options: SummaryOptions = {}): OrderSummary {
  const l10n = options.l10n ?? ENGLISH;
  const money = (n: number | undefined | null): string => amount(n, options.unit);
  const items = order.order_items ?? [];
  const blockers: string[] = [];
  const warnings: string[] = [];
  const paragraphs = items.map((item, i) => {
    // The service's words stay on their own line: a name holding "\nTotal amount: 0" cannot
    // add a line to the priced confirmation.
    const name = item.name ? safeText(item.name, 'line', 100) : l10n.t('Item {0}', i + 1);
    const lines = [
      `${i + 1}. ${name} — ${safeText(enumLabel(item.type), 'line', 60)}`,
      ...(options.requested?.[i] ?? []).map((l) => `   ${safeText(l, 'line', 300)}`),
      `   ${l10n.t('Area {0} · base amount {1} · final amount {2}', formatArea(item.area), money(item.base_amount), money(item.final_amount))}`,
      `   ${l10n.t('Feasibility: {0}', safeText(enumLabel(item.feasibility_status, 'feasibility'), 'line', 60))}`,
    ];
    for (const u of item.uplifts ?? []) {
      const what = safeText(u.subtitle ? `${u.title} (${u.subtitle})` : u.title, 'line', 100);
      lines.push(`   ${l10n.t('Uplift: {0} +{1}% = {2}', what, u.percentage, money(u.amount))}`);
    }
    for (const msg of validationMessages(item)) {
      const text = safeText(msg.text, 'line', 300);
      lines.push(`   ${msg.warning ? '⚠' : '✗'} ${text}`);
      (msg.warning ? warnings : blockers).push(`${name}: ${text}`);
    }
    if (item.feasibility_status === 'FAILED') blockers.push(l10n.t('{0} is not feasible.', name));
    if (item.feasibility_status === 'WEAK_SUCCESS') warnings.push(l10n.t('{0} is only weakly feasible.', name));
    return lines.join('\n');
  });
  const total = typeof order.total_amount === 'number' ? order.total_amount : sum(items.map((i) => i.final_amount));
  const count = items.length === 1 ? l10n.t('1 item') : l10n.t('{0} items', items.length);
  const detail = [...paragraphs, '', l10n.t('Total amount: {0}', money(total))].join('\n');
  return { headline: l10n.t('{0} · total amount {1}', count, money(total)), detail, blockers, warnings, total };
}

function sum(ns: readonly number[]): number {
  return ns.reduce((a, b) => a + (Number.isFinite(b) ? b : 0), 0);
}
