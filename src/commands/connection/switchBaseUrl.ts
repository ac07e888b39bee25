import vscode = require('vscode');
import { l10n } from 'vscode';
import { checkBaseUrl, normalizeBaseUrl } from '../../auth/settings';
import type { ExtensionServices } from '../../services';
import { runCommand } from '../../ui/runCommand';

/** Points the extension at another service; each URL keeps its own stored token. */
export async function switchBaseUrl(services: ExtensionServices): Promise<void> {
  const { connection, ui } = services;
  const entered = await ui.input({
    title: l10n.t('EO Imagery: Switch Base URL'),
    prompt: l10n.t('The URL of the EO Imagery service'),
    value: connection.isSandbox ? '' : connection.baseUrl,
    placeHolder: 'https://api.example.com',
    ignoreFocusOut: true,
    validateInput: (v) => checkBaseUrl(v),
  });
  if (entered === undefined) return;
  if (connection.isSandbox) await connection.stopSandbox();
  await vscode.workspace.getConfiguration('eoImagery').update('baseUrl', normalizeBaseUrl(entered), vscode.ConfigurationTarget.Global);
  await connection.refreshState();
  if (connection.state === 'signedOut') {
    const signIn = l10n.t('Sign In');
    const choice = await ui.message('info', l10n.t('No token stored for {0}.', normalizeBaseUrl(entered)), {}, signIn);
    if (choice === signIn) await runCommand('signIn');
  }
}
