/**
 * A job as the graph webview draws it: tasks in dependency order with their look and words,
 * and the dependency edges. Edges to a task that is not in the job are left out and said in
 * `problems`; a circle is drawn as it is (the layout breaks it) and said too. Pure but for the
 * words, which come through the `l10n` the caller passes.
 */
import type { Job, JobTask } from '../../api/records';
import { graphProblemsText, orderTasks, type GraphL10n } from '../../api/taskGraph';
import { durationSeconds, failureTypeText, workState } from '../../api/workflowState';
import { dateTime, duration, enumLabel, tokens } from '../../format';
import type { GraphNodeModel, JobGraphModel, TaskLook } from './protocol';

function lookOf(status: string): TaskLook {
  const s = workState(status);
  if (s === 'success' || s === 'failed' || s === 'skipped' || s === 'unknown') return s;
  return /^(running|started|processing|in[_ ]progress)$/i.test(status.trim()) ? 'running' : 'waiting';
}

function statusText(l10n: GraphL10n, status: string, progress: number | undefined): string {
  const words = enumLabel(status);
  return workState(status) === 'pending' && typeof progress === 'number' && progress > 0 && progress < 100
    ? l10n.t('{0}, {1}%', words, Math.floor(progress))
    : words;
}

function node(l10n: GraphL10n, t: JobTask, level: number): GraphNodeModel {
  const taken = durationSeconds(t.time_taken);
  const look = lookOf(t.status);
  const kind = failureTypeText(l10n, t.failure_type);
  return {
    id: t.id || t.name,
    name: t.name,
    block: [t.block_info?.name, t.block_info?.version].filter(Boolean).join(' '),
    look,
    statusText: statusText(l10n, t.status, t.progress),
    ...(look === 'running' && typeof t.progress === 'number' ? { progress: t.progress } : {}),
    ...(taken !== undefined && (look === 'success' || look === 'failed') ? { timeTaken: duration(taken) } : {}),
    ...(look === 'failed' ? { error: [kind, t.err_msg].filter(Boolean).join(': ') || l10n.t('the service gave no reason') } : {}),
    level,
  };
}

export function jobGraphModel(l10n: GraphL10n, job: Job, workflowName: string): JobGraphModel {
  const tasks = job.tasks ?? [];
  const order = orderTasks(tasks);
  const idOf = (t: JobTask): string => t.id || t.name;
  let nodes: GraphNodeModel[];
  let edges: [string, string][];
  if (order.ok) {
    nodes = order.order.map((t, i) => node(l10n, t, order.levels[i]));
    edges = order.edges.map(([a, b]) => [idOf(order.order[a]), idOf(order.order[b])]);
  } else {
    const byName = new Map(tasks.map((t) => [t.name, t]));
    const byId = new Map(tasks.filter((t) => t.id).map((t) => [t.id, t]));
    nodes = tasks.map((t) => node(l10n, t, 0));
    edges = tasks.flatMap((t) =>
      t.depends_on.flatMap((d): [string, string][] => {
        const dep = byName.get(d) ?? byId.get(d);
        return dep ? [[idOf(dep), idOf(t)]] : [];
      }),
    );
  }
  const taken = durationSeconds(job.time_taken);
  const pending = workState(job.status) === 'pending';
  const summary = [
    statusText(l10n, job.status, job.progress),
    typeof job.cost === 'number' ? tokens(job.cost) : undefined,
    taken !== undefined ? duration(taken) : undefined,
    job.finished_at && !pending ? l10n.t('finished {0}', dateTime(job.finished_at)) : undefined,
  ]
    .filter(Boolean)
    .join(' · ');
  return {
    title: l10n.t('{0}: job of {1}', workflowName, dateTime(job.created_at)),
    summary,
    problems: order.ok ? '' : graphProblemsText(l10n, order.problems),
    nodes,
    edges,
    live: pending,
  };
}
