/**
 * Workflows and jobs (beyond the interface; shapes from the OpenAPI's `dexter.*` schemas,
 * our decisions in docs/service-interface.md, "Workflows"): list and read workflows, price
 * one, start a job (one at a time per workflow), list and read jobs with their tasks, package
 * a finished job or task behind a signed URL, and the files a job produced.
 */
import type { JobWire } from '../../api/records';
import { codeFor, conflict, HttpError, badRequest, forbidden, notFound } from '../errors';
import { asStoredObject } from '../objects';
import type { Req, Res, Route } from '../router';
import type { JobRec, WorkflowRec } from '../state';
import { parseTime } from '../timefmt';
import { T } from '../transitions';
import { asObject, pageParams, pathId } from '../validate';
import { newJob } from '../world/workflows';
import { aoiOf, blockFor, jobListItem, jobPhase, jobView, outputFileName, validateSpec, workflowCost, workflowItem, type JobContext } from '../workflows';
import { layoutFor, serveCog } from '../imagery/serve';
import { mosaicScene } from '../imagery/scenes';
import { outputCogSpec } from '../insightRaster';
import { zipOf } from '../zip';
import { newestAsOfNow, onlyParams, ownProject, page } from './common';

/** The caller's workflow: 400 malformed id, 404 unknown, 403 another user's. */
function ownWorkflow(r: Req, raw: string): WorkflowRec {
  const id = pathId(raw, 'workflow_id');
  const wf = r.app.state.workflows.find((w) => w.id === id);
  if (!wf) throw notFound('workflow', id);
  if (wf.owner !== r.user.id) throw forbidden(`workflow ${JSON.stringify(id)}`);
  return wf;
}

function ownJob(r: Req, wf: WorkflowRec, raw: string): JobRec {
  const id = pathId(raw, 'job_id');
  const job = r.app.state.jobs.find((j) => j.id === id && j.workflow_id === wf.id);
  if (!job) throw notFound('job', id);
  return job;
}

/** `project_id` as the query names it: required, and the workflow's own. */
function projectOf(r: Req, wf: WorkflowRec): void {
  const p = r.query.get('project_id');
  if (!p) throw badRequest('project_id', 'is required (the project the workflow belongs to)');
  ownProject(r, p, 'project_id');
  if (p !== wf.project_id) throw notFound('workflow', `${wf.id} in project ${p}`);
}

function contextOf(r: Req, job: Pick<JobRec, 'spec' | 'owner'>): JobContext {
  const aoi = aoiOf(r.app.state, job.spec, job.owner);
  const mosaic = aoi
    ? r.app.state.assets.filter((a) => a.aoi_id === aoi.aoi_id && a.visualization_id === '').sort((a, b) => b.date.localeCompare(a.date))[0]
    : undefined;
  return { blocks: r.app.world.blocks, base: r.app.base, aoi, mosaic };
}

/** A day (`2025-04-14`) or an RFC 3339 instant's day, for `created_on`. */
function dayFilter(raw: string | null, field: string): ((ms: number) => boolean) | undefined {
  if (raw === null) return undefined;
  const t = parseTime(raw.slice(0, 10));
  if (Number.isNaN(t)) throw badRequest(field, 'must be a date, e.g. 2025-04-14 or 2025-04-14T00:00:00Z');
  return (ms) => ms >= t && ms < t + 86_400_000;
}

/** The job as the service would refuse a workflow that does not validate: 400 with the errors in `details`. */
function invalid(wf: WorkflowRec, errors: ReturnType<typeof validateSpec>): Res {
  return {
    status: 400,
    json: {
      error: {
        code: codeFor(400),
        message: `workflow ${wf.name} does not validate: ${errors.length} ${errors.length === 1 ? 'error' : 'errors'}`,
        details: { val_errors: errors },
      },
    },
  };
}

