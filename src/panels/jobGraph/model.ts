/**
 * A job as the graph webview draws it: tasks in dependency order with their look and words,
 * and the dependency edges. Edges to a task that is not in the job are left out and said in
 * `problems`; a circle is drawn as it is (the layout breaks it) and said too. Pure but for the
 * words, which come through the `l10n` the caller passes.
 *
 * A job may hold any number of tasks and dependencies (the service decides), and dagre's layout
 * grows much faster than they do (2,000 tasks took 19 s): the graph draws at most
 * MAX_DRAWN_TASKS tasks, the first in dependency order, and the dependencies between them up to
 * MAX_DRAWN_EDGES and MAX_CROSSED_LEVELS; the list below it names every task and what it
 * depends on, and `drawnNote` says what the drawing leaves out. Linear in tasks and
 * dependencies, as the panel builds it again on every read of a running job.
 */
import type { Job, JobTask } from '../../api/records';
import { dependencyIndices, graphProblemsText, orderTasks, type GraphL10n } from '../../api/taskGraph';
import { durationSeconds, failureTypeText, workState } from '../../api/workflowState';
import { count, dateTime, duration, enumLabel, tokens } from '../../format';
import type { GraphNodeModel, JobGraphModel, TaskLook } from './protocol';

/** Tasks the graph draws at most: enough for any workflow a person reads as a picture. */
export const MAX_DRAWN_TASKS = 100;
/** Dependencies it draws at most between them. */
export const MAX_DRAWN_EDGES = 200;
/** Levels the drawn dependencies may cross in all: dagre lays out a point on every level an edge crosses. */
export const MAX_CROSSED_LEVELS = 200;
/** Dependencies a task's row names; the rest are counted. */
const NAMED_DEPENDENCIES = 5;
/** The longest task name a row names whole among the dependencies. */
const NAME_CHARS = 80;

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

/** `f` computed once per distinct argument: tasks share a few statuses, failure kinds and durations. */
function memo<V>(f: (key: string) => V): (key: string) => V {
  const known = new Map<string, V>();
  return (key) => {
    let v = known.get(key);
    if (v === undefined && !known.has(key)) known.set(key, (v = f(key)));
    return v as V;
  };
}

/** The words of one model's tasks, each worded once. */
function taskWords(l10n: GraphL10n) {
  return {
    look: memo(lookOf),
    // keyed `progress|status`
    status: memo((key) => {
      const bar = key.indexOf('|');
      return statusText(l10n, key.slice(bar + 1), bar > 0 ? Number(key.slice(0, bar)) : undefined);
    }),
    kind: memo((type) => failureTypeText(l10n, type)),
    block: (name: string, version: string) => (name && version ? `${name} ${version}` : name || version),
    taken: memo((time) => {
      const seconds = durationSeconds(time);
      return seconds === undefined ? undefined : duration(seconds);
    }),
  };
}

function node(words: ReturnType<typeof taskWords>, l10n: GraphL10n, t: JobTask, level: number, dependsOn: string): GraphNodeModel {
  const look = words.look(t.status);
  const n: GraphNodeModel = {
    id: t.id || t.name,
    name: t.name,
    block: words.block(t.block_info?.name ?? '', t.block_info?.version ?? ''),
    look,
    statusText: words.status(`${typeof t.progress === 'number' ? t.progress : ''}|${t.status}`),
    level,
    dependsOn,
  };
  if (look === 'running' && typeof t.progress === 'number') n.progress = t.progress;
  const taken = t.time_taken === undefined ? undefined : words.taken(t.time_taken);
  if (taken !== undefined && (look === 'success' || look === 'failed')) n.timeTaken = taken;
  if (look === 'failed')
    n.error = [t.failure_type ? words.kind(t.failure_type) : undefined, t.err_msg].filter(Boolean).join(': ') || l10n.t('the service gave no reason');
  return n;
}

