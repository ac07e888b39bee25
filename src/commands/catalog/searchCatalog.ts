/**
 * Search the catalog (fulfilled imagery) by order, order item, date range and bbox; pick
 * entries from the results and deliver or download them.
 */
import vscode = require('vscode');
import { l10n } from 'vscode';
import type { Catalog } from '../../api';
import { originsOf } from '../../explorer/catalogOrigins';
import { catalogFileParts, catalogRow } from '../../explorer/labels';
import { statusLabel } from '../../explorer/status';
import type { CommandServices } from '../services';
import { MultiStepInput, outcome, type Step } from '../../ui/multiStep';
import { describeError } from '../../ui/showError';
import { submitUntilAccepted } from '../../ui/submit';
import { catalogSearchBody, checkBbox, checkDateInterval, type CatalogQueryText } from './catalogQuery';
import { deliver } from './deliver';
import { download } from './download';
import type { CatalogPreset } from '../args';
import { withProgress } from '../../ui/progress';

const MAX_RESULTS = 500;

function field(
  name: string,
  prompt: string,
  key: keyof CatalogQueryText,
  placeHolder: string,
  validate?: (v: string) => string | undefined,
): Step<CatalogQueryText> {
  return {
    name,
    describe: (s) => s[key] || l10n.t('(any)'),
    async ask(s, ui) {
      const answer = await ui.input({ prompt, value: s[key], placeHolder, validate });
      return outcome(answer, (v) => (s[key] = v.trim()));
    },
  };
}

/** `preset`: the order or order item of the Orders row it was run on. */
export async function searchCatalog(services: CommandServices, preset: CatalogPreset): Promise<Catalog[] | undefined> {
  const action = l10n.t('Search catalog');
  const client = await services.connection.getClient();
  const state: CatalogQueryText = { orderIds: '', orderItemIds: '', dateRange: '', bbox: '' };
  if (preset.orderId) state.orderIds = preset.orderId;
  if (preset.orderItemId) state.orderItemIds = preset.orderItemId;
  const steps: Step<CatalogQueryText>[] = [
    field(l10n.t('Orders'), l10n.t('Order ids (optional, separate with commas)'), 'orderIds', l10n.t('any order')),
    field(l10n.t('Order items'), l10n.t('Order item ids (optional, separate with commas)'), 'orderItemIds', l10n.t('any order item')),
    field(
      l10n.t('Dates'),
      l10n.t('Date range start/end (optional; .. leaves an end open)'),
      'dateRange',
      l10n.t('e.g. 2025-01-01/2025-03-31'),
      checkDateInterval,
    ),
    field(l10n.t('Area'), l10n.t('Bounding box min lon, min lat, max lon, max lat (optional)'), 'bbox', l10n.t('e.g. 77.0, 28.4, 77.4, 28.8'), checkBbox),
  ];
  const wizard = new MultiStepInput(services.ui, l10n.t('Search Catalog'), steps, state);
  if (!(await wizard.run())) return undefined;

  const found = await submitUntilAccepted(services, {
    action,
    send: () =>
      withProgress({ location: vscode.ProgressLocation.Notification, title: l10n.t('Searching the catalog…') }, async () => {
        const out: Catalog[] = [];
        for await (const c of client.catalogs.iterate(catalogSearchBody(state), { cap: MAX_RESULTS })) out.push(c);
        return { entries: out, origins: await originsOf(client, out) };
      }),
    refused: (err) => l10n.t('The service refused the search: {0}', describeError(err)),
    edit: () => wizard.editOne(),
  });
  if (!found) return undefined;
  const { entries: results, origins } = found;
  if (!results.length) {
    await services.ui.message('info', l10n.t('No catalog entries match this search.'), {});
    return results;
  }
  const chosen = await services.ui.pickMany(
    results.map((c) => {
      const origin = origins.get(c.id);
      const row = catalogRow(l10n, c, origin, c.delivery_status ? statusLabel(c.delivery_status) : l10n.t('not delivered'));
      return {
        label: row.label,
        description: row.description,
        detail: origin ? l10n.t('Ordered {0}', origin.ordered) : undefined,
        catalog: c,
        fileParts: catalogFileParts(c, origin),
      };
    }),
    {
      title:
        results.length >= MAX_RESULTS
          ? l10n.t('Catalog: {0}+ entries', results.length)
          : results.length === 1
            ? l10n.t('Catalog: 1 entry')
            : l10n.t('Catalog: {0} entries', results.length),
      placeHolder: l10n.t('Select entries to deliver or download'),
      matchOnDescription: true,
      matchOnDetail: true,
    },
  );
  if (!chosen?.length) return results;
  const ids = chosen.map((c) => c.catalog.id);
  const targets = { catalogIds: ids, names: chosen.map((c) => c.label), ...(chosen.length === 1 ? { fileParts: chosen[0].fileParts } : {}) };
  const next = await services.ui.pick(
    [
      { label: l10n.t('Deliver to Cloud Store…'), key: 'deliver' as const },
      { label: l10n.t('Download…'), key: 'download' as const },
      { label: l10n.t('Copy IDs'), key: 'copy' as const },
    ],
    { title: ids.length === 1 ? chosen[0].label : l10n.t('{0} catalog entries', ids.length), placeHolder: l10n.t('What to do with them?') },
  );
  if (next?.key === 'deliver') await deliver(services, targets);
  else if (next?.key === 'download') await download(services, targets);
  else if (next?.key === 'copy') await vscode.env.clipboard.writeText(ids.join('\n'));
  return results;
}
