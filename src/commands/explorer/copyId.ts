import vscode = require('vscode');
import { l10n } from 'vscode';
import type { ExplorerApi } from '../../explorer/explorer';
import type { RecordNode } from '../../explorer/tree';
import { safeText } from '../../safeText';
import type { ExtensionServices } from '../../services';

/** Copies the service id of the row (or of the selected rows, one per line). */
export async function copyId(services: ExtensionServices, explorer: ExplorerApi, rows: readonly RecordNode[]): Promise<void> {
  const ids = (rows.length ? rows : explorer.selected()).map((n) => n.recordId);
  if (ids.length === 0) {
    await services.ui.message('info', l10n.t('Select a record in the EO Imagery sidebar to copy its ID.'), {});
    return;
  }
  await vscode.env.clipboard.writeText(ids.join('\n'));
  vscode.window.setStatusBarMessage(safeText(ids.length === 1 ? l10n.t('Copied ID {0}', ids[0]) : l10n.t('Copied {0} IDs', ids.length), 'notification'), 3000);
}
