/**
 * Insight runs: the tolerant readers with each shape a service may send (OpenAPI `output`,
 * the first version's `outputs` and `pagination`, JSON text, a map by name, a bare array),
 * the GeoJSON check of vector outputs, the run states, and the client against the sandbox
 * (lifecycle on its clock, outputs served, delete, download, a lying pagination).
 */
import { after, before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { ApiError, EoClient, readInsightList, readInsightRun, type Aoi, type InputValue } from '../../../src/api';
import { OutputFileError, fetchOutputGeoJson, fetchOutputText, parseGeoJson } from '../../../src/api/outputFiles';
import { chainableOutputs, isRunPending, outputKind, runState, runStatusText } from '../../../src/api/insightRunState';
import { startSandbox } from '../../../src/sandbox';
import { T } from '../../../src/sandbox/transitions';
import { trackUnhandled } from './testServer';

const unhandled = trackUnhandled();

const out = { name: 'water_mask', format: 'raster', type: 'url', value: 'https://s/w.tif', properties: { dtype: 'uint8' } };

describe('insight run reader: each shape', () => {
  it('OpenAPI shape: output list, err_msg, cost, progress, estimated_time_in_min, block from metadata', () => {
    const r = readInsightRun(
      {
        id: 'r1',
        name: 'Water',
        status: 'success',
        output: [out],
        input: [{ name: 'threshold', format: 'number', type: 'number', value: '0.2' }],
        cost: 12,
        progress: 100,
        estimated_time_in_min: 3,
        err_msg: '',
        metadata: { block_name: 'water-extent', block_version: '0.9.1' },
        created_at: '2025-01-02T00:00:00Z',
      },
      'aoi-1',
    );
    assert.equal(r.output.length, 1);
    assert.equal(r.output[0].value, 'https://s/w.tif');
    assert.equal(r.input[0].name, 'threshold');
    assert.equal(r.cost, 12);
    assert.equal(r.estimated_time_in_min, 3);
    assert.equal(r.aoi_id, 'aoi-1', 'an absent aoi_id is the AOI listed');
    assert.deepEqual(r.block, { name: 'water-extent', version: '0.9.1' });
  });

  it('legacy `outputs` and a `block` field', () => {
    const r = readInsightRun({ id: 'r2', name: 'W', status: 'processing', outputs: [out], block: { name: 'b', version: '1' } }, 'a');
    assert.equal(r.output[0].name, 'water_mask');
    assert.equal((r as unknown as Record<string, unknown>).outputs, undefined, 'one field, not two');
    assert.deepEqual(r.block, { name: 'b', version: '1' });
  });

  it('output and input as JSON text (the OpenAPI types them as raw bytes)', () => {
    const r = readInsightRun({ id: 'r3', status: 'success', output: JSON.stringify([out]), input: JSON.stringify([{ name: 'x', value: '1' }]) }, 'a');
    assert.equal(r.output[0].format, 'raster');
    assert.equal(r.input[0].name, 'x');
    assert.equal(r.name, 'r3', 'a run without a name is named by its id');
  });

  it('output as a map by name, or wrapped as {outputs: [...]}', () => {
    const byName = readInsightRun({ id: 'r4', status: 'success', output: { water_mask: { format: 'raster', value: 'https://s/w.tif' }, area: 12.5 } }, 'a');
    assert.deepEqual(
      byName.output.map((o) => [o.name, o.format, o.value]),
      [
        ['water_mask', 'raster', 'https://s/w.tif'],
        ['area', '', '12.5'],
      ],
    );
    const wrapped = readInsightRun({ id: 'r5', status: 'success', output: { outputs: [out] } }, 'a');
    assert.equal(wrapped.output[0].name, 'water_mask');
  });

  it('no output at all (null, absent, empty text) is an empty list; block unknown stays undefined', () => {
    for (const output of [null, undefined, '']) {
      const r = readInsightRun({ id: 'r6', status: 'queued', output }, 'a');
      assert.deepEqual(r.output, []);
      assert.equal(r.block, undefined);
    }
  });

  it('refuses what cannot be a run, naming the field', () => {
    assert.throws(() => readInsightRun({ name: 'no id' }, 'a'), /insight\.id: expected string/);
    assert.throws(() => readInsightRun({ id: 'x', output: 'not json' }, 'a'), /insight\.output: .*not JSON/);
    assert.throws(() => readInsightRun({ id: 'x', output: [1] }, 'a'), /insight\.output\[0\]: expected an object/);
    assert.throws(() => readInsightRun({ id: 'x', cost: 'ten' }, 'a'), /insight\.cost: expected number/);
    assert.throws(() => readInsightRun({ id: 'x', outputs: [{ name: 'o', properties: 'p' }] }, 'a'), /insight\.outputs\[0\]\.properties/);
  });

  it('progress is clamped to 0..100', () => {
    assert.equal(readInsightRun({ id: 'x', progress: 140 }, 'a').progress, 100);
    assert.equal(readInsightRun({ id: 'x', progress: -3 }, 'a').progress, 0);
  });

  it('list: without pagination, with a legacy (even lying) pagination, as a bare array; newest first; deleted dropped', () => {
    const runs = [
      { id: 'old', created_at: '2025-01-01T00:00:00Z' },
      { id: 'new', created_at: '2025-03-01T00:00:00Z' },
      { id: 'gone', created_at: '2025-04-01T00:00:00Z', deleted_at: '2025-04-02T00:00:00Z' },
    ];
    const want = ['new', 'old'];
    assert.deepEqual(
      readInsightList({ insights: runs }, 'a').map((r) => r.id),
      want,
    );
    assert.deepEqual(
      readInsightList({ insights: runs, pagination: { limit: 1, offset: 0, total: 999 } }, 'a').map((r) => r.id),
      want,
    );
    assert.deepEqual(
      readInsightList(runs, 'a').map((r) => r.id),
      want,
    );
    assert.throws(() => readInsightList({ runs }, 'a'), /insights: expected a list/);
    // One run that does not read is left out with the reason, not the whole list.
    const partly = readInsightList({ insights: [{ id: 1 }, ...runs] }, 'a');
    assert.deepEqual(
      partly.map((r) => r.id),
      want,
    );
    assert.match(partly.unreadable?.[0].reason ?? '', /^insights\[0\]\.id: expected string, got number/);
  });
});

describe('run states and outputs', () => {
  it('status words map to pending, success, failed; unknown ones are final', () => {
    for (const s of ['queued', 'running', 'started', 'PENDING', 'processing']) assert.equal(runState(s), 'pending', s);
    for (const s of ['success', 'COMPLETED', 'succeeded']) assert.equal(runState(s), 'success', s);
    for (const s of ['failed', 'error', 'cancelled']) assert.equal(runState(s), 'failed', s);
    assert.equal(runState('mystery'), 'unknown');
    assert.equal(isRunPending({ status: 'mystery' }), false, 'never polled blindly');
  });

  it('status in words, with progress while pending', () => {
    assert.equal(runStatusText({ status: 'running', progress: 42.7 }), 'Running, 42%');
    assert.equal(runStatusText({ status: 'queued', progress: 0 }), 'Queued');
    assert.equal(runStatusText({ status: 'PARTIAL_SUCCESS', progress: 100 }), 'Partial success');
  });

  it("only a finished run's raster outputs with a URL can be chained", () => {
    const base = readInsightRun({ id: 'r', status: 'success', output: [out, { ...out, name: 'v', format: 'vector' }, { ...out, name: 'e', value: '' }] }, 'a');
    assert.deepEqual(
      chainableOutputs(base).map((o) => o.name),
      ['water_mask'],
    );
    assert.deepEqual(chainableOutputs({ ...base, status: 'running' }), []);
    assert.equal(outputKind({ format: 'GeoJSON' }), 'vector');
    assert.equal(outputKind({ format: 'number' }), 'other');
  });

  it('GeoJSON check: collections, lone features and geometries pass; others say why', () => {
    const sq = {
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [1, 0],
          [1, 1],
          [0, 0],
        ],
      ],
    };
    const fcOk = parseGeoJson(JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', geometry: sq, properties: { class: 'water' } }] }));
    assert.ok(fcOk.ok && fcOk.value.features.length === 1);
    const lone = parseGeoJson(JSON.stringify(sq));
    assert.ok(lone.ok && lone.value.features[0].geometry?.type === 'Polygon');
    const bad = (text: string, why: RegExp): void => {
      const r = parseGeoJson(text);
      assert.ok(!r.ok && why.test(r.reason), JSON.stringify(r));
    };
    bad('<html>', /not JSON/);
    bad('{"type":"Topology"}', /Topology/);
    bad('{"type":"FeatureCollection","features":{}}', /not a list/);
    bad('{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Circle","coordinates":[]}}]}', /Circle/);
    bad('{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point"}}]}', /coordinates/);
  });
});

