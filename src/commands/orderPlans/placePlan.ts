/**
 * Price and Place an order plan. Pricing is the service's dry run, never cached past an edit;
 * placing goes through the wizards' priced confirmation (`priceAndConfirm`: Cancel first and
 * preselected, the order POST sent once on the pick of Place Order), and then writes `placed`
 * into the file. A plan that says it was placed asks first, Cancel first again: a second
 * click, a copy of the file or a reverted commit does not order twice without a decision.
 */
import * as path from 'node:path';
import vscode = require('vscode');
import { l10n } from 'vscode';
import type { OrderRecord } from '../../api';
import { jsonc } from '../../insights/jsonc';
import { checkPlanText } from '../../plans/checkPlan';
import { placementOf, requestFingerprint, requestOf, type OrderPlan, type PlacedRecord } from '../../plans/planFile';
import { amountUnit } from '../../ui/amounts';
import { confirmSpend } from '../../ui/confirmSpend';
import { withProgress } from '../../ui/progress';
import { safeText } from '../../safeText';
import type { CommandServices } from '../services';
import type { RequestLabels } from '../orders/orderSummary';
import { priceAndConfirm, priceOnly } from '../orders/placeOrder';

export const PLACE_NEW_ORDER = l10n.t('Place a New Order…');

/** A plan's price as the dry run gave it, for the document version it was asked for. */
export interface PlanPrice {
  version: number;
  priced: OrderRecord;
  headline: string;
  blockers: string[];
  warnings: string[];
}

/** What the confirmation names: the store, the scenes, the bandset of a single tasking item. */
export function planLabels(plan: OrderPlan): RequestLabels {
  const tasking = plan.items.filter((i) => i.kind === 'tasking');
  const scenes = plan.items.flatMap((i) => (i.kind === 'archive' ? i.scenes.map((s) => ({ id: s.id, title: s.title, date: s.acquired })) : []));
  return {
    store: plan.delivery?.store.name,
    bandset: tasking.length === 1 && tasking[0].kind === 'tasking' ? tasking[0].bandset.name : undefined,
    scenes,
  };
}

const fileName = (doc: vscode.TextDocument): string => path.basename(doc.uri.path);

/** The plan in `doc`, or undefined after saying why it cannot be priced or placed. */
async function readPlan(services: CommandServices, doc: vscode.TextDocument, verb: string): Promise<OrderPlan | undefined> {
  const checked = checkPlanText(doc.getText());
  const errors = checked.diagnostics.filter((d) => d.severity === 'error').length;
  if (!checked.plan || errors) {
    // The problems themselves are in the Problems view: their words quote the file, which a notification must not render.
    const show = l10n.t('Show Problems');
    const answer = await services.ui.message(
      'warning',
      errors > 1
        ? l10n.t('{0} has {1} problems. Fix them before you {2} it.', fileName(doc), errors, verb)
        : errors === 1
          ? l10n.t('{0} has a problem. Fix it before you {1} it.', fileName(doc), verb)
          : l10n.t('{0} is not valid JSON. Fix it before you {1} it.', fileName(doc), verb),
      {},
      show,
    );
    if (answer === show) await vscode.commands.executeCommand('workbench.actions.view.problems');
    return undefined;
  }
  return checked.plan;
}

export async function planDocument(services: CommandServices, uri: vscode.Uri | undefined): Promise<vscode.TextDocument | undefined> {
  const target = uri ?? vscode.window.activeTextEditor?.document.uri;
  if (!target) {
    await services.ui.message('info', l10n.t('Open an order plan (.eoorder.json) first.'), {});
    return undefined;
  }
  return vscode.workspace.openTextDocument(target);
}

