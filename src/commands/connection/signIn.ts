import vscode = require('vscode');
import { l10n } from 'vscode';
import { ApiError } from '../../api';
import { SignInCancelled } from '../../auth/authProvider';
import { hostOf } from '../../auth/connection';
import { checkBaseUrl, normalizeBaseUrl, readConnectionSettings } from '../../auth/settings';
import type { ExtensionServices } from '../../services';
import { describeError } from '../../ui/showError';
import { inputStepVia } from '../../ui/prompts';
import { isBack } from '../../ui/stepPrompts';
import { withProgress } from '../../ui/progress';

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
    // Recovers from closing the prompts: not a failure, the answer is "not signed in".
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
  // Two steps when the service URL is still to be set, else the token alone: known from the start.
  const totalSteps = baseUrl ? 1 : 2;
  if (!baseUrl) {
    const entered = await inputStepVia(ui, {
      title: l10n.t('EO Imagery: Sign In'),
      step: 1,
      totalSteps,
      canGoBack: false,
      prompt: l10n.t('The URL of the EO Imagery service'),
      placeHolder: l10n.t('e.g. https://api.example.com'),
      ignoreFocusOut: true,
      validateInput: (v) => checkBaseUrl(v),
    });
    if (entered === undefined || isBack(entered)) return undefined;
    baseUrl = normalizeBaseUrl(entered);
  }
  const host = hostOf(baseUrl);
  // The token is checked when Enter is pressed; a refusal stays in the box, with what was typed.
  const token = await inputStepVia(ui, {
    title: l10n.t('EO Imagery: Sign In to {0}', host),
    step: totalSteps,
    totalSteps,
    canGoBack: false,
    prompt: l10n.t("Paste your personal access token. It is kept in the editor's secret storage only."),
    password: true,
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() ? undefined : l10n.t('The token cannot be empty')),
    accept: async (value) => {
      try {
        await withProgress({ location: vscode.ProgressLocation.Window, title: l10n.t('Checking the token with {0}…', host) }, () =>
          connection.signIn(value, baseUrl),
        );
        return undefined;
      } catch (err) {
        // Recovers in the box: the refusal is its validation message and the person types again.
        const rejected = err instanceof ApiError && err.status === 401;
        services.log.warn(`Sign-in to ${host} failed: ${rejected ? '401' : describeError(err)}`);
        return rejected
          ? l10n.t('{0} did not accept this token (401). Check that it is current and copied whole, then press Enter again.', host)
          : l10n.t('Could not check the token: {0}. Press Enter to try again.', describeError(err));
      }
    },
  });
  if (token === undefined || isBack(token)) return undefined;
  if (readConnectionSettings().baseUrl !== baseUrl) {
    await vscode.workspace.getConfiguration('eoImagery').update('baseUrl', baseUrl, vscode.ConfigurationTarget.Global);
  }
  void ui.message('info', l10n.t('Signed in to {0}.', host), {});
  return baseUrl;
}
