/**
 * "Save Search…": the map's search (from its form, or the last one it ran when the command
 * comes from the palette) written to a `*.eosearch.json` file the person names. `activate()`
 * hands it to the panels, so the map's own button runs the same flow.
 */
import vscode = require('vscode');
import { l10n } from 'vscode';
import type { SearchParams } from '../../panels/protocol';
import { askCompoundSaveTarget } from '../compoundSave';
import type { CommandServices } from '../services';
import { SEARCH_FILE_SUFFIX, toSearchFile } from './searchFile';

export const isSearchFile = (uri: vscode.Uri): boolean => uri.path.endsWith(SEARCH_FILE_SUFFIX);

export async function saveSearch(services: CommandServices, params: SearchParams | undefined): Promise<vscode.Uri | undefined> {
  const p = params ?? services.panels.currentMap()?.lastSearch;
  if (!p) {
    await services.ui.message('info', l10n.t('Draw an area on the map and search first; then save the search.'), {});
    return undefined;
  }
  const uri = await askCompoundSaveTarget(services, {
    title: l10n.t('Save Search'),
    saveLabel: l10n.t('Save Search'),
    name: `${p.kind}-search-${new Date().toISOString().slice(0, 10)}${SEARCH_FILE_SUFFIX}`,
    kind: l10n.t('Saved searches'),
    suffix: SEARCH_FILE_SUFFIX,
  });
  if (!uri) return undefined;
  const text = `${JSON.stringify(toSearchFile(p), null, 2)}\n`;
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
  await vscode.window.showTextDocument(uri, { preview: false, viewColumn: vscode.ViewColumn.Beside });
  return uri;
}
