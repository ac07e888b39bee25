/** Every endpoint: the happy path and each status the interface (and docs/service-interface.md) declares. */
/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are untyped JSON read by assertions */
import assert from 'node:assert/strict';
import * as http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';
import { caller, fc, square } from './helpers';

let sb: SandboxHandle;
let alice: ReturnType<typeof caller>;
let bob: ReturnType<typeof caller>;
let anon: ReturnType<typeof caller>;

before(async () => {
  sb = await startSandbox({ port: 0, seed: 7 });
  alice = caller(sb, 'alice');
  bob = caller(sb, 'bob');
  anon = caller(sb, 'none');
});
after(() => sb.close());

const errShape = (b: any, code: string) => {
  assert.equal(b.error.code, code);
  assert.equal(typeof b.error.message, 'string');
  assert.ok('details' in b.error);
};

describe('ping, auth and generic errors', () => {
  it('answers only to loopback host names (no DNS rebinding onto the public tokens)', async () => {
    const get = (host: string): Promise<number> =>
      new Promise((resolve, reject) => {
        const u = new URL(sb.url);
        const rq = http.request(
          { host: u.hostname, port: u.port, path: '/v0/projects', headers: { host, authorization: `Bearer ${sb.tokens.alice}` } },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        rq.on('error', reject);
        rq.end();
      });
    const port = new URL(sb.url).port;
    for (const host of [`attacker.example:${port}`, 'attacker.example', `127.0.0.1.nip.io:${port}`]) assert.equal(await get(host), 421, host);
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, 'localhost', `[::1]:${port}`]) assert.equal(await get(host), 200, host);
  });

  it('GET /ping answers "pong" without a token', async () => {
    const r = await anon('GET', '/ping');
    assert.equal(r.status, 200);
    assert.equal(r.body, 'pong');
  });
  it('401 without a token, with an unknown token; Bearer and bare forms both work', async () => {
    errShape((await anon('GET', '/v0/aois')).body, 'unauthorized');
    assert.equal((await anon('GET', '/v0/aois')).status, 401);
    assert.equal((await anon('GET', '/v0/aois', undefined, { authorization: 'Bearer nope' })).status, 401);
    assert.equal((await anon('GET', '/v0/aois', undefined, { authorization: sb.tokens.alice })).status, 200);
    assert.equal((await anon('GET', '/v0/aois', undefined, { authorization: `bearer ${sb.tokens.bob}` })).status, 200);
  });
  it('401 on project endpoints uses the free-form {message} body', async () => {
    const r = await anon('GET', '/v0/projects');
    assert.equal(r.status, 401);
    assert.equal(typeof r.body.message, 'string');
  });
  it('unknown path is 404 with the error body; wrong method is 405 with Allow', async () => {
    const r = await alice('GET', '/v0/nothing');
    assert.equal(r.status, 404);
    errShape(r.body, 'not_found');
    const m = await alice('PUT', '/v0/aois', {});
    assert.equal(m.status, 405);
    assert.match(m.headers.get('allow') ?? '', /GET/);
    assert.equal((await alice('GET', '/v0/aois/x')).status, 404, 'the AOI read path is the singular /v0/aoi/{id}');
  });
  it('malformed JSON is 400, a body over 5 MB is 413', async () => {
    const r = await alice('POST', '/v0/aois', '{"name": ');
    assert.equal(r.status, 400);
    assert.match(r.body.error.message, /JSON/);
    const big = await alice('POST', '/v0/aois', JSON.stringify({ pad: 'x'.repeat(5 * 1024 * 1024 + 10) }));
    assert.equal(big.status, 413);
    errShape(big.body, 'payload_too_large');
  });
});

describe('projects', () => {
  it('lists with count and page_num/page_size; members_count only in the list', async () => {
    const r = await alice('GET', '/v0/projects?page_num=1&page_size=2');
    assert.equal(r.status, 200);
    assert.ok(r.body.count >= 3);
    assert.equal(r.body.projects.length, 2);
    assert.equal(typeof r.body.projects[0].members_count, 'number');
    const p2 = await alice('GET', '/v0/projects?page_num=2&page_size=2');
    assert.notEqual(p2.body.projects[0].id, r.body.projects[0].id);
    const one = await alice('GET', `/v0/projects/${r.body.projects[0].id}`);
    assert.equal(one.status, 200);
    assert.equal(one.body.project.id, r.body.projects[0].id);
    assert.equal('members_count' in one.body.project, false);
  });
  it("400 bad page_size, 404 unknown, 403 another user's", async () => {
    assert.equal((await alice('GET', '/v0/projects?page_size=0')).status, 400);
    assert.equal((await alice('GET', '/v0/projects?page_num=abc')).status, 400);
    assert.equal((await alice('GET', '/v0/projects/unknown-id')).status, 404);
    assert.equal((await alice('GET', '/v0/projects/%3Cscript%3E')).status, 400);
    const bobs = await bob('GET', '/v0/projects');
    assert.equal((await alice('GET', `/v0/projects/${bobs.body.projects[0].id}`)).status, 403);
  });
});

