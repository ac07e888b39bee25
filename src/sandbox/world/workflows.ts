/**
 * Seeded workflows and jobs: per project a few workflows of three to six blocks in a DAG (one
 * that does not validate, one without blocks), and jobs in every status, one of them failed
 * with its reason, one still running and one queued when the sandbox starts. Drawn from a
 * stream of their own, so the rest of the world is the same as without them.
 */
import type { InputValue, WorkflowBlock, WorkflowSpec } from '../../api/records';
import { Rng } from '../prng';
import type { AoiRec, JobRec, State, User, WorkflowRec } from '../state';
import { dateOnly } from '../timefmt';
import { TASK_OUTPUT, aoiOf, workflowCost } from '../workflows';
import type { World } from './world';

const DAY = 86_400_000;

const step = (name: string, block: string, version: string, depends_on: string[], inputs: InputValue[]): WorkflowBlock => ({
  name,
  block: { name: block, version },
  depends_on,
  inputs,
});
const value = (name: string, format: string, type: string, v: string): InputValue => ({ name, format, type, description: '', value: v });
/** An input fed by another step's output. */
const fed = (name: string, format: string, from: string, output: string): InputValue => ({
  name,
  format,
  type: 'url',
  description: '',
  value: output,
  asset_source: { id: from, type: TASK_OUTPUT },
});

type Template = (aoi: AoiRec | undefined, now0: number) => { name: string; description: string; spec: WorkflowSpec };

const mosaicStep = (name: string, aoi: AoiRec | undefined, from: number, to: number): WorkflowBlock =>
  step(
    name,
    'mosaic-builder',
    '1.4.0',
    [],
    [value('aoi', 'string', 'string', aoi?.aoi_id ?? ''), value('from', 'date', 'string', dateOnly(from)), value('to', 'date', 'string', dateOnly(to))],
  );

const TEMPLATES: Record<string, Template> = {
  cropHealth: (aoi, now0) => ({
    name: `Crop health of ${aoi?.name ?? 'the project'}`,
    description: 'Weekly mosaic without clouds, NDVI statistics per field and open water, in one report.',
    spec: {
      blocks: [
        mosaicStep('mosaic', aoi, now0 - 30 * DAY, now0),
        step(
          'clouds',
          'cloud-mask',
          '2.1.0',
          ['mosaic'],
          [fed('mosaic', 'raster', 'mosaic', 'mosaic'), value('max_cloud_probability', 'number', 'number', '0.4')],
        ),
        step(
          'water',
          'water-extent',
          '0.9.1',
          ['clouds'],
          [fed('image', 'raster', 'clouds', 'masked'), value('threshold', 'number', 'number', '0.2'), value('include_wetlands', 'boolean', 'boolean', 'false')],
        ),
        step('field-stats', 'zonal-statistics', '1.0.3', ['clouds'], [fed('raster', 'raster', 'clouds', 'masked')]),
        step('report', 'report-builder', '0.3.0', ['field-stats', 'water'], [fed('results', 'vector', 'field-stats', 'statistics')]),
      ],
    },
  }),
  reservoir: (aoi, now0) => ({
    name: `Reservoir watch of ${aoi?.name ?? 'the project'}`,
    description: 'Open water from the latest mosaic, summarised.',
    spec: {
      blocks: [
        mosaicStep('mosaic', aoi, now0 - 14 * DAY, now0),
        step(
          'water',
          'water-extent',
          '0.9.1',
          ['mosaic'],
          [fed('image', 'raster', 'mosaic', 'mosaic'), value('threshold', 'number', 'number', '0.1'), value('include_wetlands', 'boolean', 'boolean', 'true')],
        ),
        step('water-stats', 'zonal-statistics', '1.0.3', ['water'], [fed('raster', 'raster', 'water', 'water_mask')]),
      ],
    },
  }),
  fieldChange: (aoi, now0) => ({
    name: `Land change of ${aoi?.name ?? 'the project'}`,
    description: 'Land cover a year ago against this month: loss and gain, reported.',
    spec: {
      blocks: [
        mosaicStep('mosaic-before', aoi, now0 - 395 * DAY, now0 - 365 * DAY),
        mosaicStep('mosaic-after', aoi, now0 - 30 * DAY, now0),
        step(
          'land-cover',
          'land-cover-classification',
          '1.2.0',
          ['mosaic-before'],
          [
            fed('image', 'raster', 'mosaic-before', 'mosaic'),
            value('season_start', 'date', 'string', dateOnly(now0 - 395 * DAY)),
            value('min_patch_ha', 'number', 'number', '0.5'),
          ],
        ),
        step('clouds-after', 'cloud-mask', '2.1.0', ['mosaic-after'], [fed('mosaic', 'raster', 'mosaic-after', 'mosaic')]),
        step(
          'change',
          'change-detection',
          '2.0.0',
          ['land-cover', 'clouds-after'],
          [
            fed('baseline', 'raster', 'land-cover', 'land_cover'),
            fed('image', 'raster', 'clouds-after', 'masked'),
            value('as_of', 'date', 'string', dateOnly(now0)),
            value('sensitivity', 'string', 'string', 'medium'),
          ],
        ),
        step('report', 'report-builder', '0.3.0', ['change'], [fed('results', 'vector', 'change', 'change_areas')]),
      ],
    },
  }),
  broken: (aoi, now0) => ({
    name: `Cloud check of ${aoi?.name ?? 'the project'} (draft)`,
    description: 'A draft whose cloud mask is fed statistics instead of a mosaic: it does not validate.',
    spec: {
      blocks: [
        mosaicStep('mosaic', aoi, now0 - 7 * DAY, now0),
        step('stats', 'zonal-statistics', '1.0.3', ['mosaic'], [fed('raster', 'raster', 'mosaic', 'mosaic')]),
        step('clouds', 'cloud-mask', '2.1.0', ['stats'], [fed('mosaic', 'raster', 'stats', 'statistics')]),
      ],
    },
  }),
  empty: () => ({ name: 'New workflow (empty)', description: 'Created in the workflow editor; no blocks yet.', spec: { blocks: [] } }),
};

