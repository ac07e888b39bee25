/**
 * The tasks of a job (or the blocks of a workflow) as a graph: each names the tasks it waits
 * for in `depends_on`. Puts them in dependency order, or refuses with the reason: a
 * dependency that names no task, a cycle, two tasks of one name. Pure: the extension, the
 * sandbox (which runs the tasks in this order) and the tests share it.
 */

export interface GraphTask {
  name: string;
  /** Another way the service may name a task in `depends_on` (its id). */
  id?: string;
  depends_on: readonly string[];
}

export type GraphProblem = { kind: 'missing'; task: string; missing: string } | { kind: 'cycle'; tasks: string[] } | { kind: 'duplicate'; task: string };

export type GraphOrder<T> =
  | {
      ok: true;
      /** Every task after the tasks it depends on; among tasks at the same depth, the service's order. */
      order: T[];
      /** Depth of each task of `order`: 0 for a task without dependencies, else 1 + its deepest dependency's. */
      levels: number[];
      /** The dependencies of each task of `order`, as indices into `order` (each once, in the order named). */
      deps: number[][];
    }
  | { ok: false; problems: GraphProblem[] };

/** The part of `vscode.l10n` (or `@vscode/l10n`) the wording uses. */
export interface GraphL10n {
  t(message: string, ...args: (string | number | boolean)[]): string;
}

/**
 * Each task's dependencies as positions in `tasks` (each once, in the order named), and the
 * problems met: a name no task has, two tasks of one name. Linear in the tasks and the
 * dependencies (a task may name 120,000).
 */
export function dependencyIndices(tasks: readonly GraphTask[]): { deps: number[][]; problems: GraphProblem[] } {
  const problems: GraphProblem[] = [];
  const byName = new Map<string, number>();
  tasks.forEach((t, i) => {
    if (byName.has(t.name)) problems.push({ kind: 'duplicate', task: t.name });
    else byName.set(t.name, i);
  });
  // by id only when a name is not a task's: most jobs never need it
  let byId: Map<string, number> | undefined;
  const idOf = (d: string): number | undefined => {
    if (!byId) {
      byId = new Map();
      for (let i = 0; i < tasks.length; i++) {
        const id = tasks[i].id;
        if (id && !byName.has(id)) byId.set(id, i);
      }
    }
    return byId.get(d);
  };
  // addedFor[j] === i: task i already lists j (a marker, not a set per task: 20,000 sets were most of the time)
  const addedFor = new Int32Array(tasks.length).fill(-1);
  const deps = tasks.map((t, i) => {
    const out: number[] = [];
    for (const d of t.depends_on) {
      const j = byName.get(d) ?? idOf(d);
      if (j === undefined) problems.push({ kind: 'missing', task: t.name, missing: d });
      else if (addedFor[j] !== i) {
        addedFor[j] = i;
        out.push(j);
      }
    }
    return out;
  });
  return { deps, problems };
}

export function orderTasks<T extends GraphTask>(tasks: readonly T[]): GraphOrder<T> {
  const { deps, problems } = dependencyIndices(tasks);
  // Kahn's order, without recursion (a chain of 20,000 tasks): a task is ready once every task
  // it waits for is placed, one level past the deepest of them.
  const n = tasks.length;
  const waiting = new Int32Array(n);
  const dependents: number[][] = Array.from({ length: n }, () => []);
  for (let i = 0; i < n; i++) {
    waiting[i] = deps[i].length;
    for (const j of deps[i]) dependents[j].push(i);
  }
  const level = new Int32Array(n);
  const placed = new Int32Array(n);
  let count = 0;
  for (let i = 0; i < n; i++) if (waiting[i] === 0) placed[count++] = i;
  for (let k = 0; k < count; k++) {
    const j = placed[k];
    for (const i of dependents[j]) {
      if (level[j] + 1 > level[i]) level[i] = level[j] + 1;
      if (--waiting[i] === 0) placed[count++] = i;
    }
  }
  if (count < n) {
    const cycle = findCycle(deps);
    if (cycle) problems.push({ kind: 'cycle', tasks: cycle.map((i) => tasks[i].name) });
  }
  if (problems.length > 0) return { ok: false, problems };

  // by level, the service's order within one: a counting sort (stable, linear)
  let deepest = 0;
  for (let i = 0; i < n; i++) if (level[i] > deepest) deepest = level[i];
  const start = new Int32Array(deepest + 2);
  for (let i = 0; i < n; i++) start[level[i] + 1]++;
  for (let l = 1; l <= deepest + 1; l++) start[l] += start[l - 1];
  const sorted = new Array<number>(n);
  for (let i = 0; i < n; i++) sorted[start[level[i]]++] = i;
  const at = new Int32Array(n);
  sorted.forEach((i, k) => (at[i] = k));
  // each task's dependencies by position in the order, rewritten in place
  for (const ds of deps) for (let d = 0; d < ds.length; d++) ds[d] = at[ds[d]];
  return { ok: true, order: sorted.map((i) => tasks[i]), levels: sorted.map((i) => level[i]), deps: sorted.map((i) => deps[i]) };
}

