/**
 * Workflows and their jobs (beyond interface.md; shapes from the service's OpenAPI, the
 * `dexter.*` schemas): list and read workflows, price one, start a job, list and read jobs
 * with their tasks, package a job or a task for download.
 *
 * The OpenAPI leaves much loose: `spec`, a task's `inputs`, `result` and `info_logs` are
 * "raw bytes", a job's `progress` is text, the job list has no pagination, the creation body
 * is not described. docs/service-interface.md ("Workflows") records what we decided; the
 * readers here accept each plausible shape and always yield the records of `records.ts`.
 */
import { ApiError } from './errors';
import { isObj } from './shape';
import { valueList } from './insightRuns';
import { iterateOffset, type IterateOptions, type OffsetQuery, type Page } from './paging';
import { decodeRaw, decodeRawText } from './rawJson';
import type { InputValue, Job, JobDownload, JobTask, TaskDownload, ValError, Workflow, WorkflowBlock, WorkflowListItem, WorkflowSpec } from './records';
import { ShapeError, describe, num, obj, opt, str } from './shape';
import { pathOf, type CallOptions, type Transport } from './transport';
import { percentOf } from './workflowState';

// ---------------------------------------------------------------- workflows

const checkWorkflowItem = obj({
  id: str,
  name: opt(str),
  project_id: opt(str),
  legacy_project_id: opt(str),
  description: opt(str),
  created_by: opt(str),
  created_at: opt(str),
  updated_at: opt(str),
});

export function readWorkflowItem(raw: unknown, root = 'workflow'): WorkflowListItem {
  const e = checkWorkflowItem(raw);
  if (e !== undefined) throw new ShapeError(`${root}${e}`);
  const r = raw as Record<string, unknown> & { id: string };
  return {
    ...r,
    id: r.id,
    name: typeof r.name === 'string' && r.name.trim() ? r.name : r.id,
    project_id: typeof r.project_id === 'string' ? r.project_id : '',
    created_at: typeof r.created_at === 'string' ? r.created_at : '',
  };
}

/**
 * `{workflows, pagination}` as the OpenAPI has it; also a bare array or a list without
 * `pagination` (read as the whole list).
 */
export function readWorkflowPage(body: unknown, at: { offset: number; limit: number }): Page<WorkflowListItem> {
  const list = Array.isArray(body) ? body : isObj(body) ? (body.workflows ?? body.workflow) : undefined;
  if (!Array.isArray(list)) throw new ShapeError(`workflows: expected a list, got ${describe(isObj(body) ? body.workflows : body)}`);
  const items = list.map((x, i) => readWorkflowItem(x, `workflows[${i}]`));
  const p = isObj(body) && isObj(body.pagination) ? body.pagination : undefined;
  if (p && typeof p.total === 'number' && Number.isInteger(p.total)) {
    return { items, total: p.total, offset: typeof p.offset === 'number' ? p.offset : at.offset, limit: typeof p.limit === 'number' ? p.limit : at.limit };
  }
  // Without a total the page is all there is from here on.
  return { items, total: at.offset + items.length, offset: at.offset, limit: at.limit };
}

/** `depends_on` as a list, one name as text, a comma-separated text, or nothing. */
function nameList(v: unknown, field: string): string[] {
  if (v === undefined || v === null || v === '') return [];
  if (typeof v === 'string')
    return v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  if (!Array.isArray(v)) throw new ShapeError(`${field}: expected a list of task names, got ${describe(v)}`);
  return v.map((x, i) => {
    if (typeof x === 'string') return x;
    if (isObj(x) && typeof x.name === 'string') return x.name;
    throw new ShapeError(`${field}[${i}]: expected a task name, got ${describe(x)}`);
  });
}

