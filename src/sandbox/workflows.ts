/**
 * How workflows are checked and priced, and how a job lives on the sandbox clock: queued,
 * then each task runs once the tasks it depends on have succeeded (in dependency order, the
 * extension's own `orderTasks`), a failing task stops halfway and the tasks downstream of it
 * are skipped; the job succeeds when every task did. Pure functions of the stored records and
 * `now`; docs/service-interface.md ("Workflows") records the shapes.
 */
import type { Block, InputValue, JobWire, TaskWire, ValError, WorkflowBlock, WorkflowListItem, WorkflowSpec } from '../api/records';
import { orderTasks } from '../api/taskGraph';
import { absolutePath } from './imagery/paths';
import type { AoiRec, AssetRec, JobRec, State, WorkflowRec } from './state';
import { isoOffset } from './timefmt';
import { BLOCK_RATES } from './world/blocks';

/** A job waits this long before its first task starts (sandbox-clock ms). */
export const JOB_QUEUED_MS = 5_000;

/** Where an input fed by another step points: `asset_source {type: task_output, id: <step>}`, `value` the output's name. */
export const TASK_OUTPUT = 'task_output';

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619) >>> 0;
  return h;
}

/** How long a step runs: 20 to 52 s by its name, the same every time. */
export function taskDurationMs(step: Pick<WorkflowBlock, 'name'>): number {
  return 20_000 + (hash(step.name) % 5) * 8_000;
}

export function blockFor(blocks: readonly Block[], step: Pick<WorkflowBlock, 'block'>): Block | undefined {
  return blocks.find((b) => b.spec.name === step.block.name && b.spec.version === step.block.version);
}

/** The AOI a step's `aoi` input names, when it names one of the caller's. */
export function aoiOf(state: State, spec: WorkflowSpec, owner: string): AoiRec | undefined {
  for (const step of spec.blocks) {
    const v = step.inputs.find((i) => i.name === 'aoi')?.value;
    const aoi = v ? state.aois.find((a) => a.aoi_id === v && a.user_id === owner) : undefined;
    if (aoi) return aoi;
  }
  return undefined;
}

/**
 * What the service's validation would say of a spec: unknown blocks, dependencies that name
 * no step or go round in a circle, and inputs fed by a step whose output does not fit.
 */
export function validateSpec(spec: WorkflowSpec, blocks: readonly Block[]): ValError[] {
  const out: ValError[] = [];
  const order = orderTasks(spec.blocks);
  if (!order.ok)
    for (const p of order.problems) {
      if (p.kind === 'missing')
        out.push({ component_name: p.task, from: p.missing, to: p.task, err: 'unknown dependency', reason: `no step is named ${JSON.stringify(p.missing)}` });
      else if (p.kind === 'cycle')
        out.push({ component_name: p.tasks[0], err: 'dependency cycle', reason: `the steps wait for each other: ${p.tasks.join(' -> ')}` });
      else out.push({ component_name: p.task, err: 'duplicate step', reason: `two steps are named ${JSON.stringify(p.task)}` });
    }
  for (const step of spec.blocks) {
    const block = blockFor(blocks, step);
    if (!block) {
      out.push({ component_name: step.name, err: 'unknown block', reason: `no block ${step.block.name} ${step.block.version}` });
      continue;
    }
    for (const input of step.inputs) {
      if (input.asset_source?.type !== TASK_OUTPUT) continue;
      const from = spec.blocks.find((s) => s.name === input.asset_source?.id);
      const produced = from ? blockFor(blocks, from)?.spec.outputs?.find((o) => o.name === input.value) : undefined;
      const wanted = block.spec.inputs.find((d) => d.name === input.name);
      if (!from || !produced) {
        out.push({
          component_name: step.name,
          from: input.asset_source.id,
          to: step.name,
          err: 'unknown output',
          reason: `${input.asset_source.id} has no output ${JSON.stringify(input.value)}`,
        });
      } else if (wanted && produced.format !== wanted.format) {
        out.push({
          component_name: step.name,
          from: from.name,
          to: step.name,
          err: 'output does not fit input',
          reason: `${from.name} produces ${produced.format} "${produced.name}" but input "${wanted.name}" of ${step.name} takes ${wanted.format}`,
        });
      }
    }
  }
  return out;
}