/**
 * One cycle as task indices, each depending on the next (the first repeated at the end), or
 * undefined. A depth-first walk with its own stack: a chain of 20,000 tasks overflowed Node's.
 */
function findCycle(deps: number[][]): number[] | undefined {
  // 0: not seen, 1: on the current path, 2: done (no cycle through it)
  const state = new Uint8Array(deps.length);
  const path: number[] = [];
  const nextDep: number[] = [];
  for (let start = 0; start < deps.length; start++) {
    if (state[start] !== 0) continue;
    state[start] = 1;
    path.push(start);
    nextDep.push(0);
    while (path.length > 0) {
      const top = path.length - 1;
      const i = path[top];
      if (nextDep[top] < deps[i].length) {
        const j = deps[i][nextDep[top]++];
        // each task on the path waits for the next one, and the last waits for j again
        if (state[j] === 1) return [...path.slice(path.indexOf(j)), j];
        if (state[j] === 0) {
          state[j] = 1;
          path.push(j);
          nextDep.push(0);
        }
      } else {
        state[i] = 2;
        path.pop();
        nextDep.pop();
      }
    }
  }
  return undefined;
}

/** The longest task name a problem quotes whole; the problems are bounded text whatever the job holds. */
const NAME_CHARS = 80;
/** Problems worded in full; the rest are counted. */
const SHOWN_PROBLEMS = 5;
/** Tasks of a circle named; a longer circle is cut. */
const SHOWN_CIRCLE = 8;

/** A task name as a problem quotes it: cut past NAME_CHARS. */
const cut = (name: string): string => (name.length > NAME_CHARS ? `${name.slice(0, NAME_CHARS)}…` : name);

/** A problem as a sentence: "Task "classify" depends on "mosaic", which is not a task of this job." */
export function graphProblemText(l10n: GraphL10n, p: GraphProblem): string {
  switch (p.kind) {
    case 'missing':
      return l10n.t('Task "{0}" depends on "{1}", which is not a task of this job.', cut(p.task), cut(p.missing));
    case 'cycle': {
      if (p.tasks.length <= 2) return l10n.t('Task "{0}" depends on itself.', cut(p.tasks[0]));
      const circle = p.tasks.slice(0, SHOWN_CIRCLE + 1).map((t) => `"${cut(t)}"`);
      return p.tasks.length > SHOWN_CIRCLE + 1
        ? l10n.t('The {0} tasks depend on each other in a circle: {1} → … (each depends on the next).', p.tasks.length - 1, circle.join(' → '))
        : l10n.t('The tasks depend on each other in a circle: {0} (each depends on the next).', circle.join(' → '));
    }
    case 'duplicate':
      return l10n.t('Two tasks are named "{0}": a dependency on that name is ambiguous.', cut(p.task));
  }
}

/** The first problems, one sentence each, and how many more there are: for a message or a row. */
export function graphProblemsText(l10n: GraphL10n, problems: readonly GraphProblem[]): string {
  const words = problems.slice(0, SHOWN_PROBLEMS).map((p) => graphProblemText(l10n, p));
  const more = problems.length - words.length;
  if (more > 0) words.push(more === 1 ? l10n.t('And 1 more problem.') : l10n.t('And {0} more problems.', more));
  return words.join(' ');
}
