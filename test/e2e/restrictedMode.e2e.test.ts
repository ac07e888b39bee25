// Restricted Mode: a cloned repository's insight file opens without the editor asking the
// service anything (the spec would be a request, with the token). Validate, a deliberate act,
// still checks it against the spec. The chat tools that order, write a file or start a run
// refuse there and say why, with the window's real trust; the read-only ones still answer.
// One window serves both tests.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { REPO_ROOT, runInExtensionHost } from '../integration/harness/codeServer';
import { TOOLS } from '../../src/tools/toolIds';
import type { RestrictedSample } from './restrictedMode.probe';

let run: Promise<RestrictedSample> | undefined;
const restrictedWindow = (): Promise<RestrictedSample> =>
  (run ??= runInExtensionHost<RestrictedSample>({
    extensionTestsPath: path.join(REPO_ROOT, 'out', 'test', 'e2e', 'restrictedMode.probe'),
    restricted: true,
    timeoutMs: 240_000,
  }));

test('opening an insight file in Restricted Mode sends no request; Validate asks for the spec', { timeout: 300_000 }, async () => {
  const sample = await restrictedWindow();
  assert.equal(sample.error, undefined, sample.error);
  assert.equal(sample.trusted, false, 'the window is in Restricted Mode');
  // The sidebar may load its views after sign-in; the insight editor itself asks nothing.
  const specRequests = sample.onOpen.filter((r) => r.includes('/v0/blocks'));
  assert.deepEqual(specRequests, [], `requests while the file opened: ${sample.onOpen.join(', ')}`);
  assert.ok(sample.codesOnOpen.includes('spec-restricted'), sample.codesOnOpen.join(', '));
  assert.ok(!sample.codesOnOpen.includes('input-unknown'), 'not checked against the spec on open');
  assert.ok(
    sample.onValidate.some((r) => r.includes('/v0/blocks')),
    `Validate asked for the spec: ${sample.onValidate.join(', ')}`,
  );
  assert.ok(sample.codesAfterValidate.includes('input-unknown'), sample.codesAfterValidate.join(', '));
});

test('an order plan in Restricted Mode: nothing sent, no ids from the service, and the editor says why', { timeout: 300_000 }, async () => {
  const sample = await restrictedWindow();
  assert.equal(sample.error, undefined, sample.error);
  assert.deepEqual(sample.planOnOpen, [], `requests while the plan opened and completed: ${sample.planOnOpen.join(', ')}`);
  // Its made-up ids would be "unknown to the service" in a trusted window.
  assert.ok(!sample.planCodesOnOpen.some((c) => /unknown/.test(c)), sample.planCodesOnOpen.join(', '));
  assert.match(sample.planNote ?? '', /^Restricted Mode: .*not checked against the service.*Trust the workspace/);
  // The service's project names are not offered (the schema's own completions may be).
  assert.ok(sample.projectNames.length > 0, 'the service lists projects');
  for (const name of sample.projectNames) assert.ok(!sample.planCompletions.includes(name), `${name} was offered`);
});

test('chat tools in Restricted Mode: order, new input and run refuse and say why; reading still works', { timeout: 300_000 }, async () => {
  const sample = await restrictedWindow();
  assert.equal(sample.error, undefined, sample.error);
  assert.equal(sample.trusted, false, 'the window is in Restricted Mode');
  const answer = (name: string): { text: string; sent: string[] } => {
    const t = sample.tools.find((x) => x.name === name);
    assert.ok(t, `${name} was not invoked`);
    return t;
  };
  const refusals: [string, RegExp][] = [
    [
      TOOLS.placeOrder,
      /^Order archive imagery is not available in Restricted Mode: this workspace is not trusted, and the tool can spend money or tokens\. .*Manage Workspace Trust/,
    ],
    [
      TOOLS.createInsightInput,
      /is not available in Restricted Mode: this workspace is not trusted, and the tool writes files into it\. .*Manage Workspace Trust/,
    ],
    [TOOLS.startRun, /is not available in Restricted Mode: this workspace is not trusted, and the tool can spend money or tokens\./],
  ];
  for (const [name, expected] of refusals) {
    const t = answer(name);
    assert.match(t.text, expected, name);
    assert.deepEqual(t.sent, [], `${name} sent ${t.sent.join(', ')}`);
  }
  assert.ok(!sample.files.some((f) => f.startsWith('restricted-chat')), `a file was written: ${sample.files.join(', ')}`);
  assert.match(answer(TOOLS.listProjects).text, /^- "Water resources" · /m);
  assert.match(answer(TOOLS.searchArchive).text, /^Archive scenes over AOI "Lake Mead"/m);
  // Pricing is a dry run, never an order: it stays available, and sends only that.
  const price = answer(TOOLS.priceOrder);
  assert.match(price.text, /Nothing was ordered\./);
  assert.deepEqual(price.sent, ['POST /v0/orders']);
});
