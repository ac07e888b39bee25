/**
 * The money-moving part of both order flows: price with `dry_run`, show the priced summary,
 * and on Confirm send the same body once. A failed dry run never places an order; a refusal
 * (4xx) keeps the entries and lets the person fix one; a POST whose answer was lost is never
 * sent again: the service is asked whether it placed the order (./lostOrder.ts), and the
 * person is told "placed as …" or "nothing was placed; place it again?" (priced and confirmed
 * again). Only when the service cannot be asked either does it say to check the Orders view.
 */
import vscode = require('vscode');
import { l10n } from 'vscode';
import { mayHaveActed, type CreateOrderRequest, type EoClient, type OrderItemRequest, type OrderRecord } from '../../api';
import type { CommandServices } from '../services';
import type { MultiStepInput } from '../../ui/multiStep';
import { describeError } from '../../ui/showError';
import { askWhatHappened, type LostAnswer } from '../lostAnswer';
import { findLostOrder } from './lostOrder';
import { attempt, EDIT_ENTRIES, type Attempt } from '../../ui/submit';
import { revealInView } from './common';
import { restateRequest, summarizeOrder, type OrderSummary, type RequestLabels } from './orderSummary';
import { amountUnit } from '../../ui/amounts';
import { confirmSpend } from '../../ui/confirmSpend';
import { amount } from '../../format';
import { isObj } from '../../api/shape';
import { withProgress } from '../../ui/progress';
import { orderProblems } from '../../orders/rules';
import { SAVE_AS_PLAN, savePlan } from '../orderPlans/savePlan';

export const PLACE_ORDER = l10n.t('Place Order');
export const OPEN_ORDERS = l10n.t('Open Orders View');
export const PLACE_AGAIN = l10n.t('Place Again…');

/** Bodies being placed right now: a second Confirm of the same order while one is in flight does nothing. */
const inFlight = new Set<string>();

/** What became of an order the person was asked to confirm, in words a chat tool can pass on. */
export type OrderOutcome =
  | { kind: 'placed'; order: OrderRecord; headline: string }
  /** The person closed the priced confirmation (or went no further): nothing was placed. */
  | { kind: 'declined'; headline?: string }
  /** The dry run says the order cannot be placed as it stands. */
  | { kind: 'blocked'; headline: string; blockers: string[] }
  /** The service refused, or a fault stopped it; `unsure`: the real POST may have gone through. */
  | { kind: 'failed'; reason: string; unsure?: boolean };

/** An order to price and confirm: the entries, the request they make, and how to change one. */
export interface OrderDraft<S> {
  readonly state: S;
  build(state: S): OrderItemRequest[];
  labels?(state: S): RequestLabels;
  /** Lets the person change one entry after a refusal (the wizard's `editOne`); absent for a chat tool. */
  edit?(): Promise<boolean>;
  /** A paragraph above the priced breakdown (who asked for the order). */
  note?: string;
  /** False when the order already is a plan: the confirmation then offers no "Save as Order Plan…". */
  saveable?: boolean;
}

/** The wizards' entry point: the placed order, or undefined when nothing was placed. */
export async function priceAndPlace<S>(
  services: CommandServices,
  client: EoClient,
  wizard: MultiStepInput<S>,
  build: (state: S) => OrderItemRequest[],
  labels: (state: S) => RequestLabels = orderLabels,
): Promise<OrderRecord | undefined> {
  const outcome = await priceAndConfirm(services, client, { state: wizard.state, build, labels, edit: () => wizard.editOne() });
  return outcome.kind === 'placed' ? outcome.order : undefined;
}

/**
 * Price with a dry run, show the priced summary in the spend confirmation (ui/confirmSpend.ts:
 * Cancel is its default row, Place Order must be picked), and on that pick send the same body
 * once. The wizard and the chat tool both come here: that pick is the only way an order is placed.
 */
export async function priceAndConfirm<S>(services: CommandServices, client: EoClient, draft: OrderDraft<S>): Promise<OrderOutcome> {
  for (;;) {
    const outcome = await priceConfirmAndPlace(services, client, draft);
    if (outcome !== AGAIN) return outcome;
  }
}

/** Round again, from the entries as they are now: an entry was changed, or Place Again… was picked. */
const AGAIN = 'again';
type Again = typeof AGAIN;

