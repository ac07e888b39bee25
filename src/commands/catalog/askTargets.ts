/**
 * The targets of a Download or Deliver: from the arguments (a row, a selection, a search), or
 * from the Command Palette by picking recent catalog entries or order items by name. Typing
 * ids stays possible for the person who has them.
 */
import vscode = require('vscode');
import { l10n } from 'vscode';
import type { EoClient } from '../../api';
import { originsOf } from '../../explorer/catalogOrigins';
import { catalogFileParts, catalogRow, orderItemFileParts } from '../../explorer/labels';
import { statusLabel } from '../../explorer/status';
import { areaKm2, day, enumLabel } from '../../format';
import type { ExtensionServices } from '../../services';
import { inStep } from '../../ui/showError';
import { parseIds, type GivenTargets, type Targets } from './targets';
import { withProgress } from '../../ui/progress';

/** How many recent entries (or items) the palette offers. */
export const RECENT = 50;

interface Choice extends vscode.QuickPickItem {
  id: string;
  name: string;
  fileParts: string[];
}

async function recentCatalogs(client: EoClient): Promise<Choice[]> {
  const page = await client.catalogs.searchPage({ offset: 0, limit: RECENT });
  const origins = await originsOf(client, page.items);
  return page.items.map((c) => {
    const origin = origins.get(c.id);
    const row = catalogRow(l10n, c, origin, statusLabel(c.delivery_status));
    return {
      label: row.label,
      description: row.description,
      detail: origin ? l10n.t('Ordered {0}', origin.ordered) : undefined,
      id: c.id,
      name: row.label,
      fileParts: catalogFileParts(c, origin),
    };
  });
}

async function recentOrderItems(client: EoClient): Promise<Choice[]> {
  const page = await client.orderItems.listPage({ offset: 0, limit: RECENT });
  return page.items.map((i) => {
    const name = i.name || l10n.t('{0} order item', enumLabel(i.type));
    const window = i.start_date || i.end_date ? `${day(i.start_date)} → ${day(i.end_date)}` : '';
    return {
      label: name,
      description: [enumLabel(i.type), statusLabel(i.status), areaKm2(i.area)].join(' · '),
      detail: [window, l10n.t('ordered {0}', day(i.created_at))].filter(Boolean).join(' · '),
      id: i.id,
      name,
      fileParts: orderItemFileParts(i),
    };
  });
}

/** Targets from the arguments, or asked for (palette); undefined when refused or cancelled. */
export async function resolveTargets(services: ExtensionServices, client: EoClient, title: string, given: GivenTargets): Promise<Targets | undefined> {
  if (given && 'error' in given) {
    await services.ui.message('error', l10n.t('Select either catalog entries or order items, not both: a delivery or download names one kind.'), {});
    return undefined;
  }
  if (given) return given;
  const kind = await services.ui.pick(
    [
      { label: l10n.t('Catalog entries'), description: l10n.t('recent fulfilled imagery, by place and date'), key: 'catalog' as const },
      { label: l10n.t('Order items'), description: l10n.t('everything fulfilled for an order item'), key: 'orderItem' as const },
      { label: l10n.t('Enter IDs…'), description: l10n.t('catalog or order item ids you have'), key: 'typed' as const },
    ],
    { title, placeHolder: l10n.t('What to send?') },
  );
  if (!kind) return undefined;
  if (kind.key === 'typed') return typedTargets(services, title);
  const loading = l10n.t('Loading recent {0}', kind.label.toLowerCase());
  const choices = await inStep(loading, () =>
    withProgress({ location: vscode.ProgressLocation.Window, title: loading }, () =>
      kind.key === 'catalog' ? recentCatalogs(client) : recentOrderItems(client),
    ),
  );
  if (!choices.length) {
    await services.ui.message(
      'info',
      kind.key === 'catalog' ? l10n.t('There is no fulfilled imagery in the catalog yet.') : l10n.t('There are no order items yet.'),
      {},
    );
    return undefined;
  }
  const picked = await services.ui.pickMany(choices, {
    title,
    placeHolder: kind.key === 'catalog' ? l10n.t('Catalog entries to send (newest first)') : l10n.t('Order items to send (newest first)'),
    matchOnDescription: true,
    matchOnDetail: true,
  });
  if (!picked?.length) return undefined;
  const ids = picked.map((p) => p.id);
  const named = { names: picked.map((p) => p.name), ...(picked.length === 1 ? { fileParts: picked[0].fileParts } : {}) };
  return kind.key === 'catalog' ? { catalogIds: ids, ...named } : { orderItemIds: ids, ...named };
}

async function typedTargets(services: ExtensionServices, title: string): Promise<Targets | undefined> {
  const kind = await services.ui.pick(
    [
      { label: l10n.t('Catalog ids'), key: 'catalog' as const },
      { label: l10n.t('Order item ids'), key: 'orderItem' as const },
    ],
    { title, placeHolder: l10n.t('Which kind of id?') },
  );
  if (!kind) return undefined;
  const text = await services.ui.input({
    title,
    prompt: kind.key === 'catalog' ? l10n.t('Catalog ids (separate several with commas)') : l10n.t('Order item ids (separate several with commas)'),
    ignoreFocusOut: true,
    validateInput: (v) => (parseIds(v).length ? undefined : l10n.t('Enter at least one id.')),
  });
  if (text === undefined) return undefined;
  const ids = parseIds(text);
  return kind.key === 'catalog' ? { catalogIds: ids } : { orderItemIds: ids };
}
