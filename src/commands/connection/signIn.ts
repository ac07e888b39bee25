import vscode = require('vscode');
import { ApiError } from '../../api';
import { SignInCancelled } from '../../auth/authProvider';
import { hostOf } from '../../auth/connection';
import { checkBaseUrl, normalizeBaseUrl, readConnectionSettings } from '../../auth/settings';
import type { ExtensionServices } from '../../services';
import { describeError } from '../../ui/showError';

/**
 * The "Sign In" command. It goes through the authentication provider, as "Sign in with EO
 * Imagery" in the Accounts menu does, so both run the same prompts and end in the same account.
 */
export async function signIn(services: ExtensionServices): Promise<boolean> {
  if (!services.accounts) return (await promptSignIn(services)) !== undefined;
  try {
    await services.accounts.createSession([]);
    return true;
  } catch (err) {
    if (err instanceof SignInCancelled) return false;
    throw err;
  }
}

/**
 * The sign-in prompts: the service URL (when none is set), then the token in a password box.
 * The token is checked with one authenticated call before it is stored; a rejected token is
 * never stored. Resolves to the base URL signed in to, or undefined when the person gave up.
 */
export async function promptSignIn(services: ExtensionServices): Promise<string | undefined> {
  const { connection, ui } = services;
  let baseUrl = connection.isSandbox ? '' : connection.baseUrl;
  if (!baseUrl) {
    const entered = await ui.input({
      title: 'EO Imagery: Sign In (1/2)',
      prompt: 'The URL of the EO Imagery service',
      placeHolder: 'https://api.example.com',
      ignoreFocusOut: true,
      validateInput: (v) => checkBaseUrl(v),
    });
    if (entered === undefined) return undefined;
    baseUrl = normalizeBaseUrl(entered);
  }
  for (;;) {
    const token = await ui.input({
      title: `EO Imagery: Sign In to ${hostOf(baseUrl)}`,
      prompt: 'Paste your personal access token. It is kept in the editor\'s secret storage only.',
      password: true,
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim() ? undefined : 'The token cannot be empty'),
    });
    if (token === undefined) return undefined;
    try {
      await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Checking the token with ${hostOf(baseUrl)}…` },
        () => connection.signIn(token, baseUrl),
      );
    } catch (err) {
      const rejected = err instanceof ApiError && err.status === 401;
      const text = rejected
        ? `${hostOf(baseUrl)} did not accept this token (401). Check that it is current and copied whole.`
        : `Could not check the token: ${describeError(err)}`;
      services.log.warn(`Sign-in to ${hostOf(baseUrl)} failed: ${rejected ? '401' : describeError(err)}`);
      const again = await ui.message('error', text, {}, 'Try Again', 'Show Log');
      if (again === 'Try Again') continue;
      if (again === 'Show Log') services.log.show(true);
      return undefined;
    }
    break;
  }
  if (readConnectionSettings().baseUrl !== baseUrl) {
    await vscode.workspace.getConfiguration('eoImagery').update('baseUrl', baseUrl, vscode.ConfigurationTarget.Global);
  }
  void ui.message('info', `Signed in to ${hostOf(baseUrl)}.`, {});
  return baseUrl;
}
