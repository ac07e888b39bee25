/**
 * "Workflows" under each project: the project's workflows (paged), under a workflow its jobs
 * newest first (the service sends the whole list; paged on our side), under a job its tasks in
 * dependency order. Jobs that are not final are followed by the explorer's poller, every job
 * of one workflow read by one list request (a job whose tasks are on screen is read alone,
 * with its tasks). A job seen running is followed by the watcher (src/watch), which
 * announces it once when it ends.
 */
import vscode = require('vscode');
import { l10n } from 'vscode';
import { isNotSupported, type EoClient } from '../../api';
import type { Job, JobTask, Project, WorkflowListItem } from '../../api/records';
import { graphProblemsText, orderTasks } from '../../api/taskGraph';
import { durationSeconds, taskBlock, taskFailureText as failureText, workState, type WorkState } from '../../api/workflowState';
import { COMMANDS } from '../../commandIds';
import { count, dateTime, day, duration, tokens } from '../../format';
import type { ExplorerContext } from '../context';
import { kindIcon } from '../look';
import { nodeList, type NodeList } from '../nodeList';
import { statusLabel } from '../status';
import { recordTooltip } from '../tooltip';
import { ExplorerNode, RecordNode } from '../tree';
import { InfoRow, ListedGroupNode } from './listedGroup';

/** Jobs shown per "Load more…". */
const JOBS_PER_PAGE = 20;
/** A list younger than this answers a job that falls due right after its neighbour. */
const SHARE_LIST_MS = 1500;

/** "Running, 45%", "Success", "Skipped": a job's or task's status in words. */
export function workStatusText(status: string, progress?: number): string {
  const words = statusLabel(status);
  return workState(status) === 'pending' && typeof progress === 'number' && progress > 0 && progress < 100
    ? l10n.t('{0}, {1}%', words, Math.floor(progress))
    : words;
}

/** What a pending job or task is to the poller and the icons: "processing". */
function polledStatus(state: WorkState, raw: string): string {
  return state === 'pending' ? 'processing' : state === 'unknown' ? raw || 'unknown' : state;
}

/** "the block failed: out of memory" — a failed task's reason in words. */
export function taskFailureText(t: Pick<JobTask, 'err_msg' | 'failure_type'>): string {
  return failureText(l10n, t);
}

export { taskBlock };

export class WorkflowGroupNode extends ListedGroupNode<WorkflowListItem> {
  readonly kind = 'workflowGroup' as const;
  readonly list: NodeList<WorkflowListItem>;
  protected readonly look = {
    label: l10n.t('Workflows'),
    icon: 'type-hierarchy-sub',
    contextValue: 'workflowGroup',
    unsupported: l10n.t('This service does not support workflows'),
    unsupportedHover: l10n.t('The service answered 404 or 405 to the workflow list: workflows are beyond its interface.'),
  };

  constructor(
    readonly ctx: ExplorerContext,
    readonly projectNode: ExplorerNode & { record: Project },
  ) {
    super('projects', projectNode, 'workflows');
    this.list = nodeList<WorkflowListItem>(ctx, 'projects', this, {
      what: l10n.t('workflows'),
      empty: l10n.t('No workflows in this project yet'),
      fetch: async (client, q) => {
        if (q.offset === 0) this.state = 'ok';
        try {
          const page = await client.workflows.listPage({ project_id: this.project.id, offset: q.offset, limit: q.limit }, { signal: q.signal });
          return { items: page.items, total: page.total };
        } catch (err) {
          if (!isNotSupported(err)) throw err;
          this.state = 'unsupported';
          return { items: [], done: true };
        }
      },
      idOf: (w) => w.id,
      toNode: (w) => new WorkflowNode(this, w),
    });
  }

  get project(): Project {
    return this.projectNode.record;
  }
}

export class WorkflowNode extends RecordNode<WorkflowListItem> {
  readonly kind = 'workflow' as const;
  readonly jobs: NodeList<Job>;
  /** Every job as last read, newest first, and when. */
  private all?: Job[];
  private readAt = 0;
  private inFlight?: Promise<Job[]>;
  /** Job-list requests made (first loads and live progress), for tests. */
  requests = 0;

