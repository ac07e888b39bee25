// Restricted Mode: a cloned repository's insight file opens without the editor asking the
// service anything (the spec would be a request, with the token). Validate, a deliberate act,
// still checks it against the spec.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { REPO_ROOT, runInExtensionHost } from '../integration/harness/codeServer';
import type { RestrictedSample } from './restrictedMode.probe';

test('opening an insight file in Restricted Mode sends no request; Validate asks for the spec', { timeout: 240_000 }, async () => {
  const sample = await runInExtensionHost<RestrictedSample>({
    extensionTestsPath: path.join(REPO_ROOT, 'out', 'test', 'e2e', 'restrictedMode.probe'),
    restricted: true,
    timeoutMs: 180_000,
  });
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
