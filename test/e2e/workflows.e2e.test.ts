// A workflow run as a person does it in code-server, signed in to the sandbox CLI (its clock
// 20 times wall time): Projects → a project → Workflows → a workflow; "Run Workflow…" from its
// context menu prices it and asks in the priced confirmation, whose preselected choice is
// Cancel: Enter there sends no job. Asked again, "Run" is picked; the job is announced when it
// finishes, and the notification's "Show Job Graph" opens the graph, every task drawn as done,
// edges from their dependencies. Screenshot: test-results/screenshots/job-graph.png (the
// README's docs/images/job-graph.png).
import * as assert from 'node:assert/strict';
import { test } from 'node:test';

import { api, contextMenu, watchWebviewConsole, webviewFrame } from './webviews';
import { expandRow, openEoContainer, screenshot, soleView, treeRows, withSandboxWorkbench } from './workbench';
import { clickNotificationButton, waitForNotification, waitForQuickInput } from './widgets';

interface Workflow {
  id: string;
  name: string;
  project_id: string;
}
interface Job {
  id: string;
  status: string;
}

const PRICED = /^Run .+ for about \d+ tokens\?/;
const literal = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test('workflows: Run Workflow… priced, declined by Enter, then run; followed to the end; its job graph', { timeout: 420_000 }, async () => {
  await withSandboxWorkbench('workflows', { sandboxArgs: ['--speed', '20'] }, async ({ page, base, token }) => {
    const webviewConsole = watchWebviewConsole(page);
    await page.setViewportSize({ width: 1400, height: 860 });
    await openEoContainer(page);
    await soleView(page, 'Projects');

    // A workflow of five blocks in a DAG with no job left running (the service runs one at a time).
    const projects = (await api<{ projects: Array<{ id: string; name: string }> }>(base, token, '/v0/projects?page_num=1&page_size=50')).projects;
    let found: { wf: Workflow; project: string; blocks: number; jobs: number } | undefined;
    for (const p of projects) {
      const list = await api<{ workflows: Workflow[] }>(base, token, `/v0/workflows?project_id=${p.id}&limit=100`);
      for (const wf of list.workflows) {
        if (!/^Crop health of /.test(wf.name)) continue;
        const all = (await api<{ jobs: Job[] }>(base, token, `/v0/workflows/${wf.id}/jobs`)).jobs;
        if (all.some((j) => /queued|running/i.test(j.status))) continue;
        const full = await api<{ spec?: { blocks: unknown[] } }>(base, token, `/v0/workflows/${wf.id}?project_id=${p.id}`);
        found = { wf, project: p.name, blocks: full.spec?.blocks.length ?? 0, jobs: all.length };
        break;
      }
      if (found) break;
    }
    assert.ok(found, 'the sandbox seeds no idle "Crop health" workflow');
    const { wf, project, blocks } = found;
    assert.ok(blocks >= 3, `${wf.name} has ${blocks} blocks`);
    const jobCount = async (): Promise<number> => (await api<{ jobs: Job[] }>(base, token, `/v0/workflows/${wf.id}/jobs`)).jobs.length;

    await expandRow(page, 'Projects', project, 'Workflows');
    await expandRow(page, 'Projects', 'Workflows', wf.name);

    // Declined by Enter: the preselected row is Cancel, and nothing is sent.
    await contextMenu(page, 'Projects', wf.name, 'Run Workflow…');
    const input = await waitForQuickInput(page, PRICED, 60_000);
    const focused = page.locator('.quick-input-widget .monaco-list-row.focused');
    await focused.waitFor({ state: 'visible', timeout: 10_000 });
    assert.match(await focused.innerText(), /Cancel/);
    await input.press('Enter');
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 10_000 });
    await page.waitForTimeout(1_000);
    assert.equal(await jobCount(), found.jobs, 'Enter on the confirmation started no job');

    // Asked again, Run picked: one job.
    await contextMenu(page, 'Projects', wf.name, 'Run Workflow…');
    await waitForQuickInput(page, PRICED, 60_000);
    const title = (await page.locator('.quick-input-widget .quick-input-title').innerText()).trim();
    assert.match(title, new RegExp(`^Run ${literal(wf.name)} for about \\d+ tokens\\?$`));
    await page
      .locator('.quick-input-widget .monaco-list-row')
      .filter({ hasText: /Run.*about \d+ tokens/ })
      .first()
      .click();
    await waitForNotification(page, new RegExp(`${literal(wf.name)} started`));
    assert.equal(await jobCount(), found.jobs + 1, 'one job per confirmation');
    await treeRows(page, 'Projects')
      .filter({ hasText: /Job of .+ UTC/ })
      .first()
      .waitFor({ state: 'visible', timeout: 30_000 });

    // Followed to the end, announced once, its graph opened from the announcement.
    const done = await waitForNotification(page, /The job of .+ finished/, 240_000);
    await clickNotificationButton(done, 'Show Job Graph');
    const graph = await webviewFrame(page, 'eoJobGraph', 60_000);
    await graph.locator('svg g.node').first().waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal(await graph.locator('svg g.node').count(), blocks, 'one node per task');
    assert.equal(await graph.locator('svg g.node.look-success').count(), blocks, 'every task done');
    assert.ok((await graph.locator('svg path.edge').count()) >= blocks - 1, 'edges from the dependencies');
    assert.match(await graph.locator('header .summary').innerText(), /\S/);
    assert.doesNotMatch(await graph.locator('header .summary').innerText(), /following live/, 'a finished job is no longer followed');
    const rows = await graph.locator('table.tasks tbody tr').allInnerTexts();
    assert.equal(rows.length, blocks);
    assert.match(rows[0], /mosaic/);
    // The job's row says so too: the newest row, first under its workflow.
    const jobRows = await treeRows(page, 'Projects')
      .filter({ hasText: /Job of .+ UTC/ })
      .allInnerTexts();
    assert.match(jobRows[0], /Success · \d+ tokens · .+ · finished /, jobRows[0]);
    await screenshot(page, 'job-graph');
    const bad = webviewConsole.filter((l) => /Content Security Policy|Uncaught|TypeError|ReferenceError/.test(l));
    assert.deepEqual(bad, []);
  });
});