/** "a, b, c, d, e and 119,995 more" */
function dependsOnText(l10n: GraphL10n, tasks: readonly JobTask[], deps: readonly number[]): string {
  const names = deps.slice(0, NAMED_DEPENDENCIES).map((j) => {
    const name = tasks[j].name;
    return name.length > NAME_CHARS ? `${name.slice(0, NAME_CHARS)}…` : name;
  });
  const more = deps.length - names.length;
  return more > 0 ? l10n.t('{0} and {1} more', names.join(', '), count(more)) : names.join(', ');
}

/**
 * The level of each of the first `drawn` tasks among themselves (a dependency's level is lower),
 * to count the levels a drawn edge crosses. In a circle, the first of its tasks still waiting
 * is placed as if it were not waiting.
 */
function drawnLevels(deps: readonly number[][], drawn: number): number[] {
  const waiting = new Array<number>(drawn).fill(0);
  const dependents: number[][] = Array.from({ length: drawn }, () => []);
  for (let i = 0; i < drawn; i++)
    for (const j of deps[i])
      if (j < drawn && j !== i) {
        waiting[i]++;
        dependents[j].push(i);
      }
  const level = new Array<number>(drawn).fill(0);
  const queued = new Array<boolean>(drawn).fill(false);
  const ready: number[] = [];
  const queue = (i: number): void => {
    queued[i] = true;
    ready.push(i);
  };
  for (let i = 0; i < drawn; i++) if (waiting[i] === 0) queue(i);
  let stuck = 0;
  for (let k = 0; k < drawn; k++) {
    if (k === ready.length) {
      while (queued[stuck]) stuck++;
      queue(stuck);
    }
    const j = ready[k];
    for (const i of dependents[j]) {
      if (level[j] + 1 > level[i]) level[i] = level[j] + 1;
      if (--waiting[i] === 0 && !queued[i]) queue(i);
    }
  }
  return level;
}

export function jobGraphModel(l10n: GraphL10n, job: Job, workflowName: string): JobGraphModel {
  const tasks = job.tasks ?? [];
  const order = orderTasks(tasks);
  // every task in dependency order, or as the service sent them when there is none
  const listed = order.ok ? order.order : tasks;
  const deps = order.ok ? order.deps : dependencyIndices(listed).deps;
  const idOf = (t: JobTask): string => t.id || t.name;
  const words = taskWords(l10n);
  const nodes = listed.map((t, i) => node(words, l10n, t, order.ok ? order.levels[i] : 0, dependsOnText(l10n, listed, deps[i])));

  const drawn = Math.min(listed.length, MAX_DRAWN_TASKS);
  const level = drawnLevels(deps, drawn);
  const edges: [string, string][] = [];
  let between = 0;
  let crossed = 0;
  for (let i = 0; i < drawn; i++)
    for (const j of deps[i]) {
      if (j >= drawn) continue;
      between++;
      // a backward edge (in a circle) is laid out reversed: it crosses as many levels
      const cost = Math.max(0, Math.abs(level[i] - level[j]) - 1);
      if (edges.length >= MAX_DRAWN_EDGES || crossed + cost > MAX_CROSSED_LEVELS) continue;
      crossed += cost;
      edges.push([idOf(listed[j]), idOf(listed[i])]);
    }
  const notes: string[] = [];
  if (drawn < listed.length)
    notes.push(
      order.ok
        ? l10n.t('The graph draws the first {0} of the {1} tasks in dependency order; the list below names every task.', drawn, count(listed.length))
        : l10n.t('The graph draws the first {0} of the {1} tasks; the list below names every task.', drawn, count(listed.length)),
    );
  if (edges.length < between)
    notes.push(
      l10n.t(
        'It leaves out {0} of the {1} dependencies between them, to stay readable; each task in the list names what it depends on.',
        count(between - edges.length),
        count(between),
      ),
    );

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
    drawn,
    drawnNote: notes.join(' '),
    edges,
    live: pending,
  };
}
