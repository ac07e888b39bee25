/**
 * What the extension does when the answer to a POST that spends (an order, an insight run, a
 * workflow job) was lost: the request went out and the connection dropped or timed out, or the
 * service failed in a way that may have come after it acted (`mayHaveActed`). The POST is never
 * sent again; the service is asked what it did, and the person is told one of three things:
 * placed (the caller names it), nothing was placed (with "… Again…", which the caller answers
 * with its priced confirmation, Cancel first), or that nobody can tell (with where to look).
 * The service takes no idempotency key or client reference, so each caller recognises its
 * record by what was asked (see `newestNew`).
 */
import vscode = require('vscode');
import { l10n } from 'vscode';
import { describeError, orReason } from '../ui/showError';
import { withProgress } from '../ui/progress';
import type { CommandServices } from './services';

/** What the service says became of the lost POST. */
export type LostAnswer<T> =
  | { kind: 'placed'; value: T }
  /** Nothing was placed; `again` when the person asked to place it again. */
  | { kind: 'nothing'; again: boolean; reason: string }
  /** The service could not be asked either: nobody knows (said, with where to look). */
  | { kind: 'unknown'; reason: string };

export interface LostAnswerWords {
  /** Logged and shown while the service is asked: "the order", "the run Water on Field A". */
  what: string;
  /** Progress title while the service is asked. */
  asking: string;
  /** "… nothing was placed. Place it again?", given the failure in words. */
  nothing: (failure: string) => string;
  /** The button that asks for the priced confirmation again ("Place Again…", "Run Again…"). */
  again: string;
  /** "… may or may not have been placed …", given the failure and why the service could not be asked. */
  unknown: (failure: string, reason: string) => string;
  /** Where to check by hand when nobody knows. */
  check: { label: string; run: () => PromiseLike<unknown> };
}

/**
 * Asks the service (`find`) what became of the POST that failed with `err`, and says what it
 * learned. "Placed" is left to the caller to say (it names the record and its next actions).
 */
export async function askWhatHappened<T>(
  services: CommandServices,
  err: unknown,
  find: () => Promise<T | undefined>,
  words: LostAnswerWords,
): Promise<LostAnswer<T>> {
  const failure = describeError(err);
  services.connection.reportFailure(err);
  services.log.error(`Sending ${words.what} failed after Confirm: ${failure}; asking the service whether it acted`);
  const asked = await orReason(() => withProgress({ location: vscode.ProgressLocation.Notification, title: words.asking }, find));
  if ('value' in asked && asked.value !== undefined) return { kind: 'placed', value: asked.value };
  if ('value' in asked) {
    services.log.info(`The service has no record of ${words.what}: nothing was placed.`);
    const c = await services.ui.message('warning', words.nothing(failure), {}, words.again);
    return { kind: 'nothing', again: c === words.again, reason: l10n.t('nothing was placed: the service did not answer and has no record of it') };
  }
  services.log.error(`Could not ask the service what became of ${words.what}: ${asked.reason}`);
  const c = await services.ui.message('error', words.unknown(failure, asked.reason), {}, words.check.label);
  if (c === words.check.label) await words.check.run();
  return { kind: 'unknown', reason: words.unknown(failure, asked.reason) };
}

/**
 * How far the service's clock may be behind ours when a record "created since the POST" is
 * looked for, when the records that existed before it could not be listed.
 */
const CLOCK_SKEW_MS = 15 * 60_000;

/**
 * The newest of `records` that `same` recognises and that was not there before the POST: not
 * among `before` (ids listed just before it was sent) or, when that list could not be read,
 * created at most CLOCK_SKEW_MS before `sentAt` (ms since epoch).
 */
export function newestNew<T extends { id: string; created_at: string }>(
  records: readonly T[],
  at: { before: ReadonlySet<string> | undefined; sentAt: number },
  same: (r: T) => boolean,
): T | undefined {
  const time = (r: T): number => Date.parse(r.created_at);
  // A record whose time does not read is kept: told apart by `same`, it is more likely ours than not.
  const fresh = (r: T): boolean => (at.before ? !at.before.has(r.id) : !(time(r) < at.sentAt - CLOCK_SKEW_MS));
  return records
    .filter((r) => same(r) && fresh(r))
    .sort((a, b) => (time(b) || 0) - (time(a) || 0))
    .at(0);
}

/** The ids listed before a POST, or undefined when they could not be read (then `newestNew` goes by time). */
export async function idsBefore(
  list: () => Promise<readonly { id: string }[]>,
  services: CommandServices,
  what: string,
): Promise<ReadonlySet<string> | undefined> {
  const read = await orReason(list);
  if ('value' in read) return new Set(read.value.map((r) => r.id));
  services.log.warn(`Could not list ${what} before sending: ${read.reason}; a lost answer will be matched by time`);
  return undefined;
}
