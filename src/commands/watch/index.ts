import { l10n } from 'vscode';
import { saveReadyDownload } from '../catalog/download';
import type { CommandTable } from '../register';
import type { CommandServices } from '../services';
import { showPending } from './showPending';

/** What is pending: the status bar's list, and the watcher's Download… on a ready link. */
export function watchCommands(services: CommandServices): CommandTable {
  return {
    showPending: { action: l10n.t('Show pending'), retry: 'transient', run: () => showPending(services) },
    saveReadyDownload: { action: l10n.t('Download'), retry: 'transient', run: (ready) => saveReadyDownload(services, ready) },
  };
}
