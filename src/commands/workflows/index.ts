import vscode = require('vscode');
import { l10n } from 'vscode';
import { COMMANDS } from '../../commandIds';
import { RunDocuments } from '../insights/runDocuments';
import type { CommandServices } from '../services';
import { downloadJob, downloadTask, openTaskLog, showJobGraph } from './jobs';
import { runWorkflow } from './runWorkflow';

/** The scheme of a task's log documents. */
export const TASK_LOG_SCHEME = 'eo-imagery-task';

/** Workflows and jobs: Run Workflow…, Show Job Graph, Open Task Log, Download Job…, Download Task…. */
export function registerWorkflows(services: CommandServices): vscode.Disposable[] {
  const logs = new RunDocuments(TASK_LOG_SCHEME, l10n.t('// This task log is not loaded in this window. Open it again from the Projects view.\n'));
  return [
    logs,
    vscode.workspace.registerTextDocumentContentProvider(TASK_LOG_SCHEME, logs),
    vscode.commands.registerCommand(COMMANDS.runWorkflow, (arg?: unknown) => runWorkflow(services, arg)),
    vscode.commands.registerCommand(COMMANDS.showJobGraph, (arg?: unknown) => showJobGraph(services, arg)),
    vscode.commands.registerCommand(COMMANDS.openTaskLog, (arg?: unknown) => openTaskLog(services, logs, arg)),
    vscode.commands.registerCommand(COMMANDS.downloadJob, (arg?: unknown) => downloadJob(services, arg)),
    vscode.commands.registerCommand(COMMANDS.downloadTask, (arg?: unknown) => downloadTask(services, arg)),
  ];
}
