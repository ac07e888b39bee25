/**
 * Contract: satellites, imagery search, indices, bandsets and blocks
 * (docs/service-interface.md, "Satellites", "Imagery search", "Indices", "Bandsets",
 * "Blocks"). The imagery search's body and answer are the published OpenAPI's, since the
 * interface shows only its `next_token`.
 */
import * as assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { asArray, asObject, assertFields, assertPagination, type Call, caller, expectStatus, type Service, square, startService } from './service';

const INDEX = {
  id: 'string',
  name: 'string',
  description: 'string',
  satellite_id: 'string',
  type: ['custom', 'preset'],
  expression: 'string',
  expression_type: ['composite', 'grayscale', 'index'],
  bands: 'array',
  colormap: 'string',
  rescale: 'array',
  created_at: 'string',
  updated_at: 'string',
} as const;

describe('contract: satellites, imagery search, indices, bandsets, blocks', () => {
  let svc: Service;
  let call: Call;
  before(async () => {
    svc = await startService();
    call = caller(svc);
  });
  after(() => svc.close());

  const satellites = async (): Promise<Record<string, unknown>[]> =>
    asArray(expectStatus(await call('GET', '/v0/satellites'), 200, 'satellites').satellites, 'satellites') as Record<string, unknown>[];

  it('GET /v0/satellites: the whole list at once, each with its collections', async () => {
    const body = expectStatus(await call('GET', '/v0/satellites'), 200, 'satellites');
    assert.ok(!('pagination' in body) && !('next_token' in body), 'not paginated');
    const all = await satellites();
    assert.ok(all.length > 1);
    for (const s of all) {
      assertFields(s, { id: 'string', name: 'string', bands: 'array', collections: 'array' }, 'satellite');
      for (const c of s.collections as unknown[]) assertFields(c, { id: 'string', name: 'string', provider: 'string' }, `satellite ${String(s.id)} collection`);
      for (const b of s.bands as unknown[]) assertFields(b, { name: 'string', wavelength: 'number' }, `satellite ${String(s.id)} band`);
    }
  });

  it('POST /v0/search: items keyed by id, pagination, and a next_token that fetches the following page', async () => {
    const sat = (await satellites())[0];
    const collection = (sat.collections as { id: string }[])[0];
    const body = {
      start_date: '2020-01-01T00:00:00Z',
      end_date: '2025-12-31T23:59:59Z',
      geometry: square(10.5, 45.5, 0.5),
      satellites: [{ satellite_id: sat.id, collection_id: collection.id }],
      filters: [{ id: 'eo:cloud_cover', min: 0, max: 100 }],
      limit: 2,
    };
    const first = expectStatus(await call('POST', '/v0/search', body), 200, 'imagery search');
    const items = asObject(first.items, 'search items (an object keyed by item id)');
    const ids = Object.keys(items);
    assert.equal(ids.length, 2, 'limit 2');
    for (const id of ids) {
      assertFields(items[id], { id: 'string', type: ['Feature'], geometry: 'object', properties: 'object' }, `item ${id}`);
      assert.equal((items[id] as { id: string }).id, id, 'keyed by its own id');
    }
    assertFields(first.pagination, { limit: 'integer', skip: 'integer', total: 'integer' }, 'search pagination');
    assert.equal(typeof first.next_token, 'string', `next_token: ${JSON.stringify(first.next_token)}`);
    const second = expectStatus(await call('POST', '/v0/search', { ...body, next_token: first.next_token }), 200, 'imagery search page 2');
    const more = Object.keys(asObject(second.items, 'page 2 items'));
    assert.ok(more.length > 0 && more.every((id) => !ids.includes(id)), 'page 2 holds other items');
    const tampered = await call('POST', '/v0/search', { ...body, next_token: `${String(first.next_token)}x` });
    assert.equal(tampered.status, 400, 'a tampered next_token');
    const unknown = await call('POST', '/v0/search', { ...body, satellites: [{ satellite_id: 'no-such-satellite', collection_id: 'x' }] });
    assert.equal(unknown.status, 400, 'an unknown satellite');
  });

  it('GET /v0/indices: {indices, pagination}, offset 0 and limit 10 by default; filters by type and satellite', async () => {
    const all = expectStatus(await call('GET', '/v0/indices'), 200, 'indices');
    assertPagination(all, 'indices', { limit: 10, offset: 0 });
    const list = asArray(all.indices, 'indices');
    assert.ok(list.length > 0 && list.length <= 10);
    for (const i of list) {
      assertFields(i, INDEX, 'index');
      assert.equal((i as { rescale: unknown[] }).rescale.length, 2, 'rescale is [min, max]');
    }
    const presets = asArray(expectStatus(await call('GET', '/v0/indices?type=preset&limit=100'), 200, 'preset indices').indices, 'indices') as {
      type: string;
    }[];
    assert.ok(presets.length > 0 && presets.every((i) => i.type === 'preset'));
    const sat = (list[0] as { satellite_id: string }).satellite_id;
    const forSat = asArray(expectStatus(await call('GET', `/v0/indices?satellite_id=${sat}&limit=100`), 200, 'indices by satellite').indices, 'indices') as {
      satellite_id: string;
    }[];
    assert.ok(forSat.every((i) => i.satellite_id === sat));
  });

  it('POST /v0/indices: 201 custom index with its bands; 409 for a name taken; 400 for a band the satellite lacks', async () => {
    const sat = (await satellites()).find((s) => (s.bands as unknown[]).length >= 2) as { id: string; bands: { name: string }[] };
    const [a, b] = sat.bands.map((x) => x.name);
    const request = {
      name: `contract-${Date.now()}`,
      description: 'ratio',
      expression: `(${a}-${b})/(${a}+${b})`,
      expression_type: 'index',
      satellite_id: sat.id,
      colormap: 'viridis',
      rescale: [-1, 1],
    };
    const made = expectStatus(await call('POST', '/v0/indices', request), 201, 'create index');
    assertFields(made, INDEX, 'index (created)');
    assert.equal(made.type, 'custom');
    assert.deepEqual([...(made.bands as string[])].sort(), [a, b].sort());
    assert.equal((await call('POST', '/v0/indices', request)).status, 409);
    assert.equal((await call('POST', '/v0/indices', { ...request, name: `${request.name}-2`, expression: `${a}/NO_SUCH_BAND` })).status, 400);
  });

  it('GET /v0/bandsets: {bandsets} with bands of {name, wavelength}', async () => {
    const body = expectStatus(await call('GET', '/v0/bandsets'), 200, 'bandsets');
    const list = asArray(body.bandsets, 'bandsets');
    assert.ok(list.length > 0);
    for (const b of list) {
      assertFields(b, { id: 'string', name: 'string', description: 'string', captures: 'integer', bands: 'array' }, 'bandset');
      for (const band of (b as { bands: unknown[] }).bands) assertFields(band, { name: 'string', wavelength: 'number' }, 'bandset band');
    }
  });

  it('GET /v0/blocks/insights?name=: {blocks} whose spec has name, version and inputs', async () => {
    const all = asArray(expectStatus(await call('GET', '/v0/blocks'), 200, 'blocks').blocks, 'blocks') as { spec?: { name: string } }[];
    assert.ok(all.length > 0);
    const name = all.find((b) => b.spec?.name)?.spec?.name;
    assert.ok(name, 'a block with a spec name');
    const found = asArray(expectStatus(await call('GET', `/v0/blocks/insights?name=${encodeURIComponent(name)}`), 200, 'insight blocks').blocks, 'blocks');
    assert.ok(found.length >= 1);
    for (const b of found) {
      const spec = asObject((b as { spec: unknown }).spec, 'block spec');
      assertFields(spec, { name: 'string', version: 'string', inputs: 'array' }, 'block spec');
      assert.equal(spec.name, name);
      for (const input of spec.inputs as unknown[]) {
        // The interface names four formats (raster, vector, date, number) and the value types below.
        assertFields(input, { name: 'string', format: 'string', type: ['url', 'string', 'number', 'boolean'] }, 'block input');
      }
    }
  });
});
