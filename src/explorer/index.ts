import vscode = require('vscode');
import { registerExplorerCommands } from '../commands/explorer';
import type { ExtensionServices } from '../services';
import { Explorer } from './explorer';
import { RECORD_SCHEME, RecordDocuments } from './recordDocuments';

export type { ExplorerApi } from './explorer';

/**
 * Creates the five sidebar views, their commands and the JSON document provider, and puts
 * the explorer on `services.explorer` for other commands (refresh, reveal, selection).
 */
export function registerExplorer(services: ExtensionServices): vscode.Disposable {
  const explorer = new Explorer(services);
  const docs = new RecordDocuments(services);
  services.explorer = explorer;
  return vscode.Disposable.from(
    explorer,
    docs,
    vscode.workspace.registerTextDocumentContentProvider(RECORD_SCHEME, docs),
    explorer.onDidUpdateRecord((node) => docs.update(node)),
    ...registerExplorerCommands(services, explorer, docs),
  );
}
