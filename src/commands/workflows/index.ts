import vscode = require('vscode');
import { l10n } from 'vscode';
import { RunDocuments } from '../insights/runDocuments';
import type { CommandTable } from '../register';
import type { CommandServices } from '../services';
import { downloadJob, downloadTask, openTaskLog, showJobGraph } from './jobs';
import { runWorkflow } from './runWorkflow';

/** The scheme of a task's log documents. */
export const TASK_LOG_SCHEME = 'eo-imagery-task';

/** Workflows and jobs: Run Workflow…, Show Job Graph, Open Task Log, Download Job…, Download Task…. */
export function workflowCommands(services: CommandServices): { commands: CommandTable; disposables: vscode.Disposable[] } {
  const logs = new RunDocuments(TASK_LOG_SCHEME, l10n.t('// This task log is not loaded in this window. Open it again from the Projects view.\n'));
  const commands: CommandTable = {
    // A job costs tokens: its POST goes out once per confirmation, never again for the person.
    runWorkflow: { action: l10n.t('Run workflow'), retry: 'never', run: (workflow) => runWorkflow(services, workflow) },
    showJobGraph: { action: l10n.t('Show job graph'), retry: 'transient', run: (job) => showJobGraph(services, job) },
    openTaskLog: { action: l10n.t('Open task log'), retry: 'transient', run: (task) => openTaskLog(services, logs, task) },
    // A package is made by a PUT the service may keep: asked for again by the person only.
    downloadJob: { action: l10n.t('Download job'), retry: 'never', run: (job) => downloadJob(services, job) },
    downloadTask: { action: l10n.t('Download task'), retry: 'never', run: (task) => downloadTask(services, task) },
  };
  return { commands, disposables: [logs, vscode.workspace.registerTextDocumentContentProvider(TASK_LOG_SCHEME, logs)] };
}
