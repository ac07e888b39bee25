/**
 * "Show Job Graph": a job's tasks as a graph in a webview, one panel per job (opening it again
 * brings it forward). The extension reads the job through the client and sends the webview a
 * model with every text already worded (model.ts); the webview lays it out with dagre and
 * draws it. While the job is not final the panel follows it with the sidebar's polling
 * budget: a read after 2 s, the wait doubling up to 30 s while nothing changes, reset when
 * something does, and no reads while the panel is hidden.
 */
import vscode = require('vscode');
import { l10n } from 'vscode';
import { LIVE_FOLLOW } from '../../api/poll';
import type { Job } from '../../api/records';
import { isWorkPending } from '../../api/workflowState';
import type { ExtensionServices } from '../../services';
import { describeError } from '../../ui/showError';
import { runCommand } from '../../ui/runCommand';
import { panelOptions } from '../host';
import { nothingToRestore, WebviewController } from '../webview/controller';
import { jobGraphModel } from './model';
import { JOB_GRAPH_FROM_PAGE, type JOB_GRAPH_TO_PAGE, type JobGraphState, type ToJobGraphMessage } from './protocol';
import { JOB_GRAPH_VIEW_TYPE } from '../viewTypes';
export { JOB_GRAPH_VIEW_TYPE } from '../viewTypes';

export class JobGraphPanel implements vscode.Disposable {
  private static readonly open = new Map<string, JobGraphPanel>();
  private readonly view: WebviewController<typeof JOB_GRAPH_TO_PAGE, typeof JOB_GRAPH_FROM_PAGE>;
  private job?: Job;
  /** The job as last read, as text: a read that changes nothing redraws nothing. */
  private jobText?: string;
  private timer?: ReturnType<typeof setTimeout>;
  private delay: number = LIVE_FOLLOW.baseMs;
  private readonly abort = new AbortController();
  private disposed = false;

  static show(services: ExtensionServices, ref: JobGraphState, job?: Job): JobGraphPanel {
    const existing = JobGraphPanel.open.get(keyOf(ref));
    if (existing) {
      existing.panel.reveal(undefined, false);
      if (job) existing.accept(job);
      return existing;
    }
    const panel = vscode.window.createWebviewPanel(JOB_GRAPH_VIEW_TYPE, title(ref), vscode.ViewColumn.Active, panelOptions(services.context));
    return new JobGraphPanel(services, panel, ref, job);
  }

  static revive(services: ExtensionServices, panel: vscode.WebviewPanel, state: JobGraphState | undefined): void {
    if (!state?.workflowId || !state.jobId) {
      const message = l10n.t('This panel has nothing to restore; open the graph again from a job in the Projects view.');
      nothingToRestore(services, panel, { name: 'jobGraph', title: l10n.t('Job graph') }, message);
      return;
    }
    new JobGraphPanel(services, panel, state);
  }

  static closeAll(): void {
    for (const p of [...JobGraphPanel.open.values()]) p.dispose();
  }

  private constructor(
    private readonly services: ExtensionServices,
    panel: vscode.WebviewPanel,
    private readonly ref: JobGraphState,
    job?: Job,
  ) {
    this.job = job?.tasks ? job : undefined;
    JobGraphPanel.open.set(keyOf(ref), this);
    this.view = new WebviewController({
      name: 'job graph',
      panel,
      services,
      page: { name: 'jobGraph', title: title(ref) },
      fromPage: JOB_GRAPH_FROM_PAGE,
      handlers: {
        refresh: () => this.read(true),
        openLog: async (m) => {
          const task = this.job?.tasks?.find((t) => (t.id || t.name) === m.taskId);
          if (task) await runCommand('openTaskLog', { workflowId: this.ref.workflowId, workflowName: this.ref.workflowName, job: this.job as Job, task });
        },
      },
      // the job as last read, or a first read
      onReady: () => (this.job ? void this.accept(this.job, true) : this.read(true)),
      onDisposed: () => {
        this.disposed = true;
        if (JobGraphPanel.open.get(keyOf(this.ref)) === this) JobGraphPanel.open.delete(keyOf(this.ref));
        this.abort.abort();
        if (this.timer) clearTimeout(this.timer);
      },
    });
    this.view.own(
      panel.onDidChangeViewState((e) => {
        // Hidden: no reads. Shown again: read now if the job is still running.
        if (e.webviewPanel.visible && this.job && isWorkPending(this.job.status)) this.schedule(0);
      }),
    );
  }

  get panel(): vscode.WebviewPanel {
    return this.view.panel;
  }

  dispose(): void {
    this.view.dispose();
  }

  private post(m: ToJobGraphMessage): void {
    this.view.post(m);
  }

  /** A fresher job (from a read, or from the sidebar when the command passes one); `redraw` when the page was reloaded. */
  private accept(job: Job, redraw = false): boolean {
    const text = JSON.stringify(job);
    const changed = text !== this.jobText;
    this.job = job;
    this.jobText = text;
    if (changed || redraw) this.post({ type: 'graph', model: jobGraphModel(l10n, job, this.ref.workflowName), state: this.ref });
    if (isWorkPending(job.status)) this.schedule(changed ? LIVE_FOLLOW.baseMs : Math.min(this.delay * 2, LIVE_FOLLOW.maxMs));
    return changed;
  }

  private schedule(ms: number): void {
    if (this.disposed) return;
    if (this.timer) clearTimeout(this.timer);
    this.delay = Math.max(ms, LIVE_FOLLOW.baseMs);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.panel.visible) void this.read(false);
    }, ms);
  }

  private async read(first: boolean): Promise<void> {
    try {
      if (first && !this.job) this.post({ type: 'loading', label: l10n.t('Loading the job of {0}…', this.ref.workflowName) });
      const client = await this.services.connection.getClient();
      const job = await client.workflows.job(this.ref.workflowId, this.ref.jobId, { signal: this.abort.signal });
      if (!this.disposed) this.accept(job);
    } catch (e) {
      if (this.disposed) return;
      if (first || !this.job) this.post({ type: 'error', message: l10n.t('Could not load the job of {0}: {1}', this.ref.workflowName, describeError(e)) });
      else {
        this.services.log.warn(`Job graph: could not read job ${this.ref.jobId}: ${describeError(e)}`);
        this.schedule(Math.min(this.delay * 2, LIVE_FOLLOW.maxMs));
      }
    }
  }
}

function keyOf(ref: Pick<JobGraphState, 'workflowId' | 'jobId'>): string {
  return `${ref.workflowId}/${ref.jobId}`;
}

function title(ref: JobGraphState): string {
  return l10n.t('Job graph: {0}', ref.workflowName);
}
