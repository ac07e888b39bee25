/**
 * The money-moving part of both order flows: price with `dry_run`, show the priced summary,
 * and on Confirm send the same body once. A failed dry run never places an order; a refusal
 * (4xx) keeps the entries and lets the person fix one; a fault after Confirm says to check the
 * Orders view before retrying, because the order may exist.
 */
import vscode = require('vscode');
import { l10n } from 'vscode';
import { mayHaveActed, type CreateOrderRequest, type EoClient, type OrderItemRequest, type OrderRecord } from '../../api';
import type { CommandServices } from '../services';
import type { MultiStepInput } from '../../ui/multiStep';
import { describeError } from '../../ui/showError';
import { attempt, EDIT_ENTRIES, type Attempt } from '../../ui/submit';
import { revealInView } from './common';
import { restateRequest, summarizeOrder, type RequestLabels } from './orderSummary';
import { amountUnit } from '../../ui/amounts';
import { isObj } from '../../api/shape';

export const PLACE_ORDER = l10n.t('Place Order');
export const OPEN_ORDERS = l10n.t('Open Orders View');

/** Bodies being placed right now: a second Confirm of the same order while one is in flight does nothing. */
const inFlight = new Set<string>();

export async function priceAndPlace<S>(
  services: CommandServices,
  client: EoClient,
  wizard: MultiStepInput<S>,
  build: (state: S) => OrderItemRequest[],
  labels: (state: S) => RequestLabels = labelsOf,
): Promise<OrderRecord | undefined> {
  const { ui } = services;
  const refused = (err: unknown): string => l10n.t('The service refused the order: {0}', describeError(err));
  const edit = (): Promise<boolean> => wizard.editOne();
  for (;;) {
    const order_items = build(wizard.state);
    const dryRun: CreateOrderRequest = { dry_run: true, order_items };
    const pricing = await attempt(services, {
      action: l10n.t('Pricing the order'),
      send: () =>
        vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: l10n.t('Pricing the order (dry run)…') }, () =>
          client.orders.create(dryRun),
        ),
      refused,
      edit,
    });
    if (!pricing.ok) {
      if (pricing.again) continue;
      return undefined;
    }
    const priced = pricing.value;

    const named = labels(wizard.state);
    const summary = summarizeOrder(priced, { l10n, unit: amountUnit(), requested: order_items.map((r) => restateRequest(l10n, r, named)) });
    const warnings = summary.warnings.length ? `\n\n${l10n.t('Warnings:')}\n${summary.warnings.map((w) => `• ${w}`).join('\n')}` : '';
    if (summary.blockers.length) {
      const choice = await ui.message(
        'warning',
        l10n.t('This order cannot be placed: {0}', summary.blockers.join(' ')),
        { modal: true, detail: summary.detail + warnings },
        EDIT_ENTRIES,
      );
      if (choice === EDIT_ENTRIES && (await wizard.editOne())) continue;
      return undefined;
    }
    const choice = await ui.message(
      'info',
      l10n.t('Place this order? {0}', summary.headline),
      { modal: true, detail: summary.detail + warnings },
      PLACE_ORDER,
      EDIT_ENTRIES,
    );
    if (choice === EDIT_ENTRIES) {
      if (await wizard.editOne()) continue;
      return undefined;
    }
    if (choice !== PLACE_ORDER) return undefined;

    const body: CreateOrderRequest = { dry_run: false, order_items };
    const key = JSON.stringify(order_items);
    if (inFlight.has(key)) return undefined;
    inFlight.add(key);
    let placing: Attempt<OrderRecord>;
    try {
      placing = await attempt(services, {
        action: l10n.t('Placing the order'),
        send: () =>
          vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: l10n.t('Placing the order…') }, () => client.orders.create(body)),
        // Refused: nothing was stored, so editing and sending again is safe.
        refused,
        edit,
        failed: async (err) => {
          if (!mayHaveActed(err)) return false;
          services.connection.reportFailure(err);
          services.log.error(`Placing the order failed after Confirm: ${describeError(err)}`);
          const c = await ui.message(
            'error',
            l10n.t(
              'The order may or may not have been placed ({0}). Check the Orders view before you try again, so you do not order twice.',
              describeError(err),
            ),
            {},
            OPEN_ORDERS,
          );
          if (c === OPEN_ORDERS) await revealInView(services, 'orders', 'order');
          return true;
        },
      });
    } finally {
      inFlight.delete(key);
    }
    if (!placing.ok) {
      if (placing.again) continue;
      return undefined;
    }
    const placed = placing.value;
    services.log.info(`Placed order ${placed.id ?? '(no id)'}: ${summary.headline}`);
    if (placed.id) await revealInView(services, 'orders', 'order', placed.id);
    const what = order_items
      .map((r) => r.name)
      .filter(Boolean)
      .join(', ');
    void ui.message(
      'info',
      what
        ? l10n.t('Order for {0} placed ({1}). Its status is shown in the Orders view.', what, summary.headline)
        : l10n.t('Order placed ({0}). Its status is shown in the Orders view.', summary.headline),
      {},
    );
    return placed;
  }
}

/** The names the order wizards keep next to the ids they send (store, bandset, satellite). */
function labelsOf(state: unknown): RequestLabels {
  const s = isObj(state) ? state : {};
  const text = (k: string): string | undefined => (typeof s[k] === 'string' && s[k] !== '' ? (s[k] as string) : undefined);
  return { store: text('storeLabel'), bandset: text('bandsetLabel'), satellite: text('satelliteLabel') };
}