describe('insight runs against the sandbox', () => {
  let sb: Awaited<ReturnType<typeof startSandbox>>;
  let alice: EoClient;
  let aoi: Aoi;
  let input: InputValue[];
  let block: { name: string; version: string };

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
    const water = (await alice.blocks.insights({ name: 'water-extent' }))[0];
    block = { name: water.spec.name, version: water.spec.version };
    for (const a of (await alice.aois.listPage({ limit: 100 })).items) {
      const m = (await alice.aois.assetsPage(a.aoi_id, { limit: 100 })).items.find(
        (x) => ['B03', 'B08', 'B11'].every((b) => x.band_list.includes(b)) && x.visualization_id === '',
      );
      if (!m) continue;
      aoi = a;
      input = [
        { ...water.spec.inputs[0], stac_url: m.path, asset_source: { id: m.id, type: 'raw_mosaic' } },
        { ...water.spec.inputs[1], value: '0.2' },
        { ...water.spec.inputs[2], value: 'false' },
      ];
      break;
    }
    assert.ok(aoi, 'an AOI with a water-extent mosaic');
  });
  after(async () => {
    await alice?.close();
    await sb?.close();
    assert.deepEqual(unhandled.reasons, []);
  });

  it('the seeded world holds finished runs on several AOIs, successful with outputs and one failed with its reason', async () => {
    const all = (await Promise.all((await alice.aois.listPage({ limit: 100 })).items.map((a) => alice.insightRuns.list(a.aoi_id)))).flat();
    const ok = all.filter((r) => r.status === 'success');
    const failed = all.filter((r) => r.status === 'failed');
    assert.ok(new Set(ok.map((r) => r.aoi_id)).size >= 2, 'successful runs on at least two AOIs');
    assert.ok(
      ok.every((r) => r.output.some((o) => o.format === 'raster')),
      'each success has a raster output',
    );
    assert.equal(failed.length, 1);
    assert.match(failed[0].err_msg ?? '', /has no band B03/);
    assert.equal(failed[0].output.length, 0);
  });

  it('estimates depend on the AOI area and block, deterministically, as integers', async () => {
    const body = { name: 'est', project_id: aoi.project_id, block, input };
    const a = await alice.insightRuns.estimate(aoi.aoi_id, body);
    assert.equal(await alice.insightRuns.estimate(aoi.aoi_id, body), a);
    assert.ok(Number.isInteger(a) && a >= 1);
    assert.equal(a, Math.max(1, Math.round((aoi.area_in_sq_m / 1e6) * 0.3)), 'water-extent: 0.3 tokens per km²');
  });

  it('a run moves queued → running (progress rising) → success on the clock, with raster and GeoJSON outputs', async () => {
    const { id } = await alice.insightRuns.run(aoi.aoi_id, { name: 'clocked', project_id: aoi.project_id, block, input });
    const read = async () => (await alice.insightRuns.list(aoi.aoi_id, { id }))[0];
    const q = await read();
    assert.equal(q.status, 'queued');
    assert.deepEqual(q.output, []);
    sb.clock.advance(T.insightQueued + 1000);
    const r1 = await read();
    sb.clock.advance(5000);
    const r2 = await read();
    assert.equal(r1.status, 'running');
    assert.ok((r2.progress ?? 0) > (r1.progress ?? 0), `progress rises: ${r1.progress} → ${r2.progress}`);
    sb.clock.advance(T.insight);
    const done = await read();
    assert.equal(done.status, 'success');
    assert.equal(done.cost, await alice.insightRuns.estimate(aoi.aoi_id, { name: 'x', project_id: aoi.project_id, block, input }));
    assert.deepEqual(
      done.output.map((o) => [o.name, o.format]),
      [
        ['water_mask', 'raster'],
        ['water_bodies', 'vector'],
      ],
    );
    // The service's own storage needs the token: the client sends it there, and only there.
    await assert.rejects(fetchOutputGeoJson(done.output[1].value), (e: unknown) => e instanceof OutputFileError && e.status === 401);
    const fc = await alice.outputGeoJson(done.output[1].value);
    assert.ok(fc.features.length > 0 && fc.features.every((f) => f.geometry?.type === 'Polygon'));
  });

  it('unsatisfiable inputs: accepted, then failed with the reason', async () => {
    // An earlier run that is still queued cannot feed a later one.
    const { id: early } = await alice.insightRuns.run(aoi.aoi_id, { name: 'early', project_id: aoi.project_id, block, input });
    const change = (await alice.blocks.insights({ name: 'change-detection' }))[0];
    const chained: InputValue[] = change.spec.inputs
      .filter((d) => d.required !== false)
      .map((d) => {
        if (d.name === 'baseline') return { ...d, value: `${sb.url}/outputs/${early}/water_mask.tif`, asset_source: { id: early, type: 'model_output' } };
        if (d.format === 'raster') return input[0].asset_source ? { ...d, stac_url: input[0].stac_url, asset_source: input[0].asset_source } : d;
        return { ...d, value: d.format === 'date' ? '2025-01-01' : 'low' };
      });
    const { id } = await alice.insightRuns.run(aoi.aoi_id, {
      name: 'too early',
      project_id: aoi.project_id,
      block: { name: change.spec.name, version: change.spec.version },
      input: chained,
    });
    sb.clock.advance(T.insight);
    const r = (await alice.insightRuns.list(aoi.aoi_id, { id }))[0];
    assert.equal(r.status, 'failed');
    assert.match(r.err_msg ?? '', /input baseline: insight early has not succeeded/);
  });

  it('outputs: a missing file is a 404 with a clear reason; a non-http URL is refused', async () => {
    await assert.rejects(
      fetchOutputText(`${sb.url}/outputs/no-such-run/x.geojson`, { headers: { authorization: `Bearer ${sb.tokens.alice}` } }),
      (e: unknown) => e instanceof OutputFileError && e.status === 404 && /not there/.test(e.message),
    );
    await assert.rejects(fetchOutputText('s3://bucket/x.geojson'), /s3: address.*download the run/);
  });

  it('download packages the run behind a signed URL; delete needs project_id, then the run is gone', async () => {
    const { id } = await alice.insightRuns.run(aoi.aoi_id, { name: 'to delete', project_id: aoi.project_id, block, input });
    await assert.rejects(alice.insightRuns.download(aoi.aoi_id, id), (e: unknown) => e instanceof ApiError && e.status === 400 && /queued/.test(e.message));
    sb.clock.advance(T.insight);
    const pkg = await alice.insightRuns.download(aoi.aoi_id, id, { outputs: ['water_bodies'] });
    assert.match(pkg.signed_url ?? '', /^http:\/\/127\.0\.0\.1:\d+\/outputs\/package\//);
    const zip = Buffer.from(await (await fetch(pkg.signed_url!)).arrayBuffer());
    assert.equal(zip.subarray(0, 2).toString('latin1'), 'PK');
    assert.ok(zip.includes(Buffer.from('outputs/water_bodies.geojson')) && !zip.includes(Buffer.from('outputs/water_mask')));
    await assert.rejects(alice.insightRuns.delete(aoi.aoi_id, id, 'other-project'), (e: unknown) => e instanceof ApiError && e.status === 400);
    await alice.insightRuns.delete(aoi.aoi_id, id, aoi.project_id);
    assert.equal((await alice.insightRuns.list(aoi.aoi_id, { id })).length, 0);
    await assert.rejects(alice.insightRuns.delete(aoi.aoi_id, id, aoi.project_id), (e: unknown) => e instanceof ApiError && e.status === 404);
  });

  it('a list whose pagination lies is read whole, in one request', async () => {
    let requests = 0;
    const c = new EoClient({ baseUrl: sb.url, token: sb.tokens.alice, authScheme: 'bearer', timeoutMs: 5000, userAgent: 't', onRequest: () => requests++ });
    sb.faults.add({
      method: 'GET',
      path: new RegExp(`^/v0/aoi/${aoi.aoi_id}/insights$`),
      status: 200,
      body: { insights: [{ id: 'a', created_at: '2025-01-01T00:00:00Z' }], pagination: { limit: 1, offset: 0, total: 500 } },
      count: 1,
    });
    const runs = await c.insightRuns.list(aoi.aoi_id);
    assert.deepEqual(
      runs.map((r) => r.id),
      ['a'],
    );
    assert.equal(requests, 1);
    await c.close();
  });
});
