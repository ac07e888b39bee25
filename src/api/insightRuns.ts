/**
 * Insight runs on an AOI (beyond interface.md; shapes from the service's OpenAPI): price a
 * run, start it, list the runs with their outputs, delete one, package one for download.
 *
 * The OpenAPI leaves the run record loose (`input`/`output` are raw JSON, no block, no
 * pagination), and the first version of this client expected `outputs` and a `pagination`
 * object, so the reader accepts each plausible shape and always yields `Insight` with
 * `input` and `output` as lists.
 */
import { recordParser } from './listing';
import type { Insight, InsightDownload, InsightDownloadRequest, InsightOutput, InsightRunRequest, InputValue } from './records';
import { ShapeError, describe, isObj, num, obj, opt, str } from './shape';
import { pathOf, type CallOptions, type Transport } from './transport';
import { readRecords, withUnreadable, type WithUnreadable } from './unreadable';

/** Metadata keys under which the extension records the block of a run it starts. */
export const RUN_METADATA = { blockName: 'block_name', blockVersion: 'block_version' } as const;

/**
 * `input`/`output` as the service may send them: a list, JSON text of a list, a map by name, or
 * nothing. Workflow blocks' and tasks' inputs are read with it too (api/workflows.ts).
 */
export function valueList(raw: unknown, field: string): Record<string, unknown>[] {
  let v = raw;
  if (v === undefined || v === null || v === '') return [];
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v) as unknown;
    } catch {
      throw new ShapeError(`${field}: expected a list of values or JSON text of one, got text that is not JSON`);
    }
  }
  if (isObj(v)) {
    // A map from name to value, or a wrapper `{outputs: [...]}`.
    const inner = v.outputs ?? v.output ?? v.inputs ?? v.input;
    if (Array.isArray(inner)) v = inner;
    else v = Object.entries(v).map(([name, x]) => (isObj(x) ? { name, ...x } : { name, value: x }));
  }
  if (!Array.isArray(v)) throw new ShapeError(`${field}: expected a list of values, got ${describe(v)}`);
  return v.map((x, i) => {
    if (!isObj(x)) throw new ShapeError(`${field}[${i}]: expected an object, got ${describe(x)}`);
    return x;
  });
}

function readOutput(x: Record<string, unknown>, i: number, field: string): InsightOutput {
  const name = typeof x.name === 'string' && x.name !== '' ? x.name : `output ${i + 1}`;
  const value =
    typeof x.value === 'string'
      ? x.value
      : typeof x.url === 'string'
        ? x.url
        : typeof x.value === 'number' || typeof x.value === 'boolean'
          ? String(x.value)
          : '';
  if (x.properties !== undefined && x.properties !== null && !isObj(x.properties))
    throw new ShapeError(`${field}[${i}].properties: expected object, got ${describe(x.properties)}`);
  return {
    ...x,
    name,
    format: typeof x.format === 'string' ? x.format : '',
    type: typeof x.type === 'string' ? x.type : '',
    value,
    properties: isObj(x.properties) ? x.properties : {},
  } as InsightOutput;
}

const checkScalars = obj({
  id: str,
  name: opt(str),
  status: opt(str),
  err_msg: opt(str),
  estimated_time_in_min: opt(num),
  cost: opt(num),
  progress: opt(num),
  aoi_id: opt(str),
  created_at: opt(str),
  created_by: opt(str),
  deleted_at: opt(str),
});

function blockOf(r: Record<string, unknown>, metadata: Record<string, string> | undefined): Insight['block'] {
  const b = r.block;
  if (isObj(b) && typeof b.name === 'string' && b.name) return { name: b.name, version: typeof b.version === 'string' ? b.version : '' };
  const name = metadata?.[RUN_METADATA.blockName];
  if (name) return { name, version: metadata?.[RUN_METADATA.blockVersion] ?? '' };
  return undefined;
}

/** One run, whatever plausible shape it came in; `aoiId` fills an absent `aoi_id`. */
export function readInsightRun(raw: unknown, aoiId: string, root = 'insight'): Insight {
  const e = checkScalars(raw);
  if (e !== undefined) throw new ShapeError(`${root}${e}`);
  const r = raw as Record<string, unknown>;
  const metadata = isObj(r.metadata)
    ? Object.fromEntries(Object.entries(r.metadata).filter((kv): kv is [string, string] => typeof kv[1] === 'string'))
    : undefined;
  // `output` is the OpenAPI's name; `outputs` is what the first version expected.
  const outRaw = r.output !== undefined && r.output !== null ? r.output : r.outputs;
  const outField = r.output !== undefined && r.output !== null ? `${root}.output` : `${root}.outputs`;
  const output = valueList(outRaw, outField).map((x, i) => readOutput(x, i, outField));
  const input = valueList(r.input, `${root}.input`) as unknown as InputValue[];
  const progress = typeof r.progress === 'number' ? Math.max(0, Math.min(100, r.progress)) : undefined;
  const { outputs: _legacy, ...rest } = r;
  return {
    ...rest,
    id: r.id as string,
    name: typeof r.name === 'string' && r.name ? r.name : (r.id as string),
    status: typeof r.status === 'string' ? r.status : '',
    input,
    output,
    ...(progress !== undefined ? { progress } : {}),
    ...(metadata ? { metadata } : {}),
    aoi_id: typeof r.aoi_id === 'string' && r.aoi_id ? r.aoi_id : aoiId,
    created_at: typeof r.created_at === 'string' ? r.created_at : '',
    block: blockOf(r, metadata),
  };
}

