import vscode = require('vscode');
import { hostOf, type Connection } from './connection';
import { COMMANDS } from '../commandIds';

/** Host and connection state at a glance; a click opens the connection actions. */
export function createConnectionStatusBar(connection: Connection): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('eoImagery.connection', vscode.StatusBarAlignment.Left, 50);
  item.name = 'EO Imagery Connection';
  item.command = COMMANDS.connectionActions;

  const render = (): void => {
    const host = connection.isSandbox ? 'sandbox' : hostOf(connection.baseUrl);
    item.backgroundColor = undefined;
    switch (connection.state) {
      case 'signedOut':
        item.text = '$(account) EO: signed out';
        item.tooltip = connection.baseUrl
          ? `EO Imagery: not signed in to ${hostOf(connection.baseUrl)}. Click to sign in.`
          : 'EO Imagery: no service configured. Click to sign in or try the sandbox.';
        break;
      case 'unverified':
      case 'connected':
        item.text = `$(globe) EO: ${host}`;
        item.tooltip = `EO Imagery: ${connection.state === 'connected' ? 'connected to' : 'signed in to'} ${connection.baseUrl}${connection.source === 'env' ? ' (token from EO_API_TOKEN)' : ''}`;
        break;
      case 'failing':
        item.text = `$(warning) EO: ${host}`;
        item.tooltip = `EO Imagery: requests to ${connection.baseUrl} are failing. ${connection.lastError ?? ''}`.trim();
        item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
        break;
    }
    item.show();
  };
  render();
  const sub = connection.onDidChange(render);
  return vscode.Disposable.from(item, sub);
}
