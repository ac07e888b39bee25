/**
 * Contract: projects, AOIs, assets and visualizations (docs/service-interface.md, "Projects",
 * "AOIs and assets", "Create an AOI", "Visualizations", "Conventions"). Expected values come from the interface and, where it
 * says "not shown", from the published OpenAPI as that document records it.
 */
import * as assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  asArray,
  asObject,
  assertFields,
  assertPagination,
  type Call,
  caller,
  expectStatus,
  ISO_T,
  type Service,
  SPACE_MICROS,
  square,
  startService,
  YMD,
} from './service';

const PROJECT = { id: 'string', name: 'string', title: 'string', org_id: 'string', created_at: 'string', updated_at: 'string', metadata: 'object' } as const;
const AOI = {
  aoi_id: 'string',
  name: 'string',
  description: 'string',
  satellite_id: 'string',
  project_id: 'string',
  images: 'object',
  eo_bands: 'array',
  geometry: 'object',
  progress: 'integer',
  status: 'string',
  is_favourite: 'boolean',
  created_at: ISO_T,
  updated_at: ISO_T,
  user_id: 'string',
  area_in_sq_m: 'number',
  centroid: 'array',
} as const;
const ASSET = {
  id: 'string',
  aoi_id: 'string',
  visualization_id: 'string',
  name: 'string',
  description: 'string',
  asset_type: 'string',
  band_list: 'array',
  centroid: 'array',
  geometry: 'object',
  area_in_sq_m: 'number',
  date: YMD,
  path: 'string',
  progress: 'integer',
  status: 'string',
  created_at: SPACE_MICROS,
  updated_at: SPACE_MICROS,
} as const;
const VISUALIZATION_LIST_ITEM = {
  id: 'string',
  aoi_id: 'string',
  index_id: 'string',
  user_id: 'string',
  tenant_id: 'string',
  progress: 'integer',
  status: 'string',
  created_at: SPACE_MICROS,
  updated_at: SPACE_MICROS,
} as const;

