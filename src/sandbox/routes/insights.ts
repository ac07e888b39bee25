/**
 * Running insights (beyond the interface, decisions.md): the run body is checked against the
 * block's `spec.inputs` with the input-building rules of interface.md.
 */
import type { Block, Insight, InputValue } from '../../api/records';
import { HttpError, badRequest, notFound } from '../errors';
import type { Req, Route } from '../router';
import type { AoiRec, InsightRec } from '../state';
import { isoOffset, parseTime } from '../timefmt';
import { T } from '../transitions';
import { asArray, asBoolean, asObject, asString, opt, pageParams, req } from '../validate';
import { BLOCK_RATES } from '../world/blocks';
import { ownAoi, ownProject, page } from './common';

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
        if (!r.app.state.assets.some((a) => a.id === id && a.aoi_id === aoi.aoi_id)) throw badRequest(`${f}.asset_source.id`, `no asset ${JSON.stringify(id)} on this AOI`);
      } else if (st === 'model_output') {
        if (!value) throw badRequest(`${f}.value`, "is required for an earlier insight's output (its storage URL)");
        if (!r.app.state.insights.some((x) => x.id === id && x.aoi_id === aoi.aoi_id)) throw badRequest(`${f}.asset_source.id`, `no insight ${JSON.stringify(id)} on this AOI`);
      } else throw badRequest(`${f}.asset_source.type`, 'must be raw_mosaic or model_output');
    } else {
      if (value === undefined) throw badRequest(`${f}.value`, 'is required (always a string)');
      if (type === 'number' && !(value.trim() !== '' && Number.isFinite(Number(value)))) throw badRequest(`${f}.value`, `must be a number written as a string, got ${JSON.stringify(value.slice(0, 40))}`);
      if (type === 'boolean' && value !== 'true' && value !== 'false') throw badRequest(`${f}.value`, 'must be "true" or "false"');
      if (format === 'date' && (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(parseTime(value)))) throw badRequest(`${f}.value`, 'must be a date, YYYY-MM-DD');
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

function view(rec: InsightRec, block: Block | undefined, now: number): Insight {
  const done = now - rec.t0 >= T.insight;
  return {
    id: rec.id,
    name: rec.name,
    block: rec.block,
    status: done ? 'success' : 'processing',
    outputs: done
      ? (block?.spec.outputs ?? []).map((o) => ({
          name: o.name, format: o.format, type: o.type,
          value: `s3://eo-sandbox/insights/${rec.id}/${o.name}.tif`, properties: o.properties ?? {},
        }))
      : [],
    created_at: isoOffset(rec.t0),
  };
}

export const insightRoutes: Route[] = [
  {
    method: 'POST', path: '/v0/aoi/:aoi_id/insights',
    handler: async (r) => {
      const aoi = ownAoi(r, r.params.aoi_id);
      const b = asObject(r.body, 'body');
      const name = req(b, 'name', (v, f) => asString(v, f, { nonEmpty: true, max: 200 }));
      const project = ownProject(r, req(b, 'project_id', (v, f) => asString(v, f, { nonEmpty: true, max: 200 })), 'project_id');
      const blk = req(b, 'block', (v, f) => asObject(v, f));
      const bname = req(blk, 'name', (v, f) => asString(v, f, { nonEmpty: true, max: 200 }), 'block.');
      const bver = req(blk, 'version', (v, f) => asString(v, f, { nonEmpty: true, max: 50 }), 'block.');
      const estimate = opt(b, 'estimate', asBoolean) ?? false;
      const block = r.app.world.blocks.find((x) => x.spec.name === bname && x.spec.version === bver);
      if (!block) throw notFound('block', `${bname}@${bver}`);
      if (block.mode !== 'insight') throw new HttpError(400, `block: ${bname} is a ${block.mode} block, not an insight`, 'block');
      const input = checkInputs(r, aoi, block, req(b, 'input', (v, f) => asArray(v, f, { max: 100 })));
      const tokens = Math.max(1, Math.round((aoi.area_in_sq_m / 1e6) * (BLOCK_RATES[bname] ?? 1) * 100) / 100);
      if (estimate) return { status: 200, json: { estimate: tokens } };
      const rec: InsightRec = { id: r.app.newId(), owner: r.user.id, aoi_id: aoi.aoi_id, project_id: project.id, name, block: { name: bname, version: bver }, input, t0: r.now };
      r.app.state.insights.push(rec);
      await r.app.commit();
      return { status: 201, json: { id: rec.id, message: `insight ${name} queued (${tokens} tokens)` } };
    },
  },
  {
    method: 'GET', path: '/v0/aoi/:aoi_id/insights',
    handler: (r) => {
      const aoi = ownAoi(r, r.params.aoi_id);
      const { offset, limit } = pageParams(r.query);
      const all = r.app.state.insights
        .filter((x) => x.aoi_id === aoi.aoi_id)
        .sort((a, b) => b.t0 - a.t0)
        .map((x) => view(x, r.app.world.blocks.find((b) => b.spec.name === x.block.name && b.spec.version === x.block.version), r.now));
      const { items, pagination } = page(all, offset, limit);
      return { status: 200, json: { insights: items, pagination } };
    },
  },
];