describe('AOIs, assets, visualizations', () => {
  it('lists AOIs with defaults (offset 0, limit 10) and pagination totals', async () => {
    const r = await alice('GET', '/v0/aois');
    assert.equal(r.status, 200);
    assert.deepEqual({ limit: r.body.pagination.limit, offset: r.body.pagination.offset }, { limit: 10, offset: 0 });
    assert.ok(r.body.pagination.total >= 12);
    assert.equal(r.body.aois.length, 10);
    const a = r.body.aois[0];
    assert.match(a.created_at, /^\d{4}-\d{2}-\d{2}T/);
    assert.equal(a.geometry.type, 'Polygon');
    assert.equal(a.centroid.length, 2);
  });
  it("filters AOIs by aoi_name, aoi_id, project_ids, created_at; 404 for a project not the caller's", async () => {
    const all = (await alice('GET', '/v0/aois?limit=100')).body.aois;
    const fiji = (await alice('GET', '/v0/aois?aoi_name=fiji')).body.aois;
    assert.equal(fiji.length, 1);
    const byId = await alice('GET', `/v0/aois?aoi_id=${all[0].aoi_id}`);
    assert.equal(byId.body.aois.length, 1);
    const pid = all[0].project_id;
    const inProject = (await alice('GET', `/v0/aois?project_ids=${pid}&limit=100`)).body.aois;
    assert.ok(inProject.length > 0 && inProject.every((x: any) => x.project_id === pid));
    const day = all[0].created_at.slice(0, 10);
    const sameDay = (await alice('GET', `/v0/aois?created_at=${day}&limit=100`)).body.aois;
    assert.ok(sameDay.every((x: any) => x.created_at.startsWith(day)) && sameDay.length >= 1);
    const bobP = (await bob('GET', '/v0/projects')).body.projects[0].id;
    assert.equal((await alice('GET', `/v0/aois?project_ids=${bobP}`)).status, 404);
  });
  it('reads one AOI by the singular path: 200, 400, 403, 404', async () => {
    const a = (await alice('GET', '/v0/aois')).body.aois[0];
    assert.equal((await alice('GET', `/v0/aoi/${a.aoi_id}`)).body.aoi_id, a.aoi_id);
    assert.equal((await alice('GET', '/v0/aoi/bad%20id')).status, 400);
    assert.equal((await alice('GET', '/v0/aoi/00000000-0000-4000-8000-000000000000')).status, 404);
    const r = await bob('GET', `/v0/aoi/${a.aoi_id}`);
    assert.equal(r.status, 403);
    errShape(r.body, 'forbidden');
  });
  it('creates an AOI from searched images: 201 started → success on the clock; 400, 403, 409', async () => {
    const project = (await alice('GET', '/v0/projects')).body.projects[0];
    const geometry = square(5.1, 52.1, 0.02);
    const found = await alice('POST', '/v0/search', {
      start_date: '2015-01-01',
      end_date: '2030-01-01',
      satellites: [{ satellite_id: 'sentinel-2', collection_id: 'sentinel-2-l2a' }],
      geometry,
      limit: 3,
    });
    const itemIds = Object.keys(found.body.items);
    assert.ok(itemIds.length > 0, 'imagery over the field');
    // OpenAPI atlas.AOICreateModelV2: description, provider and item_ids are required
    const body = {
      name: 'Test field',
      description: '',
      project_id: project.id,
      satellite_id: 'sentinel-2',
      provider: 'planetary',
      geometry,
      item_ids: itemIds,
    };
    const r = await alice('POST', '/v0/aois', body);
    assert.equal(r.status, 201);
    assert.equal(r.body.status, 'started');
    assert.deepEqual(Object.keys(r.body.images).sort(), [...itemIds].sort(), 'images keyed by item id');
    assert.ok(r.body.area_in_sq_m > 11.5e6 && r.body.area_in_sq_m < 13e6, String(r.body.area_in_sq_m));
    assert.equal((await alice('POST', '/v0/aois', body)).status, 409);
    sb.clock.advance(60_000);
    const later = await alice('GET', `/v0/aoi/${r.body.aoi_id}`);
    assert.equal(later.body.status, 'success');
    assert.equal(later.body.progress, 100);
    const assets = await alice('GET', `/v0/aois/${r.body.aoi_id}/assets`);
    assert.equal(assets.body.assets.length, itemIds.length, 'one mosaic per chosen image');
    const bad = async (patch: object, field: RegExp) => {
      const x = await alice('POST', '/v0/aois', { ...body, name: `n${Math.random()}`, ...patch });
      assert.equal(x.status, 400, JSON.stringify(x.body));
      assert.match(x.body.error.message, field);
    };
    await bad({ geometry: { type: 'Point', coordinates: [0, 0] } }, /geometry\.type/);
    await bad(
      {
        geometry: {
          type: 'Polygon',
          coordinates: [
            [
              [0, 0],
              [1, 0],
              [1, 1],
              [0, 1],
            ],
          ],
        },
      },
      /not closed/,
    );
    await bad(
      {
        geometry: {
          type: 'Polygon',
          coordinates: [
            [
              [0, 0],
              [1, 0],
              [0, 0],
            ],
          ],
        },
      },
      /at least 4/,
    );
    await bad({ geometry: square(0, 95, 0.1) }, /latitude/);
    await bad(
      {
        geometry: {
          type: 'Polygon',
          coordinates: [
            [
              [0, 0],
              [1, 1],
              [1, 0],
              [0, 1],
              [0, 0],
            ],
          ],
        },
      },
      /intersects itself/,
    );
    await bad({ satellite_id: 'nope' }, /satellite_id/);
    await bad({ name: 5 }, /name: must be a string/);
    await bad({ provider: undefined }, /provider/);
    await bad({ provider: 'pixxel' }, /provider/);
    await bad({ item_ids: undefined }, /item_ids/);
    await bad({ item_ids: [] }, /item_ids/);
    await bad({ item_ids: ['no-such-item'] }, /item_ids\[0\]/);
    await bad({ description: undefined }, /description/);
    const bobP = (await bob('GET', '/v0/projects')).body.projects[0].id;
    assert.equal((await alice('POST', '/v0/aois', { ...body, name: 'x2', project_id: bobP })).status, 403);
  });
  it('lists assets (dates YYYY-MM-DD, timestamps with a space and microseconds); 403 for another user', async () => {
    // a seeded AOI (the newest one was just made from the images found over a small field)
    const a = (await alice('GET', '/v0/aois')).body.aois.at(-1);
    const r = await alice('GET', `/v0/aois/${a.aoi_id}/assets?limit=2&offset=1`);
    assert.equal(r.status, 200);
    assert.equal(r.body.assets.length, 2);
    assert.equal(r.body.pagination.offset, 1);
    assert.match(r.body.assets[0].date, /^\d{4}-\d{2}-\d{2}$/);
    assert.match(r.body.assets[0].created_at, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/);
    assert.equal((await bob('GET', `/v0/aois/${a.aoi_id}/assets`)).status, 403);
    assert.equal((await alice('GET', `/v0/aois/${a.aoi_id}/assets?limit=500`)).status, 400);
  });
  it('lists visualizations under the singular key, with filters; 403 for another user', async () => {
    const a = (await alice('GET', '/v0/aois?aoi_name=Lake%20Mead')).body.aois[0];
    const r = await alice('GET', `/v0/aois/${a.aoi_id}/visualizations`);
    assert.equal(r.status, 200);
    assert.ok(Array.isArray(r.body.visualization));
    assert.ok(r.body.visualization.length >= 1);
    // OpenAPI list item: exactly these keys (names and assets are on the detail).
    assert.deepEqual(Object.keys(r.body.visualization[0]).sort(), [
      'aoi_id',
      'created_at',
      'id',
      'index_id',
      'progress',
      'status',
      'tenant_id',
      'updated_at',
      'user_id',
    ]);
    const composites = new Set((await alice('GET', '/v0/indices?expression_type=composite&limit=100')).body.indices.map((i: any) => i.id));
    const et = await alice('GET', `/v0/aois/${a.aoi_id}/visualizations?expression_type=composite`);
    assert.ok(et.body.visualization.every((v: any) => composites.has(v.index_id)));
    assert.equal((await bob('GET', `/v0/aois/${a.aoi_id}/visualizations`)).status, 403);
  });
  it('creates visualizations following the legend rules; 400, 401, 403, 404, 409', async () => {
    const a = (await alice('GET', '/v0/aois?aoi_name=Central%20Valley')).body.aois[0];
    const mosaics = (await alice('GET', `/v0/aois/${a.aoi_id}/assets?limit=100`)).body.assets.filter((x: any) => x.visualization_id === '');
    const src = [mosaics[0].id];
    const indices = (await alice('GET', '/v0/indices?satellite_id=sentinel-2&limit=100')).body.indices;
    const preset = indices.find((i: any) => i.type === 'preset' && i.name === 'EVI');
    const customIndex = indices.find((i: any) => i.type === 'custom' && i.expression_type === 'index');
    const customComposite = indices.find((i: any) => i.type === 'custom' && i.expression_type === 'composite');
    const p = await alice('POST', `/v0/aois/${a.aoi_id}/visualizations`, { index_id: preset.id, src_asset_ids: src });
    assert.equal(p.status, 201, JSON.stringify(p.body));
    // OpenAPI VisualizationMetadata: metadata.legend keyed by date, LegendItem lists per mode
    const dates = Object.keys(p.body.metadata.legend);
    assert.ok(dates.length > 0 && dates.every((d) => /^\d{4}_\d{2}_\d{2}$/.test(d)), dates.join());
    const first = p.body.metadata.legend[dates[0]];
    assert.ok(first.dynamic.length > 0 && first.theoretical.length > 0);
    for (const it of first.dynamic) for (const k of ['min', 'max', 'color', 'label', 'area', 'area_percentage']) assert.ok(k in it, k);
    const share = first.dynamic.reduce((a: number, x: any) => a + x.area_percentage, 0);
    assert.ok(Math.abs(share - 100) < 0.1, `area shares add up to 100 %, got ${share}`);
    assert.match(p.body.created_at, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/);
    const c = await alice('POST', `/v0/aois/${a.aoi_id}/visualizations`, { index_id: customIndex.id, src_asset_ids: src });
    const cl = Object.values(c.body.metadata.legend) as any[];
    assert.ok(
      cl.every((l) => l.dynamic.length > 0 && l.theoretical === undefined),
      'custom index: dynamic only',
    );
    const k = await alice('POST', `/v0/aois/${a.aoi_id}/visualizations`, { index_id: customComposite.id, src_asset_ids: src });
    assert.equal(k.status, 201);
    assert.equal('metadata' in k.body, false, 'custom composite: no legend metadata');
    assert.equal((await alice('POST', `/v0/aois/${a.aoi_id}/visualizations`, { index_id: preset.id, src_asset_ids: src })).status, 409);
    assert.equal((await alice('POST', `/v0/aois/${a.aoi_id}/visualizations`, { index_id: 'nope', src_asset_ids: src })).status, 404);
    assert.equal((await alice('POST', `/v0/aois/${a.aoi_id}/visualizations`, { index_id: preset.id, src_asset_ids: ['nope'] })).status, 404);
    assert.equal((await alice('POST', `/v0/aois/${a.aoi_id}/visualizations`, { index_id: preset.id })).status, 400);
    assert.equal((await alice('POST', `/v0/aois/${a.aoi_id}/visualizations`, { index_id: 'preset-ndvi-landsat-8-9', src_asset_ids: src })).status, 400);
    assert.equal((await bob('POST', `/v0/aois/${a.aoi_id}/visualizations`, { index_id: preset.id, src_asset_ids: src })).status, 403);
    assert.equal((await anon('POST', `/v0/aois/${a.aoi_id}/visualizations`, { index_id: preset.id, src_asset_ids: src })).status, 401);
  });
});

