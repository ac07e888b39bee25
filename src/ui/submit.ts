/**
 * The submit loop every form-like command shares: send what the entries make; when the
 * service refuses the request itself (a 4xx), show its message with a way to change an entry
 * and send again; any other failure is shown with its own way forward (`showError`). Nothing
 * is ever re-sent without the person asking: a POST that creates or costs something goes out
 * once per decision.
 */
import { l10n } from 'vscode';
import { isRequestError, type ApiError } from '../api';
import type { ExtensionServices } from '../services';
import { showError } from './showError';

export const EDIT_ENTRIES = l10n.t('Edit Entries…');

export interface Submission<T> {
  /** What the person was doing, for the error notification ("Pricing the order"). */
  action: string;
  /** Sends the request the entries make now. */
  send(): PromiseLike<T>;
  /** The notification for a refusal, e.g. `The service refused the order: <message>`. */
  refused(err: ApiError): string;
  /**
   * Changes an entry (usually `MultiStepInput.editOne`); false when the person gave up. Absent
   * when there is nothing to edit (a chat tool's request): the refusal is shown without a button.
   */
  edit?(): Promise<boolean>;
  /** The button that calls `edit` (default "Edit Entries…"). */
  editLabel?: string;
  /** A problem found before sending, offered like a refusal but without a request. */
  precheck?(): string | undefined;
  /** Any other failure that needs more than `showError`; true when it was shown. */
  failed?(err: unknown): Promise<boolean>;
  /** Offered as Retry by `showError` on a failure that may pass (reads only). */
  retry?(): unknown;
}

/** One send: its result, or after a refusal whether the person changed an entry (`again`). */
export type Attempt<T> = { ok: true; value: T } | { ok: false; again: boolean };

export async function attempt<T>(services: ExtensionServices, s: Submission<T>): Promise<Attempt<T>> {
  const problem = s.precheck?.();
  if (problem !== undefined) return { ok: false, again: await offerEdit(services, s, problem) };
  try {
    const value = await s.send();
    services.connection.reportSuccess();
    return { ok: true, value };
  } catch (err) {
    if (isRequestError(err)) return { ok: false, again: await offerEdit(services, s, s.refused(err)) };
    if (!(await s.failed?.(err))) await showError(services, s.action, err, s.retry);
    return { ok: false, again: false };
  }
}

/** Sends until the service accepts or the person stops; undefined when they stopped. */
export async function submitUntilAccepted<T>(services: ExtensionServices, s: Submission<T>): Promise<T | undefined> {
  for (;;) {
    const a = await attempt(services, s);
    if (a.ok) return a.value;
    if (!a.again) return undefined;
  }
}

/** Shows `text` with the edit button; true when the person changed an entry. */
export async function offerEdit(services: ExtensionServices, s: Pick<Submission<unknown>, 'edit' | 'editLabel'>, text: string): Promise<boolean> {
  services.log.warn(text);
  const { edit } = s;
  if (!edit) {
    void services.ui.message('error', text, {});
    return false;
  }
  const label = s.editLabel ?? EDIT_ENTRIES;
  const choice = await services.ui.message('error', text, {}, label);
  return choice === label && edit();
}