/** The block a workflow step runs: `{name, version}`, `"name@version"`, `block_name`/`block_version`, or `block_info`. */
function blockRef(r: Record<string, unknown>, field: string): { name: string; version: string } {
  const b = r.block ?? r.block_info;
  if (isObj(b) && typeof b.name === 'string') return { name: b.name, version: typeof b.version === 'string' ? b.version : '' };
  if (typeof b === 'string') {
    const at = b.lastIndexOf('@');
    return at > 0 ? { name: b.slice(0, at), version: b.slice(at + 1) } : { name: b, version: '' };
  }
  if (typeof r.block_name === 'string') return { name: r.block_name, version: typeof r.block_version === 'string' ? r.block_version : '' };
  throw new ShapeError(`${field}.block: expected {name, version}, got ${describe(b)}`);
}

function readBlock(raw: unknown, field: string, key?: string): WorkflowBlock {
  if (!isObj(raw)) throw new ShapeError(`${field}: expected an object, got ${describe(raw)}`);
  const name = [raw.name, raw.task_name, raw.id, key].find((x): x is string => typeof x === 'string' && x.trim() !== '');
  if (!name) throw new ShapeError(`${field}.name: expected the step's name, got ${describe(raw.name)}`);
  return {
    name,
    block: blockRef(raw, field),
    depends_on: nameList(raw.depends_on ?? raw.dependencies ?? raw.needs ?? raw.after, `${field}.depends_on`),
    inputs: valueList(raw.inputs ?? raw.input, `${field}.inputs`) as unknown as InputValue[],
  };
}

/**
 * A workflow's (or job's) `spec`: `{blocks: [...]}` (our reading), or the same list under
 * `tasks`, `nodes` or `steps`, a map from step name to step, or a bare list; the whole
 * possibly as JSON text, base64 or byte values. Undefined when the field is absent.
 */
export function readWorkflowSpec(raw: unknown, field = 'spec'): WorkflowSpec | undefined {
  const { value } = decodeRaw(raw);
  if (value === undefined) return undefined;
  let list: unknown = value;
  if (isObj(value)) {
    list = value.blocks ?? value.tasks ?? value.nodes ?? value.steps;
    if (list === undefined && isObj(value.workflow)) return readWorkflowSpec(value.workflow, `${field}.workflow`);
    if (list === undefined)
      throw new ShapeError(`${field}: expected {blocks: [...]}, got an object with ${Object.keys(value).slice(0, 5).join(', ') || 'no keys'}`);
  }
  if (typeof list === 'string') throw new ShapeError(`${field}: expected the workflow's blocks, got text`);
  if (isObj(list)) return { blocks: Object.entries(list).map(([k, b]) => readBlock(b, `${field}.blocks.${k}`, k)) };
  if (!Array.isArray(list)) throw new ShapeError(`${field}.blocks: expected a list, got ${describe(list)}`);
  return { blocks: list.map((b, i) => readBlock(b, `${field}.blocks[${i}]`)) };
}

/** `val_errors`: a list of `{component_name, from, to, err, reason}`; also plain messages, one error alone, or null. */
export function readValErrors(raw: unknown): ValError[] {
  if (raw === undefined || raw === null) return [];
  const list = Array.isArray(raw) ? raw : [raw];
  return list.flatMap((x): ValError[] => {
    if (typeof x === 'string') return x.trim() ? [{ err: x }] : [];
    if (!isObj(x)) return [];
    const s = (k: string): string | undefined => (typeof x[k] === 'string' && (x[k] as string).trim() ? (x[k] as string) : undefined);
    const v: ValError = {};
    const component = s('component_name') ?? s('component');
    if (component) v.component_name = component;
    if (s('from')) v.from = s('from');
    if (s('to')) v.to = s('to');
    const err = s('err') ?? s('error') ?? s('message');
    if (err) v.err = err;
    if (s('reason')) v.reason = s('reason');
    return Object.keys(v).length > 0 ? [v] : [];
  });
}

/** The validation errors a refused request carries: `details.val_errors`, or `details` as the list itself. */
export function valErrorsOf(err: unknown): ValError[] {
  if (!(err instanceof ApiError)) return [];
  let d: unknown = err.details;
  if (typeof d === 'string') {
    try {
      d = JSON.parse(d) as unknown;
    } catch {
      return [];
    }
  }
  if (isObj(d) && d.val_errors !== undefined) return readValErrors(d.val_errors);
  if (Array.isArray(d)) return readValErrors(d);
  return [];
}

