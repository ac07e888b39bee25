import vscode = require('vscode');
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
    items.push({ label: '$(key) Sign In…', description: connection.baseUrl ? hostOf(connection.baseUrl) : '', command: COMMANDS.signIn });
  }
  if (signedIn) {
    items.push({
      label: connection.isSandbox ? '$(debug-stop) Stop the Sandbox' : '$(sign-out) Sign Out',
      description: connection.isSandbox ? 'and forget its token' : hostOf(connection.baseUrl),
      command: connection.isSandbox ? COMMANDS.stopSandbox : COMMANDS.signOut,
    });
  }
  items.push(
    { label: '$(arrow-swap) Switch Base URL…', command: COMMANDS.switchBaseUrl },
    { label: '$(beaker) Try the Sandbox', description: 'local demo data, no account needed', command: COMMANDS.trySandbox },
    { label: '$(output) Show Log', command: COMMANDS.showLog },
    { label: '$(gear) Open Settings', command: COMMANDS.openSettings },
  );
  const picked = await ui.pick(items, {
    title: `EO Imagery: ${describeState(services)}`,
    placeHolder: 'Choose a connection action',
  });
  if (picked) await vscode.commands.executeCommand(picked.command);
}

function describeState({ connection }: ExtensionServices): string {
  const where = connection.isSandbox ? 'the local sandbox' : hostOf(connection.baseUrl) || 'no service configured';
  switch (connection.state) {
    case 'signedOut':
      return `signed out (${where})`;
    case 'unverified':
      return `signed in to ${where}`;
    case 'connected':
      return `connected to ${where}`;
    case 'failing':
      return `requests to ${where} are failing`;
  }
}
