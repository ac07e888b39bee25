/**
 * Contract: catalogs, cloud stores, deliveries, downloads and the order report
 * (docs/service-interface.md, "Catalogs", "Cloud stores", "Deliveries and downloads",
 * "Reports"). Secrets are write-only; delete answers 204 with no body; the report is CSV.
 */
import * as assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { asArray, assertErrorBody, assertFields, assertPagination, type Call, caller, expectStatus, ISO_T, type Service, startService } from './service';

const CATALOG = {
  id: 'string',
  org_id: 'string',
  task_id: 'string',
  bandset_id: 'string',
  area: 'number',
  delivery_status: 'string',
  created_at: 'string',
  updated_at: 'string',
} as const;
const STORE = {
  id: 'string',
  name: 'string',
  type: ['S3', 'GCS', 'AZBLOB'],
  configs: 'object',
  labels: 'object',
  created_at: ISO_T,
  updated_at: ISO_T,
  created_by: 'string',
} as const;
const DELIVERY = {
  delivery_id: 'string',
  catalog_id: 'string',
  task_id: 'string',
  status: 'string',
  target_path: 'string',
  cloud_delivery: 'object',
  created_at: 'string',
  updated_at: 'string',
} as const;
const DOWNLOAD_STATUS = ['success', 'created', 'failed', 'in_progress'];

