/**
 * A list the service sent with records that could not be read: the records are left out and
 * the person is told how many, without waiting on them (the log names each with its field).
 */
import { l10n } from 'vscode';
import type { WithUnreadable } from '../api/unreadable';
import type { Prompts } from './prompts';
import { runCommand } from './runCommand';

/** `what`: the plural noun of the list ("insight blocks", "images"). */
export function noteUnreadable(ui: Prompts, what: string, list: WithUnreadable): void {
  const n = list.unreadable?.length ?? 0;
  if (n === 0) return;
  const showLog = l10n.t('Show Log');
  const text =
    n === 1
      ? l10n.t('1 of the {0} the service sent could not be read and is not listed.', what)
      : l10n.t('{0} of the {1} the service sent could not be read and are not listed.', n, what);
  void Promise.resolve(ui.message('warning', text, {}, showLog)).then((choice) => {
    if (choice === showLog) void runCommand('showLog');
  });
}
