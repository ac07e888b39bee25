import { hostOf } from '../../auth/connection';
import type { ExtensionServices } from '../../services';

export async function signOut(services: ExtensionServices): Promise<void> {
  const { connection, ui } = services;
  if (connection.state === 'signedOut') {
    void ui.message('info', 'You are not signed in to EO Imagery.', {});
    return;
  }
  const where = connection.isSandbox ? 'the sandbox' : hostOf(connection.baseUrl);
  const envOnly = connection.source === 'env';
  // Through the provider, so the Accounts menu and the status bar agree afterwards.
  const session = envOnly ? undefined : await services.accounts?.activeSessionId();
  if (services.accounts && session) await services.accounts.removeSession(session);
  else await connection.signOut();
  void ui.message(
    'info',
    envOnly
      ? `No stored token for ${where}. The token still comes from the EO_API_TOKEN environment variable.`
      : `Signed out of ${where}. The token was removed from secret storage.`,
    {},
  );
}
