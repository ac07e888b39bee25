import type * as vscode from 'vscode';
import { l10n } from 'vscode';
import type { CommandServices } from '../services';
import type { CommandTable } from '../register';
import { copyLoggedRequestAs, copyRecordAs, RequestHistory } from './copyAs';

/**
 * Copy as curl / Python: on record rows, and on the request lines of the log. The log's
 * requests are remembered from activation on (`history`, disposed with the extension).
 */
export function copyAsCommands(services: CommandServices): { commands: CommandTable; history: vscode.Disposable } {
  const history = new RequestHistory();
  const curl = l10n.t('Copy as {0}', 'curl');
  const python = l10n.t('Copy as {0}', 'Python');
  return {
    history: services.connection.onDidRequest((e) => history.add(e)),
    commands: {
      // Reading the record again to write its request out is a read: Retry is safe.
      copyAsCurl: { action: curl, retry: 'transient', run: (node) => copyRecordAs(services, 'curl', node) },
      copyAsPython: { action: python, retry: 'transient', run: (node) => copyRecordAs(services, 'python', node) },
      copyLoggedRequestAsCurl: { action: curl, retry: 'never', run: () => copyLoggedRequestAs(services, history, 'curl') },
      copyLoggedRequestAsPython: { action: python, retry: 'never', run: () => copyLoggedRequestAs(services, history, 'python') },
    },
  };
}
