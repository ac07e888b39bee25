/**
 * Tool: place an archive order. It never places one by itself: the tool opens the extension's
 * own priced confirmation (the Order wizard's, `priceAndConfirm`: Cancel is its default), and the order is sent
 * once only if the person clicks Place Order there. Chat's "always allow" cannot skip it.
 */
import { l10n } from 'vscode';
import { priceAndConfirm } from '../commands/orders/placeOrder';
import { archiveOrderOf, readArchiveOrder, type ArchiveOrderInput } from './archiveOrder';
import { answer, dataNotice, quoted } from './text';
import { tool, type ToolServices } from './tool';

export const placeOrderTool = (services: ToolServices) =>
  tool<ArchiveOrderInput>({
    kind: 'costs',
    action: l10n.t('Order archive imagery'),
    read: readArchiveOrder,
    progress: () => l10n.t('Pricing the order; EO Imagery will ask you to confirm the price…'),
    confirm: (i) => ({
      title: l10n.t('Price an archive order'),
      message: l10n.t(
        'EO Imagery prices {0} archive scene(s) with a dry run and shows you the price. Nothing is ordered unless you click Place Order in that dialog.',
        i.items.length,
      ),
    }),
    run: async (input) => {
      const client = await services.connection.getClient();
      const order = await archiveOrderOf(client, input);
      if (!order.ok) return order.reason;
      const outcome = await priceAndConfirm(services, client, {
        ...order.value,
        note: l10n.t('Asked for from chat. Nothing is ordered unless you click Place Order.'),
      });
      switch (outcome.kind) {
        case 'placed':
          return answer(
            dataNotice(),
            l10n.t('The person clicked Place Order: the order was placed ({0}).', outcome.headline),
            l10n.t(
              'Order id {0}, status {1}. It shows in the Orders view; follow it with the status tool.',
              quoted(outcome.order.id ?? '?'),
              quoted(outcome.order.status),
            ),
          );
        case 'declined':
          return outcome.headline
            ? l10n.t('The person did not confirm the priced order ({0}): nothing was ordered. Do not ask again unless they say so.', outcome.headline)
            : l10n.t('Nothing was ordered: the order was not confirmed.');
        case 'blocked':
          return answer(
            dataNotice(),
            l10n.t(
              'The dry run says this order cannot be placed ({0}): {1} Nothing was ordered.',
              outcome.headline,
              outcome.blockers.map((b) => quoted(b)).join(' '),
            ),
          );
        case 'failed':
          return answer(
            dataNotice(),
            outcome.unsure
              ? l10n.t(
                  'Placing the order failed after the person confirmed ({0}); it may or may not have been placed. Do not call again: ask the person to check the Orders view first.',
                  quoted(outcome.reason),
                )
              : l10n.t('Nothing was ordered: {0}', quoted(outcome.reason)),
          );
      }
    },
  });