/** One round of `priceAndConfirm`: the order rules, the dry run, the priced confirmation and, on Place Order, the one POST. */
async function priceConfirmAndPlace<S>(services: CommandServices, client: EoClient, draft: OrderDraft<S>): Promise<OrderOutcome | Again> {
  const edit = draft.edit;
  const order_items = draft.build(draft.state);
  // The order rules first: a request they refuse is not worth a request to the service.
  const problems = orderProblems(order_items);
  if (problems.length) return cannotBePlaced(services, draft, l10n.t('not priced'), problems, '');
  let problem: string | undefined;
  const dryRun: CreateOrderRequest = { dry_run: true, order_items };
  const pricing = await attempt(services, {
    action: l10n.t('Pricing the order'),
    send: () =>
      withProgress({ location: vscode.ProgressLocation.Notification, title: l10n.t('Pricing the order (dry run)…') }, () => client.orders.create(dryRun)),
    refused: (err) => (problem = refusal(err)),
    edit,
    failed: async (err) => {
      problem = describeError(err);
      return false;
    },
  });
  if (!pricing.ok) {
    if (pricing.again) return AGAIN;
    return problem ? { kind: 'failed', reason: problem } : { kind: 'declined' };
  }
  const labels = (draft.labels ?? orderLabels)(draft.state);
  const summary = pricedSummary(pricing.value, order_items, labels);
  const warnings = summary.warnings.length ? `\n\n${l10n.t('Warnings:')}\n${summary.warnings.map((w) => `• ${w}`).join('\n')}` : '';
  if (summary.blockers.length) return cannotBePlaced(services, draft, summary.headline, summary.blockers, summary.detail + warnings);
  // Cancel is the default: no Enter left over from the wizard (or a chat turn) places the order
  const choice = await confirmSpend(services.ui, {
    title: l10n.t('Place this order? {0}', summary.headline),
    spend: PLACE_ORDER,
    cost: amount(summary.total, amountUnit()),
    summary: (noteOf(draft) + summary.detail + warnings).split('\n'),
    others: [...(edit ? [EDIT_ENTRIES] : []), ...(draft.saveable === false ? [] : [SAVE_AS_PLAN])],
  });
  if (choice === SAVE_AS_PLAN) {
    // A plan to review, price again and place later: nothing is ordered now.
    await savePlan(services, { items: order_items, labels });
    return { kind: 'declined', headline: summary.headline };
  }
  if (choice === EDIT_ENTRIES && edit) return (await edit()) ? AGAIN : { kind: 'declined', headline: summary.headline };
  if (choice !== PLACE_ORDER) return { kind: 'declined', headline: summary.headline };
  return placeOnce(services, client, edit, order_items, summary.headline);
}

/** The paragraph above the priced breakdown, with the blank line after it; empty without a note. */
function noteOf(draft: OrderDraft<unknown>): string {
  return draft.note ? `${draft.note}\n\n` : '';
}

function refusal(err: unknown): string {
  return l10n.t('The service refused the order: {0}', describeError(err));
}

/**
 * Says why the order cannot be placed (the order rules' or the dry run's blockers, `detail`
 * under the draft's note), with Edit Entries…; AGAIN when an entry was changed.
 */
async function cannotBePlaced<S>(
  services: CommandServices,
  draft: OrderDraft<S>,
  headline: string,
  blockers: string[],
  detail: string,
): Promise<OrderOutcome | Again> {
  const { edit } = draft;
  // Without an entry to change there is nothing to decide: the caller reports the blockers.
  if (!edit) return { kind: 'blocked', headline, blockers };
  const choice = await services.ui.message(
    'warning',
    l10n.t('This order cannot be placed: {0}', blockers.join(' ')),
    { modal: true, detail: noteOf(draft) + detail },
    EDIT_ENTRIES,
  );
  if (choice === EDIT_ENTRIES && (await edit())) return AGAIN;
  return { kind: 'blocked', headline, blockers };
}

/**
 * Sends the confirmed order once. A second Confirm of the same body while it is in flight does
 * nothing; a POST whose answer was lost is never sent again (`askWhetherPlaced`). AGAIN after
 * a refusal whose entry was changed, or when nothing was placed and Place Again… was picked.
 */
async function placeOnce(
  services: CommandServices,
  client: EoClient,
  edit: (() => Promise<boolean>) | undefined,
  order_items: OrderItemRequest[],
  headline: string,
): Promise<OrderOutcome | Again> {
  const body: CreateOrderRequest = { dry_run: false, order_items };
  const key = JSON.stringify(order_items);
  if (inFlight.has(key)) return { kind: 'declined', headline };
  inFlight.add(key);
  let problem: string | undefined;
  let placing: Attempt<OrderRecord>;
  let placeAgain = false;
  let unsure = false;
  let sentAt = Date.now();
  /** The order the service says it placed when the answer to our POST was lost. */
  let found: OrderRecord | undefined;
  try {
    placing = await attempt(services, {
      action: l10n.t('Placing the order'),
      send: () =>
        withProgress({ location: vscode.ProgressLocation.Notification, title: l10n.t('Placing the order…') }, () => {
          sentAt = Date.now();
          return client.orders.create(body);
        }),
      // Refused: nothing was stored, so editing and sending again is safe.
      refused: (err) => (problem = refusal(err)),
      edit,
      failed: async (err) => {
        problem = describeError(err);
        if (!mayHaveActed(err)) return false;
        // Never sent again: the service is asked what it did with the one POST.
        const lost = await askWhetherPlaced(services, client, err, order_items, sentAt);
        if (lost.kind === 'placed') found = lost.value;
        else problem = lost.reason;
        placeAgain = lost.kind === 'nothing' && lost.again;
        unsure = lost.kind === 'unknown';
        return true;
      },
    });
  } finally {
    inFlight.delete(key);
  }
  // Priced again and confirmed again (Cancel first): the earlier Place Order does not carry over.
  if (placeAgain) return AGAIN;
  if (!placing.ok && !found) {
    if (placing.again) return AGAIN;
    return problem ? { kind: 'failed', reason: problem, unsure } : { kind: 'declined', headline };
  }
  const placed = found ?? (placing as { value: OrderRecord }).value;
  await announcePlaced(services, placed, order_items, headline, found !== undefined);
  return { kind: 'placed', order: placed, headline };
}

