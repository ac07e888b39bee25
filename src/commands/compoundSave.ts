/**
 * The save dialog for the extension's own file kinds, whose names end in a compound suffix
 * (`*.eosearch.json`, `*.eoview.json`): one place that makes the written file end in exactly
 * one suffix, whatever the dialog handed back.
 */
import * as path from 'node:path';
import vscode = require('vscode');
import { l10n } from 'vscode';
import { withCompoundSuffix } from '../fileNames';
import type { CommandServices } from './services';

export interface CompoundSaveOptions {
  title: string;
  saveLabel: string;
  /** The proposed name, suffix included, placed in the first workspace folder. */
  name: string;
  /** The filter's label, e.g. "Saved searches". */
  kind: string;
  /** `.eosearch.json`, `.eoview.json`… */
  suffix: string;
}

/** Where to write, ending in one `suffix`; undefined when the person cancels. */
export async function askCompoundSaveTarget(services: CommandServices, o: CompoundSaveOptions): Promise<vscode.Uri | undefined> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const ask = services.ui.saveDialog?.bind(services.ui) ?? vscode.window.showSaveDialog;
  const target = await ask({
    title: o.title,
    saveLabel: o.saveLabel,
    defaultUri: folder ? vscode.Uri.joinPath(folder, o.name) : undefined,
    // The filter names only the last part (`json`): VS Code's dialog compares the name's last
    // dot with it and appended the whole `eosearch.json` to a name that already had it.
    filters: { [o.kind]: [o.suffix.slice(o.suffix.lastIndexOf('.') + 1)] },
  });
  if (!target) return undefined;
  const uri = target.with({ path: withCompoundSuffix(target.path, o.suffix) });
  if (uri.path === target.path) return uri;
  // The dialog asked about replacing the name it showed, not this one: ask again when it exists.
  const exists = await vscode.workspace.fs.stat(uri).then(
    () => true,
    () => false,
  );
  if (!exists) return uri;
  const replace = l10n.t('Replace');
  const answer = await services.ui.message('warning', l10n.t('{0} already exists. Replace it?', path.basename(uri.fsPath)), { modal: true }, replace);
  return answer === replace ? uri : undefined;
}