/** Tokens for one run: each step's block rate per km² times the AOI's area (100 km² without one), at least 1 per step. */
export function workflowCost(spec: WorkflowSpec, aoi: Pick<AoiRec, 'area_in_sq_m'> | undefined): number {
  const km2 = aoi ? aoi.area_in_sq_m / 1e6 : 100;
  return spec.blocks.reduce((sum, s) => sum + Math.max(1, Math.round(km2 * (BLOCK_RATES[s.block.name] ?? 0.5))), 0);
}

export function workflowItem(w: WorkflowRec): WorkflowListItem {
  return {
    id: w.id,
    project_id: w.project_id,
    name: w.name,
    created_by: w.created_by,
    description: w.description,
    created_at: isoOffset(w.t0),
    updated_at: isoOffset(w.updated_t0),
  };
}

// ---------------------------------------------------------------- a job on the clock

interface Slot {
  step: WorkflowBlock;
  start: number;
  end: number;
  /** When the failing task fails. */
  failAt?: number;
  /** Downstream of the failing task: never runs. */
  doomed: boolean;
}

/** When the job's first task may start. */
function startOf(job: Pick<JobRec, 't0' | 'queue_ms'>): number {
  return job.t0 + (job.queue_ms ?? JOB_QUEUED_MS);
}

/** When each step runs; steps in the spec's order. */
export function schedule(job: Pick<JobRec, 't0' | 'spec' | 'failure' | 'queue_ms'>): Slot[] {
  const steps = job.spec.blocks;
  const order = orderTasks(steps);
  const sorted = order.ok ? order.order : steps;
  const ends = new Map<string, number>();
  const slots = new Map<string, Slot>();
  const doomed = new Set<string>();
  for (const step of sorted) {
    const deps = order.ok ? step.depends_on : [];
    const start = Math.max(startOf(job), ...deps.map((d) => ends.get(d) ?? 0));
    const end = start + taskDurationMs(step);
    ends.set(step.name, end);
    if (deps.some((d) => doomed.has(d) || d === job.failure?.task)) doomed.add(step.name);
    slots.set(step.name, {
      step,
      start,
      end,
      doomed: doomed.has(step.name),
      ...(job.failure?.task === step.name ? { failAt: start + (end - start) / 2 } : {}),
    });
  }
  return steps.map((s) => slots.get(s.name) as Slot);
}

export interface JobPhase {
  status: 'queued' | 'running' | 'success' | 'failed';
  progress: number;
  /** When the last task that runs ends (or fails). */
  finishedAt: number;
  estimatedSeconds: number;
}

function taskPhase(slot: Slot, failAt: number | undefined, now: number): { status: string; progress: number; finishedAt?: number } {
  if (slot.failAt !== undefined && now >= slot.failAt) return { status: 'failed', progress: 50, finishedAt: slot.failAt };
  if (slot.doomed && failAt !== undefined && now >= failAt) return { status: 'skipped', progress: 0 };
  if (now < slot.start) return { status: 'pending', progress: 0 };
  if (now >= slot.end) return { status: 'success', progress: 100, finishedAt: slot.end };
  return { status: 'running', progress: Math.min(99, Math.floor(((now - slot.start) / (slot.end - slot.start)) * 100)) };
}

