/**
 * Where an insight run stands, from whatever status words the service uses (the OpenAPI does
 * not list them): pending runs are followed, finished ones are not. Pure: no I/O, no vscode.
 */
import type { Insight, InsightOutput } from './records';

export type RunState = 'pending' | 'success' | 'failed' | 'unknown';

const PENDING = new Set([
  'queued',
  'pending',
  'created',
  'submitted',
  'started',
  'running',
  'processing',
  'in_progress',
  'in progress',
  'scheduled',
  'creating',
  'updating',
]);
const SUCCESS = new Set(['success', 'succeeded', 'successful', 'completed', 'complete', 'done', 'finished']);
const FAILED = new Set(['failed', 'failure', 'error', 'errored', 'cancelled', 'canceled', 'expired', 'aborted', 'partial_success']);

export function runState(status: string | undefined | null): RunState {
  const s = (status ?? '').trim().toLowerCase();
  if (PENDING.has(s)) return 'pending';
  if (SUCCESS.has(s)) return 'success';
  if (FAILED.has(s)) return 'failed';
  return 'unknown';
}

/** Unknown statuses count as final: a run is never polled blindly. */
export function isRunPending(run: Pick<Insight, 'status'>): boolean {
  return runState(run.status) === 'pending';
}

export function isFinishedRun(run: Pick<Insight, 'status'>): boolean {
  return runState(run.status) === 'success';
}

/** `queued` → "Queued", `running` at 40 → "Running, 40%", `PARTIAL_SUCCESS` → "Partial success". */
export function runStatusText(run: Pick<Insight, 'status' | 'progress' | 'estimated_time_in_min'>): string {
  const words = (run.status || 'unknown').replace(/[_-]+/g, ' ').trim().toLowerCase();
  const label = words.charAt(0).toUpperCase() + words.slice(1);
  if (runState(run.status) !== 'pending') return label;
  const parts = [label];
  if (typeof run.progress === 'number' && run.progress > 0) parts.push(`${Math.floor(run.progress)}%`);
  return parts.join(', ');
}

export type OutputKind = 'raster' | 'vector' | 'other';

export function outputKind(o: Pick<InsightOutput, 'format'>): OutputKind {
  const f = o.format.toLowerCase();
  if (f === 'raster') return 'raster';
  if (f === 'vector' || f === 'geojson') return 'vector';
  return 'other';
}

/** The outputs that can feed rule 3 of the interface: raster, with a storage URL. */
export function chainableOutputs(run: Insight): InsightOutput[] {
  if (!isFinishedRun(run)) return [];
  return run.output.filter((o) => outputKind(o) === 'raster' && o.value !== '');
}
