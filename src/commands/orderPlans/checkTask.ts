/**
 * The "EO Imagery: check files" task: the check command (dist/check.js, no VS Code inside)
 * over the workspace folder, run by the editor's own Node (Electron as Node on the desktop),
 * its problems read by the `$eo-imagery-check` problem matcher into the Problems view. With
 * `"price": true` it prices too, with the EO_API_TOKEN and EO_API_URL of the task's
 * environment: the extension's own token never leaves SecretStorage for a process.
 */
import vscode = require('vscode');
import { l10n } from 'vscode';
import { CHECK_TASK_TYPE } from '../../fileKinds';
const MATCHER = '$eo-imagery-check';

interface CheckTaskDefinition extends vscode.TaskDefinition {
  price?: boolean;
  /** Files or folders, relative to the workspace folder; the folder itself when absent. */
  files?: string[];
}

function checkTask(extensionUri: vscode.Uri, folder: vscode.WorkspaceFolder, def: CheckTaskDefinition): vscode.Task {
  const script = vscode.Uri.joinPath(extensionUri, 'dist', 'check.js').fsPath;
  const args = [script, ...(def.price ? ['--price'] : []), ...(def.files?.length ? def.files : ['.'])];
  const execution = new vscode.ProcessExecution(process.execPath, args, { cwd: folder.uri.fsPath, env: { ELECTRON_RUN_AS_NODE: '1' } });
  const name = def.price ? l10n.t('check and price files') : l10n.t('check files');
  const task = new vscode.Task(def, folder, name, 'EO Imagery', execution, [MATCHER]);
  task.group = vscode.TaskGroup.Test;
  task.presentationOptions = { reveal: vscode.TaskRevealKind.Silent, clear: true };
  return task;
}

export function checkTaskProvider(extensionUri: vscode.Uri): vscode.TaskProvider {
  return {
    provideTasks: () =>
      (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => checkTask(extensionUri, f, { type: CHECK_TASK_TYPE })),
    resolveTask(task) {
      const folder = task.scope && typeof task.scope === 'object' ? task.scope : vscode.workspace.workspaceFolders?.[0];
      return folder ? checkTask(extensionUri, folder, task.definition as CheckTaskDefinition) : undefined;
    },
  };
}
