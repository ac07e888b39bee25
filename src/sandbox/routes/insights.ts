/**
 * Insight runs (beyond the interface; shapes from the service's OpenAPI): the run body is
 * checked against the block's `spec.inputs` with the input-building rules of interface.md;
 * the list has no pagination; runs can be deleted and packaged for download; outputs are
 * files on the sandbox host.
 */
import type { Block, InputValue } from '../../api/records';
import { HttpError, badRequest, notFound } from '../errors';
import { asStoredObject } from '../objects';
import { layoutFor, serveCog } from '../imagery/serve';
import { outputCogSpec, outputScene } from '../insightRaster';
import { blockOf, outputUrl, runCost, runPhase, runView, unsatisfiable, vectorOutput } from '../insightRuns';
import type { Req, Route } from '../router';
import type { AoiRec, InsightRec } from '../state';
import { isoOffset, parseTime } from '../timefmt';
import { T } from '../transitions';
import { asArray, asBoolean, asObject, asString, asStringArray, opt, pathId, req } from '../validate';
import { zipOf } from '../zip';
import { newestAsOfNow, onlyParams, ownAoi, ownProject } from './common';

const TYPES = ['url', 'string', 'number', 'boolean'];

function checkInputs(r: Req, aoi: AoiRec, block: Block, raw: unknown[]): InputValue[] {
  const seen = new Set<string>();
  const values = raw.map((x, i): InputValue => {
    const f = `input[${i}]`;
    const o = asObject(x, f);
    const name = req(o, 'name', (v, ff) => asString(v, ff, { nonEmpty: true, max: 200 }), `${f}.`);
    const def = block.spec.inputs.find((d) => d.name === name);
    if (!def) throw badRequest(`${f}.name`, `block ${block.spec.name} has no input ${JSON.stringify(name)}`);
    if (seen.has(name)) throw badRequest(`${f}.name`, `input ${JSON.stringify(name)} is given twice`);
    seen.add(name);
    const format = req(o, 'format', (v, ff) => asString(v, ff, { max: 50 }), `${f}.`);
    if (format !== def.format) throw badRequest(`${f}.format`, `must be ${JSON.stringify(def.format)} for input ${name}`);
    const type = req(o, 'type', (v, ff) => asString(v, ff, { max: 50 }), `${f}.`);
    if (!TYPES.includes(type)) throw badRequest(`${f}.type`, `must be one of ${TYPES.join(', ')}`);
    if (type !== def.type) throw badRequest(`${f}.type`, `must be ${JSON.stringify(def.type)} for input ${name}`);
    const value = opt(o, 'value', (v, ff) => asString(v, ff, { max: 4096 }), `${f}.`);
    const stacUrl = opt(o, 'stac_url', (v, ff) => asString(v, ff, { max: 4096 }), `${f}.`);
    if (format === 'raster' || format === 'vector') {
      const src = req(o, 'asset_source', (v, ff) => asObject(v, ff), `${f}.`);
      const id = req(src, 'id', (v, ff) => asString(v, ff, { nonEmpty: true, max: 200 }), `${f}.asset_source.`);
      const st = req(src, 'type', (v, ff) => asString(v, ff, { max: 50 }), `${f}.asset_source.`);
      if (st === 'raw_mosaic') {
        if (!stacUrl) throw badRequest(`${f}.stac_url`, 'is required for an input from an AOI asset');
        if (!r.app.state.assets.some((a) => a.id === id && a.aoi_id === aoi.aoi_id))
          throw badRequest(`${f}.asset_source.id`, `no asset ${JSON.stringify(id)} on this AOI`);
      } else if (st === 'model_output') {
        if (!value) throw badRequest(`${f}.value`, "is required for an earlier insight's output (its storage URL)");
        if (!r.app.state.insights.some((x) => x.id === id && x.aoi_id === aoi.aoi_id))
          throw badRequest(`${f}.asset_source.id`, `no insight ${JSON.stringify(id)} on this AOI`);
      } else throw badRequest(`${f}.asset_source.type`, 'must be raw_mosaic or model_output');
    } else {
      if (value === undefined) throw badRequest(`${f}.value`, 'is required (always a string)');
      if (type === 'number' && !(value.trim() !== '' && Number.isFinite(Number(value))))
        throw badRequest(`${f}.value`, `must be a number written as a string, got ${JSON.stringify(value.slice(0, 40))}`);
      if (type === 'boolean' && value !== 'true' && value !== 'false') throw badRequest(`${f}.value`, 'must be "true" or "false"');
      if (format === 'date' && (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(parseTime(value))))
        throw badRequest(`${f}.value`, 'must be a date, YYYY-MM-DD');
    }
    const description = opt(o, 'description', (v, ff) => asString(v, ff, { max: 2000 }), `${f}.`);
    // Only what was checked is stored: the raw object could carry any extra (and arbitrarily
    // deep) keys into the state file. Properties are the block spec's own.
    const stored: InputValue = { format, name, type, description: description ?? def.description };
    if (def.required !== undefined) stored.required = def.required;
    if (def.properties !== undefined) stored.properties = structuredClone(def.properties);
    if (value !== undefined) stored.value = value;
    if (stacUrl !== undefined) stored.stac_url = stacUrl;
    if (format === 'raster' || format === 'vector') {
      const src = o.asset_source as Record<string, unknown>;
      stored.asset_source = { id: String(src.id), type: String(src.type) };
    }
    return stored;
  });
  for (const d of block.spec.inputs) {
    if (d.required !== false && !seen.has(d.name)) throw badRequest('input', `required input ${JSON.stringify(d.name)} is missing`);
  }
  return values;
}

