/**
 * The sandbox's answers, for every endpoint the extension uses, against schemas written from
 * the published OpenAPI (schemas.ts, docs/service-interface.md). The sandbox runs as its own
 * process (service.ts) and is reached with plain `fetch`, so nothing of the client's tolerant
 * reading hides a wrong shape. The request bodies our client builds are checked against the
 * same request schemas in test/unit/api/requestBodies.test.ts.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are untyped JSON, checked by the schemas */
import { after, before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import Ajv, { type ValidateFunction } from 'ajv';
import * as S from './schemas';
import { type Service, startService } from './service';

type Polygon = { type: 'Polygon'; coordinates: number[][][] };
type Satellite = { id: string; collections: { id: string; provider: string }[] };
const ajv = new Ajv({ allErrors: true, strict: false });
const compiled = new Map<object, ValidateFunction>();

function check(schema: object, value: unknown, what: string): void {
  let v = compiled.get(schema);
  if (!v) compiled.set(schema, (v = ajv.compile(schema)));
  assert.ok(v(value), `${what}: ${ajv.errorsText(v.errors, { separator: '\n' })}`);
}

const square = (lon: number, lat: number, d = 0.05): Polygon => ({
  type: 'Polygon',
  coordinates: [
    [
      [lon, lat],
      [lon + d, lat],
      [lon + d, lat + d],
      [lon, lat + d],
      [lon, lat],
    ],
  ],
});

describe("contract: the sandbox answers in the OpenAPI's shapes", () => {
  let sb: Service;
  const call = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> => {
    const res = await fetch(sb.url + path, {
      method,
      headers: { authorization: `Bearer ${sb.tokens.alice}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text };
  };
  const ok = async (schema: object, method: string, path: string, body?: unknown): Promise<any> => {
    const r = await call(method, path, body);
    assert.ok(r.status >= 200 && r.status < 300, `${method} ${path}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
    check(schema, r.body, `${method} ${path}`);
    return r.body;
  };

  before(async () => {
    sb = await startService();
  });
  after(async () => {
    await sb?.close();
  });

  it('projects, AOIs, assets, satellites, indices, bandsets', async () => {
    await ok(S.projectList, 'GET', '/v0/projects');
    const aois = await ok(S.aoiList, 'GET', '/v0/aois?limit=5');
    await ok(S.aoi, 'GET', `/v0/aoi/${aois.aois[0].aoi_id}`);
    await ok(S.assetList, 'GET', `/v0/aois/${aois.aois[0].aoi_id}/assets`);
    await ok(S.satellites, 'GET', '/v0/satellites');
    await ok(S.indexList, 'GET', '/v0/indices?limit=100');
    await ok(S.bandsets, 'GET', '/v0/bandsets');
  });

  it('imagery search and AOI creation', async () => {
    const sats = (await call('GET', '/v0/satellites')).body.satellites as Satellite[];
    const s2 = sats.find((s) => s.id === 'sentinel-2')!;
    const geometry = square(-120.45, 36.75);
    const body = {
      start_date: '2015-01-01T00:00:00Z',
      end_date: new Date().toISOString(),
      geometry,
      satellites: [{ satellite_id: s2.id, collection_id: s2.collections[0].id }],
      filters: [{ id: 'eo:cloud_cover', min: 0, max: 40 }],
      limit: 5,
    };
    check(S.imagerySearchRequest, body, 'imagery search body');
    const found = await ok(S.imagerySearch, 'POST', '/v0/search', { ...body, start_date: '2015-01-01T00:00:00Z' });
    const itemIds = Object.keys(found.items);
    assert.ok(itemIds.length > 0);
    // what commands/aois/createAoi.ts sends: the collection's provider and the picked items
    const project = (await call('GET', '/v0/projects')).body.projects[0];
    const create = {
      name: `Contract ${Date.now()}`,
      description: '',
      project_id: project.id,
      satellite_id: s2.id,
      provider: s2.collections[0].provider,
      geometry,
      item_ids: itemIds.slice(0, 2),
    };
    check(S.createAoiRequest, create, 'create AOI body');
    const aoi = await ok(S.aoi, 'POST', '/v0/aois', create);
    assert.equal(aoi.status, 'started');
  });

  it('indices and visualizations: integer rescale, dated legends', async () => {
    const req = {
      name: `Contract ratio ${Date.now()}`,
      description: 'B04 over B03',
      expression: 'B04/B03',
      expression_type: 'index',
      satellite_id: 'sentinel-2',
      colormap: 'viridis',
      rescale: [0, 3],
    };
    check(S.createIndexRequest, req, 'create index body');
    await ok(S.index, 'POST', '/v0/indices', req);
    const aoi = (await call('GET', '/v0/aois?limit=100')).body.aois.find(
      (a: { satellite_id: string; status: string }) => a.satellite_id === 'sentinel-2' && a.status === 'success',
    );
    const assets = (await call('GET', `/v0/aois/${aoi.aoi_id}/assets?limit=100`)).body.assets.filter(
      (a: { visualization_id: string }) => a.visualization_id === '',
    );
    const preset = (await call('GET', '/v0/indices?type=preset&satellite_id=sentinel-2&limit=100')).body.indices.find(
      (i: { name: string }) => i.name === 'NDWI',
    );
    await ok(S.visualizationDetail, 'POST', `/v0/aois/${aoi.aoi_id}/visualizations`, { index_id: preset.id, src_asset_ids: [assets[0].id] });
    await ok(S.visualizationList, 'GET', `/v0/aois/${aoi.aoi_id}/visualizations`);
  });

  it('blocks on all three paths', async () => {
    const list = await ok(S.blockList, 'GET', '/v0/blocks');
    await ok(S.blockList, 'GET', '/v0/blocks?mode=insight');
    const name = list.blocks[0].spec.name;
    await ok(S.blockList, 'GET', `/v0/blocks/insights?name=${name}`);
    await ok(S.blockList, 'GET', `/v0/blocks/${name}`);
    await ok(S.block, 'GET', `/v0/blocks/${name}/versions/${list.blocks[0].spec.version}`);
  });

  it("insight runs: price, create, list (no pagination), download; the client's body fits the request schema", async () => {
    const aois = (await call('GET', '/v0/aois?limit=100')).body.aois as { aoi_id: string; project_id: string }[];
    let seeded: { aoi: { aoi_id: string; project_id: string }; run: any } | undefined;
    for (const aoi of aois) {
      const list = await ok(S.insightRunList, 'GET', `/v0/aoi/${aoi.aoi_id}/insights`);
      const run = list.insights.find((r: any) => r.status === 'success');
      if (run && !seeded) seeded = { aoi, run };
    }
    assert.ok(seeded, 'a finished seeded run');
    const { aoi, run } = seeded;
    const body = {
      name: 'contract',
      project_id: aoi.project_id,
      block: { name: run.metadata.block_name, version: run.metadata.block_version },
      input: run.input,
      metadata: { block_name: run.metadata.block_name, block_version: run.metadata.block_version },
    };
    check(S.createInsightRequest, body, 'create insight body');
    await ok(S.insightEstimate, 'POST', `/v0/aoi/${aoi.aoi_id}/insights`, { ...body, estimate: true });
    const created = await ok(S.insightCreated, 'POST', `/v0/aoi/${aoi.aoi_id}/insights`, body);
    const one = await ok(S.insightRunList, 'GET', `/v0/aoi/${aoi.aoi_id}/insights?id=${created.id}`);
    assert.deepEqual(
      one.insights.map((r: any) => r.id),
      [created.id],
    );
    await ok(S.insightDownload, 'PUT', `/v0/aoi/${aoi.aoi_id}/insights/${run.id}/download`, { outputs: [run.output[0].name] });
    assert.equal(
      ajv.compile(S.insightRunList)({ insights: [], pagination: { limit: 1, offset: 0, total: 0 } }),
      false,
      "a paginated list is not the OpenAPI's",
    );
    assert.equal(ajv.compile(S.createInsightRequest)({ block: { name: 'b' }, input: [] }), false, 'block.version missing');
  });

  it('orders, order items, archives, catalogs, stores, deliveries, downloads', async () => {
    const project = (await call('GET', '/v0/projects')).body.projects[0];
    const fc = await ok(S.featureCollection, 'POST', '/v0/archives/search', { bbox: [-120.6, 36.6, -120.3, 36.9], collections: ['sentinel-2-l2a'], limit: 2 });
    const item = {
      project_id: project.id,
      name: 'Contract archive',
      usecase: 'agriculture',
      geometry: { type: 'FeatureCollection', features: [{ type: 'Feature', properties: {}, geometry: square(-120.5, 36.7, 0.2) }] },
      item_ids: [fc.features[0].id],
    };
    check(S.createOrderRequest, { dry_run: false, order_items: [item] }, 'create order body');
    await ok(S.orderCreated, 'POST', '/v0/orders', { dry_run: false, order_items: [item] });
    await ok(S.orderList, 'GET', '/v0/orders');
    await ok(S.orderItemList, 'GET', '/v0/order-items?limit=20');
    await ok(S.archiveCollections, 'GET', '/v0/archives/collections');
    await ok(S.featureCollection, 'GET', '/v0/archives/collections/sentinel-2-l2a/items?limit=2');
    const cats = await ok(S.catalogList, 'POST', '/v0/catalogs/search', { limit: 100 });
    const archived = cats.catalogs.filter((c: { item_id?: string }) => c.item_id);
    assert.ok(archived.length > 0 && archived.every((c: { details?: unknown }) => c.details), 'archive catalogs carry their STAC item in details');
    await ok(S.storeList, 'GET', '/v0/stores');
    await ok(S.deliveryList, 'GET', '/v0/catalogs/deliveries');
    const dl = await ok(S.download, 'POST', '/v0/catalogs/download', { catalog_ids: [cats.catalogs[0].id] });
    await ok(S.download, 'GET', `/v0/catalogs/download/${dl.id}`);
  });

  it('the request schemas refuse what the service refuses (the schemas can fail)', () => {
    const v = ajv.compile(S.imagerySearchRequest);
    assert.equal(v({ start_date: 'a', end_date: 'b', geometry: square(0, 0), satellites: [{ satellite_id: 's' }] }), false, 'collection_id missing');
    assert.equal(
      v({
        start_date: 'a',
        end_date: 'b',
        geometry: square(0, 0),
        satellites: [{ satellite_id: 's', collection_id: 'c' }],
        filters: [{ id: 'eo:cloud_cover', max: 10 }],
      }),
      false,
      'min missing',
    );
    assert.equal(
      ajv.compile(S.createOrderRequest)({ order_items: [{ project_id: 'p', geometry: { type: 'FeatureCollection', features: [] } }] }),
      false,
      'usecase missing',
    );
    assert.equal(
      ajv.compile(S.createAoiRequest)({ name: 'n', description: '', satellite_id: 's', project_id: 'p', geometry: square(0, 0) }),
      false,
      'provider, item_ids missing',
    );
  });
});
