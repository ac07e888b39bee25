/**
 * Contract: authentication and scoping (docs/service-interface.md, "Authentication" and
 * "Errors"). Every /v0 endpoint needs the `Authorization` header; ping does not; both the
 * `Bearer <token>` form and the bare token are accepted; one service user cannot read
 * another's projects or AOIs.
 */
import * as assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertErrorBody, asArray, asObject, caller, expectStatus, type Service, startService } from './service';

/** One request per endpoint of the interface; ids need not exist (the token is checked first). */
const ENDPOINTS: [method: string, path: string, body?: unknown][] = [
  ['GET', '/v0/projects'],
  ['GET', '/v0/projects/p1'],
  ['GET', '/v0/aois'],
  ['POST', '/v0/aois', {}],
  ['GET', '/v0/aoi/a1'],
  ['GET', '/v0/aois/a1/assets'],
  ['POST', '/v0/search', {}],
  ['GET', '/v0/satellites'],
  ['GET', '/v0/indices'],
  ['POST', '/v0/indices', {}],
  ['GET', '/v0/aois/a1/visualizations'],
  ['POST', '/v0/aois/a1/visualizations', {}],
  ['GET', '/v0/blocks'],
  ['GET', '/v0/blocks/insights?name=x'],
  ['GET', '/v0/bandsets'],
  ['POST', '/v0/orders', {}],
  ['GET', '/v0/orders'],
  ['GET', '/v0/orders/o1'],
  ['GET', '/v0/order-items'],
  ['GET', '/v0/order-items/i1'],
  ['POST', '/v0/archives/search', {}],
  ['GET', '/v0/archives/collections'],
  ['GET', '/v0/archives/collections/c1'],
  ['GET', '/v0/archives/collections/c1/items'],
  ['GET', '/v0/archives/collections/c1/items/x'],
  ['POST', '/v0/catalogs/search', {}],
  ['GET', '/v0/catalogs/c1'],
  ['GET', '/v0/stores'],
  ['POST', '/v0/stores', {}],
  ['DELETE', '/v0/stores/s1'],
  ['POST', '/v0/catalogs/deliveries', {}],
  ['GET', '/v0/catalogs/deliveries'],
  ['POST', '/v0/catalogs/download', {}],
  ['GET', '/v0/catalogs/download/d1'],
  ['GET', '/v0/reports'],
];

/** Endpoints whose error body the interface lays out as {error: {code, message, details}}. */
const STRUCTURED_ERRORS = /^\/v0\/(orders|order-items|bandsets|catalogs|stores|archives)/;

describe('contract: authentication', () => {
  let svc: Service;
  before(async () => {
    svc = await startService();
  });
  after(() => svc.close());

  it('GET /ping needs no credential and answers a JSON string', async () => {
    const r = await caller(svc, 'none')('GET', '/ping');
    assert.equal(r.status, 200);
    assert.match(r.contentType, /json/);
    assert.equal(typeof JSON.parse(r.text), 'string', `ping body: ${r.text}`);
  });

  it('every /v0 endpoint answers 401 without the Authorization header', async () => {
    const none = caller(svc, 'none');
    for (const [method, path, body] of ENDPOINTS) {
      const r = await none(method, path, body);
      assert.equal(r.status, 401, `${method} ${path} without a token: ${r.status} ${r.text.slice(0, 200)}`);
      if (STRUCTURED_ERRORS.test(path)) {
        assertErrorBody(r, `${method} ${path}`, path.startsWith('/v0/archives') ? 'object' : 'string');
      } else if (path.startsWith('/v0/projects')) {
        asObject(r.json, `${method} ${path} 401 body (free-form JSON object)`);
      }
    }
  });

  it('an unknown token is 401 too', async () => {
    const r = await fetch(`${svc.url}/v0/stores`, { headers: { authorization: 'Bearer not-a-token' } });
    assert.equal(r.status, 401);
  });

  it('accepts the token as `Bearer <token>` and bare', async () => {
    for (const who of ['alice', 'alice-bare'] as const) {
      const r = await caller(svc, who)('GET', '/v0/projects');
      const body = expectStatus(r, 200, `projects as ${who}`);
      assert.ok(asArray(body.projects, 'projects').length > 0);
    }
  });

  it('another user’s AOIs and projects are not accessible', async () => {
    const alice = caller(svc, 'alice');
    const bob = caller(svc, 'bob');
    const aois = asArray(expectStatus(await alice('GET', '/v0/aois'), 200, 'aois').aois, 'aois') as { aoi_id: string }[];
    const projects = asArray(expectStatus(await alice('GET', '/v0/projects'), 200, 'projects').projects, 'projects') as { id: string }[];
    const bobsProjects = asArray(expectStatus(await bob('GET', '/v0/projects'), 200, 'bob projects').projects, 'projects') as { id: string }[];
    assert.ok(!bobsProjects.some((p) => projects.some((q) => q.id === p.id)), 'the two users share no project');
    // Get AOI declares 403.
    const aoi = await bob('GET', `/v0/aoi/${aois[0].aoi_id}`);
    assert.equal(aoi.status, 403, aoi.text);
    // Get project declares 400/404/500 and the decisions add 403 for another user's project.
    const project = await bob('GET', `/v0/projects/${projects[0].id}`);
    assert.ok([403, 404].includes(project.status), `bob reading alice's project: ${project.status}`);
    asObject(project.json, 'project error body (free-form JSON object)');
    // Listing by alice's project: nothing of hers, either as an empty list or as List AOIs' declared 404.
    const listed = await bob('GET', `/v0/aois?project_ids=${projects[0].id}`);
    if (listed.status === 200) {
      const aoiList = asArray(asObject(listed.json, 'aois').aois, 'aois') as { aoi_id: string }[];
      assert.deepEqual(
        aoiList.filter((a) => aois.some((x) => x.aoi_id === a.aoi_id)),
        [],
        'no AOI of alice listed for bob',
      );
    } else {
      assert.equal(listed.status, 404, listed.text);
    }
  });
});