/** Prices the plan with a dry run; nothing is ordered. */
export async function pricePlan(services: CommandServices, doc: vscode.TextDocument): Promise<PlanPrice | undefined> {
  const version = doc.version;
  const plan = await readPlan(services, doc, l10n.t('price'));
  if (!plan) return undefined;
  const client = await services.connection.getClient();
  const pricing = await withProgress({ location: vscode.ProgressLocation.Window, title: l10n.t('Pricing {0} (dry run)…', fileName(doc)) }, () =>
    priceOnly(client, requestOf(plan), planLabels(plan)),
  );
  if ('problems' in pricing) {
    await services.ui.message(
      'warning',
      l10n.t('{0} cannot be priced: {1} problem(s) with the order rules (see the Problems view).', fileName(doc), pricing.problems.length),
      {},
    );
    return undefined;
  }
  const { summary } = pricing;
  vscode.window.setStatusBarMessage(safeText(l10n.t('{0}: {1} (dry run, nothing ordered)', fileName(doc), summary.headline), 'notification'), 8000);
  return { version, priced: pricing.priced, headline: summary.headline, blockers: summary.blockers, warnings: summary.warnings };
}

/** The edit that writes (or replaces) `placed`, in the file's own indentation. */
export function placedEdit(text: string, placed: PlacedRecord): { offset: number; length: number; content: string }[] {
  const indent = /\n([ \t]+)"/.exec(text)?.[1] ?? '  ';
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  return jsonc().modify(text, ['placed'], placed, {
    formattingOptions: { insertSpaces: !indent.includes('\t'), tabSize: indent.includes('\t') ? 1 : indent.length, eol },
  });
}

/** Places the plan after the priced confirmation; resolves with the order, or undefined when nothing was placed. */
export async function placePlan(services: CommandServices, doc: vscode.TextDocument): Promise<OrderRecord | undefined> {
  const plan = await readPlan(services, doc, l10n.t('place'));
  if (!plan) return undefined;
  const placement = placementOf(plan);
  if (placement.state !== 'new') {
    const { order_id, at } = placement.placed;
    const title =
      placement.state === 'placed'
        ? l10n.t('This plan was placed as order {0} on {1}; place a new order?', order_id, at.slice(0, 10))
        : l10n.t('This plan was placed as order {0} on {1} and has changed since; place a new order?', order_id, at.slice(0, 10));
    const again = await confirmSpend(services.ui, {
      title,
      spend: PLACE_NEW_ORDER,
      cost: l10n.t('priced before anything is ordered'),
      summary: [l10n.t('A new order is priced and confirmed again; order {0} stays as it is.', order_id)],
    });
    if (again !== PLACE_NEW_ORDER) return undefined;
  }
  const client = await services.connection.getClient();
  const request = requestOf(plan);
  const outcome = await priceAndConfirm(services, client, {
    state: plan,
    build: () => request,
    labels: () => planLabels(plan),
    note: l10n.t('From the order plan {0}.', fileName(doc)),
    saveable: false,
  });
  if (outcome.kind === 'blocked') {
    await services.ui.message('warning', l10n.t('{0} cannot be placed: {1}', fileName(doc), outcome.blockers.join(' ')), {});
    return undefined;
  }
  if (outcome.kind === 'failed' && !outcome.unsure) {
    await services.ui.message('error', l10n.t('Nothing was ordered: {0}', outcome.reason), {});
    return undefined;
  }
  if (outcome.kind !== 'placed') return undefined;
  const order = outcome.order;
  const placed: PlacedRecord = {
    order_id: order.id ?? '',
    at: new Date().toISOString(),
    amount: order.total_amount,
    unit: amountUnit() || undefined,
    request: requestFingerprint(request),
  };
  await writePlaced(services, doc, placed);
  return order;
}

/** Writes the record and saves the file, so a reload, a copy or a commit carries it. */
async function writePlaced(services: CommandServices, doc: vscode.TextDocument, placed: PlacedRecord): Promise<void> {
  const edit = new vscode.WorkspaceEdit();
  for (const e of placedEdit(doc.getText(), placed)) {
    edit.replace(doc.uri, new vscode.Range(doc.positionAt(e.offset), doc.positionAt(e.offset + e.length)), e.content);
  }
  if ((await vscode.workspace.applyEdit(edit)) && (await doc.save())) return;
  // The order stands whatever happens to the file: say what to write so it is not placed twice.
  services.log.error(`Order ${placed.order_id} was placed, but ${doc.uri.toString()} could not be updated.`);
  await services.ui.message(
    'warning',
    l10n.t(
      'Order {0} was placed, but {1} could not be updated to say so. Add "placed": {2} to it before anyone places it again.',
      placed.order_id,
      fileName(doc),
      JSON.stringify(placed),
    ),
    {},
  );
}
