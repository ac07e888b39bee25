import vscode = require('vscode');
import { l10n } from 'vscode';
import { hostOf, type Connection } from './connection';
import { COMMANDS } from '../commandIds';
import { safeText } from '../safeText';

/** Host and connection state at a glance; a click opens the connection actions. */
export function createConnectionStatusBar(connection: Connection): vscode.Disposable {
  let made: vscode.StatusBarItem | undefined;
  const render = (): void => {
    // Made at the first render, not inside activate(): until then it would show nothing.
    if (!made) {
      made = vscode.window.createStatusBarItem('eoImagery.connection', vscode.StatusBarAlignment.Left, 50);
      made.name = l10n.t('EO Imagery Connection');
      made.command = COMMANDS.connectionActions;
    }
    const item = made;
    const host = connection.isSandbox ? l10n.t('sandbox') : hostOf(connection.baseUrl);
    item.backgroundColor = undefined;
    switch (connection.state) {
      case 'signedOut':
        item.text = `$(account) ${l10n.t('EO: signed out')}`;
        item.tooltip = connection.baseUrl
          ? l10n.t('EO Imagery: not signed in to {0}. Click to sign in.', hostOf(connection.baseUrl))
          : l10n.t('EO Imagery: no service configured. Click to sign in or try the sandbox.');
        break;
      case 'unverified':
      case 'connected':
        item.text = `$(globe) ${l10n.t('EO: {0}', host)}`;
        item.tooltip =
          connection.source === 'env'
            ? connection.state === 'connected'
              ? l10n.t('EO Imagery: connected to {0} (token from {1})', connection.baseUrl, 'EO_API_TOKEN')
              : l10n.t('EO Imagery: signed in to {0} (token from {1})', connection.baseUrl, 'EO_API_TOKEN')
            : connection.state === 'connected'
              ? l10n.t('EO Imagery: connected to {0}', connection.baseUrl)
              : l10n.t('EO Imagery: signed in to {0}', connection.baseUrl);
        break;
      case 'failing':
        item.text = `$(warning) ${l10n.t('EO: {0}', host)}`;
        // The last error can quote the service: one bounded line.
        item.tooltip = l10n.t('EO Imagery: requests to {0} are failing. {1}', connection.baseUrl, safeText(connection.lastError, 'line', 300)).trim();
        item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
        break;
    }
    item.show();
  };
  // The first render reads the connection settings, the extension host's first configuration
  // read (a few milliseconds): right after activate() returns, not inside it.
  const first = setTimeout(render, 0);
  const sub = connection.onDidChange(render);
  return {
    dispose: () => {
      clearTimeout(first);
      sub.dispose();
      made?.dispose();
    },
  };
}
