/** Tool: an archive order priced as a dry run, nothing ordered: the wizard's priced summary. */
import { l10n } from 'vscode';
import { priceOnly } from '../commands/orders/placeOrder';
import { archiveOrderOf, readArchiveOrder, type ArchiveOrderInput } from './archiveOrder';
import { answer, dataNotice, quoted } from './text';
import { tool, type ToolServices } from './tool';
import { TOOLS } from './toolIds';

export const priceOrderTool = (services: ToolServices) =>
  tool<ArchiveOrderInput>({
    kind: 'reads',
    action: l10n.t('Price an archive order'),
    read: readArchiveOrder,
    progress: (i) => (i.items.length === 1 ? l10n.t('Pricing 1 archive scene (dry run)…') : l10n.t('Pricing {0} archive scenes (dry run)…', i.items.length)),
    run: async (input) => {
      const client = await services.connection.getClient();
      const order = await archiveOrderOf(client, input);
      if (!order.ok) return order.reason;
      const { summary } = await priceOnly(client, order.value.build(order.value.state), order.value.labels(order.value.state));
      return answer(
        dataNotice(),
        l10n.t('Dry run for project {0}: {1}. Nothing was ordered.', quoted(order.value.state.projectLabel), summary.headline),
        summary.detail,
        summary.blockers.length ? l10n.t('It cannot be placed as it stands: {0}', summary.blockers.join(' ')) : undefined,
        summary.warnings.length ? l10n.t('Warnings: {0}', summary.warnings.join(' ')) : undefined,
        summary.blockers.length
          ? undefined
          : l10n.t("To order it, call {0} with the same input: the person then confirms the price in EO Imagery's own dialog.", TOOLS.placeOrder),
      );
    },
  });