describe('contract: catalogs, stores, deliveries, downloads, reports', () => {
  let svc: Service;
  let call: Call;
  before(async () => {
    // A fast clock, so that a download reaches `success` within the test.
    svc = await startService(['--speed', '600']);
    call = caller(svc);
  });
  after(() => svc.close());

  const catalogs = async (body: unknown = {}): Promise<{ body: Record<string, unknown>; list: Record<string, unknown>[] }> => {
    const b = expectStatus(await call('POST', '/v0/catalogs/search', body), 200, 'catalog search');
    return { body: b, list: asArray(b.catalogs, 'catalogs') as Record<string, unknown>[] };
  };

  // The default limit is the OpenAPI's 2: the interface states none, and the OpenAPI comes
  // before our own decisions (docs/service-interface.md, "Precedence").
  it('POST /v0/catalogs/search: {catalogs, pagination}, limit 2 by default; GET /v0/catalogs/{id}', async () => {
    const { body, list } = await catalogs();
    assertPagination(body, 'catalogs', { limit: 2, offset: 0 });
    assert.ok(list.length > 0 && list.length <= 2);
    for (const c of list) assertFields(c, CATALOG, 'catalog');
    const one = expectStatus(await call('GET', `/v0/catalogs/${String(list[0].id)}`), 200, 'get catalog');
    assertFields(one, CATALOG, 'catalog (get)');
    const byIds = (await catalogs({ ids: [list[0].id] })).list;
    assert.deepEqual(
      byIds.map((c) => c.id),
      [list[0].id],
      'ids filter',
    );
    const missing = await call('GET', '/v0/catalogs/no-such-catalog');
    assert.equal(missing.status, 404);
    assertErrorBody(missing, 'catalog 404');
  });

  it('stores: 201 without secrets, 400 naming missing secret keys, 409 for a name taken, DELETE 204 with no body', async () => {
    const request = {
      name: `contract-${Date.now()}`,
      type: 'S3',
      configs: { bucket: 'contract-bucket', region: 'eu-west-1', path_prefix: 'in/' },
      secrets: { access_key_id: 'AKIACONTRACT', secret_access_key: 'contract-secret-value' },
      labels: { team: 'qa' },
    };
    const r = await call('POST', '/v0/stores', request);
    const made = expectStatus(r, 201, 'create store');
    assertFields(made, STORE, 'store (created)');
    assert.ok(!('secrets' in made) && !r.text.includes('contract-secret-value') && !r.text.includes('AKIACONTRACT'), 'no secret in the answer');
    const listed = expectStatus(await call('GET', '/v0/stores'), 200, 'stores');
    const stores = asArray(listed.stores, 'stores');
    for (const s of stores) assertFields(s, STORE, 'store');
    assert.ok(!JSON.stringify(listed).includes('contract-secret-value'), 'no secret in the list');

    assert.equal((await call('POST', '/v0/stores', request)).status, 409, 'name taken');
    const noSecrets = await call('POST', '/v0/stores', { ...request, name: `${request.name}-b`, secrets: {} });
    assert.equal(noSecrets.status, 400);
    assertErrorBody(noSecrets, 'store 400');
    assert.match(noSecrets.text, /access_key_id/);
    assert.match(noSecrets.text, /secret_access_key/);

    const del = await call('DELETE', `/v0/stores/${String(made.id)}`);
    assert.equal(del.status, 204);
    assert.equal(del.text, '', '204 has no body');
    const after = asArray(expectStatus(await call('GET', '/v0/stores'), 200, 'stores').stores, 'stores') as { id: string }[];
    assert.ok(!after.some((s) => s.id === made.id), 'deleted');
    assert.equal((await call('DELETE', `/v0/stores/${String(made.id)}`)).status, 404, 'deleting again');
  });

  it('deliveries: 201 {deliveries}, listed by catalog; both id lists at once is 400', async () => {
    const store = asArray(expectStatus(await call('GET', '/v0/stores'), 200, 'stores').stores, 'stores')[0] as { id: string };
    const catalog = (await catalogs()).list[0];
    const r = await call('POST', '/v0/catalogs/deliveries', {
      deliveries: [{ catalog_ids: [catalog.id], cloud_info: { config: store.id, path: 'contract/' } }],
    });
    const made = asArray(expectStatus(r, 201, 'deliver').deliveries, 'deliveries');
    assert.equal(made.length, 1);
    assertFields(made[0], DELIVERY, 'delivery');
    assert.equal((made[0] as { catalog_id: string }).catalog_id, catalog.id);
    assertFields((made[0] as { cloud_delivery: unknown }).cloud_delivery, { config: 'string', path: 'string' }, 'delivery.cloud_delivery');
    const listed = asArray(
      expectStatus(await call('GET', `/v0/catalogs/deliveries?catalog_id=${String(catalog.id)}`), 200, 'deliveries').deliveries,
      'deliveries',
    ) as { delivery_id: string; catalog_id: string }[];
    assert.ok(listed.some((d) => d.delivery_id === (made[0] as { delivery_id: string }).delivery_id));
    assert.ok(
      listed.every((d) => d.catalog_id === catalog.id),
      'catalog_id filter',
    );
    const both = await call('POST', '/v0/catalogs/deliveries', {
      deliveries: [{ catalog_ids: [catalog.id], order_item_ids: ['x'], cloud_info: { config: store.id, path: 'p/' } }],
    });
    assert.equal(both.status, 400);
    assertErrorBody(both, 'delivery 400');
  });

  it('downloads: 201 Download, then GET until success with a signed_url that serves the data', async () => {
    const catalog = (await catalogs()).list[0];
    const made = expectStatus(await call('POST', '/v0/catalogs/download', { catalog_ids: [catalog.id] }), 201, 'download');
    assertFields(made, { id: 'string', status: DOWNLOAD_STATUS }, 'download');
    let d = made;
    for (let i = 0; i < 100 && d.status !== 'success' && d.status !== 'failed'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      d = expectStatus(await call('GET', `/v0/catalogs/download/${String(made.id)}`), 200, 'download status');
      assertFields(d, { id: 'string', status: DOWNLOAD_STATUS }, 'download (get)');
    }
    assert.equal(d.status, 'success');
    assert.equal(typeof d.signed_url, 'string');
    const data = await fetch(String(d.signed_url));
    assert.equal(data.status, 200);
    assert.ok((await data.arrayBuffer()).byteLength > 0, 'the signed URL serves bytes');
    const missing = await call('GET', '/v0/catalogs/download/no-such-download');
    assert.equal(missing.status, 404);
    assertErrorBody(missing, 'download 404');
  });

  it('GET /v0/reports: a text/csv body with a header row; an unknown tz is 400', async () => {
    const r = await call('GET', '/v0/reports?tz=Europe/Paris');
    assert.equal(r.status, 200);
    assert.match(r.contentType, /^text\/csv/);
    const lines = r.text.trim().split(/\r?\n/);
    assert.ok(lines.length > 1, 'a header and rows');
    assert.ok(lines[0].split(',').length > 1, `header: ${lines[0]}`);
    const bad = await call('GET', '/v0/reports?tz=Not/AZone');
    assert.equal(bad.status, 400);
  });
});