/**
 * After a POST sent at `sentAt` failed with `err` in a way that may have placed the order:
 * asks the service whether it did (./lostOrder.ts), and says what it learned.
 */
function askWhetherPlaced(
  services: CommandServices,
  client: EoClient,
  err: unknown,
  order_items: readonly OrderItemRequest[],
  sentAt: number,
): Promise<LostAnswer<OrderRecord>> {
  return askWhatHappened(services, err, async () => (await findLostOrder(client, order_items, sentAt)).placed, {
    what: 'the order',
    asking: l10n.t('No answer: asking the service whether the order was placed…'),
    nothing: (f) => l10n.t('The service did not answer ({0}). It has no record of this order: nothing was placed. Place it again?', f),
    again: PLACE_AGAIN,
    unknown: (f, reason) =>
      l10n.t(
        'The order may or may not have been placed ({0}), and the service could not be asked ({1}). Check the Orders view before you try again, so you do not order twice.',
        f,
        reason,
      ),
    check: { label: OPEN_ORDERS, run: () => revealInView(services, 'orders', 'order') },
  });
}

/** A placed order: followed, shown in the Orders view, and said; `lost` when its answer was lost and the service was asked. */
async function announcePlaced(
  services: CommandServices,
  placed: OrderRecord,
  order_items: readonly OrderItemRequest[],
  headline: string,
  lost: boolean,
): Promise<void> {
  services.log.info(`Placed order ${placed.id ?? '(no id)'}: ${headline}`);
  // Orders take minutes to weeks: the watcher says when each item is fulfilled or failed.
  for (const item of placed.order_items ?? []) if (item.id) services.watcher.follow('orderItem', item.id, { record: item });
  if (placed.id) await revealInView(services, 'orders', 'order', placed.id);
  const what = order_items
    .map((r) => r.name)
    .filter(Boolean)
    .join(', ');
  const text = lost
    ? l10n.t(
        'The answer was lost, but the service has the order: placed as {0} ({1}). It is followed in What is pending and shown in the Orders view.',
        placed.id ?? l10n.t('(no id)'),
        what ? `${what}, ${headline}` : headline,
      )
    : what
      ? l10n.t('Order for {0} placed ({1}). Its status is shown in the Orders view.', what, headline)
      : l10n.t('Order placed ({0}). Its status is shown in the Orders view.', headline);
  void services.ui.message('info', text, {});
}

/**
 * Prices `order_items` with a dry run, nothing shown: the priced order and its summary in
 * words, or what the order rules refuse (nothing is sent then).
 */
export async function priceOnly(
  client: EoClient,
  order_items: OrderItemRequest[],
  labels: RequestLabels,
): Promise<{ priced: OrderRecord; summary: OrderSummary } | { problems: string[] }> {
  const problems = orderProblems(order_items);
  if (problems.length) return { problems };
  const priced = await client.orders.create({ dry_run: true, order_items });
  return { priced, summary: pricedSummary(priced, order_items, labels) };
}

/** The priced summary the confirmation shows: amounts in the billing unit, each item restated. */
function pricedSummary(priced: OrderRecord, order_items: readonly OrderItemRequest[], labels: RequestLabels): OrderSummary {
  return summarizeOrder(priced, { l10n, unit: amountUnit(), requested: order_items.map((r) => restateRequest(l10n, r, labels)) });
}

/** The names the order wizards keep next to the ids they send (store, bandset, satellite). */
export function orderLabels(state: unknown): RequestLabels {
  const s = isObj(state) ? state : {};
  const text = (k: string): string | undefined => (typeof s[k] === 'string' && s[k] !== '' ? (s[k] as string) : undefined);
  return { store: text('storeLabel'), bandset: text('bandsetLabel'), satellite: text('satelliteLabel'), project: text('projectLabel'), aoi: text('aoiLabel') };
}
