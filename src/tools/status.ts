/**
 * Tool: follow orders (newest first, or one order's items) and the insight runs on an AOI:
 * status in words, progress, amounts with the billing unit, ids alongside.
 */
import { l10n } from 'vscode';
import { isNotSupported, type Insight } from '../api';
import { amountText } from '../ui/amounts';
import { enumLabel } from '../format';
import { Fields } from './input';
import { findAoi } from './lookup';
import { answer, dataNotice, dayOf, pageFooter, quoted, row, ROWS_PER_PAGE } from './text';
import { tool, type ToolServices } from './tool';

interface Input {
  aoi?: string;
  order?: string;
  page: number;
}

const words = (status: string | undefined, field?: Parameters<typeof enumLabel>[1]): string => quoted(enumLabel(status, field));

export const statusTool = (services: ToolServices) =>
  tool<Input>({
    kind: 'reads',
    action: l10n.t('Report status'),
    read: (input) => {
      const f = new Fields(input);
      const v = { aoi: f.string('aoi', false, 200), order: f.string('order', false, 100), page: f.page() };
      if (v.aoi && v.order) f.problems.push(l10n.t('Give "aoi" or "order", not both.'));
      return f.done(v);
    },
    progress: (i) => (i.aoi ? l10n.t('Reading the insight runs on {0}…', i.aoi) : l10n.t('Reading your orders…')),
    run: async ({ aoi, order, page }) => {
      const client = await services.connection.getClient();
      if (aoi) {
        const found = await findAoi(client, aoi);
        if (!found.ok) return found.reason;
        const runs = await client.insightRuns.list(found.value.aoi_id).catch((err: unknown) => {
          // A service without insight runs (beyond the interface): none to report.
          if (isNotSupported(err)) return [] as Insight[];
          throw err;
        });
        const shown = runs.slice((page - 1) * ROWS_PER_PAGE, page * ROWS_PER_PAGE);
        return answer(
          dataNotice(),
          l10n.t('Insight runs on AOI {0}, newest first:', quoted(found.value.name)),
          ...shown.map((r) =>
            row(
              `- ${quoted(r.name)}`,
              r.block ? l10n.t('block {0} {1}', quoted(r.block.name), quoted(r.block.version)) : undefined,
              l10n.t('status {0}', words(r.status)),
              typeof r.progress === 'number' ? l10n.t('{0} % done', Math.round(r.progress)) : undefined,
              r.err_msg ? l10n.t('why it failed: {0}', quoted(r.err_msg)) : undefined,
              l10n.t('started {0}', dayOf(r.created_at)),
              l10n.t('id {0}', r.id),
            ),
          ),
          pageFooter({ page, shown: shown.length, total: runs.length, hasMore: false }, l10n.t('runs')),
        );
      }
      if (order) {
        const o = await client.orders.get(order);
        return answer(
          dataNotice(),
          row(
            l10n.t('Order {0}', o.id ?? order),
            l10n.t('status {0}', words(o.status)),
            l10n.t('total amount {0}', amountText(o.total_amount)),
            l10n.t('placed {0}', dayOf(o.created_at)),
          ),
          ...(o.order_items ?? []).map((i) =>
            row(`- ${quoted(i.name)}`, l10n.t('status {0}', words(i.status)), l10n.t('final amount {0}', amountText(i.final_amount)), l10n.t('id {0}', i.id)),
          ),
        );
      }
      const res = await client.orders.listPage({ offset: (page - 1) * ROWS_PER_PAGE, limit: ROWS_PER_PAGE });
      return answer(
        dataNotice(),
        l10n.t('Orders, newest first (call again with "order" for one order\'s items):'),
        ...res.items.map((o) =>
          row(
            `- ${quoted((o.order_items ?? []).map((i) => i.name).join(', ') || l10n.t('(unnamed)'))}`,
            l10n.t('status {0}', words(o.status)),
            l10n.t('total amount {0}', amountText(o.total_amount)),
            l10n.t('placed {0}', dayOf(o.created_at)),
            l10n.t('id {0}', o.id ?? '?'),
          ),
        ),
        pageFooter({ page, shown: res.items.length, total: res.total, hasMore: res.items.length === ROWS_PER_PAGE }, l10n.t('orders')),
      );
    },
  });
