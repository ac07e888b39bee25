/**
 * Commands on a job or task row: Show Job Graph, Open Task Log (the task's `state_msg` and
 * `info_logs` as a read-only document), Download Job… and Download Task… (`PUT …/download`,
 * the link saved into a folder with progress), and showing a new job in the Projects view.
 */
import vscode = require('vscode');
import { l10n } from 'vscode';
import { workState, type Job, type JobTask, type WorkflowListItem } from '../../api';
import { isObj } from '../../api/shape';
import { JobNode, TaskNode, WorkflowNode, taskBlock, taskFailureText, workStatusText } from '../../explorer/nodes/workflows';
import { ProjectNode } from '../../explorer/nodes/projects';
import { dateTime } from '../../format';
import { inStep, unlessNotSupported } from '../../ui/showError';
import { saveLinkToFolder } from '../catalog/saveToFolder';
import type { RunDocuments } from '../insights/runDocuments';
import { showDocument } from '../insights/runDocuments';
import { busy } from '../insights/pickers';
import type { CommandServices } from '../services';
import type { JobGraphState } from '../../panels/jobGraph/protocol';

/** The row a command was given, or the selected one of that kind. */
function rowOf<T>(services: CommandServices, given: T | undefined, kind: abstract new (...a: never[]) => T): T | undefined {
  if (given) return given;
  const selected = services.explorer?.selected('projects')[0];
  return selected instanceof kind ? selected : undefined;
}

/** What names a task outside the tree (a click in the job graph). */
export interface TaskRef {
  workflowId: string;
  workflowName: string;
  job: Job;
  task: JobTask;
}

/** A task row or a task named outside the tree (the reader of the task commands, ../args). */
export function taskRefOf(arg: unknown): TaskRef | undefined {
  if (isObj(arg) && typeof arg.workflowId === 'string' && isObj(arg.job) && isObj(arg.task))
    return {
      workflowId: arg.workflowId,
      workflowName: typeof arg.workflowName === 'string' ? arg.workflowName : arg.workflowId,
      job: arg.job as unknown as Job,
      task: arg.task as unknown as JobTask,
    };
  return arg instanceof TaskNode ? taskRefOfNode(arg) : undefined;
}

function taskRefOfNode(node: TaskNode): TaskRef {
  return { workflowId: node.job.record.workflow_id, workflowName: node.job.workflowName, job: node.job.record, task: node.record };
}

/** The task a command was given, or the selected task row. */
function taskOf(services: CommandServices, given: TaskRef | undefined): TaskRef | undefined {
  if (given) return given;
  const selected = services.explorer?.selected('projects')[0];
  return selected instanceof TaskNode ? taskRefOfNode(selected) : undefined;
}

/** "Job of 2026-11-25 14:57 UTC" */
function jobTitle(job: Pick<Job, 'created_at'>): string {
  return l10n.t('Job of {0}', dateTime(job.created_at));
}

/** A name for files: letters, digits, dashes. */
function slug(s: string): string {
  return (
    s
      .normalize('NFKD')
      .replace(/[^\w\s-]/g, '')
      .trim()
      .replace(/[\s_]+/g, '-')
      .slice(0, 60) || 'job'
  );
}

/** "Show Job Graph": a job row, a job the watcher named (its row may be gone), or the selected row. */
export async function showJobGraph(services: CommandServices, given: JobNode | JobGraphState | undefined): Promise<boolean> {
  if (given && !(given instanceof JobNode)) {
    services.panels.showJobGraph(given);
    return true;
  }
  const node = rowOf(services, given, JobNode);
  if (!node) {
    await services.ui.message('info', l10n.t('Select a job in the Projects view to show its graph.'), {});
    return false;
  }
  services.panels.showJobGraph({ workflowId: node.record.workflow_id, jobId: node.record.id, workflowName: node.workflowName }, node.record);
  return true;
}

