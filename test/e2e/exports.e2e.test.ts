// Another installed extension can read what EO Imagery's activate() returns. Installed as a
// person installs it (production mode), it must hand out nothing that acts: no prompt seam to
// script, no services bag to place orders with.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { REPO_ROOT, runInExtensionHost } from '../integration/harness/codeServer';
import type { ExportsSample } from './exports.probe';

test('an installed EO Imagery exports no callable from activate()', { timeout: 240_000 }, async () => {
  const sample = await runInExtensionHost<ExportsSample>({
    extensionTestsPath: path.join(REPO_ROOT, 'out', 'test', 'e2e', 'exports.probe'),
    // The window needs one extension under development to run the probe: the empty one. EO
    // Imagery is linked into the extensions folder, so VS Code runs it in production mode.
    extensionDevelopmentPaths: [path.join(REPO_ROOT, 'test', 'fixtures', 'empty-extension')],
    installedExtensionPaths: [REPO_ROOT],
    timeoutMs: 180_000,
  });
  assert.equal(sample.error, undefined, sample.error);
  assert.deepEqual(sample.callables, [], `callables reachable from the exports: ${sample.callables.join(', ')}`);
  assert.equal(sample.exportsType, 'undefined');
});
