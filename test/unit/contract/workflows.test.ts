/**
 * Contract: workflows, jobs, tasks and their downloads, and a visualization's legend and SLD
 * (docs/service-interface.md, "Workflows" and "Visualizations"), over HTTP to the sandbox CLI
 * with plain `fetch`. Expectations come from the OpenAPI's `dexter.*` and `atlas.*` schemas
 * (schemas.ts) and the decisions the document records: inline JSON for the raw-bytes fields,
 * base64 logs, one job at a time per workflow (409), a refused workflow's `val_errors` in the
 * 400's details, tasks that start only after the tasks they depend on, a saved legend that
 * colours the PNG by its classes, SLD XML that a standard XML parser reads.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are untyped JSON, checked by the schemas */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import Ajv from 'ajv';
import { decodePng } from './pngDecode';
import * as S from './schemas';
import { type Service, startService } from './service';

const ajv = new Ajv({ allErrors: true, strict: false });
function check(schema: object, value: unknown, what: string): void {
  const v = ajv.compile(schema);
  assert.ok(v(value), `${what}: ${ajv.errorsText(v.errors, { separator: '\n' })}`);
}

type Reply = { status: number; type: string; bytes: Buffer; json: any };

function caller(svc: () => Service, who: 'alice' | 'bob' = 'alice') {
  return async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> => {
    const h: Record<string, string> = { authorization: `Bearer ${svc().tokens[who]}`, ...headers };
    if (body !== undefined) h['content-type'] = 'application/json';
    const res = await fetch(path.startsWith('http') ? path : svc().url + path, {
      method,
      headers: h,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    const type = res.headers.get('content-type') ?? '';
    return { status: res.status, type, bytes, json: type.includes('json') ? JSON.parse(bytes.toString('utf8')) : undefined };
  };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** The ColorMapEntry elements of an SLD, read by Python's standard XML parser (not ours). */
function sldEntries(xml: string): { color: string; quantity: number; opacity: number; label: string }[] {
  const py = [
    'import sys, json, xml.etree.ElementTree as ET',
    'root = ET.fromstring(sys.stdin.read().encode("utf-8"))',
    'ns = "{http://www.opengis.net/sld}"',
    'assert root.tag == ns + "StyledLayerDescriptor", root.tag',
    'out = [dict(color=e.get("color"), quantity=float(e.get("quantity")), opacity=float(e.get("opacity", "1")), label=e.get("label")) for e in root.iter(ns + "ColorMapEntry")]',
    'print(json.dumps(out))',
  ].join('\n');
  const r = spawnSync('python3', ['-c', py], { input: xml, encoding: 'utf8' });
  assert.equal(r.status, 0, `python could not read the SLD: ${r.stderr}`);
  return JSON.parse(r.stdout) as { color: string; quantity: number; opacity: number; label: string }[];
}

describe('contract: workflows and jobs', () => {
  let svc: Service;
  const call = caller(() => svc);
  const bob = caller(() => svc, 'bob');
  let workflows: any[];
  let project: string;

  before(async () => {
    svc = await startService();
    const projects = (await call('GET', '/v0/projects')).json.projects as any[];
    project = projects[0].id;
    workflows = (await call('GET', '/v0/workflows?limit=100')).json.workflows;
  });
  after(async () => {
    await svc?.close();
  });

  const named = (re: RegExp): any => {
    const w = workflows.find((x) => re.test(x.name));
    assert.ok(w, `no workflow named like ${re}: ${workflows.map((x) => x.name).join(', ')}`);
    return w;
  };

  it('lists workflows per project, paged, newest first; another user gets 403 for the project', async () => {
    const page = await call('GET', `/v0/workflows?project_id=${project}&limit=1&offset=0`);
    assert.equal(page.status, 200);
    check(S.workflowList, page.json, 'list');
    assert.equal(page.json.workflows.length, 1);
    assert.ok(page.json.pagination.total >= 2, 'the first project has several workflows');
    const all = (await call('GET', `/v0/workflows?project_id=${project}&limit=100`)).json.workflows as any[];
    assert.ok(all.every((w) => w.project_id === project));
    const times = all.map((w) => Date.parse(w.created_at));
    assert.deepEqual(
      times,
      [...times].sort((a, b) => b - a),
      'newest first',
    );
    assert.equal((await call('GET', '/v0/workflows?limit=0')).status, 400);
    assert.equal((await bob('GET', `/v0/workflows?project_id=${project}`)).status, 403);
  });

  it('a workflow by id needs its project; its spec is a DAG of blocks; the estimate is an integer, the same as estimated_cost', async () => {
    for (const w of workflows) {
      const one = await call('GET', `/v0/workflows/${w.id}?project_id=${w.project_id}`);
      assert.equal(one.status, 200);
      check(S.workflow, one.json, w.name);
      const est = await call('GET', `/v0/workflows/${w.id}/estimate`);
      check(S.workflowEstimate, est.json, `${w.name} estimate`);
      assert.equal(est.json.estimated_cost, one.json.estimated_cost);
      const names = new Set(one.json.spec.blocks.map((b: any) => b.name));
      for (const b of one.json.spec.blocks) for (const d of b.depends_on) assert.ok(names.has(d), `${w.name}: ${b.name} depends on unknown ${d}`);
    }
    const sizes = await Promise.all(
      workflows.map(async (w) => (await call('GET', `/v0/workflows/${w.id}?project_id=${w.project_id}`)).json.spec.blocks.length),
    );
    assert.ok(sizes.some((n) => n >= 3 && n <= 6) && sizes.includes(0), `block counts ${sizes.join(', ')}`);
    const w = workflows[0];
    assert.equal((await call('GET', `/v0/workflows/${w.id}`)).status, 400, 'project_id is required');
    assert.equal((await bob('GET', `/v0/workflows/${w.id}?project_id=${w.project_id}`)).status, 403);
    assert.equal((await call('GET', '/v0/workflows/00000000-0000-4000-8000-000000000000/estimate')).status, 404);
  });

  it('jobs: a list without pagination, newest first, in every status; a job by id has its tasks with raw fields as JSON and base64 logs', async () => {
    const seen = new Set<string>();
    for (const w of workflows) {
      const list = await call('GET', `/v0/workflows/${w.id}/jobs`);
      assert.equal(list.status, 200);
      check(S.jobList, list.json, `${w.name} jobs`);
      const times = list.json.jobs.map((j: any) => Date.parse(j.created_at));
      assert.deepEqual(
        times,
        [...times].sort((a: number, b: number) => b - a),
      );
      for (const j of list.json.jobs) {
        seen.add(j.status);
        const one = await call('GET', `/v0/workflows/${w.id}/jobs/${j.id}`);
        check(S.job, one.json, `job ${j.id}`);
        const names = new Set(one.json.tasks.map((t: any) => t.name));
        for (const t of one.json.tasks) {
          for (const d of t.depends_on) assert.ok(names.has(d), `task ${t.name} depends on ${d}, not a task of the job`);
          const log = Buffer.from(t.info_logs, 'base64').toString('utf8');
          assert.match(log, /queued/, 'the log is base64 of text');
          if (t.status === 'failed') {
            assert.ok(t.err_msg && t.failure_type, 'a failed task says why');
            seen.add(`task failed: ${t.failure_type}`);
          }
        }
      }
    }
    for (const s of ['queued', 'running', 'success', 'failed']) assert.ok(seen.has(s), `no job ${s} in ${[...seen].join(', ')}`);
  });

  it('starting a job: the empty body, once per workflow at a time (409), refused with val_errors or for an empty workflow', async () => {
    const w = named(/^Reservoir watch of Longyearbyen/);
    check(S.workflowEstimate, (await call('GET', `/v0/workflows/${w.id}/estimate`)).json, 'estimate');
    assert.equal((await call('POST', `/v0/workflows/${w.id}/jobs`, {})).status, 400, 'project_id is required');
    const created = await call('POST', `/v0/workflows/${w.id}/jobs?project_id=${w.project_id}`, {});
    assert.equal(created.status, 200, JSON.stringify(created.json));
    check(S.job, created.json, 'created job');
    assert.equal(created.json.status, 'queued');
    assert.ok(created.json.tasks.every((t: any) => t.status === 'pending'));
    const again = await call('POST', `/v0/workflows/${w.id}/jobs?project_id=${w.project_id}`);
    assert.equal(again.status, 409);
    check(S.errorResponse, again.json, '409');
    assert.match(again.json.error.message, /one job runs at a time/);

    const draft = named(/\(draft\)$/);
    const refused = await call('POST', `/v0/workflows/${draft.id}/jobs?project_id=${draft.project_id}`, {});
    assert.equal(refused.status, 400);
    check(S.jobRefused, refused.json, 'refused job');
    const v = refused.json.error.details.val_errors[0];
    assert.ok(v.component_name && v.from && v.to && v.reason, JSON.stringify(v));
    const one = await call('GET', `/v0/workflows/${draft.id}?project_id=${draft.project_id}`);
    assert.deepEqual(one.json.val_errors, refused.json.error.details.val_errors, 'the same errors on the workflow itself');
    assert.equal((await call('GET', `/v0/workflows/${draft.id}/jobs`)).json.jobs.length, 0, 'nothing was created');

    const empty = named(/\(empty\)$/);
    assert.equal((await call('GET', `/v0/workflows/${empty.id}/estimate`)).json.estimated_cost, 0);
    const none = await call('POST', `/v0/workflows/${empty.id}/jobs?project_id=${empty.project_id}`, {});
    assert.equal(none.status, 400);
    assert.match(none.json.error.message, /no blocks/);
  });
});

describe('contract: a job followed to the end, its downloads, and a visualization legend and SLD', () => {
  let svc: Service;
  const call = caller(() => svc);

  before(async () => {
    svc = await startService(['--speed', '300']);
  });
  after(async () => {
    await svc?.close();
  });

  it('tasks run in dependency order to success; the job and a task are packaged as ZIPs; outputs are files on the host', async () => {
    const w = ((await call('GET', '/v0/workflows?limit=100')).json.workflows as any[]).find((x) => /^Land change of/.test(x.name));
    let job: any;
    // The seeded queued job may still be running: wait until the workflow is free.
    for (let i = 0; i < 200; i++) {
      const r = await call('POST', `/v0/workflows/${w.id}/jobs?project_id=${w.project_id}`, {});
      if (r.status === 200) {
        job = r.json;
        break;
      }
      assert.equal(r.status, 409, JSON.stringify(r.json));
      await sleep(100);
    }
    assert.ok(job, 'the workflow never became free');
    const early = await call('PUT', `/v0/workflows/${w.id}/jobs/${job.id}/download`);
    assert.equal(early.status, 400, 'a running job cannot be packaged');
    for (let i = 0; i < 300 && !['success', 'failed'].includes(job.status); i++) {
      await sleep(100);
      job = (await call('GET', `/v0/workflows/${w.id}/jobs/${job.id}`)).json;
    }
    check(S.job, job, 'finished job');
    assert.equal(job.status, 'success');
    assert.equal(job.progress, '100');
    assert.ok(job.finished_at && job.time_taken);
    const byName = new Map(job.tasks.map((t: any) => [t.name, t]));
    for (const t of job.tasks) {
      assert.equal(t.status, 'success');
      for (const d of t.depends_on) {
        const dep = byName.get(d) as any;
        assert.ok(Date.parse(t.block_inf_start_time) >= Date.parse(dep.finished_at), `${t.name} started before ${d} finished`);
      }
      assert.ok(Array.isArray(t.result) && t.result.length > 0, `${t.name} has results`);
    }
    const pkg = await call('PUT', `/v0/workflows/${w.id}/jobs/${job.id}/download`);
    check(S.jobDownload, pkg.json, 'job download');
    const zip = await fetch(pkg.json.signed_url);
    assert.equal(zip.status, 200);
    const zbytes = Buffer.from(await zip.arrayBuffer());
    assert.equal(zbytes.subarray(0, 2).toString('latin1'), 'PK');
    assert.ok(zbytes.includes(Buffer.from('job.json')) && zbytes.includes(Buffer.from('report/logs.txt')));
    const task = job.tasks.find((t: any) => t.name === 'report');
    const tpkg = await call('PUT', `/v0/workflows/${w.id}/jobs/${job.id}/tasks/${task.id}/download`);
    check(S.taskDownload, tpkg.json, 'task download');
    assert.equal(tpkg.json.job_id, job.id);
    assert.equal((await fetch(tpkg.json.signed_url)).status, 200);
    for (const t of job.tasks)
      for (const o of t.result) {
        const f = await call('GET', o.value, undefined, { range: 'bytes=0-3' });
        assert.ok(f.status === 200 || f.status === 206, `${o.value}: ${f.status}`);
        if (o.format === 'raster') assert.equal(f.bytes.subarray(0, 2).toString('latin1'), 'II', `${o.name} is a TIFF`);
        else if (o.format === 'vector') assert.equal(JSON.parse(f.bytes.toString('utf8')).type, 'FeatureCollection');
      }
  });

  it('a saved legend recolours the PNG by its classes and is rolled back; the SLD is XML with the legend in force', async () => {
    let aoi: any;
    let vis: any;
    for (const a of (await call('GET', '/v0/aois?limit=50')).json.aois as any[]) {
      const v = ((await call('GET', `/v0/aois/${a.aoi_id}/visualizations?limit=100`)).json.visualization as any[]).find((x) =>
        /^preset-ndvi-/.test(x.index_id),
      );
      if (v && a.satellite_id === 'sentinel-2') {
        aoi = a;
        vis = v;
        break;
      }
    }
    assert.ok(vis, 'no NDVI visualization');
    const assets = ((await call('GET', `/v0/aois/${aoi.aoi_id}/assets?limit=100`)).json.assets as any[]).filter((a) => a.visualization_id === vis.id);
    const date = assets[0].date.replace(/-/g, '_');
    const base = `/v0/aois/${aoi.aoi_id}/visualizations/${vis.id}`;
    const png = async (): Promise<Buffer> => {
      const r = await call('POST', `${base}/png`, { index_id: vis.index_id, date, visualization_mode: 'theoretical' });
      assert.equal(r.status, 200);
      return r.bytes;
    };
    const before = await png();
    const update = {
      visualization_mode: 'theoretical',
      legend: {
        [date]: [
          { min: -1, max: 0.3, color: '#ff0000', label: 'Bare <0.3' },
          { min: 0.3, max: 1, color: '#0000ff', label: 'Green & growing' },
        ],
      },
    };
    check(S.metadataUpdateRequest, update, 'update request');
    const saved = await call('PUT', `${base}/metadata`, update);
    assert.equal(saved.status, 200, JSON.stringify(saved.json));
    check(S.visualizationMetadata, saved.json, 'metadata');
    assert.deepEqual(
      saved.json.legend[date].theoretical.map((c: any) => [c.min, c.max, c.color]),
      [
        [-1, 0.3, '#ff0000'],
        [0.3, 1, '#0000ff'],
      ],
    );
    assert.ok(saved.json.legend[date].dynamic?.length > 0, 'the other mode is kept');
    const after = decodePng(await png());
    assert.ok(!Buffer.from(after.rgba).equals(Buffer.from(decodePng(before).rgba)), 'the PNG changed');
    let opaque = 0;
    for (let o = 0; o < after.rgba.length; o += 4) {
      if (after.rgba[o + 3] === 0) continue;
      opaque++;
      const rgb = [after.rgba[o], after.rgba[o + 1], after.rgba[o + 2]].join(',');
      assert.ok(rgb === '255,0,0' || rgb === '0,0,255', `a pixel of ${rgb} is in neither class`);
    }
    assert.ok(opaque > 100, 'the PNG shows the AOI');

    const sldReq = { dates: [date], visualization_modes: ['theoretical', 'dynamic'] };
    check(S.sldRequest, sldReq, 'sld request');
    const sld = await call('POST', `${base}/sld`, sldReq);
    assert.equal(sld.status, 200);
    check(S.sldResponse, sld.json, 'sld');
    const entries = sldEntries(sld.json.sld.theoretical[date]);
    assert.deepEqual(
      entries.filter((e) => e.opacity > 0).map((e) => [e.color, e.quantity, e.label]),
      [
        ['#ff0000', 0.3, 'Bare <0.3'],
        ['#0000ff', 1, 'Green & growing'],
      ],
    );
    const dyn = sldEntries(sld.json.sld.dynamic[date]).filter((e) => e.opacity > 0);
    assert.deepEqual(
      dyn.map((e) => e.color),
      saved.json.legend[date].dynamic.map((c: any) => c.color),
    );

    const rollback = { index_id: vis.index_id, dates: [date], visualization_mode: 'theoretical' };
    check(S.metadataRollbackRequest, rollback, 'rollback request');
    const rolled = await call('PATCH', `${base}/metadata`, rollback);
    assert.equal(rolled.status, 200, JSON.stringify(rolled.json));
    check(S.visualizationDetail, rolled.json, 'detail');
    check(S.visualizationMetadata, rolled.json.metadata, 'detail metadata');
    assert.notEqual(rolled.json.metadata.legend[date].theoretical[0].color, '#ff0000');
    assert.ok((await png()).equals(before), 'the PNG is the computed one again');

    // Refusals, with the field named.
    assert.equal((await call('PUT', `${base}/metadata`, { ...update, legend: { '2001_01_01': update.legend[date] } })).status, 404);
    const badColour = await call('PUT', `${base}/metadata`, {
      visualization_mode: 'theoretical',
      legend: { [date]: [{ min: 0, max: 1, color: 'red', label: 'x' }] },
    });
    assert.equal(badColour.status, 400);
    assert.match(badColour.json.error.message, /color/);
    const noBins = await call('PUT', `${base}/metadata`, {
      visualization_mode: 'dynamic',
      legend: { [date]: [{ min: null, max: null, color: '#00ff00', label: 'x' }] },
    });
    assert.equal(noBins.status, 400);
    assert.match(noBins.json.error.message, /dynamic_bins/);
    const otherIndex = await call('PATCH', `${base}/metadata`, { ...rollback, index_id: 'preset-ndwi-x' });
    assert.equal(otherIndex.status, 400);
    assert.equal((await call('POST', `${base}/sld`, { dates: [], visualization_modes: ['theoretical'] })).status, 400);
  });
});
