/**
 * Tool: an archive or a tasking order priced as a dry run, nothing ordered: the priced summary
 * the Order wizards show (amount with unit, area, items, satellite…), built by the same code
 * (`priceOnly` and the summary of orders/placeOrder.ts, each wizard's request builder).
 */
import { l10n } from 'vscode';
import { priceOnly } from '../commands/orders/placeOrder';
import { archiveOrderOf, readArchiveOrder, type ArchiveOrderInput } from './archiveOrder';
import type { EoClient, OrderItemRequest } from '../api';
import { isObj } from '../api/shape';
import type { RequestLabels } from '../commands/orders/orderSummary';
import type { Found } from './lookup';
import type { Read } from './input';
import { readTaskingOrder, taskingOrderOf, type TaskingOrderInput } from './taskingOrder';
import { answer, dataNotice, quoted } from './text';
import { tool, type ToolServices } from './tool';
import { TOOLS } from './toolIds';

export type Input = ({ kind: 'archive' } & ArchiveOrderInput) | ({ kind: 'tasking' } & TaskingOrderInput);

/** Archive scenes (`items`) or new captures (`aoi` or `geometry`); `kind` may say which. */
export function readPriceInput(input: unknown): Read<Input> {
  const o = isObj(input) ? input : {};
  const kind = o.kind ?? (o.items !== undefined ? 'archive' : o.aoi !== undefined || o.geometry !== undefined ? 'tasking' : undefined);
  // `kind` is read here: the order's own reader refuses any field it does not take.
  const fields: Record<string, unknown> = { ...o };
  delete fields.kind;
  if (kind === 'archive') {
    const r = readArchiveOrder(isObj(input) ? fields : input);
    return r.ok ? { ok: true, value: { kind, ...r.value } } : r;
  }
  if (kind === 'tasking') {
    const r = readTaskingOrder(isObj(input) ? fields : input);
    return r.ok ? { ok: true, value: { kind, ...r.value } } : r;
  }
  return {
    ok: false,
    problems: [
      kind === undefined
        ? l10n.t('Missing what to price: "items" (archive scenes, collection/item-id) or "aoi" or "geometry" (a tasking order of new captures).')
        : l10n.t('Field "kind" must be one of "archive", "tasking".'),
    ],
  };
}

/** The request each wizard would send for these entries, and how its summary names things. */
export async function priceRequestOf(
  client: EoClient,
  input: Input,
): Promise<Found<{ projectLabel?: string; place: string; items: OrderItemRequest[]; labels: RequestLabels }>> {
  if (input.kind === 'tasking') {
    const t = await taskingOrderOf(client, input);
    if (!t.ok) return t;
    const { state, place } = t.value;
    return { ok: true, value: { projectLabel: state.projectLabel, place, items: t.value.build(state), labels: t.value.labels(state) } };
  }
  const a = await archiveOrderOf(client, input);
  if (!a.ok) return a;
  const { state } = a.value;
  return { ok: true, value: { projectLabel: state.projectLabel, place: '', items: a.value.build(state), labels: a.value.labels(state) } };
}

export const priceOrderTool = (services: ToolServices) =>
  tool<Input>({
    kind: 'reads',
    action: l10n.t('Price an order'),
    read: readPriceInput,
    progress: (i) =>
      i.kind === 'tasking'
        ? i.aoi
          ? l10n.t('Pricing a tasking order over {0} (dry run)…', i.aoi)
          : l10n.t('Pricing a tasking order over the given polygon (dry run)…')
        : i.items.length === 1
          ? l10n.t('Pricing 1 archive scene (dry run)…')
          : l10n.t('Pricing {0} archive scenes (dry run)…', i.items.length),
    run: async (input) => {
      const client = await services.connection.getClient();
      const order = await priceRequestOf(client, input);
      if (!order.ok) return order.reason;
      const { projectLabel, place, items, labels } = order.value;
      const pricing = await priceOnly(client, items, labels);
      if ('problems' in pricing) return l10n.t('This order cannot be priced as it stands: {0} Nothing was sent.', pricing.problems.join(' '));
      const { summary } = pricing;
      const next =
        input.kind === 'tasking'
          ? l10n.t(
              'The chat tools do not place tasking orders: to order it, the person runs "Order Tasking…" on the AOI in the Projects view (or on the GeoJSON file), which shows this price again before anything is ordered.',
            )
          : l10n.t("To order it, call {0} with the same input: the person then confirms the price in EO Imagery's own dialog.", TOOLS.placeOrder);
      return answer(
        dataNotice(),
        input.kind === 'tasking'
          ? l10n.t('Dry run of a tasking order over {0} for project {1}: {2}. Nothing was ordered.', place, quoted(projectLabel), summary.headline)
          : l10n.t('Dry run for project {0}: {1}. Nothing was ordered.', quoted(projectLabel), summary.headline),
        // The priced breakdown restates the service's answer: each of its lines is data.
        ...summary.detail
          .split('\n')
          .filter((l) => l.trim())
          .map((l) => quoted(l.trim(), 400)),
        summary.blockers.length ? l10n.t('It cannot be placed as it stands: {0}', summary.blockers.map((b) => quoted(b)).join(' ')) : undefined,
        summary.warnings.length ? l10n.t('Warnings: {0}', summary.warnings.map((w) => quoted(w)).join(' ')) : undefined,
        summary.blockers.length ? undefined : next,
      );
    },
  });
