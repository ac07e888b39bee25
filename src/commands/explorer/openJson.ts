import vscode = require('vscode');
import { l10n } from 'vscode';
import type { ExplorerApi } from '../../explorer/explorer';
import { RECORD_SCHEME, type RecordDocuments } from '../../explorer/recordDocuments';
import type { RecordNode } from '../../explorer/tree';
import type { ExtensionServices } from '../../services';

/** Opens the row's record as a read-only, pretty-printed JSON document. */
export async function openJson(
  services: ExtensionServices,
  explorer: ExplorerApi,
  docs: RecordDocuments,
  node: RecordNode | undefined,
): Promise<vscode.TextEditor | undefined> {
  const target = node ?? explorer.selected()[0];
  if (!target) {
    await services.ui.message('info', l10n.t('Select a record in the EO Imagery sidebar to open it as JSON.'), {});
    return undefined;
  }
  const uri = docs.track(target);
  const doc = await vscode.workspace.openTextDocument(uri);
  if (doc.languageId !== 'json') await vscode.languages.setTextDocumentLanguage(doc, 'json');
  return vscode.window.showTextDocument(doc, { preview: true });
}

/** Reads the record of the active (or given) JSON document from the service again. */
export async function refreshJson(services: ExtensionServices, docs: RecordDocuments, uri: vscode.Uri | undefined): Promise<void> {
  const target = uri ?? vscode.window.activeTextEditor?.document.uri;
  if (!target || target.scheme !== RECORD_SCHEME) return;
  const ok = await docs.refresh(target);
  if (!ok) {
    await services.ui.message('info', l10n.t('This kind of record cannot be read on its own; refresh its list in the sidebar instead.'), {});
  }
}