const checkWorkflow = obj({ estimated_cost: opt(num) });

export function readWorkflow(raw: unknown, root = 'workflow'): Workflow {
  const item = readWorkflowItem(raw, root);
  const e = checkWorkflow(raw);
  if (e !== undefined) throw new ShapeError(`${root}${e}`);
  const r = raw as Record<string, unknown>;
  let spec: WorkflowSpec | undefined;
  let specError: string | undefined;
  try {
    spec = readWorkflowSpec(r.spec, `${root}.spec`);
  } catch (err) {
    // The rest of the record is still worth showing; what the spec says is unknown.
    if (!(err instanceof ShapeError)) throw err;
    specError = err.message;
  }
  const { spec: _raw, val_errors: _v, ...rest } = item as WorkflowListItem & { spec?: unknown; val_errors?: unknown };
  return {
    ...rest,
    ...(spec ? { spec } : {}),
    ...(specError ? { spec_error: specError } : {}),
    val_errors: readValErrors(r.val_errors),
    ...(typeof r.estimated_cost === 'number' ? { estimated_cost: r.estimated_cost } : {}),
  };
}

/** `{estimated_cost}` (OpenAPI); also `estimate` or `cost`, a number written as text, or a bare number. */
export function readWorkflowEstimate(body: unknown): number {
  const v = isObj(body) ? (body.estimated_cost ?? body.estimate ?? body.cost) : body;
  const n = typeof v === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n)) throw new ShapeError(`estimated_cost: expected number, got ${describe(v)}`);
  if (n < 0) throw new ShapeError(`estimated_cost: expected a cost of zero or more, got ${n}`);
  return n;
}

// ---------------------------------------------------------------- jobs and tasks

const checkTask = obj({
  id: opt(str),
  name: opt(str),
  status: opt(str),
  progress: opt(num),
  err_msg: opt(str),
  failure_type: opt(str),
  state_msg: opt(str),
  estimated_time_duration: opt(num),
  created_at: opt(str),
  updated_at: opt(str),
  finished_at: opt(str),
});

export function readTask(raw: unknown, root = 'task'): JobTask {
  const e = checkTask(raw);
  if (e !== undefined) throw new ShapeError(`${root}${e}`);
  const r = raw as Record<string, unknown>;
  const id = typeof r.id === 'string' ? r.id : '';
  const name = typeof r.name === 'string' && r.name.trim() ? r.name : id;
  if (!name) throw new ShapeError(`${root}: a task without a name or id`);
  const block = isObj(r.block_info) ? r.block_info : undefined;
  const inputs = decodeRaw(r.inputs).value;
  const result = decodeRaw(r.result).value;
  const logs = decodeRawText(r.info_logs);
  const disclaimer = Array.isArray(r.disclaimer)
    ? r.disclaimer.filter((x): x is string => typeof x === 'string')
    : typeof r.disclaimer === 'string'
      ? [r.disclaimer]
      : [];
  const { inputs: _i, result: _r, info_logs: _l, ...rest } = r;
  return {
    ...rest,
    id,
    name,
    status: typeof r.status === 'string' ? r.status : '',
    depends_on: nameList(r.depends_on, `${root}.depends_on`),
    disclaimer,
    ...(typeof r.progress === 'number' ? { progress: Math.max(0, Math.min(100, r.progress)) } : {}),
    ...(block
      ? {
          block_info: {
            ...(typeof block.id === 'string' ? { id: block.id } : {}),
            ...(typeof block.name === 'string' ? { name: block.name } : {}),
            ...(typeof block.version === 'string' ? { version: block.version } : {}),
          },
        }
      : {}),
    ...(inputs !== undefined ? { inputs } : {}),
    ...(result !== undefined ? { result } : {}),
    ...(logs !== undefined ? { info_logs: logs } : {}),
  } as JobTask;
}