/** The task's state message, error and log as a read-only document. */
export async function openTaskLog(services: CommandServices, docs: RunDocuments, given: TaskRef | undefined): Promise<vscode.TextEditor | undefined> {
  const ref = taskOf(services, given);
  if (!ref) {
    await services.ui.message('info', l10n.t('Select a task of a job in the Projects view to open its log.'), {});
    return undefined;
  }
  const t = ref.task;
  const lines = [
    l10n.t('Task: {0}', t.name),
    l10n.t('Block: {0}', taskBlock(t) || l10n.t('unknown')),
    l10n.t('Job: {0} of {1}', jobTitle(ref.job), ref.workflowName),
    l10n.t('Status: {0}', workStatusText(t.status, t.progress)),
    ...(t.state_msg ? [l10n.t('State: {0}', t.state_msg)] : []),
    ...(workState(t.status) === 'failed' ? [l10n.t('Error: {0}', taskFailureText(t))] : []),
    ...t.disclaimer.map((d) => l10n.t('Note: {0}', d)),
    '',
    t.info_logs?.trim() ? t.info_logs : l10n.t('(The service sent no log for this task.)'),
  ];
  const uri = docs.put([slug(ref.workflowName), slug(dateTime(ref.job.created_at)), `${slug(t.name)}.log`], `${lines.join('\n')}\n`);
  return showDocument(uri, 'log');
}

/** "Download Job…": the job's package saved into a folder. */
export async function downloadJob(services: CommandServices, given: JobNode | undefined): Promise<string | undefined> {
  const node = rowOf(services, given, JobNode);
  if (!node) {
    await services.ui.message('info', l10n.t('Select a finished job in the Projects view to download it.'), {});
    return undefined;
  }
  const j = node.record;
  const what = l10n.t('the job of {0} ({1})', node.workflowName, dateTime(j.created_at));
  return download(services, what, `${slug(node.workflowName)}-${slug(dateTime(j.created_at))}`, async () => {
    const client = await services.connection.getClient();
    return client.workflows.downloadJob(j.workflow_id, j.id);
  });
}

/** "Download Task…": one task's package saved into a folder. */
export async function downloadTask(services: CommandServices, given: TaskRef | undefined): Promise<string | undefined> {
  const ref = taskOf(services, given);
  if (!ref) {
    await services.ui.message('info', l10n.t('Select a finished task of a job in the Projects view to download it.'), {});
    return undefined;
  }
  const what = l10n.t('task {0} of {1} ({2})', ref.task.name, ref.workflowName, dateTime(ref.job.created_at));
  return download(services, what, `${slug(ref.workflowName)}-${slug(ref.task.name)}`, async () => {
    const client = await services.connection.getClient();
    return client.workflows.downloadTask(ref.workflowId, ref.job.id, ref.task.id);
  });
}

async function download(
  services: CommandServices,
  what: string,
  base: string,
  ask: () => Promise<{ signed_url?: string; status?: string }>,
): Promise<string | undefined> {
  const pkg = await inStep(l10n.t('Download {0}', what), () =>
    unlessNotSupported(services, l10n.t('This service does not support downloading jobs and tasks.'), () => busy(l10n.t('Packaging {0}…', what), ask)),
  );
  if (!pkg) return undefined;
  const { signed_url: url, status } = pkg;
  if (!url) {
    // The OpenAPI allows a package that is not ready yet: say so, and how to go on.
    await services.ui.message(
      workState(status) === 'failed' ? 'error' : 'warning',
      workState(status) === 'pending'
        ? l10n.t('The service is still packaging {0}. Download it again in a minute.', what)
        : l10n.t('The service answered without a download link for {0} ({1}). Try again later.', what, status || l10n.t('no status')),
      {},
    );
    return undefined;
  }
  // Packaging again gives a fresh link when this one expired.
  return saveLinkToFolder(services, url, { what, fallbackName: `${base}.zip`, preferredBase: base, renew: async () => (await ask()).signed_url });
}

/**
 * Shows job `job` of `workflow` in the Projects view: the project expanded, its Workflows row
 * and the workflow expanded, the job first in the list when the list does not have it yet.
 */
export async function revealJob(services: CommandServices, workflow: WorkflowListItem, job: Job): Promise<JobNode | undefined> {
  const explorer = services.explorer;
  const view = explorer?.providers.projects.view;
  if (!explorer) return undefined;
  const project = await explorer.reveal('project', workflow.project_id, { expand: true });
  if (!(project instanceof ProjectNode)) return undefined;
  const group = project.workflows;
  if (view) await view.reveal(group, { expand: true, select: false, focus: false });
  await group.list.children();
  let wf = group.list.find(workflow.id);
  if (!wf) wf = group.list.pin(workflow);
  if (!(wf instanceof WorkflowNode)) return undefined;
  if (view) await view.reveal(wf, { expand: true, select: false, focus: false });
  await wf.jobs.children();
  const node = wf.jobs.find(job.id) ?? wf.jobs.pin(job);
  group.ctx.changed('projects', wf);
  if (view) await view.reveal(node, { select: true, focus: false, expand: false });
  return node instanceof JobNode ? node : undefined;
}
