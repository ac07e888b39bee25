/** Registers the ordering, catalog, cloud store and report commands (one call from activate). */
import vscode = require('vscode');
import type { CommandServices } from '../services';
import { deliver } from '../catalog/deliver';
import { download } from '../catalog/download';
import { searchCatalog } from '../catalog/searchCatalog';
import { COMMANDS } from '../../commandIds';
import { downloadReport } from '../reports/orderReport';
import { deleteStore } from '../stores/deleteStore';
import { registerStore } from '../stores/registerStore';
import { orderArchiveItems } from './orderArchive';
import { orderTasking } from './orderTasking';

export function registerOrderingCommands(services: CommandServices): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(COMMANDS.orderArchiveItems, (...args: unknown[]) => orderArchiveItems(services, ...args)),
    vscode.commands.registerCommand(COMMANDS.orderTasking, (arg?: unknown) => orderTasking(services, arg)),
    vscode.commands.registerCommand(COMMANDS.searchCatalog, (arg?: unknown) => searchCatalog(services, arg)),
    vscode.commands.registerCommand(COMMANDS.deliver, (...args: unknown[]) => deliver(services, ...args)),
    vscode.commands.registerCommand(COMMANDS.download, (...args: unknown[]) => download(services, ...args)),
    vscode.commands.registerCommand(COMMANDS.registerStore, () => registerStore(services)),
    vscode.commands.registerCommand(COMMANDS.deleteStore, (arg?: unknown) => deleteStore(services, arg)),
    vscode.commands.registerCommand(COMMANDS.downloadReport, (tz?: unknown) => downloadReport(services, tz)),
  ];
}
