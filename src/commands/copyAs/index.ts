import vscode = require('vscode');
import type { CommandServices } from '../services';
import { COMMANDS } from '../../commandIds';
import { copyLoggedRequestAs, copyRecordAs, RequestHistory } from './copyAs';

/** Copy as curl / Python: on record rows, and on the request lines of the log. */
export function registerCopyAsCommands(services: CommandServices): vscode.Disposable[] {
  const history = new RequestHistory();
  const reg = vscode.commands.registerCommand;
  return [
    services.connection.onDidRequest((e) => history.add(e)),
    reg(COMMANDS.copyAsCurl, (node: unknown) => copyRecordAs(services, 'curl', node)),
    reg(COMMANDS.copyAsPython, (node: unknown) => copyRecordAs(services, 'python', node)),
    reg(COMMANDS.copyLoggedRequestAsCurl, () => copyLoggedRequestAs(services, history, 'curl')),
    reg(COMMANDS.copyLoggedRequestAsPython, () => copyLoggedRequestAs(services, history, 'python')),
  ];
}
