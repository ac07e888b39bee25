import { l10n } from 'vscode';
import { hostOf } from '../../auth/connection';
import type { ExtensionServices } from '../../services';

export async function signOut(services: ExtensionServices): Promise<void> {
  const { connection, ui } = services;
  if (connection.state === 'signedOut') {
    void ui.message('info', l10n.t('You are not signed in to EO Imagery.'), {});
    return;
  }
  const where = connection.isSandbox ? l10n.t('the sandbox') : hostOf(connection.baseUrl);
  const envOnly = connection.source === 'env';
  // Through the provider, so the Accounts menu and the status bar agree afterwards.
  const session = envOnly ? undefined : await services.accounts?.activeSessionId();
  if (services.accounts && session) await services.accounts.removeSession(session);
  else await connection.signOut();
  void ui.message(
    'info',
    envOnly
      ? l10n.t('No stored token for {0}. The token still comes from the {1} environment variable.', where, 'EO_API_TOKEN')
      : l10n.t('Signed out of {0}. The token was removed from secret storage.', where),
    {},
  );
}
