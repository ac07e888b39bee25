import { l10n } from 'vscode';
import type { ExplorerApi } from '../../explorer/explorer';
import type { RecordDocuments } from '../../explorer/recordDocuments';
import type { ExtensionServices } from '../../services';
import type { CommandTable } from '../register';
import { copyId } from './copyId';
import { clearOrdersFilter, clearProjectsFilter, filterAois, filterOrderItems, filterOrders } from './filters';
import { openJson, refreshJson } from './openJson';
import { loadMore, retryLoad } from './paging';
import { refreshNode, refreshView } from './refresh';

/** The sidebar's commands: refresh, paging, copy, JSON, filters. */
export function explorerCommands(services: ExtensionServices, explorer: ExplorerApi, docs: RecordDocuments): CommandTable {
  const refresh = l10n.t('Refresh');
  const filter = l10n.t('Filter');
  return {
    refreshProjects: { action: refresh, retry: 'never', run: () => refreshView(explorer, 'projects') },
    refreshOrders: { action: refresh, retry: 'never', run: () => refreshView(explorer, 'orders') },
    refreshCatalog: { action: refresh, retry: 'never', run: () => refreshView(explorer, 'catalog') },
    refreshStores: { action: refresh, retry: 'never', run: () => refreshView(explorer, 'stores') },
    refreshArchive: { action: refresh, retry: 'never', run: () => refreshView(explorer, 'archive') },
    refreshNode: { action: refresh, retry: 'never', run: (node) => refreshNode(explorer, node) },
    // A failed page becomes an error row of its own, with its retry: nothing reaches the wrapper.
    loadMore: { action: l10n.t('Load more'), retry: 'never', run: (node) => loadMore(explorer, node) },
    retryLoad: { action: l10n.t('Load more'), retry: 'never', run: (node) => retryLoad(explorer, node) },
    copyId: { action: l10n.t('Copy ID'), retry: 'never', run: (nodes) => copyId(services, explorer, nodes) },
    openJson: { action: l10n.t('Open as JSON'), retry: 'transient', run: (node) => openJson(services, explorer, docs, node) },
    refreshJson: { action: l10n.t('Refresh record'), retry: 'transient', run: (uri) => refreshJson(services, docs, uri) },
    filterAois: { action: filter, retry: 'never', run: () => filterAois(services, explorer) },
    filterOrders: { action: filter, retry: 'never', run: () => filterOrders(services, explorer) },
    filterOrderItems: { action: filter, retry: 'never', run: () => filterOrderItems(services, explorer) },
    clearProjectsFilter: { action: filter, retry: 'never', run: () => clearProjectsFilter(explorer) },
    clearOrdersFilter: { action: filter, retry: 'never', run: () => clearOrdersFilter(explorer) },
  };
}
