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
      /** Dependency edges as indices into `order`: [from (the dependency), to (the task waiting)]. */
      edges: [number, number][];
    }
  | { ok: false; problems: GraphProblem[] };

/** The part of `vscode.l10n` (or `@vscode/l10n`) the wording uses. */
export interface GraphL10n {
  t(message: string, ...args: (string | number | boolean)[]): string;
}

export function orderTasks<T extends GraphTask>(tasks: readonly T[]): GraphOrder<T> {
  const problems: GraphProblem[] = [];
  const byName = new Map<string, number>();
  tasks.forEach((t, i) => {
    if (byName.has(t.name)) problems.push({ kind: 'duplicate', task: t.name });
    else byName.set(t.name, i);
  });
  const byId = new Map<string, number>();
  tasks.forEach((t, i) => {
    if (t.id && !byName.has(t.id)) byId.set(t.id, i);
  });
  // deps[i]: indices of the tasks task i waits for (each once)
  const deps: number[][] = tasks.map((t) => {
    const out: number[] = [];
    for (const d of t.depends_on) {
      const j = byName.get(d) ?? byId.get(d);
      if (j === undefined) problems.push({ kind: 'missing', task: t.name, missing: d });
      else if (!out.includes(j)) out.push(j);
    }
    return out;
  });
  const cycle = findCycle(deps);
  if (cycle) problems.push({ kind: 'cycle', tasks: cycle.map((i) => tasks[i].name) });
  if (problems.length > 0) return { ok: false, problems };

  const level = new Array<number>(tasks.length).fill(-1);
  const depth = (i: number): number => {
    if (level[i] >= 0) return level[i];
    let d = 0;
    for (const j of deps[i]) d = Math.max(d, depth(j) + 1);
    level[i] = d;
    return d;
  };
  tasks.forEach((_, i) => depth(i));
  const sorted = tasks.map((_, i) => i).sort((a, b) => level[a] - level[b] || a - b);
  const at = new Map(sorted.map((i, k) => [i, k]));
  const edges: [number, number][] = [];
  sorted.forEach((i, k) => {
    for (const j of deps[i]) edges.push([at.get(j) as number, k]);
  });
  return { ok: true, order: sorted.map((i) => tasks[i]), levels: sorted.map((i) => level[i]), edges };
}

/** One cycle as task indices, each depending on the next (the first repeated at the end), or undefined. */
function findCycle(deps: number[][]): number[] | undefined {
  const state = new Array<0 | 1 | 2>(deps.length).fill(0);
  const stack: number[] = [];
  const visit = (i: number): number[] | undefined => {
    state[i] = 1;
    stack.push(i);
    for (const j of deps[i]) {
      if (state[j] === 1) {
        // each task on the stack waits for the next one, and i waits for j again
        return [...stack.slice(stack.indexOf(j)), j];
      }
      if (state[j] === 0) {
        const c = visit(j);
        if (c) return c;
      }
    }
    stack.pop();
    state[i] = 2;
    return undefined;
  };
  for (let i = 0; i < deps.length; i++) {
    if (state[i] !== 0) continue;
    const c = visit(i);
    if (c) return c;
  }
  return undefined;
}

/** A problem as a sentence: "Task "classify" depends on "mosaic", which is not a task of this job." */
export function graphProblemText(l10n: GraphL10n, p: GraphProblem): string {
  switch (p.kind) {
    case 'missing':
      return l10n.t('Task "{0}" depends on "{1}", which is not a task of this job.', p.task, p.missing);
    case 'cycle':
      return p.tasks.length <= 2
        ? l10n.t('Task "{0}" depends on itself.', p.tasks[0])
        : l10n.t('The tasks depend on each other in a circle: {0} (each depends on the next).', p.tasks.map((t) => `"${t}"`).join(' → '));
    case 'duplicate':
      return l10n.t('Two tasks are named "{0}": a dependency on that name is ambiguous.', p.task);
  }
}

/** Every problem, one sentence each, for a message or a row. */
export function graphProblemsText(l10n: GraphL10n, problems: readonly GraphProblem[]): string {
  return problems.map((p) => graphProblemText(l10n, p)).join(' ');
}
