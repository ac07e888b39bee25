import vscode = require('vscode');
import { l10n } from 'vscode';
import { COMMANDS } from '../commandIds';
import { safeText } from '../safeText';
import type { Watcher } from './watcher';

/** "EO: 3 pending" while the watcher follows anything (hidden at zero); a click lists them. */
export function createPendingStatusItem(watcher: Watcher): vscode.Disposable {
  let made: vscode.StatusBarItem | undefined;
  const render = (): void => {
    const pending = watcher.pending();
    const stopped = watcher.stopped.list();
    const count = pending.length + stopped.length;
    if (count === 0) {
      made?.hide();
      return;
    }
    // Made when something is first pending: a hidden item is nothing to make at activation.
    if (!made) {
      made = vscode.window.createStatusBarItem('eoImagery.pending', vscode.StatusBarAlignment.Left, 49);
      made.name = l10n.t('EO Imagery Pending');
      made.command = COMMANDS.showPending;
    }
    const item = made;
    item.text = `$(watch) ${count === 1 ? l10n.t('EO: 1 pending') : l10n.t('EO: {0} pending', count)}`;
    // One line per thing: a name with a line break in it cannot add lines of its own.
    const lines = [
      ...stopped.map((d) => l10n.t('Download stopped: {0}', safeText(d.what, 'line', 80))),
      ...pending.map(
        (p) => `${p.noun}: ${p.snapshot ? `${safeText(p.snapshot.name, 'line', 80)} · ${safeText(p.snapshot.words, 'line', 80)}` : l10n.t('not read yet')}`,
      ),
    ];
    if (lines.length > 10) lines.splice(10, lines.length, l10n.t('and {0} more', lines.length - 10));
    item.tooltip = `${l10n.t('EO Imagery is following:')}\n${lines.join('\n')}\n\n${l10n.t('Click to see what is pending.')}`;
    item.show();
  };
  // Counting what is pending reads the connection settings when anything is followed: right
  // after activate() returns, as the connection's status bar does.
  const first = setTimeout(render, 0);
  const sub = watcher.onDidChange(render);
  return {
    dispose: () => {
      clearTimeout(first);
      sub.dispose();
      made?.dispose();
    },
  };
}