describe('satellites, imagery search, indices, bandsets, blocks', () => {
  it('lists satellites whole, with a 100+ band hyperspectral one; 400 for paging params', async () => {
    const r = await alice('GET', '/v0/satellites');
    assert.equal(r.status, 200);
    const sats = r.body.satellites;
    assert.ok(sats.some((s: any) => s.bands.length >= 100));
    assert.ok(sats.find((s: any) => s.id === 'sentinel-2').bands.some((b: any) => b.name === 'B8A' && b.wavelength > 860));
    // OpenAPI lens.originalSuccessResponse: collections with provider, rgb_composite
    for (const s of sats) {
      assert.ok(s.collections.length > 0 && s.collections.every((c: any) => c.provider === 'pixxel' || c.provider === 'planetary'), s.id);
      assert.ok(
        ['red', 'green', 'blue'].every((k) => s.bands.some((b: any) => b.name === s.rgb_composite[k])),
        s.id,
      );
    }
    assert.equal((await alice('GET', '/v0/satellites?limit=5')).status, 400);
  });
  it('searches imagery with a next_token cursor; tampered token 400; unsubscribed satellite 403', async () => {
    const body = {
      start_date: '2018-01-01',
      end_date: '2025-12-31',
      satellites: [{ satellite_id: 'sentinel-2', collection_id: 'sentinel-2-l2a' }],
      geometry: square(-120.45, 36.75, 0.1),
      limit: 3,
    };
    const p1 = await alice('POST', '/v0/search', body);
    assert.equal(p1.status, 200);
    // OpenAPI lens.V2Response: items keyed by item id, pagination {limit, skip, total}
    const ids1 = Object.keys(p1.body.items);
    assert.equal(ids1.length, 3);
    for (const id of ids1) assert.equal(p1.body.items[id].id, id);
    assert.equal(p1.body.pagination.skip, 0);
    assert.equal(p1.body.pagination.limit, 3);
    assert.ok(p1.body.pagination.total > 3);
    assert.equal(typeof p1.body.next_token, 'string');
    const p2 = await alice('POST', '/v0/search', { ...body, next_token: p1.body.next_token });
    assert.equal(p2.status, 200);
    assert.equal(p2.body.pagination.skip, 3);
    assert.ok(Object.keys(p2.body.items).every((id) => !ids1.includes(id)));
    // collection_id is required, and must be the satellite's
    assert.equal((await alice('POST', '/v0/search', { ...body, satellites: [{ satellite_id: 'sentinel-2' }] })).status, 400);
    assert.equal((await alice('POST', '/v0/search', { ...body, satellites: [{ satellite_id: 'sentinel-2', collection_id: 'landsat-c2-l2' }] })).status, 400);
    // filters: id, min and max all required, integers
    assert.equal((await alice('POST', '/v0/search', { ...body, filters: [{ id: 'eo:cloud_cover', max: 10 }] })).status, 400);
    assert.equal((await alice('POST', '/v0/search', { ...body, filters: [{ id: 'eo:cloud_cover', min: 0, max: 10.5 }] })).status, 400);
    const tampered = p1.body.next_token.replace(/^./, (c: string) => (c === 'e' ? 'f' : 'e'));
    assert.equal((await alice('POST', '/v0/search', { ...body, next_token: tampered })).status, 400);
    assert.equal((await bob('POST', '/v0/search', { ...body, next_token: p1.body.next_token })).status, 400, 'foreign token');
    assert.equal((await alice('POST', '/v0/search', { ...body, start_date: '2019-01-01', next_token: p1.body.next_token })).status, 400, 'other query');
    assert.equal((await bob('POST', '/v0/search', { ...body, satellites: [{ satellite_id: 'pleiades-neo', collection_id: 'pleiades-neo' }] })).status, 403);
    assert.equal((await alice('POST', '/v0/search', { ...body, end_date: 'soon' })).status, 400);
    const cloudy = await alice('POST', '/v0/search', { ...body, limit: 50, filters: [{ id: 'eo:cloud_cover', min: 0, max: 10 }] });
    assert.ok(Object.values(cloudy.body.items).every((i: any) => i.properties['eo:cloud_cover'] <= 10));
    // A filter is on a queryable the searched collection lists (Sentinel-2 lists no off-nadir).
    const offNadir = await alice('POST', '/v0/search', { ...body, filters: [{ id: 'view:off_nadir', min: 0, max: 5 }] });
    assert.equal(offNadir.status, 400);
    assert.match(JSON.stringify(offNadir.body), /view:off_nadir is not a queryable of sentinel-2-l2a/);
    const sunny = await alice('POST', '/v0/search', { ...body, limit: 50, filters: [{ id: 'view:sun_elevation', min: 40, max: 60 }] });
    assert.equal(sunny.status, 200);
    assert.ok(Object.values(sunny.body.items).every((i: any) => i.properties['view:sun_elevation'] >= 40 && i.properties['view:sun_elevation'] <= 60));
  });
  it('lists indices with filters; creates custom indices: 201, 400, 409', async () => {
    const r = await alice('GET', '/v0/indices?type=preset&limit=100');
    const names = new Set(r.body.indices.map((i: any) => i.name));
    for (const n of ['NDVI', 'NDWI', 'EVI', 'SAVI', 'NDRE', 'True colour', 'False colour']) assert.ok(names.has(n), n);
    assert.equal((await alice('GET', '/v0/indices?type=other')).status, 400);
    const body = {
      name: 'Red over green',
      description: 'ratio',
      expression: 'B04/B03',
      expression_type: 'index',
      satellite_id: 'sentinel-2',
      colormap: 'viridis',
      rescale: [0, 3],
    };
    const c = await alice('POST', '/v0/indices', body);
    assert.equal(c.status, 201);
    assert.equal(c.body.type, 'custom');
    assert.deepEqual(c.body.bands, ['B04', 'B03']);
    assert.equal((await alice('POST', '/v0/indices', body)).status, 409);
    assert.match((await alice('POST', '/v0/indices', { ...body, name: 'x', expression: 'B99/B03' })).body.error.message, /B99/);
    assert.equal((await alice('POST', '/v0/indices', { ...body, name: 'y', expression: '(B04' })).status, 400);
    assert.equal((await alice('POST', '/v0/indices', { ...body, name: 'z', rescale: [3, 1] })).status, 400);
    // OpenAPI: rescale is two integers.
    const frac = await alice('POST', '/v0/indices', { ...body, name: 'z', rescale: [-0.5, 1] });
    assert.equal(frac.status, 400);
    assert.match(frac.body.error.message, /rescale\[0\].*integer/);
    const id = c.body.id;
    assert.equal((await alice('GET', `/v0/indices?index_id=${id}`)).body.indices.length, 1);
    assert.equal((await bob('GET', `/v0/indices?index_id=${id}`)).body.indices.length, 0, 'custom indices are per user');
  });
  it('lists bandsets and blocks; blocks cover every input format with bands, visualisation, discretization', async () => {
    const bs = await alice('GET', '/v0/bandsets');
    assert.ok(bs.body.bandsets.length >= 3);
    const all = await alice('GET', '/v0/blocks');
    const wf = await alice('GET', '/v0/blocks?mode=workflow');
    assert.ok(wf.body.blocks.length >= 1 && wf.body.blocks.length < all.body.blocks.length);
    assert.equal((await alice('GET', '/v0/blocks?mode=bogus')).status, 400);
    const ins = await alice('GET', '/v0/blocks/insights');
    assert.ok(ins.body.blocks.length >= 3);
    // OpenAPI dexter.BlockSpecItem: {id, block_status, spec: {name, title, version, kind, ...}, created_at, err}
    for (const b of ins.body.blocks) {
      assert.equal(typeof b.spec.title, 'string');
      assert.equal(b.spec.kind, 'insight');
      assert.equal(b.name, undefined, 'the name lives in spec');
    }
    const name = ins.body.blocks[0].spec.name;
    const versions = await alice('GET', `/v0/blocks/${name}`);
    assert.equal(versions.status, 200);
    assert.ok(versions.body.blocks.every((b: any) => b.spec.name === name));
    const single = await alice('GET', `/v0/blocks/${name}/versions/${ins.body.blocks[0].spec.version}`);
    assert.equal(single.status, 200);
    assert.equal(single.body.spec.name, name);
    assert.equal((await alice('GET', `/v0/blocks/${name}/versions/0.0.0`)).status, 404);
    assert.equal((await alice('GET', '/v0/blocks/no-such-block')).status, 404);
    const formats = new Set(ins.body.blocks.flatMap((b: any) => b.spec.inputs.map((i: any) => i.format)));
    for (const f of ['raster', 'vector', 'date', 'number', 'string', 'boolean']) assert.ok(formats.has(f), f);
    assert.ok(ins.body.blocks.some((b: any) => b.spec.inputs.some((i: any) => i.properties?.bands)));
    assert.ok(ins.body.blocks.some((b: any) => b.spec.outputs.some((o: any) => o.properties?.visualisation && o.properties?.discretization)));
    const one = await alice('GET', '/v0/blocks/insights?name=water-extent');
    assert.equal(one.body.blocks.length, 1);
  });
});

