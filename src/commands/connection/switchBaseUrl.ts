import vscode = require('vscode');
import { checkBaseUrl, normalizeBaseUrl } from '../../auth/settings';
import type { ExtensionServices } from '../../services';
import { runCommand } from '../../ui/runCommand';

/** Points the extension at another service; each URL keeps its own stored token. */
export async function switchBaseUrl(services: ExtensionServices): Promise<void> {
  const { connection, ui } = services;
  const entered = await ui.input({
    title: 'EO Imagery: Switch Base URL',
    prompt: 'The URL of the EO Imagery service',
    value: connection.isSandbox ? '' : connection.baseUrl,
    placeHolder: 'https://api.example.com',
    ignoreFocusOut: true,
    validateInput: (v) => checkBaseUrl(v),
  });
  if (entered === undefined) return;
  if (connection.isSandbox) await connection.stopSandbox();
  await vscode.workspace
    .getConfiguration('eoImagery')
    .update('baseUrl', normalizeBaseUrl(entered), vscode.ConfigurationTarget.Global);
  await connection.refreshState();
  if (connection.state === 'signedOut') {
    const choice = await ui.message('info', `No token stored for ${normalizeBaseUrl(entered)}.`, {}, 'Sign In');
    if (choice === 'Sign In') await runCommand('signIn');
  }
}
