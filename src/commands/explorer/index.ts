import vscode = require('vscode');
import type { ExplorerApi } from '../../explorer/explorer';
import type { RecordDocuments } from '../../explorer/recordDocuments';
import type { ExtensionServices } from '../../services';
import { COMMANDS } from '../../commandIds';
import { copyId } from './copyId';
import { clearOrdersFilter, clearProjectsFilter, filterAois, filterOrderItems, filterOrders } from './filters';
import { openJson, refreshJson } from './openJson';
import { loadMore, retryLoad } from './paging';
import { refreshNode, refreshView } from './refresh';

/** The sidebar's commands: refresh, paging, copy, JSON, filters. */
export function registerExplorerCommands(services: ExtensionServices, explorer: ExplorerApi, docs: RecordDocuments): vscode.Disposable[] {
  const reg = vscode.commands.registerCommand;
  return [
    reg(COMMANDS.refreshProjects, () => refreshView(explorer, 'projects')),
    reg(COMMANDS.refreshOrders, () => refreshView(explorer, 'orders')),
    reg(COMMANDS.refreshCatalog, () => refreshView(explorer, 'catalog')),
    reg(COMMANDS.refreshStores, () => refreshView(explorer, 'stores')),
    reg(COMMANDS.refreshArchive, () => refreshView(explorer, 'archive')),
    reg(COMMANDS.refreshNode, (node: unknown) => refreshNode(explorer, node)),
    reg(COMMANDS.loadMore, (node: unknown) => loadMore(explorer, node)),
    reg(COMMANDS.retryLoad, (node: unknown) => retryLoad(explorer, node)),
    reg(COMMANDS.copyId, (node: unknown, all: unknown) => copyId(services, explorer, node, all)),
    reg(COMMANDS.openJson, (node: unknown) => openJson(services, explorer, docs, node)),
    reg(COMMANDS.refreshJson, (uri: unknown) => refreshJson(services, docs, uri)),
    reg(COMMANDS.filterAois, () => filterAois(services, explorer)),
    reg(COMMANDS.filterOrders, () => filterOrders(services, explorer)),
    reg(COMMANDS.filterOrderItems, () => filterOrderItems(services, explorer)),
    reg(COMMANDS.clearProjectsFilter, () => clearProjectsFilter(explorer)),
    reg(COMMANDS.clearOrdersFilter, () => clearOrdersFilter(explorer)),
  ];
}
