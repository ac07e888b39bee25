/**
 * How a failure is shown to the person: one sentence (`describeError`) and, for a failed
 * action, a notification with the way forward (`showError`). What a failure means is decided
 * in src/api/errors.ts (`classifyFailure`); this module only presents it.
 */
import { ApiError, isTransient, needsSignIn, NotSignedInError } from '../api';
import type { ExtensionServices } from '../services';
import { runCommand } from './runCommand';

/** A person-readable sentence for any failure; never includes a token or a stack. */
export function describeError(err: unknown): string {
  if (err instanceof ApiError) return err.userMessage;
  if (err instanceof Error) return err.message;
  return String(err);
}

/**
 * Shows what went wrong with a way forward: sign in again on 401, retry on faults that may
 * pass, the log otherwise. `action` names what the person was doing ("Load AOIs").
 */
export async function showError(services: ExtensionServices, action: string, err: unknown, retry?: () => unknown): Promise<void> {
  services.connection.reportFailure(err);
  const text = `${action} failed: ${describeError(err)}`;
  services.log.error(text);
  const buttons: string[] = [];
  if (err instanceof NotSignedInError) {
    buttons.push('Sign In', 'Try the Sandbox');
  } else if (needsSignIn(err)) {
    buttons.push('Sign in again');
  } else if (retry && isTransient(err)) {
    buttons.push('Retry');
  }
  buttons.push('Show Log');
  const choice = await services.ui.message('error', text, {}, ...buttons);
  switch (choice) {
    case 'Sign In':
    case 'Sign in again':
      await runCommand('signIn');
      break;
    case 'Try the Sandbox':
      await runCommand('trySandbox');
      break;
    case 'Retry':
      await retry?.();
      break;
    case 'Show Log':
      services.log.show(true);
      break;
  }
}
