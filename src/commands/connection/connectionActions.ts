import vscode = require('vscode');
import { l10n } from 'vscode';
import { hostOf } from '../../auth/connection';
import type { ExtensionServices } from '../../services';
import { COMMANDS, type CommandId } from '../../commandIds';

interface ActionItem extends vscode.QuickPickItem {
  command: CommandId;
}

/** The status bar's menu: what can be done about the connection from where it stands. */
export async function connectionActions(services: ExtensionServices): Promise<void> {
  const { connection, ui } = services;
  const signedIn = connection.state !== 'signedOut';
  const items: ActionItem[] = [];
  if (!signedIn || connection.state === 'failing') {
    items.push({
      label: l10n.t('Sign In…'),
      iconPath: new vscode.ThemeIcon('key'),
      description: connection.baseUrl ? hostOf(connection.baseUrl) : '',
      command: COMMANDS.signIn,
    });
  }
  if (signedIn) {
    items.push({
      label: connection.isSandbox ? l10n.t('Stop the Sandbox') : l10n.t('Sign Out'),
      iconPath: new vscode.ThemeIcon(connection.isSandbox ? 'debug-stop' : 'sign-out'),
      description: connection.isSandbox ? l10n.t('and forget its token') : hostOf(connection.baseUrl),
      command: connection.isSandbox ? COMMANDS.stopSandbox : COMMANDS.signOut,
    });
  }
  items.push(
    { label: l10n.t('Switch Base URL…'), iconPath: new vscode.ThemeIcon('arrow-swap'), command: COMMANDS.switchBaseUrl },
    {
      label: l10n.t('Try the Sandbox'),
      iconPath: new vscode.ThemeIcon('beaker'),
      description: l10n.t('local demo data, no account needed'),
      command: COMMANDS.trySandbox,
    },
    { label: l10n.t('Show Log'), iconPath: new vscode.ThemeIcon('output'), command: COMMANDS.showLog },
    { label: l10n.t('Open Settings'), iconPath: new vscode.ThemeIcon('gear'), command: COMMANDS.openSettings },
  );
  const picked = await ui.pick(items, {
    title: describeState(services),
    placeHolder: l10n.t('Choose a connection action'),
  });
  if (picked) await vscode.commands.executeCommand(picked.command);
}

function describeState({ connection }: ExtensionServices): string {
  const where = connection.isSandbox ? l10n.t('the local sandbox') : hostOf(connection.baseUrl) || l10n.t('no service configured');
  switch (connection.state) {
    case 'signedOut':
      return l10n.t('EO Imagery: signed out ({0})', where);
    case 'unverified':
      return l10n.t('EO Imagery: signed in to {0}', where);
    case 'connected':
      return l10n.t('EO Imagery: connected to {0}', where);
    case 'failing':
      return l10n.t('EO Imagery: requests to {0} are failing', where);
  }
}