/** Which workflows each project gets, per user: [project index, template, jobs as [age in ms, failure?]]. */
type JobSeed = { age: number; failure?: JobRec['failure']; queueMs?: number };
const PLAN: Record<User['key'], [number, keyof typeof TEMPLATES, JobSeed[]][]> = {
  alice: [
    [
      0,
      'cropHealth',
      [
        { age: 10 * DAY },
        {
          age: 3 * DAY,
          failure: { task: 'field-stats', err_msg: 'no valid pixel in any field: every pixel is masked as cloud', failure_type: 'input_error' },
        },
        { age: 30_000 },
      ],
    ],
    [0, 'reservoir', [{ age: 5 * DAY }]],
    // waiting for a worker for ten minutes: queued whenever a test looks soon after the start
    [1, 'fieldChange', [{ age: 2 * DAY }, { age: 1_000, queueMs: 10 * 60_000 }]],
    [1, 'broken', []],
    [2, 'empty', []],
    [
      2,
      'cropHealth',
      [{ age: 20 * DAY, failure: { task: 'clouds', err_msg: 'the worker did not finish within 900 s', failure_type: 'timeout' } }, { age: 6 * DAY }],
    ],
    [3, 'reservoir', []],
  ],
  bob: [
    [0, 'cropHealth', [{ age: 4 * DAY }]],
    [1, 'reservoir', [{ age: 8 * DAY }]],
  ],
};

export function seedWorkflows(world: World, state: State, user: User, now0: number): void {
  const rng = new Rng(world.seed).fork(`workflows:${user.key}`);
  const projects = state.projects.filter((p) => p.owner === user.id);
  PLAN[user.key].forEach(([k, template, jobs], n) => {
    const project = projects[k];
    if (!project) return;
    const aoi = state.aois.find((a) => a.project_id === project.id);
    const t = TEMPLATES[template](aoi, now0);
    const t0 = now0 - (60 + n * 7) * DAY;
    const wf: WorkflowRec = {
      id: rng.uuid(),
      owner: user.id,
      project_id: project.id,
      name: t.name,
      description: t.description,
      created_by: user.id,
      spec: t.spec,
      t0,
      updated_t0: t0 + rng.int(1, 20) * DAY,
    };
    state.workflows.push(wf);
    for (const j of jobs)
      state.jobs.push({ ...newJob(state, wf, user.id, now0 - j.age, () => rng.uuid(), j.failure), ...(j.queueMs ? { queue_ms: j.queueMs } : {}) });
  });
}

/** A job of `wf` started at `t0`, priced by the workflow's estimate. */
export function newJob(state: State, wf: WorkflowRec, owner: string, t0: number, id: () => string, failure?: JobRec['failure']): JobRec {
  return {
    id: id(),
    owner,
    workflow_id: wf.id,
    project_id: wf.project_id,
    created_by: owner,
    spec: structuredClone(wf.spec),
    task_ids: Object.fromEntries(wf.spec.blocks.map((b) => [b.name, id()])),
    cost: workflowCost(wf.spec, aoiOf(state, wf.spec, owner)),
    ...(failure ? { failure } : {}),
    t0,
  };
}