describe('orders and order items', () => {
  it('lists orders with pagination and a status filter; reads one; 404 for another user', async () => {
    const r = await alice('GET', '/v0/orders?limit=5');
    assert.equal(r.status, 200);
    assert.equal(r.body.orders.length, 5);
    assert.ok(r.body.pagination.total >= 25);
    const paid = await alice('GET', '/v0/orders?status=PAID&limit=100');
    assert.ok(paid.body.orders.every((o: any) => o.status === 'PAID'));
    assert.equal((await alice('GET', '/v0/orders?status=nope')).status, 400);
    const one = await alice('GET', `/v0/orders/${r.body.orders[0].id}`);
    assert.equal(one.body.id, r.body.orders[0].id);
    assert.equal((await bob('GET', `/v0/orders/${r.body.orders[0].id}`)).status, 404);
  });
  it('lists order items with tasks; reads one; 404', async () => {
    const r = await alice('GET', '/v0/order-items?status=FULFILLED&limit=3');
    assert.equal(r.status, 200);
    const it0 = r.body.order_items[0];
    assert.ok(it0.tasks.length >= 1);
    assert.match(it0.tasks[0].start_date, /^\d{2}-\d{2}-\d{4}$/);
    assert.equal(it0.tasks[0].status, 'FULFILLED');
    assert.equal(it0.tasks[0].delivery_status, 'SUCCESSFUL');
    const one = await alice('GET', `/v0/order-items/${it0.id}`);
    assert.equal(one.body.id, it0.id);
    assert.equal((await bob('GET', `/v0/order-items/${it0.id}`)).status, 404);
    assert.equal((await alice('GET', '/v0/order-items?status=WHATEVER')).status, 400);
  });
  it('creates an order (201, UNPAID, paid_at ""), a dry run (200, nothing stored, no id) and 400s', async () => {
    const project = (await alice('GET', '/v0/projects')).body.projects[0];
    const items = (await alice('POST', '/v0/archives/search', { bbox: [-120.6, 36.6, -120.3, 36.9], collections: ['sentinel-2-l2a'], limit: 2 })).body.features;
    const req = {
      project_id: project.id,
      name: 'CV archive',
      usecase: 'agriculture',
      geometry: fc(square(-120.45, 36.75, 0.05)),
      item_ids: items.map((f: any) => f.id),
    };
    const before = (await alice('GET', '/v0/orders')).body.pagination.total;
    const dry = await alice('POST', '/v0/orders', { dry_run: true, order_items: [req] });
    assert.equal(dry.status, 200);
    assert.equal('id' in dry.body, false);
    assert.ok(dry.body.total_amount > 0);
    assert.ok(Array.isArray(dry.body.order_items[0].validation_errors));
    assert.equal((await alice('GET', '/v0/orders')).body.pagination.total, before);
    const real = await alice('POST', '/v0/orders', { dry_run: false, order_items: [req] });
    assert.equal(real.status, 201);
    assert.equal(real.body.status, 'UNPAID');
    assert.equal(real.body.paid_at, '');
    assert.equal(real.body.total_amount, dry.body.total_amount);
    assert.equal((await alice('GET', '/v0/orders')).body.pagination.total, before + 1);
    assert.equal((await alice('POST', '/v0/orders', { order_items: [{ ...req, item_ids: ['nope'] }] })).status, 400);
    assert.equal((await alice('POST', '/v0/orders', { order_items: [] })).status, 400);
    // OpenAPI docOriginalOrderItem: usecase is required on every item
    const { usecase: _u, ...withoutUsecase } = req;
    const noUse = await alice('POST', '/v0/orders', { dry_run: true, order_items: [withoutUsecase] });
    assert.equal(noUse.status, 400);
    assert.match(noUse.body.error.message, /usecase/);
    const tasking = {
      project_id: project.id,
      usecase: 'agriculture',
      geometry: fc(square(2.35, 48.86, 0.05)),
      recurrence: 'ONCE',
      start_date: '2030-01-01T00:00:00Z',
      end_date: '2029-01-01T00:00:00Z',
      no_of_occurrences: 1,
      bandset: { bandset_id: 'bs-pneo-rgb' },
    };
    assert.match((await alice('POST', '/v0/orders', { order_items: [tasking] })).body.error.message, /end_date/);
    assert.match(
      (await alice('POST', '/v0/orders', { order_items: [{ ...tasking, end_date: '2030-03-01T00:00:00Z', bandset: { bandset_id: 'x' } }] })).body.error.message,
      /bandset_id/,
    );
    assert.match(
      (await alice('POST', '/v0/orders', { order_items: [{ ...tasking, end_date: '2030-03-01T00:00:00Z', no_of_occurrences: 0 }] })).body.error.message,
      /no_of_occurrences/,
    );
  });
});