export function jobPhase(job: Pick<JobRec, 't0' | 'spec' | 'failure' | 'queue_ms'>, now: number): JobPhase {
  const slots = schedule(job);
  const failAt = slots.find((s) => s.failAt !== undefined)?.failAt;
  const finishedAt = Math.max(startOf(job), ...slots.filter((s) => !s.doomed).map((s) => s.failAt ?? s.end));
  const estimatedSeconds = Math.round((Math.max(startOf(job), ...slots.map((s) => s.end)) - job.t0) / 1000);
  const phases = slots.map((s) => taskPhase(s, failAt, now));
  const progress = phases.length ? Math.floor(phases.reduce((a, p) => a + p.progress, 0) / phases.length) : 100;
  if (now < startOf(job)) return { status: 'queued', progress: 0, finishedAt, estimatedSeconds };
  if (now < finishedAt) return { status: 'running', progress, finishedAt, estimatedSeconds };
  return { status: failAt !== undefined ? 'failed' : 'success', progress: failAt !== undefined ? progress : 100, finishedAt, estimatedSeconds };
}

/** A duration the way Go prints one: `1m35s`, `45s`, `1h2m3s`. */
export function goDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  return `${h ? `${h}h` : ''}${h || m ? `${m}m` : ''}${sec}s`;
}

/** A raster output that is imagery (a mosaic, a masked mosaic) rather than classes. */
export function isImageryOutput(output: { format: string; properties?: { discretization?: unknown } }): boolean {
  return output.format === 'raster' && !output.properties?.discretization;
}

/** The file name of a step output on the sandbox host. */
export function outputFileName(output: { name: string; format: string }): string {
  return `${output.name}.${output.format === 'raster' ? 'tif' : output.format === 'vector' ? 'geojson' : 'json'}`;
}

/**
 * The URL of a step output on the sandbox host, a real file: imagery is the AOI's newest
 * mosaic (a COG), a classified raster a COG of its classes over that mosaic's grid, the rest
 * GeoJSON or JSON files of the job.
 */
export function outputUrl(
  base: string,
  job: Pick<JobRec, 'id' | 'task_ids'>,
  step: WorkflowBlock,
  output: { name: string; format: string; properties?: { discretization?: unknown } },
  mosaic?: AssetRec,
): string {
  if (isImageryOutput(output) && mosaic) return absolutePath(mosaic.path, base);
  return `${base}/job-files/${encodeURIComponent(job.id)}/${encodeURIComponent(job.task_ids[step.name])}/${encodeURIComponent(outputFileName(output))}`;
}

export interface JobContext {
  blocks: readonly Block[];
  base: string;
  /** The AOI the workflow works on, and its newest mosaic. */
  aoi?: AoiRec;
  mosaic?: AssetRec;
}

/** A task's log up to `now`, one line per event. */
function logLines(job: JobRec, slot: Slot, phase: { status: string; progress: number }, now: number): string {
  const lines = [`${isoOffset(job.t0)} queued ${slot.step.name} (${slot.step.block.name} ${slot.step.block.version})`];
  if (now >= slot.start && !(slot.doomed && phase.status !== 'running' && phase.status !== 'success')) {
    lines.push(`${isoOffset(slot.start)} started on worker ${(hash(job.id + slot.step.name) % 8) + 1}`);
    const half = slot.start + (slot.end - slot.start) / 2;
    if (now >= half) lines.push(`${isoOffset(half)} halfway`);
  }
  if (phase.status === 'failed') lines.push(`${isoOffset(slot.failAt ?? now)} error: ${job.failure?.err_msg ?? 'failed'}`);
  if (phase.status === 'success') lines.push(`${isoOffset(slot.end)} done in ${goDuration(slot.end - slot.start)}`);
  if (phase.status === 'skipped') lines.push(`skipped: a step it depends on failed`);
  return `${lines.join('\n')}\n`;
}

/** The inputs a task ran with: the step's values, an upstream output resolved to its URL once that step succeeded. */
function taskInputs(job: JobRec, step: WorkflowBlock, ctx: JobContext, done: (name: string) => boolean): InputValue[] {
  return step.inputs.map((v) => {
    if (v.asset_source?.type !== TASK_OUTPUT) return v;
    const from = job.spec.blocks.find((s) => s.name === v.asset_source?.id);
    const out = from ? blockFor(ctx.blocks, from)?.spec.outputs?.find((o) => o.name === v.value) : undefined;
    return from && out && done(from.name) ? { ...v, value: outputUrl(ctx.base, job, from, out, ctx.mosaic) } : v;
  });
}

