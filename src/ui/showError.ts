import { ApiError } from '../api';
import { NotSignedInError } from '../auth/connection';
import type { ExtensionServices } from '../services';
import { runCommand } from './runCommand';

/** A person-readable sentence for any failure; never includes a token or a stack. */
export function describeError(err: unknown): string {
  if (err instanceof ApiError) return err.userMessage;
  if (err instanceof NotSignedInError) return err.message;
  if (err instanceof Error) return err.message;
  return String(err);
}

export function needsSignIn(err: unknown): boolean {
  return err instanceof NotSignedInError || (err instanceof ApiError && err.status === 401);
}

/**
 * Shows what went wrong with a way forward: sign in again on 401, retry on faults that may
 * pass, the log otherwise. `action` names what the person was doing ("Load AOIs").
 */
export async function showError(
  services: ExtensionServices,
  action: string,
  err: unknown,
  retry?: () => unknown,
): Promise<void> {
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

export function isTransient(err: unknown): boolean {
  if (!(err instanceof ApiError)) return false;
  return err.kind === 'network' || err.kind === 'timeout' || (err.status ?? 0) >= 500 || err.status === 429;
}