/** What a package holds: per task its inputs, result, log and the files it wrote. */
function packageFiles(r: Req, job: JobRec, view: JobWire, only?: string): { name: string; data: Buffer }[] {
  const files: { name: string; data: Buffer }[] = [];
  if (!only) files.push({ name: 'job.json', data: Buffer.from(JSON.stringify({ ...view, tasks: undefined }, null, 2)) });
  for (const t of view.tasks ?? []) {
    if (only && t.id !== only) continue;
    const dir = only ? '' : `${t.name}/`;
    files.push({ name: `${dir}inputs.json`, data: Buffer.from(JSON.stringify(t.inputs ?? [], null, 2)) });
    if (t.result !== undefined) files.push({ name: `${dir}result.json`, data: Buffer.from(JSON.stringify(t.result, null, 2)) });
    files.push({ name: `${dir}logs.txt`, data: Buffer.from(String(t.info_logs ?? ''), 'base64') });
    for (const o of (t.result as { name: string; format: string; value: string }[] | undefined) ?? []) {
      // Rasters stay behind their URLs in result.json: a package of GeoTIFFs would be large.
      const body = o.format === 'raster' ? undefined : outputFile(r, job, t.name, o.name, view);
      if (body) files.push({ name: `${dir}${outputFileName(o)}`, data: Buffer.from(JSON.stringify(body, null, 2)) });
    }
  }
  return files;
}

/**
 * A file a task wrote: a vector output is GeoJSON over the workflow's AOI with the statistics a
 * zonal summary gives; a report lists what the steps before it produced.
 */
function outputFile(r: Req, job: JobRec, taskName: string, output: string, view: JobWire): unknown {
  const step = job.spec.blocks.find((s) => s.name === taskName);
  const def = step ? blockFor(r.app.world.blocks, step)?.spec.outputs?.find((o) => o.name === output) : undefined;
  if (!step || !def) return undefined;
  const aoi = aoiOf(r.app.state, job.spec, job.owner);
  let h = 0;
  for (const c of `${job.id}/${taskName}`) h = (Math.imul(h, 31) + c.charCodeAt(0)) >>> 0;
  const mean = Math.round(((h % 600) / 1000 + 0.1) * 1000) / 1000;
  if (def.format === 'vector') {
    return {
      type: 'FeatureCollection',
      features: aoi
        ? [
            {
              type: 'Feature',
              id: `${job.id}-${taskName}`,
              geometry: aoi.geometry,
              properties: {
                aoi: aoi.name,
                task: taskName,
                output,
                mean,
                min: Math.round((mean - 0.2) * 1000) / 1000,
                max: Math.round((mean + 0.25) * 1000) / 1000,
                area_km2: Math.round(aoi.area_in_sq_m / 1e4) / 100,
              },
            },
          ]
        : [],
    };
  }
  return {
    job: job.id,
    task: taskName,
    output,
    produced_by: `${step.block.name} ${step.block.version}`,
    steps: (view.tasks ?? []).filter((t) => t.name !== taskName).map((t) => ({ task: t.name, status: t.status, result: t.result ?? [] })),
  };
}