const checkJob = obj({
  id: str,
  workflow_id: opt(str),
  status: opt(str),
  cost: opt(num),
  estimated_duration: opt(num),
  created_by: opt(str),
  created_at: opt(str),
  updated_at: opt(str),
  finished_at: opt(str),
});

/** One job, list item or detail, whatever plausible shape it came in; `workflowId` fills an absent `workflow_id`. */
export function readJob(raw: unknown, workflowId: string, root = 'job'): Job {
  const e = checkJob(raw);
  if (e !== undefined) throw new ShapeError(`${root}${e}`);
  const r = raw as Record<string, unknown> & { id: string };
  if (r.progress !== undefined && r.progress !== null && typeof r.progress !== 'number' && typeof r.progress !== 'string')
    throw new ShapeError(`${root}.progress: expected a percentage, got ${describe(r.progress)}`);
  if (r.tasks !== undefined && r.tasks !== null && !Array.isArray(r.tasks)) throw new ShapeError(`${root}.tasks: expected a list, got ${describe(r.tasks)}`);
  const progress = percentOf(r.progress);
  let spec: WorkflowSpec | undefined;
  try {
    spec = readWorkflowSpec(r.spec, `${root}.spec`);
  } catch (err) {
    if (!(err instanceof ShapeError)) throw err;
  }
  const { progress: _p, tasks: _t, val_errors: _v, spec: _s, ...rest } = r;
  const timeTaken = typeof r.time_taken === 'number' ? `${r.time_taken}s` : r.time_taken;
  return {
    ...rest,
    id: r.id,
    workflow_id: typeof r.workflow_id === 'string' && r.workflow_id ? r.workflow_id : typeof r.workflowId === 'string' ? r.workflowId : workflowId,
    status: typeof r.status === 'string' ? r.status : '',
    created_at: typeof r.created_at === 'string' ? r.created_at : '',
    ...(typeof timeTaken === 'string' ? { time_taken: timeTaken } : {}),
    ...(progress !== undefined ? { progress } : {}),
    ...(Array.isArray(r.tasks) ? { tasks: r.tasks.map((t, i) => readTask(t, `${root}.tasks[${i}]`)) } : {}),
    val_errors: readValErrors(r.val_errors),
    ...(spec ? { spec } : {}),
  } as Job;
}

function newestFirst(a: string, b: string): number {
  const ta = Date.parse(a);
  const tb = Date.parse(b);
  if (Number.isNaN(ta) || Number.isNaN(tb)) return 0;
  return tb - ta;
}

/** `{jobs: [...]}` (no pagination, OpenAPI), tolerating a `pagination` (ignored) and a bare array. Newest first. */
export function readJobList(body: unknown, workflowId: string): Job[] {
  const list = Array.isArray(body) ? body : isObj(body) ? body.jobs : undefined;
  if (!Array.isArray(list)) throw new ShapeError(`jobs: expected a list, got ${describe(isObj(body) ? body.jobs : body)}`);
  return list.map((x, i) => readJob(x, workflowId, `jobs[${i}]`)).sort((a, b) => newestFirst(a.created_at, b.created_at));
}

/** The link of a download answer: `signed_url` (OpenAPI), or `url`/`download_url`. */
function readDownload<T extends JobDownload | TaskDownload>(body: unknown, root: string): T {
  const e = obj({ id: opt(str), status: opt(str), signed_url: opt(str), url: opt(str), download_url: opt(str) })(body);
  if (e !== undefined) throw new ShapeError(`${root}${e}`);
  const b = body as Record<string, unknown>;
  const url = [b.signed_url, b.url, b.download_url].find((x): x is string => typeof x === 'string' && x !== '');
  return { ...b, ...(url ? { signed_url: url } : {}) } as T;
}

// ---------------------------------------------------------------- the client

export interface WorkflowFilter {
  /** The project the workflows belong to. */
  project_id?: string;
  id?: string;
  name?: string;
  created_by?: string;
}