function asMetadata(v: unknown, field: string): Record<string, string> {
  const o = asObject(v, field);
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(o)) out[k] = asString(x, `${field}.${k}`, { max: 1000 });
  if (Object.keys(out).length > 50) throw badRequest(field, 'holds more than 50 keys');
  return out;
}

/** The caller's run on the AOI: 404 when unknown or deleted. */
function ownRun(r: Req, aoi: AoiRec, raw: string): InsightRec {
  const id = pathId(raw, 'insight_id');
  const rec = r.app.state.insights.find((x) => x.id === id && x.aoi_id === aoi.aoi_id && !x.deleted_at);
  if (!rec) throw notFound('insight', id);
  return rec;
}

export const insightRoutes: Route[] = [
  {
    method: 'POST',
    path: '/v0/aoi/:aoi_id/insights',
    handler: async (r) => {
      const aoi = ownAoi(r, r.params.aoi_id);
      const b = asObject(r.body, 'body');
      const name = req(b, 'name', (v, f) => asString(v, f, { nonEmpty: true, max: 200 }));
      const project = ownProject(
        r,
        req(b, 'project_id', (v, f) => asString(v, f, { nonEmpty: true, max: 200 })),
        'project_id',
      );
      const blk = req(b, 'block', (v, f) => asObject(v, f));
      const bname = req(blk, 'name', (v, f) => asString(v, f, { nonEmpty: true, max: 200 }), 'block.');
      const bver = req(blk, 'version', (v, f) => asString(v, f, { nonEmpty: true, max: 50 }), 'block.');
      const estimate = opt(b, 'estimate', asBoolean) ?? false;
      const metadata = opt(b, 'metadata', asMetadata);
      const block = r.app.world.blocks.find((x) => x.spec.name === bname && x.spec.version === bver);
      if (!block) throw notFound('block', `${bname}@${bver}`);
      if (block.mode !== 'insight') throw new HttpError(400, `block: ${bname} is a ${block.mode} block, not an insight`, 'block');
      const input = checkInputs(
        r,
        aoi,
        block,
        req(b, 'input', (v, f) => asArray(v, f, { max: 100 })),
      );
      const tokens = runCost(aoi, bname);
      if (estimate) return { status: 200, json: { estimate: tokens } };
      const failure = unsatisfiable(r.app.state, r.app.world.blocks, r.app.base, block, input, r.now);
      const rec: InsightRec = {
        id: r.app.newId(),
        owner: r.user.id,
        aoi_id: aoi.aoi_id,
        project_id: project.id,
        name,
        block: { name: bname, version: bver },
        input,
        ...(metadata ? { metadata } : {}),
        cost: tokens,
        ...(failure ? { failure } : {}),
        created_by: r.user.id,
        t0: r.now,
      };
      r.app.state.insights.push(rec);
      await r.app.commit();
      return { status: 201, json: { id: rec.id, message: `insight ${name} queued (${tokens} tokens)` } };
    },
  },
  {
    // No pagination (the OpenAPI declares none); filters id, status, created_by, created_on.
    method: 'GET',
    path: '/v0/aoi/:aoi_id/insights',
    handler: (r) => {
      const aoi = ownAoi(r, r.params.aoi_id);
      onlyParams(r.query, ['id', 'status', 'created_by', 'created_on']);
      const id = r.query.get('id');
      const status = r.query.get('status');
      const by = r.query.get('created_by');
      const on = r.query.get('created_on');
      const onMs = on === null ? undefined : parseTime(on);
      if (onMs !== undefined && Number.isNaN(onMs)) throw badRequest('created_on', 'must be an RFC 3339 timestamp, e.g. 2025-04-14T00:00:00Z');
      const mine = r.app.state.insights
        .filter((x) => x.aoi_id === aoi.aoi_id && !x.deleted_at && (id === null || x.id === id) && (by === null || (x.created_by ?? x.owner) === by))
        .filter((x) => onMs === undefined || (x.t0 >= onMs && x.t0 < onMs + 86_400_000));
      const insights = newestAsOfNow(mine, (x) => runView(x, blockOf(r.app.world.blocks, x), r.app.base, r.now), status);
      return { status: 200, json: { insights } };
    },
  },
  {
    method: 'DELETE',
    path: '/v0/aoi/:aoi_id/insights/:insight_id',
    body: 'none',
    handler: async (r) => {
      const aoi = ownAoi(r, r.params.aoi_id);
      const projectId = r.query.get('project_id');
      if (!projectId) throw badRequest('project_id', 'is required (the project the AOI belongs to)');
      if (projectId !== aoi.project_id) throw badRequest('project_id', `AOI ${aoi.name} belongs to another project`);
      const rec = ownRun(r, aoi, r.params.insight_id);
      rec.deleted_at = isoOffset(r.now);
      await r.app.commit();
      return { status: 200, json: { id: rec.id, message: `insight ${rec.name} deleted` } };
    },
  },
  {
    // Packages the named inputs and outputs (every one when none is named) behind a signed URL.
    method: 'PUT',
    path: '/v0/aoi/:aoi_id/insights/:insight_id/download',
    body: 'optional',
    handler: (r) => {
      const aoi = ownAoi(r, r.params.aoi_id);
      const rec = ownRun(r, aoi, r.params.insight_id);
      const b = r.body === undefined ? {} : asObject(r.body, 'body');
      const inputs = opt(b, 'inputs', (v, f) => asStringArray(v, f, { max: 100 }));
      const outputs = opt(b, 'outputs', (v, f) => asStringArray(v, f, { max: 100 }));
      const view = runView(rec, blockOf(r.app.world.blocks, rec), r.app.base, r.now);
      if (view.status !== 'success') throw badRequest('insight_id', `insight ${rec.name} is ${view.status}; only a successful run can be downloaded`);
      for (const n of inputs ?? [])
        if (!rec.input.some((i) => i.name === n)) throw badRequest('inputs', `insight ${rec.name} has no input ${JSON.stringify(n)}`);
      for (const n of outputs ?? [])
        if (!view.output.some((o) => o.name === n)) throw badRequest('outputs', `insight ${rec.name} has no output ${JSON.stringify(n)}`);
      const token = r.app.sign({ insight: rec.id, i: inputs ?? null, o: outputs ?? null, exp: r.now + T.signedUrl });
      return { status: 200, json: { id: rec.id, status: 'success', signed_url: `${r.app.base}/outputs/package/${token}` } };
    },
  },
  {
    // The signed URL is the credential, as with a cloud presigned URL.
    method: 'GET',
    path: '/outputs/package/:token',
    auth: false,
    handler: (r) => {
      const t = r.app.verify(r.params.token);
      if (!t || typeof t.insight !== 'string' || typeof t.exp !== 'number') throw new HttpError(403, 'the signed URL is not valid', 'signature');
      if (r.now > t.exp) throw new HttpError(403, 'the signed URL has expired; ask for the download again', 'expired');
      const rec = r.app.state.insights.find((x) => x.id === t.insight && !x.deleted_at);
      if (!rec) throw notFound('insight', String(t.insight));
      const aoi = r.app.state.aois.find((a) => a.aoi_id === rec.aoi_id);
      const block = blockOf(r.app.world.blocks, rec);
      const pickI = Array.isArray(t.i) ? new Set(t.i as string[]) : undefined;
      const pickO = Array.isArray(t.o) ? new Set(t.o as string[]) : undefined;
      const files: { name: string; data: Buffer }[] = [];
      for (const v of rec.input) if (!pickI || pickI.has(v.name)) files.push({ name: `inputs/${v.name}.json`, data: Buffer.from(JSON.stringify(v, null, 2)) });
      for (const o of block?.spec.outputs ?? []) {
        if (pickO && !pickO.has(o.name)) continue;
        const body = o.format === 'vector' && aoi ? vectorBody(rec, aoi, o.name, block) : undefined;
        if (body) files.push({ name: `outputs/${o.name}.geojson`, data: Buffer.from(JSON.stringify(body)) });
        else
          files.push({
            name: `outputs/${o.name}.json`,
            data: Buffer.from(
              JSON.stringify({ name: o.name, format: o.format, value: outputUrl(r.app.base, rec.id, o), properties: o.properties ?? {} }, null, 2),
            ),
          });
      }
      const whole = {
        status: 200,
        raw: zipOf(files),
        contentType: 'application/zip',
        headers: { 'content-disposition': `attachment; filename="insight-${rec.id}.zip"` },
      };
      return asStoredObject(r.headers, whole, { modified: rec.t0 });
    },
  },
  {
    // Output files, as a storage bucket would serve them; only a successful run has any. Like
    // every path of the service they need the token, and only the run's owner reads them (to
    // anyone else a run that is not theirs does not exist).
    method: 'GET',
    path: '/outputs/:insight_id/:file',
    handler: (r) => {
      const rec = r.app.state.insights.find((x) => x.id === r.params.insight_id && !x.deleted_at);
      if (!rec || r.app.state.aois.find((a) => a.aoi_id === rec.aoi_id)?.user_id !== r.user.id) throw notFound('insight output', r.params.insight_id);
      const block = blockOf(r.app.world.blocks, rec);
      const def = (block?.spec.outputs ?? []).find((o) => r.params.file === `${o.name}.${o.format === 'vector' ? 'geojson' : 'tif'}`);
      if (!def || runPhase(rec, r.now).status !== 'success') throw notFound('insight output', `${rec.id}/${r.params.file}`);
      const aoi = r.app.state.aois.find((a) => a.aoi_id === rec.aoi_id);
      if (!aoi) throw notFound('AOI', rec.aoi_id);
      if (def.format === 'vector') return { status: 200, raw: JSON.stringify(vectorBody(rec, aoi, def.name, block)), contentType: 'application/geo+json' };
      const key = `insight:${rec.id}:${def.name}`;
      const range = r.headers.range;
      return serveCog(
        key,
        layoutFor(key, () => outputCogSpec(outputScene(aoi, rec, r.app.state.assets), def)),
        Array.isArray(range) ? range.join(',') : range,
        r.method === 'HEAD',
      );
    },
  },
];

function vectorBody(rec: InsightRec, aoi: AoiRec, name: string, block: Block | undefined): unknown {
  const def = block?.spec.outputs?.find((o) => o.name === name);
  return vectorOutput(aoi, rec.id, name, def?.properties?.discretization?.classes ?? []);
}