export const workflowRoutes: Route[] = [
  {
    // Newest first; offset/limit (default 50, 1..100); filters as the OpenAPI lists them.
    method: 'GET',
    path: '/v0/workflows',
    handler: (r) => {
      onlyParams(r.query, ['project_id', 'id', 'name', 'created_by', 'created_on', 'updated_at', 'offset', 'limit']);
      const { offset, limit } = pageParams(r.query, 50);
      const project = r.query.get('project_id');
      if (project) ownProject(r, project, 'project_id');
      const id = r.query.get('id');
      const name = r.query.get('name')?.toLowerCase();
      const by = r.query.get('created_by');
      const on = dayFilter(r.query.get('created_on'), 'created_on');
      const updated = dayFilter(r.query.get('updated_at'), 'updated_at');
      const all = r.app.state.workflows
        .filter((w) => w.owner === r.user.id && (!project || w.project_id === project) && (!id || w.id === id))
        .filter(
          (w) => (!name || w.name.toLowerCase().includes(name)) && (!by || w.created_by === by) && (!on || on(w.t0)) && (!updated || updated(w.updated_t0)),
        )
        .sort((a, b) => b.t0 - a.t0)
        .map(workflowItem);
      const { items, pagination } = page(all, offset, limit);
      return { status: 200, json: { workflows: items, pagination } };
    },
  },
  {
    method: 'GET',
    path: '/v0/workflows/:workflow_id',
    handler: (r) => {
      const wf = ownWorkflow(r, r.params.workflow_id);
      projectOf(r, wf);
      return {
        status: 200,
        json: {
          ...workflowItem(wf),
          spec: wf.spec,
          val_errors: validateSpec(wf.spec, r.app.world.blocks),
          estimated_cost: workflowCost(wf.spec, aoiOf(r.app.state, wf.spec, wf.owner)),
        },
      };
    },
  },
  {
    method: 'GET',
    path: '/v0/workflows/:workflow_id/estimate',
    handler: (r) => {
      const wf = ownWorkflow(r, r.params.workflow_id);
      return { status: 200, json: { estimated_cost: workflowCost(wf.spec, aoiOf(r.app.state, wf.spec, wf.owner)) } };
    },
  },
  {
    // No pagination (the OpenAPI declares none); newest first.
    method: 'GET',
    path: '/v0/workflows/:workflow_id/jobs',
    handler: (r) => {
      const wf = ownWorkflow(r, r.params.workflow_id);
      onlyParams(r.query, ['id', 'status', 'created_by', 'created_on']);
      const id = r.query.get('id');
      const status = r.query.get('status');
      const by = r.query.get('created_by');
      const on = dayFilter(r.query.get('created_on'), 'created_on');
      const mine = r.app.state.jobs.filter((j) => j.workflow_id === wf.id && (!id || j.id === id) && (!by || j.created_by === by) && (!on || on(j.t0)));
      // an empty status= filters nothing here, as before
      const jobs = newestAsOfNow(mine, (j) => jobListItem(jobView(j, contextOf(r, j), r.now)), status || null);
      return { status: 200, json: { jobs } };
    },
  },
  {
    // Starts a job. The OpenAPI describes no body: an empty object or none is taken, its keys ignored.
    method: 'POST',
    path: '/v0/workflows/:workflow_id/jobs',
    body: 'optional',
    handler: async (r) => {
      const wf = ownWorkflow(r, r.params.workflow_id);
      projectOf(r, wf);
      if (r.body !== undefined) asObject(r.body, 'body');
      if (wf.spec.blocks.length === 0) throw badRequest('workflow_id', `workflow ${wf.name} has no blocks: there is nothing to run`);
      const errors = validateSpec(wf.spec, r.app.world.blocks);
      if (errors.length > 0) return invalid(wf, errors);
      const busy = r.app.state.jobs.find((j) => j.workflow_id === wf.id && ['queued', 'running'].includes(jobPhase(j, r.now).status));
      if (busy) throw conflict('workflow_id', `workflow ${wf.name} already has a job ${jobPhase(busy, r.now).status} (${busy.id}); one job runs at a time`);
      const aoi = aoiOf(r.app.state, wf.spec, wf.owner);
      const missingAoi = wf.spec.blocks.find((s) => s.inputs.some((i) => i.name === 'aoi' && i.value && !aoi));
      const job = newJob(
        r.app.state,
        wf,
        r.user.id,
        r.now,
        () => r.app.newId(),
        missingAoi ? { task: missingAoi.name, err_msg: 'the AOI this step reads no longer exists', failure_type: 'input_error' } : undefined,
      );
      r.app.state.jobs.push(job);
      await r.app.commit();
      return { status: 200, json: jobView(job, contextOf(r, job), r.now) };
    },
  },
  {
    method: 'GET',
    path: '/v0/workflows/:workflow_id/jobs/:job_id',
    handler: (r) => {
      const wf = ownWorkflow(r, r.params.workflow_id);
      const job = ownJob(r, wf, r.params.job_id);
      return { status: 200, json: jobView(job, contextOf(r, job), r.now) };
    },
  },
  {
    // A finished job (success or failed) is packaged at once: the answer carries the link.
    method: 'PUT',
    path: '/v0/workflows/:workflow_id/jobs/:job_id/download',
    body: 'optional',
    handler: (r) => {
      const wf = ownWorkflow(r, r.params.workflow_id);
      const job = ownJob(r, wf, r.params.job_id);
      const status = jobPhase(job, r.now).status;
      if (status !== 'success' && status !== 'failed') throw badRequest('job_id', `job ${job.id} is ${status}; a job can be downloaded once it has finished`);
      const token = r.app.sign({ job: job.id, exp: r.now + T.signedUrl });
      return { status: 200, json: { id: job.id, status: 'success', signed_url: `${r.app.base}/workflow-packages/${token}`, workflowId: wf.id } };
    },
  },
  {
    method: 'PUT',
    path: '/v0/workflows/:workflow_id/jobs/:job_id/tasks/:task_id/download',
    body: 'optional',
    handler: (r) => {
      const wf = ownWorkflow(r, r.params.workflow_id);
      const job = ownJob(r, wf, r.params.job_id);
      const taskId = pathId(r.params.task_id, 'task_id');
      const task = jobView(job, contextOf(r, job), r.now).tasks?.find((t) => t.id === taskId);
      if (!task) throw notFound('task', taskId);
      if (task.status !== 'success' && task.status !== 'failed')
        throw badRequest('task_id', `task ${task.name} is ${task.status}; a task can be downloaded once it has finished`);
      const token = r.app.sign({ job: job.id, task: taskId, exp: r.now + T.signedUrl });
      return {
        status: 200,
        json: { id: taskId, job_id: job.id, workflow_id: wf.id, status: 'success', signed_url: `${r.app.base}/workflow-packages/${token}` },
      };
    },
  },
  {
    // The signed URL is the credential, as with a cloud presigned URL.
    method: 'GET',
    path: '/workflow-packages/:token',
    auth: false,
    handler: (r) => {
      const t = r.app.verify(r.params.token);
      if (!t || typeof t.job !== 'string' || typeof t.exp !== 'number') throw new HttpError(403, 'the signed URL is not valid', 'signature');
      if (r.now > t.exp) throw new HttpError(403, 'the signed URL has expired; ask for the download again', 'expired');
      const job = r.app.state.jobs.find((j) => j.id === t.job);
      if (!job) throw notFound('job', String(t.job));
      const view = jobView(job, contextOf(r, job), r.now);
      const only = typeof t.task === 'string' ? t.task : undefined;
      const name = only ? `task-${only}` : `job-${job.id}`;
      const whole = {
        status: 200,
        raw: zipOf(packageFiles(r, job, view, only)),
        contentType: 'application/zip',
        headers: { 'content-disposition': `attachment; filename="${name}.zip"` },
      };
      return asStoredObject(r.headers, whole, { modified: job.t0 });
    },
  },
  {
    // The files a task wrote (its vector and report outputs), behind the token like the API.
    method: 'GET',
    path: '/job-files/:job_id/:task_id/:file',
    handler: (r) => {
      const job = r.app.state.jobs.find((j) => j.id === r.params.job_id);
      if (!job) throw notFound('job', r.params.job_id);
      if (job.owner !== r.user.id) throw forbidden(`job ${JSON.stringify(job.id)}`);
      const ctx = contextOf(r, job);
      const view = jobView(job, ctx, r.now);
      const task = view.tasks?.find((t) => t.id === r.params.task_id);
      const output = (task?.result as { name: string; format: string }[] | undefined)?.find((o) => r.params.file === outputFileName(o));
      if (!task || !output) throw notFound('job file', `${r.params.task_id}/${r.params.file}`);
      if (output.format === 'raster') {
        const step = job.spec.blocks.find((s) => s.name === task.name);
        const def = step ? blockFor(r.app.world.blocks, step)?.spec.outputs?.find((o) => o.name === output.name) : undefined;
        if (!def || !ctx.aoi || !ctx.mosaic) throw notFound('job file', `${r.params.task_id}/${r.params.file}`);
        const { aoi, mosaic } = ctx;
        const key = `job:${job.id}:${task.id}:${def.name}`;
        const range = r.headers.range;
        return serveCog(
          key,
          layoutFor(key, () => outputCogSpec(mosaicScene(aoi, mosaic.date), def)),
          Array.isArray(range) ? range.join(',') : range,
          r.method === 'HEAD',
        );
      }
      const body = outputFile(r, job, task.name, output.name, view);
      return { status: 200, raw: JSON.stringify(body), contentType: output.format === 'vector' ? 'application/geo+json' : 'application/json' };
    },
  },
];