/**
 * The run list: `{insights: [...]}` as the OpenAPI has it, tolerating a legacy `pagination`
 * (ignored: the list is whole) and a bare array. Newest first, whatever order it came in.
 */
export function readInsightList(body: unknown, aoiId: string): Insight[] & WithUnreadable {
  const list = Array.isArray(body) ? body : isObj(body) ? body.insights : undefined;
  if (!Array.isArray(list)) throw new ShapeError(`insights: expected a list, got ${describe(isObj(body) ? body.insights : body)}`);
  // One run that does not read is left out (with the reason), not the whole list.
  const { items, unreadable } = readRecords(
    list,
    (i) => `insights[${i}]`,
    (x, where) => readInsightRun(x, aoiId, where),
  );
  const runs = items.filter((r) => !r.deleted_at).sort((a, b) => newestFirst(a.created_at, b.created_at));
  return withUnreadable(runs, unreadable);
}

function newestFirst(a: string, b: string): number {
  const ta = Date.parse(a);
  const tb = Date.parse(b);
  if (Number.isNaN(ta) || Number.isNaN(tb)) return 0;
  return tb - ta;
}

const parseRun = recordParser<{ id: string; message?: string }>(obj({ id: str, message: opt(str) }), 'run');

/** The OpenAPI declares an integer; a service sending a decimal is still understood. */
function parseEstimate(body: unknown): number {
  if (!isObj(body) || typeof body.estimate !== 'number' || !Number.isFinite(body.estimate)) {
    throw new ShapeError(`estimate: expected number, got ${describe(isObj(body) ? body.estimate : body)}`);
  }
  if (body.estimate < 0) throw new ShapeError(`estimate: expected a cost of zero or more, got ${body.estimate}`);
  return body.estimate;
}

function parseDownload(body: unknown): InsightDownload {
  const e = obj({ id: opt(str), status: opt(str), signed_url: opt(str) })(body);
  if (e !== undefined) throw new ShapeError(`download${e}`);
  return body as InsightDownload;
}

export interface InsightRunFilter {
  /** One run by id (the OpenAPI's `id` filter). */
  id?: string;
  status?: string;
}

export class InsightRunsApi {
  constructor(private readonly t: Transport) {}

  /** Every run on the AOI, newest first (the service does not page this list). */
  list(aoiId: string, q: InsightRunFilter = {}, o?: CallOptions): Promise<Insight[] & WithUnreadable> {
    return this.t.json({ method: 'GET', path: pathOf`/v0/aoi/${aoiId}/insights`, query: { id: q.id, status: q.status } }, (b) => readInsightList(b, aoiId), o);
  }

  /** Token cost of a run, without running it (`estimate: true` → 200 `{estimate}`). */
  estimate(aoiId: string, req: InsightRunRequest, o?: CallOptions): Promise<number> {
    return this.t.json({ method: 'POST', path: pathOf`/v0/aoi/${aoiId}/insights`, body: { ...withBlockMetadata(req), estimate: true } }, parseEstimate, o);
  }

  /** Start a run (201 `{id, message}`). Sent once, never retried; `estimate` is forced off. */
  run(aoiId: string, req: InsightRunRequest, o?: CallOptions): Promise<{ id: string; message?: string }> {
    const { estimate: _e, ...body } = withBlockMetadata(req);
    return this.t.json({ method: 'POST', path: pathOf`/v0/aoi/${aoiId}/insights`, body }, parseRun, o);
  }

  /** `DELETE …/insights/{id}?project_id=`: 200 on success; never retried. */
  async delete(aoiId: string, id: string, projectId: string, o?: CallOptions): Promise<void> {
    await this.t.send({ method: 'DELETE', path: pathOf`/v0/aoi/${aoiId}/insights/${id}`, query: { project_id: projectId } }, o);
  }

  /** Packages the named inputs and outputs (all when none are named) behind a signed URL. */
  download(aoiId: string, id: string, req: InsightDownloadRequest = {}, o?: CallOptions): Promise<InsightDownload> {
    return this.t.json({ method: 'PUT', path: pathOf`/v0/aoi/${aoiId}/insights/${id}/download`, body: req }, parseDownload, o);
  }
}

/** The block travels in `metadata` too, since the run record does not name it. */
function withBlockMetadata(req: InsightRunRequest): InsightRunRequest {
  return {
    ...req,
    metadata: { ...(req.metadata ?? {}), [RUN_METADATA.blockName]: req.block.name, [RUN_METADATA.blockVersion]: req.block.version },
  };
}
