/**
 * The ordering, catalog, cloud store and report commands. Each POST here creates or costs
 * something (an order, a delivery, a download link, a store) or removes a store: none is
 * retried by the wrapper; the person starts it again after seeing what happened.
 */
import { l10n } from 'vscode';
import type { CommandServices } from '../services';
import type { CommandTable } from '../register';
import { deliver } from '../catalog/deliver';
import { download } from '../catalog/download';
import { searchCatalog } from '../catalog/searchCatalog';
import { downloadReport } from '../reports/orderReport';
import { deleteStore } from '../stores/deleteStore';
import { registerStore } from '../stores/registerStore';
import { orderArchiveItems } from './orderArchive';
import { orderTasking } from './orderTasking';

export function orderingCommands(services: CommandServices): CommandTable {
  return {
    orderArchiveItems: { action: l10n.t('Order archive imagery'), retry: 'never', run: (items) => orderArchiveItems(services, items) },
    orderTasking: { action: l10n.t('Order tasking'), retry: 'never', run: (source) => orderTasking(services, source) },
    // A search reads, but it goes on to deliver or download what was picked: never retried.
    searchCatalog: { action: l10n.t('Search catalog'), retry: 'never', run: (preset) => searchCatalog(services, preset) },
    deliver: { action: l10n.t('Deliver to cloud store'), retry: 'never', run: (targets) => deliver(services, targets) },
    download: { action: l10n.t('Download'), retry: 'never', run: (targets) => download(services, targets) },
    registerStore: { action: l10n.t('Register cloud store'), retry: 'never', run: () => registerStore(services) },
    deleteStore: { action: l10n.t('Delete cloud store'), retry: 'never', run: (store) => deleteStore(services, store) },
    // The report is a GET: reading it again is safe.
    downloadReport: { action: l10n.t('Download order report'), retry: 'transient', run: (zone) => downloadReport(services, zone) },
  };
}
