import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { stepOfRequest } from '../../src/walkthrough/progress';

test('walkthrough steps follow the requests the interface names, successful ones only', () => {
  assert.equal(stepOfRequest({ method: 'GET', path: '/v0/aois?project_ids=p1&offset=0&limit=10', status: 200 }), 'projectBrowsed');
  assert.equal(stepOfRequest({ method: 'GET', path: '/v0/aois?offset=0&limit=10', status: 200 }), undefined, 'all AOIs is not one project');
  assert.equal(stepOfRequest({ method: 'POST', path: '/v0/search', status: 200 }), 'archiveSearched');
  assert.equal(stepOfRequest({ method: 'POST', path: '/v0/archives/search', status: 200 }), 'archiveSearched');
  assert.equal(stepOfRequest({ method: 'POST', path: '/v0/archives/search', status: 500 }), undefined);
  assert.equal(stepOfRequest({ method: 'POST', path: '/v0/orders', status: 200, requestBody: { dry_run: true, order_items: [] } }), 'orderPriced');
  assert.equal(stepOfRequest({ method: 'POST', path: '/v0/orders', status: 200, requestBody: { dry_run: false } }), undefined, 'placing is not pricing');
  assert.equal(stepOfRequest({ method: 'POST', path: '/v0/orders', status: undefined, requestBody: { dry_run: true } }), undefined);
});
