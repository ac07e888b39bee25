import vscode = require('vscode');
import { COMMANDS, type ArgsOf, type CommandName } from '../commandIds';

/**
 * Runs one of the extension's own commands with the arguments the table says it takes. The
 * command is always there: every id in the table is registered during activation (the smoke
 * test checks it).
 */
export function runCommand<K extends CommandName>(name: K, ...args: ArgsOf<K>): Thenable<unknown> {
  return vscode.commands.executeCommand(COMMANDS[name], ...args);
}
