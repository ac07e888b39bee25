import vscode = require('vscode');
import { l10n } from 'vscode';
import type { ExtensionServices } from '../../services';
import type { CommandTable } from '../register';
import { connectionActions } from './connectionActions';
import { signIn } from './signIn';
import { signOut } from './signOut';
import { switchBaseUrl } from './switchBaseUrl';
import { trySandbox } from './trySandbox';

/** Sign in and out, the service URL, the sandbox, the status bar's menu, the log, the settings. */
export function connectionCommands(services: ExtensionServices): CommandTable {
  const { connection, log } = services;
  return {
    signIn: { action: l10n.t('Sign in'), retry: 'transient', run: () => signIn(services) },
    signOut: { action: l10n.t('Sign out'), retry: 'transient', run: () => signOut(services) },
    switchBaseUrl: { action: l10n.t('Switch base URL'), retry: 'transient', run: () => switchBaseUrl(services) },
    trySandbox: { action: l10n.t('Start the sandbox'), retry: 'transient', run: () => trySandbox(services) },
    stopSandbox: { action: l10n.t('Stop the sandbox'), retry: 'transient', run: () => connection.signOut() },
    connectionActions: { action: l10n.t('Connection actions'), retry: 'never', run: () => connectionActions(services) },
    showLog: { action: l10n.t('Show log'), retry: 'never', run: () => log.show() },
    openSettings: {
      action: l10n.t('Open settings'),
      retry: 'never',
      run: () => vscode.commands.executeCommand('workbench.action.openSettings', '@ext:eo-imagery.eo-imagery'),
    },
  };
}
