/**
 * From what the person clicked to an order plan file: the priced confirmation of the order
 * wizards and the chat tools ("Save as Order Plan…"), the map's selected scenes, an order in
 * the sidebar ("Open as Order Plan", to order again or adapt).
 */
import vscode = require('vscode');
import { l10n } from 'vscode';
import type { OrderItemRequest, OrderRecord } from '../../api';
import { planFromOrder, planFromRequest, planText, type PlanNames } from '../../plans/planWrite';
import { PLAN_FILE_SUFFIX, type OrderPlan } from '../../plans/planFile';
import { safeFileName } from '../../fileNames';
import { askCompoundSaveTarget } from '../compoundSave';
import type { RequestLabels } from '../orders/orderSummary';
import type { CommandServices } from '../services';

export const SAVE_AS_PLAN = l10n.t('Save as Order Plan…');

/** The names a confirmation showed, as a plan writes them beside the ids. */
export function planNamesOf(labels: RequestLabels): PlanNames {
  return {
    project: labels.project,
    store: labels.store,
    bandset: labels.bandset,
    aoi: labels.aoi,
    scenes: labels.scenes?.map((s) => ({ collection: s.collection ?? '', id: s.id, ...sceneExtras(s) })),
  };
}

function sceneExtras(s: NonNullable<RequestLabels['scenes']>[number]): { title?: string; acquired?: string; bbox?: [number, number, number, number] } {
  const out: { title?: string; acquired?: string; bbox?: [number, number, number, number] } = {};
  if (s.title && s.title !== s.id) out.title = s.title;
  if (s.date) out.acquired = s.date.slice(0, 10);
  if (s.bbox) out.bbox = s.bbox;
  return out;
}

/** Asks where, writes the plan and opens it beside; the file's URI, or undefined when cancelled. */
export async function writePlanFile(services: CommandServices, plan: OrderPlan): Promise<vscode.Uri | undefined> {
  const stem = safeFileName(plan.name ?? '') || 'order-plan';
  const uri = await askCompoundSaveTarget(services, {
    title: l10n.t('Save as Order Plan'),
    saveLabel: l10n.t('Save Order Plan'),
    name: `${stem}${PLAN_FILE_SUFFIX}`,
    kind: l10n.t('Order plans'),
    suffix: PLAN_FILE_SUFFIX,
  });
  if (!uri) return undefined;
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(planText(plan)));
  await vscode.window.showTextDocument(uri, { preview: false });
  return uri;
}

/** A plan of the order a confirmation priced (nothing is placed). */
export function savePlan(services: CommandServices, draft: { items: OrderItemRequest[]; labels: RequestLabels }): Promise<vscode.Uri | undefined> {
  return writePlanFile(services, planFromRequest(draft.items, planNamesOf(draft.labels)));
}

/** A new plan from an order already placed: to order it again or adapt it. */
export async function openOrderAsPlan(services: CommandServices, order: OrderRecord | undefined): Promise<vscode.Uri | undefined> {
  if (!order) {
    await services.ui.message('info', l10n.t('Run this on an order in the Orders view.'), {});
    return undefined;
  }
  const plan = planFromOrder(order, { name: l10n.t('Again: {0}', order.order_items?.[0]?.name ?? order.id ?? '') });
  return writePlanFile(services, plan);
}