describe('archives', () => {
  it('lists collections (2+ with 500+ items), reads one, lists its items, reads an item; 404s', async () => {
    const r = await alice('GET', '/v0/archives/collections');
    assert.ok(r.body.collections.length >= 2);
    const c = await alice('GET', '/v0/archives/collections/sentinel-2-l2a');
    assert.equal(c.body.type, 'Collection');
    const items = await alice('GET', '/v0/archives/collections/sentinel-2-l2a/items?limit=5');
    assert.equal(items.body.type, 'FeatureCollection');
    assert.equal(items.body.features.length, 5);
    assert.ok(items.body.links.some((l: any) => l.rel === 'next'));
    const f = items.body.features[0];
    assert.ok(f.bbox.every((v: unknown) => typeof v === 'string'));
    const one = await alice('GET', `/v0/archives/collections/sentinel-2-l2a/items/${f.id}`);
    assert.equal(one.body.id, f.id);
    const nf = await alice('GET', '/v0/archives/collections/nope');
    assert.equal(nf.status, 404);
    assert.equal(typeof nf.body.error.details, 'object', 'archive errors carry object details');
    assert.equal((await alice('GET', `/v0/archives/collections/landsat-c2-l2/items/${f.id}`)).status, 404);
  });
});

describe('catalogs, deliveries, downloads, stores, reports', () => {
  it('searches catalogs and reads one; 404', async () => {
    const r = await alice('POST', '/v0/catalogs/search', {});
    assert.equal(r.status, 200);
    assert.equal(r.body.pagination.limit, 2, "the OpenAPI's default catalog search limit");
    const c = r.body.catalogs[0];
    assert.equal((await alice('GET', `/v0/catalogs/${c.id}`)).body.id, c.id);
    assert.equal((await bob('GET', `/v0/catalogs/${c.id}`)).status, 404);
    assert.equal((await alice('POST', '/v0/catalogs/search', { limit: 0 })).status, 400);
  });
  it('lists, creates (201, no secrets echoed) and deletes (204) stores; 400, 404, 409', async () => {
    const list = await alice('GET', '/v0/stores');
    assert.ok(list.body.stores.length >= 1);
    const body = {
      name: 'new-s3',
      type: 'S3',
      configs: { bucket: 'b', region: 'eu-west-1', path_prefix: 'p/' },
      secrets: { access_key_id: 'AKIAEXAMPLE', secret_access_key: 'hunter2-secret' },
      labels: { env: 'test' },
    };
    const c = await alice('POST', '/v0/stores', body);
    assert.equal(c.status, 201);
    assert.ok(!c.text.includes('hunter2-secret') && !c.text.includes('AKIAEXAMPLE') && !('secrets' in c.body));
    assert.equal((await alice('POST', '/v0/stores', body)).status, 409);
    assert.ok(!(await alice('GET', '/v0/stores')).text.includes('hunter2-secret'));
    assert.equal((await alice('DELETE', `/v0/stores/${c.body.id}`)).status, 204);
    assert.equal((await alice('DELETE', `/v0/stores/${c.body.id}`)).status, 404);
  });
  it('creates deliveries (201) and lists them with filters; 400 both/neither, 404 unknown store', async () => {
    const cat = (await alice('POST', '/v0/catalogs/search', { limit: 1 })).body.catalogs[0];
    const store = (await alice('GET', '/v0/stores')).body.stores[0];
    const r = await alice('POST', '/v0/catalogs/deliveries', { deliveries: [{ catalog_ids: [cat.id], cloud_info: { config: store.id, path: 'x/' } }] });
    assert.equal(r.status, 201);
    assert.equal(r.body.deliveries[0].status, 'CREATED');
    const got = await alice('GET', `/v0/catalogs/deliveries?delivery_id=${r.body.deliveries[0].delivery_id}`);
    assert.equal(got.body.deliveries.length, 1);
    assert.ok((await alice('GET', `/v0/catalogs/deliveries?catalog_id=${cat.id}`)).body.deliveries.length >= 1);
    assert.equal(
      (
        await alice('POST', '/v0/catalogs/deliveries', {
          deliveries: [{ catalog_ids: [cat.id], order_item_ids: [cat.order_item_id], cloud_info: { config: store.id, path: '' } }],
        })
      ).status,
      400,
    );
    assert.equal((await alice('POST', '/v0/catalogs/deliveries', { deliveries: [{ cloud_info: { config: store.id, path: '' } }] })).status, 400);
    assert.equal(
      (
        await alice('POST', '/v0/catalogs/deliveries', {
          deliveries: [{ catalog_ids: [], order_item_ids: [cat.order_item_id], cloud_info: { config: store.id, path: '' } }],
        })
      ).status,
      201,
    );
    assert.equal(
      (await alice('POST', '/v0/catalogs/deliveries', { deliveries: [{ catalog_ids: [cat.id], cloud_info: { config: 'nope', path: '' } }] })).status,
      404,
    );
  });
  it('creates a download (201) and reads it (200); 404; 400 both', async () => {
    const cat = (await alice('POST', '/v0/catalogs/search', { limit: 1 })).body.catalogs[0];
    const r = await alice('POST', '/v0/catalogs/download', { catalog_ids: [cat.id] });
    assert.equal(r.status, 201);
    assert.equal(r.body.status, 'created');
    assert.equal((await alice('GET', `/v0/catalogs/download/${r.body.id}`)).status, 200);
    assert.equal((await bob('GET', `/v0/catalogs/download/${r.body.id}`)).status, 404);
    assert.equal((await alice('POST', '/v0/catalogs/download', { catalog_ids: [cat.id], order_item_ids: ['x'] })).status, 400);
    // The OpenAPI's form: both lists present, the one not in use empty.
    assert.equal((await alice('POST', '/v0/catalogs/download', { catalog_ids: [cat.id], order_item_ids: [] })).status, 201);
    assert.equal((await alice('POST', '/v0/catalogs/download', { catalog_ids: [], order_item_ids: [] })).status, 400);
  });
  it('reports CSV in a time zone; 400 unknown tz; 403 without billing rights', async () => {
    const r = await alice('GET', '/v0/reports?tz=Asia/Kolkata');
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /text\/csv/);
    const lines = r.text.trim().split(/\r\n/);
    assert.equal(lines[0], 'order_id,order_item_id,name,type,status,payment_status,area,final_amount,created_at');
    assert.match(lines[1], /\+05:30$/);
    const utc = await alice('GET', '/v0/reports');
    assert.match(utc.text.trim().split(/\r\n/)[1], /\+00:00$/);
    assert.equal((await alice('GET', '/v0/reports?tz=Mars/Olympus')).status, 400);
    assert.equal((await bob('GET', '/v0/reports')).status, 403);
  });
});