  constructor(
    readonly group: WorkflowGroupNode,
    record: WorkflowListItem,
  ) {
    super('projects', group, `workflow:${record.id}`, record);
    this.jobs = nodeList<Job>(group.ctx, 'projects', this, {
      what: l10n.t('jobs'),
      pageSize: JOBS_PER_PAGE,
      empty: l10n.t('No jobs yet: Run Workflow… starts one'),
      fetch: async (client, q) => {
        if (q.offset === 0) this.all = undefined;
        const all = this.all ?? (await this.read(client, q.signal));
        return { items: all.slice(q.offset, q.offset + q.limit), total: all.length };
      },
      idOf: (j) => j.id,
      toNode: (j) => new JobNode(this, j),
    });
  }

  get recordId(): string {
    return this.record.id;
  }

  get ctx(): ExplorerContext {
    return this.group.ctx;
  }

  getTreeItem(): vscode.TreeItem {
    const w = this.record;
    const item = new vscode.TreeItem(w.name, vscode.TreeItemCollapsibleState.Collapsed);
    const pending = (this.all ?? []).filter((j) => workState(j.status) === 'pending').length;
    const total = this.jobs.total;
    item.description = [
      w.description,
      total === undefined
        ? undefined
        : pending > 0
          ? l10n.t('{0} jobs, {1} running', count(total), pending)
          : total === 1
            ? l10n.t('1 job')
            : l10n.t('{0} jobs', count(total)),
      w.created_at ? l10n.t('created {0}', day(w.created_at)) : undefined,
    ]
      .filter(Boolean)
      .join(' · ');
    item.iconPath = new vscode.ThemeIcon('type-hierarchy');
    item.contextValue = 'workflow';
    item.tooltip = recordTooltip(w.name, [
      [l10n.t('Description'), w.description],
      [l10n.t('Project'), this.group.project.name || this.group.project.title],
      [l10n.t('Created by'), w.created_by],
      [l10n.t('Created'), dateTime(w.created_at)],
      [l10n.t('Updated'), w.updated_at ? dateTime(w.updated_at) : undefined],
      [l10n.t('ID'), w.id],
    ]);
    return item;
  }

  protected override childList(): NodeList<unknown> {
    return this.jobs;
  }

  override reset(keep = false): void {
    this.all = undefined;
    this.jobs.reset(keep);
  }

  /** The workflow's jobs, read once for every job due within SHARE_LIST_MS. */
  async latest(client: EoClient, signal: AbortSignal, asking?: JobNode): Promise<Job[]> {
    if (this.all && Date.now() - this.readAt < SHARE_LIST_MS) return this.all;
    const jobs = await (this.inFlight ?? this.read(client, signal));
    this.absorb(jobs, asking);
    return jobs;
  }

  private read(client: EoClient, signal: AbortSignal): Promise<Job[]> {
    this.requests++;
    const p = client.workflows.jobs(this.record.id, {}, { signal }).then((jobs) => {
      this.all = jobs;
      this.readAt = Date.now();
      return jobs;
    });
    this.inFlight = p;
    const clear = (): void => {
      if (this.inFlight === p) this.inFlight = undefined;
    };
    p.then(clear, clear);
    return p;
  }

  /** Fresher records for the job rows shown; jobs newer than any shown are put first. */
  private absorb(jobs: Job[], skip?: JobNode): void {
    for (const j of jobs) {
      const node = this.jobs.find(j.id);
      if (!(node instanceof JobNode) || node === skip || node.sameAs(j)) continue;
      node.absorbListItem(j);
    }
    if (this.jobs.shown === 0 && !this.jobs.isComplete) return;
    const newest = this.jobs.loadedItems[0]?.created_at;
    const newer = jobs.filter((j) => !this.jobs.find(j.id) && (newest === undefined || Date.parse(j.created_at) > Date.parse(newest)));
    for (const j of newer.reverse()) this.jobs.pin(j);
    if (newer.length > 0) this.ctx.changed('projects', this);
  }
}

