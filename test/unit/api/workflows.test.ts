/**
 * Workflows and jobs: the tolerant readers with each shape a service may send (raw-bytes fields
 * as inline JSON, JSON text, base64 or byte values; progress as text; durations as text;
 * val_errors in a job or a 400), the dependency order of tasks (cycles, unknown dependencies
 * and duplicate names refused in words), and the client against the sandbox (prices, runs
 * once, follows a job on the clock, packages, legends and SLD).
 */
import { after, before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import {
  ApiError,
  EoClient,
  durationSeconds,
  failureTypeText,
  graphProblemsText,
  legendFromRange,
  looksLikeSld,
  orderTasks,
  percentOf,
  readJob,
  readJobList,
  readTask,
  readValErrors,
  readWorkflow,
  readWorkflowSpec,
  sldFor,
  valErrorsOf,
  workState,
  type RequestEvent,
  type Workflow,
} from '../../../src/api';
import { decodeRaw, decodeRawText } from '../../../src/api/rawJson';
import { readWorkflowEstimate, readWorkflowPage } from '../../../src/api/workflows';
import { readSld } from '../../../src/api/visualizationStyles';
import { duration } from '../../../src/format';
import { startSandbox } from '../../../src/sandbox';
import { trackUnhandled } from './testServer';

const unhandled = trackUnhandled();
const ENGLISH = { t: (m: string, ...a: (string | number | boolean)[]) => m.replace(/\{(\d+)\}/g, (_, i: string) => String(a[Number(i)])) };
const bytes = (s: string): number[] => [...Buffer.from(s, 'utf8')];
const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');

const SPEC = {
  blocks: [
    {
      name: 'mosaic',
      block: { name: 'mosaic-builder', version: '1.4.0' },
      depends_on: [],
      inputs: [{ name: 'aoi', format: 'string', type: 'string', value: 'a1' }],
    },
  ],
};

describe('raw-bytes fields: every form decodes to the same JSON', () => {
  it('inline JSON, JSON text, base64, a list of byte values; text that is not JSON stays text', () => {
    const json = JSON.stringify(SPEC);
    for (const form of [SPEC, json, b64(json), bytes(json)]) assert.deepEqual(decodeRaw(form).value, SPEC);
    assert.deepEqual(decodeRaw(bytes(json)).form, 'bytes');
    assert.deepEqual(decodeRaw(b64(json)).form, 'base64');
    assert.equal(decodeRaw('plain words').value, 'plain words');
    assert.equal(decodeRaw(null).value, undefined);
    assert.equal(decodeRaw('').form, 'absent');
    // a real list of small numbers that is not readable text stays a list
    assert.deepEqual(decodeRaw([1, 2, 3]).value, [1, 2, 3]);
  });

  it('logs as text: plain, base64, bytes; a word that happens to be base64 stays the word', () => {
    const log = 'started\ndone in 20s\n';
    assert.equal(decodeRawText(log), log);
    assert.equal(decodeRawText(b64(log)), log);
    assert.equal(decodeRawText(bytes(log)), log);
    assert.equal(decodeRawText('done'), 'done');
    assert.equal(decodeRawText({ a: 1 }), '{\n  "a": 1\n}');
    assert.equal(decodeRawText(undefined), undefined);
  });
});

describe('workflow readers', () => {
  it('a workflow: spec in any raw form, val_errors and estimated_cost; a spec that cannot be read is said, the rest kept', () => {
    const wire = {
      id: 'w1',
      name: 'Crop health',
      project_id: 'p1',
      created_at: '2026-01-01T00:00:00Z',
      spec: b64(JSON.stringify(SPEC)),
      val_errors: null,
      estimated_cost: 12,
    };
    const w = readWorkflow(wire);
    assert.deepEqual(w.spec, SPEC);
    assert.deepEqual(w.val_errors, []);
    assert.equal(w.estimated_cost, 12);
    const bad = readWorkflow({ ...wire, spec: { something: 'else' } });
    assert.equal(bad.spec, undefined);
    assert.match(bad.spec_error ?? '', /expected \{blocks/);
    assert.equal(readWorkflow({ id: 'w2' }).name, 'w2', 'a name-less workflow is named by its id');
    assert.throws(() => readWorkflow({ id: 3 }), /workflow\.id: expected string/);
  });

  it('spec shapes: blocks/tasks/steps lists, a map by name, a bare list; block refs and dependency spellings', () => {
    const one = (b: object) => readWorkflowSpec({ blocks: [b] })?.blocks[0];
    assert.deepEqual(readWorkflowSpec({ tasks: SPEC.blocks }), SPEC);
    assert.deepEqual(readWorkflowSpec(SPEC.blocks), SPEC);
    assert.deepEqual(readWorkflowSpec({ steps: { mosaic: { block: 'mosaic-builder@1.4.0', inputs: { aoi: 'a1' } } } })?.blocks[0], {
      name: 'mosaic',
      block: { name: 'mosaic-builder', version: '1.4.0' },
      depends_on: [],
      inputs: [{ name: 'aoi', value: 'a1' }],
    });
    assert.deepEqual(one({ task_name: 'b', block_name: 'x', block_version: '2', needs: 'a, c' }), {
      name: 'b',
      block: { name: 'x', version: '2' },
      depends_on: ['a', 'c'],
      inputs: [],
    });
    assert.deepEqual(one({ name: 'b', block_info: { name: 'x' }, dependencies: [{ name: 'a' }] })?.depends_on, ['a']);
    assert.deepEqual(readWorkflowSpec({ blocks: [] }), { blocks: [] }, 'an empty workflow');
    assert.equal(readWorkflowSpec(undefined), undefined);
    assert.throws(() => readWorkflowSpec({ blocks: [{ name: 'x' }] }), /spec\.blocks\[0\]\.block/);
    assert.throws(() => readWorkflowSpec({ blocks: [{ block: { name: 'x' } }] }), /spec\.blocks\[0\]\.name/);
    assert.throws(() => readWorkflowSpec({ blocks: [{ name: 'x', block: { name: 'y' }, depends_on: 5 }] }), /depends_on/);
  });

  it('a page: with pagination, without (the whole list), a bare array', () => {
    const items = [{ id: 'a', name: 'A' }];
    assert.deepEqual(readWorkflowPage({ workflows: items, pagination: { total: 7, offset: 5, limit: 1 } }, { offset: 5, limit: 1 }).total, 7);
    assert.deepEqual(readWorkflowPage({ workflows: items }, { offset: 0, limit: 50 }).total, 1);
    assert.equal(readWorkflowPage(items, { offset: 0, limit: 50 }).items[0].name, 'A');
    assert.throws(() => readWorkflowPage({ workflow_list: [] }, { offset: 0, limit: 50 }), /workflows: expected a list/);
  });

  it('the estimate: estimated_cost, estimate, cost, text, a bare number; negative or missing refused', () => {
    for (const b of [{ estimated_cost: 42 }, { estimate: 42 }, { cost: '42' }, 42]) assert.equal(readWorkflowEstimate(b), 42);
    assert.throws(() => readWorkflowEstimate({ estimated_cost: -1 }), /zero or more/);
    assert.throws(() => readWorkflowEstimate({}), /estimated_cost: expected number/);
  });

  it('val_errors: the OpenAPI form, plain messages, one error alone, null; from a 400 details object or list', () => {
    const v = { component_name: 'clouds', from: 'stats', to: 'clouds', err: 'output does not fit', reason: 'vector into raster' };
    assert.deepEqual(readValErrors([v]), [v]);
    assert.deepEqual(readValErrors(['broken']), [{ err: 'broken' }]);
    assert.deepEqual(readValErrors({ component: 'x', message: 'm' }), [{ component_name: 'x', err: 'm' }]);
    assert.deepEqual(readValErrors(null), []);
    const e = (details: unknown) =>
      new ApiError({ kind: 'http', method: 'POST', path: '/x', status: 400, detailMessage: 'no', details: details as Record<string, unknown> });
    assert.deepEqual(valErrorsOf(e({ val_errors: [v] })), [v]);
    assert.deepEqual(valErrorsOf(e(JSON.stringify([v]))), [v]);
    assert.deepEqual(valErrorsOf(e('workflow_id')), []);
    assert.deepEqual(valErrorsOf(new Error('x')), []);
  });
});

describe('job and task readers', () => {
  const task = {
    id: 't1',
    name: 'water',
    depends_on: ['mosaic'],
    status: 'failed',
    progress: 150,
    block_info: { id: 'b', name: 'water-extent', version: '0.9.1' },
    err_msg: 'no water',
    failure_type: 'INPUT_ERROR',
    info_logs: b64('queued\nfailed\n'),
    inputs: bytes(JSON.stringify([{ name: 'image', value: 'u' }])),
    result: JSON.stringify([{ name: 'water_mask', value: 'https://x/w.tif' }]),
    disclaimer: null,
  };

  it('a task: raw fields decoded, progress clamped, lists always lists; a task without name or id refused', () => {
    const t = readTask(task);
    assert.equal(t.info_logs, 'queued\nfailed\n');
    assert.deepEqual(t.inputs, [{ name: 'image', value: 'u' }]);
    assert.deepEqual(t.result, [{ name: 'water_mask', value: 'https://x/w.tif' }]);
    assert.equal(t.progress, 100);
    assert.deepEqual(t.disclaimer, []);
    assert.deepEqual(readTask({ id: 't2', depends_on: null }).depends_on, []);
    assert.equal(readTask({ id: 't2' }).name, 't2');
    assert.throws(() => readTask({ status: 'x' }), /without a name or id/);
    assert.throws(() => readTask({ id: 't', progress: '50%' }), /progress: expected number/);
  });

  it('a job: progress as text or number, time_taken as a number, tasks read, workflowId spelling; list newest first', () => {
    const j = readJob({ id: 'j1', status: 'running', progress: '45%', time_taken: 90, tasks: [task], workflowId: 'w9' }, 'w1');
    assert.equal(j.progress, 45);
    assert.equal(j.time_taken, '90s');
    assert.equal(j.workflow_id, 'w9');
    assert.equal(j.tasks?.[0].name, 'water');
    assert.equal(readJob({ id: 'j', progress: 12.5 }, 'w1').progress, 12.5);
    assert.equal(readJob({ id: 'j', progress: 'soon' }, 'w1').progress, undefined);
    assert.equal(readJob({ id: 'j' }, 'w1').tasks, undefined, 'a list item has no tasks');
    assert.throws(() => readJob({ id: 'j', tasks: {} }, 'w1'), /job\.tasks: expected a list/);
    const list = readJobList(
      {
        jobs: [
          { id: 'old', created_at: '2026-01-01T00:00:00Z' },
          { id: 'new', created_at: '2026-02-01T00:00:00Z' },
        ],
        pagination: { total: 99 },
      },
      'w1',
    );
    assert.deepEqual(
      list.map((x) => x.id),
      ['new', 'old'],
    );
    assert.equal(readJobList([{ id: 'a' }], 'w1')[0].workflow_id, 'w1');
  });

  it('states, percentages, durations and failure types in words', () => {
    assert.equal(workState('RUNNING'), 'pending');
    assert.equal(workState('waiting'), 'pending');
    assert.equal(workState('skipped'), 'skipped');
    assert.equal(workState('success'), 'success');
    assert.equal(workState('exploded'), 'unknown');
    assert.equal(percentOf(' 45.5 % '), 45.5);
    assert.equal(percentOf(120), 100);
    assert.equal(percentOf('n/a'), undefined);
    assert.equal(durationSeconds('1m35s'), 95);
    assert.equal(durationSeconds('1h2m3.5s'), 3723.5);
    assert.equal(durationSeconds('850ms'), 0.85);
    assert.equal(durationSeconds('01:02:03'), 3723);
    assert.equal(durationSeconds('95'), 95);
    assert.equal(durationSeconds('soon'), undefined);
    assert.equal(duration(95), '1 min 35 s');
    assert.equal(duration(3723), '1 h 2 min');
    assert.equal(duration(0.85), '850 ms');
    assert.equal(failureTypeText(ENGLISH, 'INPUT_ERROR'), 'a problem with its inputs');
    assert.equal(failureTypeText(ENGLISH, 'timeout'), 'it ran out of time');
    assert.equal(failureTypeText(ENGLISH, 'GPU_LOST'), 'gpu lost');
    assert.equal(failureTypeText(ENGLISH, ''), undefined);
  });
});

describe('dependency order of tasks', () => {
  const t = (name: string, ...depends_on: string[]) => ({ name, depends_on });

  it('every task after the tasks it waits for; the service order among tasks at one depth; dependencies by position', () => {
    const r = orderTasks([t('report', 'stats', 'water'), t('water', 'clouds'), t('mosaic'), t('stats', 'clouds'), t('clouds', 'mosaic')]);
    assert.ok(r.ok);
    assert.deepEqual(
      r.order.map((x) => x.name),
      ['mosaic', 'clouds', 'water', 'stats', 'report'],
    );
    assert.deepEqual(r.levels, [0, 1, 2, 2, 3]);
    assert.deepEqual(r.deps, [[], [0], [1], [1], [3, 2]]);
  });

  it('dependencies by id as well as by name; an empty job is an empty order', () => {
    const r = orderTasks([
      { name: 'b', id: 'id-b', depends_on: ['id-a'] },
      { name: 'a', id: 'id-a', depends_on: [] },
    ]);
    assert.ok(r.ok);
    assert.deepEqual(
      r.order.map((x) => x.name),
      ['a', 'b'],
    );
    assert.deepEqual(orderTasks([]), { ok: true, order: [], levels: [], deps: [] });
  });

  it('refused in words: a dependency on no task, a cycle, a task on itself, two tasks of one name', () => {
    const missing = orderTasks([t('a'), t('b', 'a', 'ghost')]);
    assert.ok(!missing.ok);
    assert.equal(graphProblemsText(ENGLISH, missing.problems), 'Task "b" depends on "ghost", which is not a task of this job.');
    const cycle = orderTasks([t('a', 'c'), t('b', 'a'), t('c', 'b'), t('d')]);
    assert.ok(!cycle.ok);
    assert.equal(graphProblemsText(ENGLISH, cycle.problems), 'The tasks depend on each other in a circle: "a" → "c" → "b" → "a" (each depends on the next).');
    const self = orderTasks([t('a', 'a')]);
    assert.ok(!self.ok);
    assert.equal(graphProblemsText(ENGLISH, self.problems), 'Task "a" depends on itself.');
    const dup = orderTasks([t('a'), t('a')]);
    assert.ok(!dup.ok);
    assert.match(graphProblemsText(ENGLISH, dup.problems), /Two tasks are named "a"/);
  });
});

describe('visualization styles: legends and SLD', () => {
  it('a colour range as five classes coloured by the colour map; bad ranges refused', () => {
    const l = legendFromRange([-0.2, 0.8], 'rdylgn');
    assert.equal(l.length, 5);
    assert.equal(l[0].min, -0.2);
    assert.equal(l[4].max, 0.8);
    for (let k = 1; k < 5; k++) assert.equal(l[k].min, l[k - 1].max);
    assert.match(l[0].color, /^#[0-9a-f]{6}$/);
    assert.notEqual(l[0].color, l[4].color);
    assert.equal(l[0].label, '-0.2 – 0');
    assert.throws(() => legendFromRange([1, 1], 'viridis'), /lower to a higher/);
    assert.throws(() => legendFromRange([0, 1], 'viridis', 16), /1 to 15/);
  });

  it('SLD answers nested mode-first, date-first or one text; the date in either spelling', () => {
    const xml = '<?xml version="1.0"?><StyledLayerDescriptor version="1.0.0"/>';
    assert.equal(sldFor(readSld({ sld: { theoretical: { '2024_05_06': xml } } }), 'theoretical', '2024-05-06'), xml);
    assert.equal(sldFor(readSld({ sld: { '2024-05-06': { dynamic: xml } } }), 'dynamic', '2024-05-06'), xml);
    assert.equal(sldFor(readSld({ sld: xml }), 'dynamic', '2024-05-06'), xml);
    assert.equal(sldFor(readSld({ sld: { theoretical: {} } }), 'theoretical', '2024-05-06'), undefined);
    assert.throws(() => readSld({ sld: 3 }), /XML by mode and date/);
    assert.ok(looksLikeSld(xml));
    assert.ok(looksLikeSld('\uFEFF<!-- c --><sld:StyledLayerDescriptor xmlns:sld="x">'));
    assert.ok(!looksLikeSld('<html><body>error</body></html>'));
  });
});

describe('workflows against the sandbox', () => {
  let sb: Awaited<ReturnType<typeof startSandbox>>;
  let alice: EoClient;
  let all: Workflow[];

  before(async () => {
    sb = await startSandbox({ port: 0, speed: 0 });
    alice = new EoClient({
      baseUrl: sb.url,
      token: sb.tokens.alice,
      authScheme: 'bearer',
      timeoutMs: 5000,
      userAgent: 'eo-imagery-vscode/test',
      retry: { retries: 0, baseDelayMs: 5 },
    });
    const items = [];
    for await (const w of alice.workflows.iterate({}, { pageSize: 3 })) items.push(w);
    all = await Promise.all(items.map((w) => alice.workflows.get(w.id, w.project_id)));
  });
  after(async () => {
    await alice?.close();
    await sb?.close();
    assert.deepEqual(unhandled.reasons, []);
  });

  it('lists every workflow in pages; each spec is read and orders as a DAG; the draft has val_errors', () => {
    assert.ok(all.length >= 5);
    for (const w of all) {
      assert.ok(w.spec, `${w.name}: ${w.spec_error}`);
      assert.ok(orderTasks(w.spec.blocks).ok, w.name);
    }
    assert.ok(all.some((w) => w.val_errors.length > 0 && w.val_errors[0].component_name));
    assert.ok(all.some((w) => w.spec?.blocks.length === 0));
  });

  it('prices, runs once (a second run is a 409, not resent), follows the job on the clock, packages it', async () => {
    const w = all.find((x) => /^Reservoir watch of Longyearbyen/.test(x.name)) as Workflow;
    const price = await alice.workflows.estimate(w.id);
    assert.equal(price, w.estimated_cost);
    const requests: string[] = [];
    const posts: RequestEvent[] = [];
    const counting = new EoClient({
      baseUrl: sb.url,
      token: sb.tokens.alice,
      authScheme: 'bearer',
      timeoutMs: 5000,
      userAgent: 't',
      onRequest: (e) => {
        requests.push(`${e.method} ${e.path}`);
        if (e.method === 'POST') posts.push(e);
      },
    });
    try {
      const job = await counting.workflows.run(w.id, w.project_id);
      // The OpenAPI describes no body for this POST: none is sent, and the sandbox takes none.
      assert.equal(posts[0].requestBody, undefined);
      assert.equal(posts[0].requestHeaders['content-type'], undefined);
      assert.equal(job.status, 'queued');
      assert.equal(job.cost, price);
      assert.deepEqual(
        job.tasks?.map((t) => t.status),
        ['pending', 'pending', 'pending'],
      );
      await assert.rejects(counting.workflows.run(w.id, w.project_id), (e: unknown) => e instanceof ApiError && e.status === 409);
      assert.equal(requests.filter((r) => r.startsWith('POST')).length, 2, 'one POST per call, none resent');
      sb.clock.advance(15_000); // queued 5 s, then 10 s into the first task (20 s or more)
      const mid = await alice.workflows.job(w.id, job.id);
      assert.equal(mid.status, 'running');
      assert.equal(mid.tasks?.[0].status, 'running');
      assert.match(mid.tasks?.[0].info_logs ?? '', /started on worker/);
      sb.clock.advance(10 * 60_000);
      const done = (await alice.workflows.jobs(w.id, { id: job.id }))[0];
      assert.equal(done.status, 'success');
      assert.equal(done.progress, 100);
      const detail = await alice.workflows.job(w.id, job.id);
      assert.ok(Array.isArray(detail.tasks?.[0].result), 'results decoded as the list they are');
      const pkg = await alice.workflows.downloadJob(w.id, job.id);
      assert.match(pkg.signed_url ?? '', /^http:\/\/127\.0\.0\.1/);
      const tpkg = await alice.workflows.downloadTask(w.id, job.id, detail.tasks?.[2].id as string);
      assert.match(tpkg.signed_url ?? '', /workflow-packages/);
    } finally {
      await counting.close();
    }
  });

  it('a refused run carries its val_errors in the 400; an empty workflow is refused', async () => {
    const draft = all.find((x) => x.val_errors.length > 0) as Workflow;
    const err = await alice.workflows.run(draft.id, draft.project_id).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(err instanceof ApiError && err.status === 400);
    assert.deepEqual(valErrorsOf(err), draft.val_errors);
    const empty = all.find((x) => x.spec?.blocks.length === 0) as Workflow;
    await assert.rejects(alice.workflows.run(empty.id, empty.project_id), /no blocks/);
  });

  it('a visualization legend saved from a colour range, rolled back, and its SLD', async () => {
    let found: { aoiId: string; visId: string; indexId: string; date: string } | undefined;
    for (const a of (await alice.aois.listPage({ limit: 100 })).items) {
      if (a.satellite_id !== 'sentinel-2') continue;
      const v = (await alice.visualizations.listPage(a.aoi_id, { limit: 100 })).items.find((x) => /^preset-ndvi-/.test(x.index_id));
      const asset = v ? (await alice.aois.assetsPage(a.aoi_id, { limit: 100 })).items.find((x) => x.visualization_id === v.id) : undefined;
      if (v && asset) {
        found = { aoiId: a.aoi_id, visId: v.id, indexId: v.index_id, date: asset.date };
        break;
      }
    }
    assert.ok(found);
    const key = found.date.replace(/-/g, '_');
    const legend = legendFromRange([0, 0.6], 'rdylgn');
    const saved = await alice.visualizationStyles.saveLegend(found.aoiId, found.visId, { visualization_mode: 'theoretical', legend: { [key]: legend } });
    const day = (saved.legend as Record<string, { theoretical?: { max: number }[] }>)[key];
    assert.deepEqual(
      day.theoretical?.map((c) => c.max),
      legend.map((c) => Math.round((c.max as number) * 1000) / 1000),
    );
    const sld = await alice.visualizationStyles.sld(found.aoiId, found.visId, { dates: [key], visualization_modes: ['theoretical'] });
    const xml = sldFor(sld, 'theoretical', found.date);
    assert.ok(xml && looksLikeSld(xml));
    assert.ok(
      legend.every((c) => xml.includes(`color="${c.color}"`)),
      'the saved colours are in the SLD',
    );
    const rolled = await alice.visualizationStyles.rollbackLegend(found.aoiId, found.visId, {
      index_id: found.indexId,
      dates: [key],
      visualization_mode: 'theoretical',
    });
    const back = (rolled.legend as Record<string, { theoretical?: { color: string }[] }>)[key];
    assert.notEqual(back.theoretical?.[0].color, legend[0].color);
  });
});
