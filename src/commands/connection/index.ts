import vscode = require('vscode');
import type { ExtensionServices } from '../../services';
import { COMMANDS } from '../../commandIds';
import { connectionActions } from './connectionActions';
import { signIn } from './signIn';
import { signOut } from './signOut';
import { switchBaseUrl } from './switchBaseUrl';
import { trySandbox } from './trySandbox';

export function registerConnectionCommands(services: ExtensionServices): vscode.Disposable[] {
  const { connection, log } = services;
  return [
    vscode.commands.registerCommand(COMMANDS.signIn, () => signIn(services)),
    vscode.commands.registerCommand(COMMANDS.signOut, () => signOut(services)),
    vscode.commands.registerCommand(COMMANDS.switchBaseUrl, () => switchBaseUrl(services)),
    vscode.commands.registerCommand(COMMANDS.trySandbox, () => trySandbox(services)),
    vscode.commands.registerCommand(COMMANDS.stopSandbox, () => connection.signOut()),
    vscode.commands.registerCommand(COMMANDS.connectionActions, () => connectionActions(services)),
    vscode.commands.registerCommand(COMMANDS.showLog, () => log.show()),
    vscode.commands.registerCommand(COMMANDS.openSettings, () => vscode.commands.executeCommand('workbench.action.openSettings', '@ext:eo-imagery.eo-imagery')),
  ];
}