export class JobNode extends RecordNode<Job> {
  readonly kind = 'job' as const;
  /** The tasks as last read with the job (the list has none). */
  private tasks?: JobTask[];
  private tasksAt = 0;

  constructor(
    readonly workflow: WorkflowNode,
    record: Job,
  ) {
    super('projects', workflow, `job:${record.id}`, record);
    if (record.tasks) this.keepTasks(record.tasks);
    this.followIfPending();
  }

  get recordId(): string {
    return this.record.id;
  }

  get workflowName(): string {
    return this.workflow.record.name;
  }

  /** "Job of 2026-11-25 14:57 UTC": jobs have no names, their start names them. */
  get title(): string {
    return l10n.t('Job of {0}', dateTime(this.record.created_at));
  }

  override status(): string {
    return polledStatus(workState(this.record.status), this.record.status);
  }

  sameAs(j: Job): boolean {
    const { tasks: _a, ...mine } = this.record;
    const { tasks: _b, ...theirs } = j;
    return JSON.stringify(mine) === JSON.stringify(theirs);
  }

  /** A list item is fresher about the job, never about its tasks. */
  absorbListItem(j: Job): void {
    this.record = { ...j, ...(this.record.tasks ? { tasks: this.record.tasks } : {}) };
    this.recordChanged();
    this.workflow.ctx.changed('projects', this);
  }

  getTreeItem(): vscode.TreeItem {
    const j = this.record;
    const state = workState(j.status);
    const item = new vscode.TreeItem(this.title, vscode.TreeItemCollapsibleState.Collapsed);
    const taken = durationSeconds(j.time_taken);
    const parts = [workStatusText(j.status, j.progress)];
    if (typeof j.cost === 'number') parts.push(tokens(j.cost));
    if (taken !== undefined && state !== 'pending') parts.push(duration(taken));
    if (j.finished_at && state !== 'pending') parts.push(l10n.t('finished {0}', dateTime(j.finished_at)));
    item.description = parts.join(' · ');
    item.iconPath = kindIcon('run-all', this.status());
    item.contextValue = `job.${state}`;
    item.tooltip = recordTooltip(this.title, [
      [l10n.t('Workflow'), this.workflowName],
      [l10n.t('Status'), workStatusText(j.status, j.progress)],
      [l10n.t('Progress'), typeof j.progress === 'number' ? `${Math.floor(j.progress)}%` : undefined],
      [l10n.t('Cost'), typeof j.cost === 'number' ? tokens(j.cost) : undefined],
      [l10n.t('Time taken'), taken !== undefined ? duration(taken) : undefined],
      [l10n.t('Estimated duration'), typeof j.estimated_duration === 'number' ? duration(j.estimated_duration) : undefined],
      [l10n.t('Started'), dateTime(j.created_at)],
      [l10n.t('Finished'), j.finished_at ? dateTime(j.finished_at) : undefined],
      [l10n.t('Created by'), j.created_by],
      [l10n.t('ID'), j.id],
    ]);
    return item;
  }

  /** The tasks in dependency order, read with the job when not read lately or while the job runs. */
  override async getChildren(): Promise<ExplorerNode[]> {
    const stale = !this.tasks || (workState(this.record.status) === 'pending' && Date.now() - this.tasksAt > SHARE_LIST_MS);
    if (stale) {
      try {
        const client = await this.workflow.ctx.services.connection.getClient();
        const detail = await client.workflows.job(this.record.workflow_id, this.record.id);
        this.record = { ...detail };
        this.keepTasks(detail.tasks ?? []);
        this.workflow.jobs.replace(this.record);
      } catch (err) {
        if (!this.tasks) {
          const message = err instanceof Error ? err.message : String(err);
          return [new InfoRow(this, 'tasksFailed', l10n.t('Could not load the tasks: {0}', message), 'error', l10n.t('Refresh the workflow to try again.'))];
        }
      }
    }
    return this.taskRows();
  }

  private keepTasks(tasks: JobTask[]): void {
    this.tasks = tasks;
    this.tasksAt = Date.now();
  }