/** The job as `GET …/jobs/{id}` sends it; `spec`, `inputs` and `result` as the JSON they hold, `info_logs` as base64 (Go's []byte). */
export function jobView(job: JobRec, ctx: JobContext, now: number): JobWire {
  const phase = jobPhase(job, now);
  const slots = schedule(job);
  const failAt = slots.find((s) => s.failAt !== undefined)?.failAt;
  const phases = new Map(slots.map((s) => [s.step.name, taskPhase(s, failAt, now)]));
  const tasks: TaskWire[] = slots.map((slot) => {
    const p = phases.get(slot.step.name) as ReturnType<typeof taskPhase>;
    const block = blockFor(ctx.blocks, slot.step);
    const started = now >= slot.start && p.status !== 'skipped' && p.status !== 'pending';
    const result =
      p.status === 'success'
        ? (block?.spec.outputs ?? []).map((o) => ({ name: o.name, format: o.format, type: o.type, value: outputUrl(ctx.base, job, slot.step, o, ctx.mosaic) }))
        : undefined;
    return {
      id: job.task_ids[slot.step.name],
      name: slot.step.name,
      depends_on: slot.step.depends_on,
      status: p.status,
      progress: p.progress,
      block_info: { id: block?.id ?? '', name: slot.step.block.name, version: slot.step.block.version },
      ...(p.status === 'failed' ? { err_msg: job.failure?.err_msg, failure_type: job.failure?.failure_type } : {}),
      state_msg:
        p.status === 'pending'
          ? `waiting for ${slot.step.depends_on.join(', ') || 'a worker'}`
          : p.status === 'running'
            ? `running, ${p.progress}%`
            : p.status === 'skipped'
              ? 'not run: a step it depends on failed'
              : p.status,
      disclaimer: slot.step.block.name === 'cloud-mask' ? ['Cloud shadows over water may be kept as land.'] : [],
      info_logs: Buffer.from(logLines(job, slot, p, now)).toString('base64'),
      inputs: taskInputs(job, slot.step, ctx, (name) => phases.get(name)?.status === 'success'),
      ...(result ? { result } : {}),
      time_taken: started ? goDuration((p.finishedAt ?? now) - slot.start) : '0s',
      estimated_time_duration: Math.round(taskDurationMs(slot.step) / 1000),
      created_at: isoOffset(job.t0),
      updated_at: isoOffset(Math.min(now, p.finishedAt ?? now)),
      ...(p.finishedAt !== undefined ? { finished_at: isoOffset(p.finishedAt) } : {}),
      ...(started ? { recv_time: isoOffset(job.t0), send_time: isoOffset(slot.start), block_inf_start_time: isoOffset(slot.start) } : {}),
      ...(p.finishedAt !== undefined ? { block_inf_end_time: isoOffset(p.finishedAt) } : {}),
    };
  });
  const final = phase.status === 'success' || phase.status === 'failed';
  return {
    id: job.id,
    workflow_id: job.workflow_id,
    created_by: job.created_by,
    status: phase.status,
    progress: String(phase.progress),
    cost: job.cost,
    estimated_duration: phase.estimatedSeconds,
    time_taken: goDuration((final ? phase.finishedAt : now) - job.t0),
    created_at: isoOffset(job.t0),
    updated_at: isoOffset(final ? phase.finishedAt : now),
    ...(final ? { finished_at: isoOffset(phase.finishedAt) } : {}),
    exec_created_at: isoOffset(startOf(job)),
    exec_updated_at: isoOffset(final ? phase.finishedAt : now),
    tasks,
    val_errors: [],
    spec: job.spec,
  };
}

/** The list item (OpenAPI `ListJobsItem`): no tasks, no spec. */
export function jobListItem(view: JobWire): Omit<JobWire, 'tasks' | 'val_errors' | 'spec' | 'exec_created_at' | 'exec_updated_at'> {
  const { tasks: _t, val_errors: _v, spec: _s, exec_created_at: _e, exec_updated_at: _u, ...item } = view;
  return item;
}