describe('contract: projects, AOIs, assets, visualizations', () => {
  let svc: Service;
  let call: Call;
  before(async () => {
    svc = await startService();
    call = caller(svc);
  });
  after(() => svc.close());

  const list = async (path: string, key: string): Promise<{ body: Record<string, unknown>; items: Record<string, unknown>[] }> => {
    const body = expectStatus(await call('GET', path), 200, path);
    return { body, items: asArray(body[key], `${path} .${key}`) as Record<string, unknown>[] };
  };

  it('GET /v0/projects: {count, projects}, paged by page_num and page_size; members_count in the list only', async () => {
    const { body, items } = await list('/v0/projects', 'projects');
    assert.ok(Number.isInteger(body.count), `count: ${JSON.stringify(body.count)}`);
    assert.ok(items.length > 0);
    for (const p of items) assertFields(p, { ...PROJECT, members_count: 'integer' }, 'project (list)');
    const page = await list('/v0/projects?page_num=1&page_size=1', 'projects');
    assert.equal(page.items.length, 1);
    if ((body.count as number) > 1) {
      const second = await list('/v0/projects?page_num=2&page_size=1', 'projects');
      assert.equal(second.items.length, 1);
      assert.notEqual(second.items[0].id, page.items[0].id, 'page 2 starts after page 1');
    }
    const one = expectStatus(await call('GET', `/v0/projects/${String(items[0].id)}`), 200, 'get project');
    assertFields(one.project, PROJECT, 'project (get)');
    assert.ok(!('members_count' in asObject(one.project, 'project')), 'members_count is only in the list response');
    const missing = await call('GET', '/v0/projects/no-such-project');
    assert.equal(missing.status, 404);
    asObject(missing.json, 'project 404 body (free-form JSON object)');
  });

  it('GET /v0/aois: {aois, pagination}, offset 0 and limit 10 by default; AOI timestamps ISO 8601 with T', async () => {
    const { body, items } = await list('/v0/aois', 'aois');
    const p = assertPagination(body, 'aois', { limit: 10, offset: 0 });
    assert.ok(items.length <= 10 && items.length === Math.min(10, p.total), `${items.length} AOIs of ${p.total}`);
    for (const a of items) {
      assertFields(a, AOI, 'AOI');
      assert.equal((a.centroid as unknown[]).length, 2, 'centroid is [lon, lat]');
      assert.equal((a.geometry as { type: string }).type, 'Polygon');
    }
    const next = await list('/v0/aois?offset=1&limit=1', 'aois');
    assertPagination(next.body, 'aois page', { limit: 1, offset: 1 });
    assert.equal(next.items[0]?.aoi_id, items[1]?.aoi_id, 'offset 1 is the second AOI');
    const byName = await list(`/v0/aois?aoi_name=${encodeURIComponent(String(items[0].name))}`, 'aois');
    assert.ok(byName.items.every((a) => a.name === items[0].name) && byName.items.length >= 1, 'aoi_name filters');
    // The read path is the singular /v0/aoi/{id}, answering the AOI itself.
    const one = expectStatus(await call('GET', `/v0/aoi/${String(items[0].aoi_id)}`), 200, 'get AOI');
    assertFields(one, AOI, 'AOI (get)');
    assert.equal(one.aoi_id, items[0].aoi_id);
    assert.equal((await call('GET', '/v0/aoi/no-such-aoi')).status, 404);
  });

  it('assets and visualizations: {assets|visualization (singular), pagination}; timestamps `YYYY-MM-DD HH:MM:SS.ffffff+00:00`, asset date YYYY-MM-DD', async () => {
    const aois = (await list('/v0/aois?limit=100', 'aois')).items;
    let sawAsset = false;
    let sawVisualization = false;
    for (const a of aois) {
      const assets = await list(`/v0/aois/${String(a.aoi_id)}/assets`, 'assets');
      assertPagination(assets.body, 'assets', { limit: 10, offset: 0 });
      for (const x of assets.items) {
        assertFields(x, ASSET, 'asset');
        assert.equal(x.aoi_id, a.aoi_id);
        sawAsset = true;
      }
      const vis = await list(`/v0/aois/${String(a.aoi_id)}/visualizations`, 'visualization');
      assert.ok(!('visualizations' in vis.body), 'the array key is `visualization`, singular');
      assertPagination(vis.body, 'visualizations', { limit: 10, offset: 0 });
      for (const v of vis.items) {
        assertFields(v, VISUALIZATION_LIST_ITEM, 'visualization');
        sawVisualization = true;
      }
      if (sawAsset && sawVisualization) break;
    }
    assert.ok(sawAsset && sawVisualization, 'the seeded account has AOIs with assets and visualizations');
  });

  it('POST /v0/aois/{id}/visualizations: 201 with the legend the interface rules call for', async () => {
    const aois = (await list('/v0/aois?limit=100', 'aois')).items;
    for (const a of aois) {
      const assets = (await list(`/v0/aois/${String(a.aoi_id)}/assets`, 'assets')).items.filter((x) => x.asset_type === 'mosaic');
      if (assets.length === 0) continue;
      const indices = (await list(`/v0/indices?satellite_id=${String(a.satellite_id)}&limit=100`, 'indices')).items;
      const preset = indices.find((i) => i.type === 'preset' && i.expression_type === 'index');
      assert.ok(preset, `a preset index for ${String(a.satellite_id)}`);
      // Custom indices of the AOI's bands: an `index` ratio and a composite.
      const [b1, b2, b3] = (assets[0].band_list as string[]).filter((b) => /^[A-Za-z][A-Za-z0-9_]*$/.test(b));
      const custom = async (expression_type: string, expression: string): Promise<Record<string, unknown>> =>
        expectStatus(
          await call('POST', '/v0/indices', {
            name: `contract ${expression_type} ${Date.now()}`,
            description: 'contract suite',
            expression,
            expression_type,
            satellite_id: a.satellite_id,
            colormap: 'viridis',
            rescale: [0, 1],
          }),
          201,
          `create custom ${expression_type} index`,
        );
      const ratio = await custom('index', `(${b1}-${b2})/(${b1}+${b2})`);
      const composite = await custom('composite', `${b1},${b2},${b3}`);
      // `metadata.legend`, keyed by date (YYYY_MM_DD), each {dynamic?, theoretical?}
      // (docs/service-interface.md, "Visualizations"): the modes present on any date.
      const legendOf = (v: Record<string, unknown>): Record<string, unknown> | undefined => {
        const legend = (v.metadata as { legend?: Record<string, Record<string, unknown>> } | undefined)?.legend;
        if (!legend) return undefined;
        const dates = Object.keys(legend);
        assert.ok(
          dates.every((d) => /^\d{4}_\d{2}_\d{2}$/.test(d)),
          `legend dates: ${dates.join(', ')}`,
        );
        return Object.assign({}, ...dates.map((d) => legend[d])) as Record<string, unknown>;
      };
      const visualize = async (index: Record<string, unknown>, what: string): Promise<Record<string, unknown> | undefined> => {
        const made = expectStatus(
          await call('POST', `/v0/aois/${String(a.aoi_id)}/visualizations`, { index_id: index.id, src_asset_ids: [assets[0].id] }),
          201,
          `visualize ${what}`,
        );
        assertFields(made, { id: 'string', aoi_id: 'string', index_id: 'string', created_at: SPACE_MICROS }, `visualization of ${what}`);
        return legendOf(made);
      };
      // The interface's rules: preset → dynamic and theoretical; custom `index` → dynamic only;
      // custom composite → no legend metadata.
      const presetLegend = await visualize(preset, 'a preset index');
      assert.ok(presetLegend?.dynamic !== undefined && presetLegend.theoretical !== undefined, `preset legend: ${JSON.stringify(presetLegend)?.slice(0, 300)}`);
      const ratioLegend = await visualize(ratio, 'a custom index');
      assert.ok(
        ratioLegend?.dynamic !== undefined && ratioLegend.theoretical === undefined,
        `custom index legend: ${JSON.stringify(ratioLegend)?.slice(0, 300)}`,
      );
      const compositeLegend = await visualize(composite, 'a custom composite');
      assert.ok(
        compositeLegend === undefined || (compositeLegend.dynamic === undefined && compositeLegend.theoretical === undefined),
        `custom composite legend: ${JSON.stringify(compositeLegend)?.slice(0, 300)}`,
      );
      assert.equal((await call('POST', '/v0/aois/no-such-aoi/visualizations', { index_id: preset.id, src_asset_ids: [assets[0].id] })).status, 404);
      return;
    }
    assert.fail('no AOI with a mosaic asset to visualize');
  });

  it('POST /v0/aois: 201 AOI with area and centroid; 400 for a bad polygon, 409 for a name taken, 403 for another user’s project', async () => {
    const projects = (await list('/v0/projects', 'projects')).items;
    const sats = asArray(expectStatus(await call('GET', '/v0/satellites'), 200, 'satellites').satellites, 'satellites') as Record<string, unknown>[];
    // Where the account already has imagery: beside one of its AOIs, with that AOI's satellite.
    const near = (await list('/v0/aois?limit=100', 'aois')).items.find((a) => sats.some((x) => x.id === a.satellite_id));
    assert.ok(near, 'an AOI of a listed satellite');
    const sat = sats.find((x) => x.id === near.satellite_id)!;
    const collection = asArray(sat.collections, 'satellite.collections')[0] as { id: string; provider: string };
    const [lon0, lat0] = near.centroid as number[];
    const geometry = square(lon0, lat0, 0.05);
    const search = expectStatus(
      await call('POST', '/v0/search', {
        start_date: '2015-01-01T00:00:00Z',
        end_date: new Date().toISOString(),
        geometry,
        satellites: [{ satellite_id: sat.id, collection_id: collection.id }],
        limit: 3,
      }),
      200,
      'imagery search',
    );
    const itemIds = Object.keys(asObject(search.items, 'search items'));
    assert.ok(itemIds.length > 0, `imagery of ${String(sat.id)} over ${lon0}, ${lat0}`);
    const request = {
      name: `contract AOI ${Date.now()}`,
      description: 'made by the contract suite',
      satellite_id: sat.id,
      provider: collection.provider,
      project_id: projects[0].id,
      geometry,
      item_ids: itemIds.slice(0, 1),
    };
    const made = expectStatus(await call('POST', '/v0/aois', request), 201, 'create AOI');
    assertFields(made, AOI, 'AOI (created)');
    assert.equal(made.name, request.name);
    // 0.1° × 0.1°: about 111.3 km × 110.6 km × cos(latitude) / 100, within 5 %.
    const km2 = (made.area_in_sq_m as number) / 1e6;
    const expected = (111.32 * 110.57 * Math.cos((lat0 * Math.PI) / 180)) / 100;
    assert.ok(Math.abs(km2 - expected) / expected < 0.05, `area ${km2} km², expected about ${expected.toFixed(1)}`);
    const [lon, lat] = made.centroid as number[];
    assert.ok(Math.abs(lon - lon0) < 0.01 && Math.abs(lat - lat0) < 0.01, `centroid ${lon}, ${lat}`);
    assert.equal((await call('POST', '/v0/aois', request)).status, 409, 'the same name again in the same project');
    const open = {
      ...request,
      name: `${request.name} open`,
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [10, 45],
            [11, 45],
            [11, 46],
            [10, 46],
          ],
        ],
      },
    };
    assert.equal((await call('POST', '/v0/aois', open)).status, 400, 'a ring that is not closed');
    const bobsProject = asArray(expectStatus(await caller(svc, 'bob')('GET', '/v0/projects'), 200, 'bob projects').projects, 'projects')[0] as { id: string };
    assert.equal((await call('POST', '/v0/aois', { ...request, name: `${request.name} foreign`, project_id: bobsProject.id })).status, 403);
  });
});