  private taskRows(): ExplorerNode[] {
    const tasks = this.tasks ?? [];
    if (tasks.length === 0) return [new InfoRow(this, 'noTasks', l10n.t('This job lists no tasks'), 'info')];
    const order = orderTasks(tasks);
    if (!order.ok) {
      // The service's own order, and why it cannot be put in dependency order.
      return [
        new InfoRow(this, 'order', l10n.t('Tasks in the order the service sent them: {0}', graphProblemsText(l10n, order.problems)), 'warning'),
        ...tasks.map((t) => new TaskNode(this, t)),
      ];
    }
    return order.order.map((t) => new TaskNode(this, t));
  }

  /** While its tasks are on screen, a job is read with them; otherwise through the workflow's shared list. */
  override async refetch(client: EoClient, signal: AbortSignal): Promise<Job> {
    if (this.expanded) {
      const detail = await client.workflows.job(this.record.workflow_id, this.record.id, { signal });
      this.keepTasks(detail.tasks ?? []);
      return detail;
    }
    const jobs = await this.workflow.latest(client, signal, this);
    const fresh = jobs.find((j) => j.id === this.record.id);
    return fresh ? { ...fresh, ...(this.record.tasks ? { tasks: this.record.tasks } : {}) } : { ...this.record, status: 'deleted' };
  }

  override recordChanged(): void {
    this.workflow.jobs.replace(this.record);
    this.followIfPending();
  }

  /** A job seen running is followed by the watcher, which announces it once when it ends, even with its row gone. */
  private followIfPending(): void {
    if (workState(this.record.status) !== 'pending') return;
    this.workflow.ctx.watcher?.follow('job', this.record.id, { parent: this.record.workflow_id, hint: { where: this.workflowName }, record: this.record });
  }
}

export class TaskNode extends RecordNode<JobTask> {
  readonly kind = 'jobTask' as const;

  constructor(
    readonly job: JobNode,
    record: JobTask,
  ) {
    super('projects', job, `task:${record.id || record.name}`, record);
  }

  get recordId(): string {
    return this.record.id;
  }

  override status(): string {
    return polledStatus(workState(this.record.status), this.record.status);
  }

  getTreeItem(): vscode.TreeItem {
    const t = this.record;
    const state = workState(t.status);
    const item = new vscode.TreeItem(t.name, state === 'failed' ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
    const taken = durationSeconds(t.time_taken);
    item.description = [
      taskBlock(t),
      workStatusText(t.status, t.progress),
      taken !== undefined && (state === 'success' || state === 'failed') ? duration(taken) : undefined,
      state === 'failed' && t.err_msg ? t.err_msg : undefined,
    ]
      .filter(Boolean)
      .join(' · ');
    item.iconPath = kindIcon(state === 'skipped' ? 'debug-step-over' : 'symbol-event', this.status());
    item.contextValue = `jobTask.${state}`;
    item.tooltip = recordTooltip(t.name, [
      [l10n.t('Block'), taskBlock(t)],
      [l10n.t('Status'), workStatusText(t.status, t.progress)],
      [l10n.t('Depends on'), t.depends_on.join(', ') || l10n.t('nothing')],
      [l10n.t('State'), t.state_msg],
      [l10n.t('Time taken'), taken !== undefined ? duration(taken) : undefined],
      [l10n.t('Estimated duration'), typeof t.estimated_time_duration === 'number' ? duration(t.estimated_time_duration) : undefined],
      [l10n.t('Error'), state === 'failed' ? taskFailureText(t) : undefined],
      [l10n.t('Notes'), t.disclaimer.join(' ')],
      [l10n.t('Finished'), t.finished_at ? dateTime(t.finished_at) : undefined],
      [l10n.t('ID'), t.id],
    ]);
    item.command = { command: COMMANDS.openTaskLog, title: l10n.t('Open Task Log'), arguments: [this] };
    return item;
  }

  override getChildren(): Promise<ExplorerNode[]> {
    const t = this.record;
    if (workState(t.status) !== 'failed') return Promise.resolve([]);
    return Promise.resolve([
      new InfoRow(this, 'failed', l10n.t('Failed: {0}', taskFailureText(t)), 'error', t.err_msg ?? l10n.t('The service gave no reason.')),
    ]);
  }
}
