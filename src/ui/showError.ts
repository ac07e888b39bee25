/**
 * How a failure is shown to the person: one sentence (`describeError`) and, for a failed
 * action, a notification with the way forward (`showError`). What a failure means is decided
 * in src/api/errors.ts (`classifyFailure`); this module only presents it. Commands do not
 * call `showError` themselves: they throw, and the command wrapper (src/commands/register.ts)
 * shows the failure; `inStep` names the step a failure happened in.
 */
import { l10n } from 'vscode';
import { ApiError, isCancellation, isNotSupported, isTransient, needsSignIn, NotSignedInError } from '../api';
import type { ExtensionServices } from '../services';
import { runCommand } from './runCommand';

/**
 * A failure that says which step of a command it happened in ("Pricing the order failed: …",
 * "Cannot open water_bodies of run 3: …"). Thrown by `inStep`; `showError` reads the sentence
 * from it and everything else (sign in, retry) from `cause`.
 */
export class StepFailure extends Error {
  constructor(
    sentence: (reason: string, cause: unknown) => string,
    override readonly cause: unknown,
  ) {
    super(sentence(describeError(cause), cause));
    this.name = 'StepFailure';
  }
}

/**
 * Runs one step of a command; a failure leaves it named by `step`: the action ("Loading
 * cloud stores"), read "<action> failed: <reason>", or a sentence made from the reason (and
 * the failure, e.g. to word a refusal apart). A cancellation, or a failure already named,
 * passes through as it is.
 */
export async function inStep<T>(step: string | ((reason: string, cause: unknown) => string), work: () => PromiseLike<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isCancellation(err) || err instanceof StepFailure) throw err;
    throw new StepFailure(typeof step === 'string' ? (reason) => failedText(step, reason) : step, err);
  }
}

/**
 * Runs `work`; a service without the operation (404, 405 or 501 on an endpoint beyond the
 * interface's required set) is a fact to state, not a failure: `say` words it in a warning and
 * the result is undefined, so the command stops there. Anything else passes through.
 */
export async function unlessNotSupported<T>(
  services: Pick<ExtensionServices, 'log' | 'ui'>,
  say: string | ((err: ApiError) => string),
  work: () => PromiseLike<T>,
): Promise<T | undefined> {
  try {
    return await work();
  } catch (err) {
    // Recovers from an optional operation the service lacks: said once, as a warning.
    if (!isNotSupported(err)) throw err;
    const text = typeof say === 'string' ? say : say(err as ApiError);
    services.log.warn(`${text} (the service answered ${(err as ApiError).status})`);
    await services.ui.message('warning', text, {});
    return undefined;
  }
}

/**
 * `work()`'s value, or the sentence that says why it failed: for a part a command goes on
 * without (a layer of a shared view, an AOI list beside a drawing tool), saying why it is
 * missing. A cancellation passes through.
 */
export async function orReason<T>(work: () => PromiseLike<T>, word: (err: unknown) => string = describeError): Promise<{ value: T } | { reason: string }> {
  try {
    return { value: await work() };
  } catch (err) {
    // Recovers from a failed part: the caller goes on without it and words the reason.
    if (isCancellation(err)) throw err;
    return { reason: word(err) };
  }
}

/** A person-readable sentence for any failure; never includes a token or a stack. */
export function describeError(err: unknown): string {
  if (err instanceof StepFailure) return describeError(err.cause);
  if (err instanceof ApiError) return err.userMessage;
  if (err instanceof Error) return err.message;
  return String(err);
}

/** "<action> failed: <reason>", the sentence of every failure that has no better one. */
export function failedText(action: string, reason: string): string {
  return l10n.t('{0} failed: {1}', action, reason);
}

/**
 * Shows what went wrong with a way forward: sign in (again) when the token is missing or
 * refused, Retry on a fault that may pass when the caller can run the same thing again, and
 * the log in any case. `action` names what the person was doing ("Load AOIs"). Logged once.
 */
export async function showError(services: ExtensionServices, action: string, err: unknown, retry?: () => unknown): Promise<void> {
  const cause = err instanceof StepFailure ? err.cause : err;
  services.connection.reportFailure(cause);
  const text = err instanceof StepFailure ? err.message : failedText(action, describeError(cause));
  services.log.error(text);
  const signIn = l10n.t('Sign In');
  const signInAgain = l10n.t('Sign in again');
  const trySandbox = l10n.t('Try the Sandbox');
  const again = l10n.t('Retry');
  const showLog = l10n.t('Show Log');
  const buttons: string[] = [];
  if (cause instanceof NotSignedInError) buttons.push(signIn, trySandbox);
  else if (needsSignIn(cause)) buttons.push(signInAgain);
  else if (retry && isTransient(cause)) buttons.push(again);
  buttons.push(showLog);
  const choice = await services.ui.message('error', text, {}, ...buttons);
  if (choice === signIn || choice === signInAgain) await runCommand('signIn');
  else if (choice === trySandbox) await runCommand('trySandbox');
  else if (choice === again) await retry?.();
  else if (choice === showLog) services.log.show(true);
}
