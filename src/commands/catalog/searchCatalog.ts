/**
 * Search the catalog (fulfilled imagery) by order, order item, date range and bbox; pick
 * entries from the results and deliver or download them.
 */
import vscode = require('vscode');
import type { Catalog } from '../../api';
import { areaKm2 } from '../../format';
import type { CommandServices } from '../services';
import { MultiStepInput, outcome, type Step } from '../../ui/multiStep';
import { describeError } from '../../ui/showError';
import { clientFor } from '../orders/common';
import { submitUntilAccepted } from '../../ui/submit';
import { catalogSearchBody, checkBbox, checkDateInterval, type CatalogQueryText } from './catalogQuery';
import { deliver } from './deliver';
import { download } from './download';

const MAX_RESULTS = 500;

function field(name: string, prompt: string, key: keyof CatalogQueryText, placeHolder: string, validate?: (v: string) => string | undefined): Step<CatalogQueryText> {
  return {
    name,
    describe: (s) => s[key] || '(any)',
    async ask(s, ui) {
      const answer = await ui.input({ prompt, value: s[key], placeHolder, validate });
      return outcome(answer, (v) => (s[key] = v.trim()));
    },
  };
}

export async function searchCatalog(services: CommandServices, arg?: unknown): Promise<Catalog[] | undefined> {
  const action = 'Search catalog';
  const client = await clientFor(services, action);
  if (!client) return undefined;
  const state: CatalogQueryText = { orderIds: '', orderItemIds: '', dateRange: '', bbox: '' };
  // From an Orders row: preset the order or order item.
  const row = typeof arg === 'object' && arg !== null ? (arg as { kind?: unknown; record?: { id?: unknown } }) : undefined;
  if (row?.kind === 'order' && typeof row.record?.id === 'string') state.orderIds = row.record.id;
  if (row?.kind === 'orderItem' && typeof row.record?.id === 'string') state.orderItemIds = row.record.id;
  const steps: Step<CatalogQueryText>[] = [
    field('Orders', 'Order ids (optional, separate with commas)', 'orderIds', 'any order'),
    field('Order items', 'Order item ids (optional, separate with commas)', 'orderItemIds', 'any order item'),
    field('Dates', 'Date range start/end (optional; .. leaves an end open)', 'dateRange', '2025-01-01/2025-03-31', checkDateInterval),
    field('Area', 'Bounding box min lon, min lat, max lon, max lat (optional)', 'bbox', '77.0, 28.4, 77.4, 28.8', checkBbox),
  ];
  const wizard = new MultiStepInput(services.ui, 'Search Catalog', steps, state);
  if (!(await wizard.run())) return undefined;

  const results = await submitUntilAccepted(services, {
    action,
    send: () => vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Searching the catalog…' }, async () => {
      const out: Catalog[] = [];
      for await (const c of client.catalogs.iterate(catalogSearchBody(state), { cap: MAX_RESULTS })) out.push(c);
      return out;
    }),
    refused: (err) => `The service refused the search: ${describeError(err)}`,
    edit: () => wizard.editOne(),
  });
  if (!results) return undefined;
  if (!results.length) {
    await services.ui.message('info', 'No catalog entries match this search.', {});
    return results;
  }
  const chosen = await services.ui.pickMany(
    results.map((c) => ({
      label: c.id,
      description: `${areaKm2(c.area)} · ${c.delivery_status || 'not delivered'}`,
      detail: [c.order_item_id && `order item ${c.order_item_id}`, c.item_id && `scene ${c.item_id}`, c.created_at].filter(Boolean).join(' · '),
      catalog: c,
    })),
    { title: `Catalog: ${results.length}${results.length >= MAX_RESULTS ? '+' : ''} entr${results.length === 1 ? 'y' : 'ies'}`, placeHolder: 'Select entries to deliver or download' },
  );
  if (!chosen?.length) return results;
  const ids = chosen.map((c) => c.catalog.id);
  const next = await services.ui.pick(
    [
      { label: 'Deliver to Cloud Store…', key: 'deliver' as const },
      { label: 'Download…', key: 'download' as const },
      { label: 'Copy IDs', key: 'copy' as const },
    ],
    { title: `${ids.length} catalog entr${ids.length === 1 ? 'y' : 'ies'}`, placeHolder: 'What to do with them?' },
  );
  if (next?.key === 'deliver') await deliver(services, { catalogIds: ids });
  else if (next?.key === 'download') await download(services, { catalogIds: ids });
  else if (next?.key === 'copy') await vscode.env.clipboard.writeText(ids.join('\n'));
  return results;
}
