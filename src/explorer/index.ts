import vscode = require('vscode');
import type { ExtensionServices } from '../services';
import type { Watcher } from '../watch/watcher';
import { Explorer, type TreeViewFactory } from './explorer';
import { RECORD_SCHEME, RecordDocuments } from './recordDocuments';

export type { ExplorerApi } from './explorer';

/** The five sidebar views and the JSON documents of their records; its commands are registered by src/commands/explorer. */
export interface Sidebar extends vscode.Disposable {
  readonly explorer: Explorer;
  readonly docs: RecordDocuments;
}

export function createSidebar(services: ExtensionServices, watcher?: Watcher, views?: TreeViewFactory): Sidebar {
  const explorer = new Explorer(services, watcher, undefined, views);
  const docs = new RecordDocuments(services);
  const disposable = vscode.Disposable.from(
    explorer,
    docs,
    vscode.workspace.registerTextDocumentContentProvider(RECORD_SCHEME, docs),
    explorer.onDidUpdateRecord((node) => docs.update(node)),
  );
  return { explorer, docs, dispose: () => disposable.dispose() };
}
