// Signed in through EO_API_TOKEN against the sandbox CLI: the Projects view lists the
// sandbox user's projects, by name, as the service returns them.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { openEoContainer, screenshot, treeRowLabels, waitForTreeRow, withSandboxWorkbench } from './workbench';

interface ProjectsPage {
  projects: Array<{ id: string; name: string }>;
}

test('signed in with EO_API_TOKEN, the Projects view lists the sandbox projects', { timeout: 180_000 }, async () => {
  await withSandboxWorkbench('projects', {}, async ({ page, sandbox }) => {
    // What the service says alice's first projects are, asked directly.
    const res = await fetch(`${sandbox.url}/v0/projects?page_num=1&page_size=3`, {
      headers: { Authorization: `Bearer ${sandbox.tokens.alice}` },
    });
    assert.equal(res.status, 200, `sandbox GET /v0/projects answered ${res.status}`);
    const expected = ((await res.json()) as ProjectsPage).projects.map((p) => p.name);
    assert.ok(expected.length > 0, 'the sandbox seeds no projects for alice');

    await openEoContainer(page);
    for (const name of expected) await waitForTreeRow(page, 'Projects', name, 60_000);
    const labels = await treeRowLabels(page, 'Projects');
    assert.ok(!labels.some((l) => /sign in/i.test(l)), `signed-in Projects view still shows sign-in rows: ${labels.join(' | ')}`);
    await screenshot(page, 'projects');
  });
});