describe('insight runs (beyond the interface)', () => {
  it('estimates (200), runs (201), lists with outputs after processing; 400 and 404', async () => {
    const aoi = (await alice('GET', '/v0/aois?aoi_name=Punjab')).body.aois[0];
    const mosaic = (await alice('GET', `/v0/aois/${aoi.aoi_id}/assets`)).body.assets.find((a: any) => a.visualization_id === '');
    const block = (await alice('GET', '/v0/blocks/insights?name=water-extent')).body.blocks[0];
    const input = [
      { ...block.spec.inputs[0], stac_url: `sandbox://assets/${mosaic.id}`, asset_source: { id: mosaic.id, type: 'raw_mosaic' } },
      { ...block.spec.inputs[1], value: '0.3' },
      { ...block.spec.inputs[2], value: 'true' },
    ];
    const body = { name: 'water', project_id: aoi.project_id, block: { name: block.spec.name, version: block.spec.version }, input };
    const est = await alice('POST', `/v0/aoi/${aoi.aoi_id}/insights`, { ...body, estimate: true });
    assert.equal(est.status, 200);
    assert.equal(typeof est.body.estimate, 'number');
    const run = await alice('POST', `/v0/aoi/${aoi.aoi_id}/insights`, body);
    assert.equal(run.status, 201);
    sb.clock.advance(60_000);
    const list = await alice('GET', `/v0/aoi/${aoi.aoi_id}/insights`);
    const mine = list.body.insights.find((x: any) => x.id === run.body.id);
    assert.equal(mine.status, 'success');
    assert.equal(list.body.pagination, undefined, 'the OpenAPI list has no pagination');
    assert.ok(mine.output[0].properties.visualisation && mine.output[0].properties.discretization);
    assert.match(
      (await alice('POST', `/v0/aoi/${aoi.aoi_id}/insights`, { ...body, input: [input[0], { ...input[1], value: 'abc' }, input[2]] })).body.error.message,
      /input\[1\]\.value/,
    );
    assert.match(
      (await alice('POST', `/v0/aoi/${aoi.aoi_id}/insights`, { ...body, input: [{ ...input[0], asset_source: undefined }, input[1], input[2]] })).body.error
        .message,
      /asset_source/,
    );
    assert.match((await alice('POST', `/v0/aoi/${aoi.aoi_id}/insights`, { ...body, input: [input[0], input[1]] })).body.error.message, /include_wetlands/);
    assert.equal((await alice('POST', `/v0/aoi/${aoi.aoi_id}/insights`, { ...body, block: { name: 'water-extent', version: '9.9.9' } })).status, 404);
    assert.equal((await bob('POST', `/v0/aoi/${aoi.aoi_id}/insights`, body)).status, 403);
  });
});
