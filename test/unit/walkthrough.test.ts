import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MANIFEST_STEP, stepOfRequest } from '../../src/walkthrough/progress';

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

test('each observed step names a step of the manifest walkthrough, each a different one', () => {
  const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
    contributes: { walkthroughs: { id: string; steps: { id: string; completionEvents: string[] }[] }[] };
  };
  const steps = manifest.contributes.walkthroughs.find((w) => w.id === 'eoImagery.gettingStarted')?.steps ?? [];
  const ids = Object.values(MANIFEST_STEP);
  assert.deepEqual(new Set(ids).size, ids.length);
  for (const [observed, id] of Object.entries(MANIFEST_STEP)) {
    const step = steps.find((s) => s.id === id);
    assert.ok(step, `${observed}: no step ${id} in package.json`);
    assert.ok(step.completionEvents.includes(`onContext:eoImagery.walkthrough.${observed}`), `${id} does not complete on its own context`);
  }
});
