import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
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

test("each walkthrough step's picture is a PNG in media/walkthrough as scripts/walkthrough-images.mjs writes it, and each there is a step's", () => {
  const root = join(__dirname, '..', '..', '..');
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    contributes: { walkthroughs: { steps: { id: string; media: { image?: string; markdown?: string } }[] }[] };
  };
  const used = manifest.contributes.walkthroughs.flatMap((w) => w.steps.map((s) => ({ id: s.id, file: s.media.image ?? s.media.markdown ?? '' })));
  for (const { id, file } of used) {
    assert.match(file, /^media\/walkthrough\/[\w-]+\.(png|md)$/, `${id}: ${file}`);
    assert.ok(existsSync(join(root, file)), `${id}: ${file} is missing`);
    if (!file.endsWith('.png')) continue;
    const head = readFileSync(join(root, file)).subarray(0, 24);
    assert.deepEqual([...head.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], `${file} is not a PNG`);
    // the script scales each picture down to 960 px wide (a step's pane is narrower still)
    assert.ok(head.readUInt32BE(16) <= 960, `${file} is ${head.readUInt32BE(16)} px wide: copied without the script's scaling`);
  }
  const listed = new Set(used.map((u) => u.file));
  for (const f of readdirSync(join(root, 'media', 'walkthrough'))) assert.ok(listed.has(`media/walkthrough/${f}`), `media/walkthrough/${f} is no step's`);
});