export interface JobFilter {
  id?: string;
  status?: string;
  created_by?: string;
}

export class WorkflowsApi {
  constructor(private readonly t: Transport) {}

  /** One page (the service's default limit is 50). */
  listPage(q: WorkflowFilter & OffsetQuery = {}, o?: CallOptions): Promise<Page<WorkflowListItem>> {
    const at = { offset: q.offset ?? 0, limit: q.limit ?? 50 };
    if (!Number.isInteger(at.offset) || at.offset < 0) throw new RangeError(`offset must be an integer ≥ 0, got ${at.offset}`);
    if (!Number.isInteger(at.limit) || at.limit < 1) throw new RangeError(`limit must be an integer ≥ 1, got ${at.limit}`);
    const query = { project_id: q.project_id, id: q.id, name: q.name, created_by: q.created_by, ...at };
    return this.t.json({ method: 'GET', path: '/v0/workflows', query }, (b) => readWorkflowPage(b, at), o);
  }

  iterate(filter: WorkflowFilter = {}, opts: IterateOptions = {}): AsyncGenerator<WorkflowListItem, void, undefined> {
    return iterateOffset(
      ({ offset, limit, signal }) => this.listPage({ ...filter, offset, limit }, { signal }),
      (w) => w.id,
      { method: 'GET', path: '/v0/workflows' },
      opts,
    );
  }

  /** One workflow with its `spec` and `val_errors` (`project_id` is required by the service). */
  get(id: string, projectId: string, o?: CallOptions): Promise<Workflow> {
    return this.t.json({ method: 'GET', path: pathOf`/v0/workflows/${id}`, query: { project_id: projectId } }, (b) => readWorkflow(b), o);
  }

  /** Tokens one run of the workflow would cost; nothing is started. */
  estimate(id: string, o?: CallOptions): Promise<number> {
    return this.t.json({ method: 'GET', path: pathOf`/v0/workflows/${id}/estimate` }, readWorkflowEstimate, o);
  }

  /**
   * Starts a job: `POST …/jobs?project_id=` without a body (the OpenAPI describes none;
   * docs/service-interface.md). Sent once, never retried. A job that comes back with
   * `val_errors` was refused by the service's validation.
   */
  run(id: string, projectId: string, o?: CallOptions): Promise<Job> {
    return this.t.json({ method: 'POST', path: pathOf`/v0/workflows/${id}/jobs`, query: { project_id: projectId } }, (b) => readJob(b, id), o);
  }

  /** Every job of the workflow, newest first (the service does not page this list). */
  jobs(workflowId: string, q: JobFilter = {}, o?: CallOptions): Promise<Job[]> {
    return this.t.json(
      { method: 'GET', path: pathOf`/v0/workflows/${workflowId}/jobs`, query: { id: q.id, status: q.status, created_by: q.created_by } },
      (b) => readJobList(b, workflowId),
      o,
    );
  }

  /** One job with its tasks. */
  job(workflowId: string, jobId: string, o?: CallOptions): Promise<Job> {
    return this.t.json({ method: 'GET', path: pathOf`/v0/workflows/${workflowId}/jobs/${jobId}` }, (b) => readJob(b, workflowId), o);
  }

  /** Packages a job's files behind a signed URL (`PUT`, no body). */
  downloadJob(workflowId: string, jobId: string, o?: CallOptions): Promise<JobDownload> {
    return this.t.json({ method: 'PUT', path: pathOf`/v0/workflows/${workflowId}/jobs/${jobId}/download` }, (b) => readDownload<JobDownload>(b, 'download'), o);
  }

  /** Packages one task's files behind a signed URL (`PUT`, no body). */
  downloadTask(workflowId: string, jobId: string, taskId: string, o?: CallOptions): Promise<TaskDownload> {
    return this.t.json(
      { method: 'PUT', path: pathOf`/v0/workflows/${workflowId}/jobs/${jobId}/tasks/${taskId}/download` },
      (b) => readDownload<TaskDownload>(b, 'download'),
      o,
    );
  }
}
