// Insight runs as a person sees them in code-server, signed in to the sandbox CLI: Projects →
// an AOI → "Insight runs" → a finished water-extent run → its outputs; "Show Output on Map" on
// the vector output draws its polygons on the map's "Insight outputs" layer, inside the AOI;
// on the raster output it draws an imagery layer in its class colours, with their legend.
// Screenshots: test-results/screenshots/insight-runs-tree.png, insight-output-map.png and
// insight-raster-output-map.png.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';

import { api, contextMenu, waitForBounds, watchWebviewConsole, webviewFrame } from './webviews';
import { expandRow, openEoContainer, screenshot, soleView, treeRows, viewSection, waitForTreeRow, withSandboxWorkbench } from './workbench';
import { waitUntil } from '../support/waitUntil';

interface Run {
  id: string;
  name: string;
  status: string;
  output: { name: string; format: string }[];
}

type Aois = { aois: Array<{ aoi_id: string; name: string; project_id: string; geometry: { coordinates: number[][][] } }> };

/** A finished water-extent run of the sandbox (one with a vector output), its AOI and its project's name. */
async function finishedRun(base: string, token: string): Promise<{ aoi: Aois['aois'][number]; run: Run; project: string }> {
  const projects = await api<{ projects: Array<{ id: string; name: string }> }>(base, token, '/v0/projects?page_num=1&page_size=50');
  const aois = await api<Aois>(base, token, '/v0/aois?limit=100');
  for (const aoi of aois.aois) {
    const runs = (await api<{ insights: Run[] }>(base, token, `/v0/aoi/${aoi.aoi_id}/insights`)).insights;
    const run = runs.find((r) => r.status === 'success' && r.output.some((o) => o.format === 'vector'));
    if (run) return { aoi, run, project: projects.projects.find((p) => p.id === aoi.project_id)?.name ?? '' };
  }
  throw new Error('the sandbox seeds no finished run with a vector output');
}

/** Projects → the finished run's AOI → "Insight runs": the run's row shown, folded. */
async function showRunRow(page: Page, base: string, token: string): Promise<Awaited<ReturnType<typeof finishedRun>>> {
  await page.setViewportSize({ width: 1400, height: 860 });
  await openEoContainer(page);
  await soleView(page, 'Projects');
  const found = await finishedRun(base, token);
  await expandRow(page, 'Projects', found.project, found.aoi.name);
  await expandRow(page, 'Projects', found.aoi.name, 'Insight runs');
  await expandRow(page, 'Projects', 'Insight runs', found.run.name);
  return found;
}

test("insight runs: a finished run's outputs in the tree, its vector and raster outputs on the map", { timeout: 420_000 }, async () => {
  await withSandboxWorkbench('insight-runs', {}, async ({ page, base, token }) => {
    const webviewConsole = watchWebviewConsole(page);
    const { aoi, run } = await showRunRow(page, base, token);
    await expandRow(page, 'Projects', run.name, 'water_bodies');
    const labels = (await treeRows(page, 'Projects').allInnerTexts()).join(' | ');
    assert.match(labels, /water_mask/, labels);
    assert.match(labels, /Success · 2 outputs/, labels);
    await screenshot(page, 'insight-runs-tree');

    await contextMenu(page, 'Projects', 'water_bodies', 'Show Output on Map');
    const map = await webviewFrame(page, 'eoMap');
    const b = await waitForBounds(map, 'insightOutputs', `${run.id}/water_bodies/0`);
    const ring = aoi.geometry.coordinates[0];
    const lons = ring.map((p) => p[0]);
    const lats = ring.map((p) => p[1]);
    assert.ok(
      b.west >= Math.min(...lons) && b.east <= Math.max(...lons) && b.south >= Math.min(...lats) && b.north <= Math.max(...lats),
      `the output lies over the AOI: ${JSON.stringify(b)}`,
    );
    await screenshot(page, 'insight-output-map');

    // the raster output: an imagery layer in the class colours its properties declare, with its legend
    await contextMenu(page, 'Projects', 'water_mask', 'Show Output on Map');
    const layerId = `output:${aoi.aoi_id}/${run.id}/water_mask`;
    await map.locator(`.eo-imagery-row[data-id="${layerId}"][data-state="ready"]`).waitFor({ timeout: 90_000 });
    const legend = map.locator(`.eo-legend[data-id="${layerId}"]`);
    assert.deepEqual(await legend.locator('li .name').allTextContents(), ['land', 'water']);
    await screenshot(page, 'insight-raster-output-map');
    const bad = webviewConsole.filter((l) => /Content Security Policy|Uncaught|TypeError|ReferenceError/.test(l));
    assert.deepEqual(bad, []);
  });
});

// Show Outputs on a run that is the Projects view's last row: the outputs it expands to are
// scrolled into view, not left below the fold.
test('insight runs: Show Outputs on the last row in view brings its outputs into view', { timeout: 300_000 }, async () => {
  await withSandboxWorkbench('insight-show-outputs', {}, async ({ page, base, token }) => {
    const { run } = await showRunRow(page, base, token);
    const runRow = await waitForTreeRow(page, 'Projects', run.name);
    assert.notEqual(await runRow.getAttribute('aria-expanded'), 'true', 'the run starts folded');
    // the window made just tall enough that the run is the view's last row
    const list = viewSection(page, 'Projects').locator('.monaco-list').first();
    const listBox = (await list.boundingBox())!;
    const rowBox = (await runRow.boundingBox())!;
    const size = page.viewportSize()!;
    await page.setViewportSize({ width: size.width, height: Math.round(size.height - (listBox.y + listBox.height - (rowBox.y + rowBox.height)) + 2) });
    await page.waitForTimeout(500);
    const inView = async (label: string) => {
      const row = treeRows(page, 'Projects').filter({ hasText: label }).first();
      const [l, r] = [await list.boundingBox(), await row.boundingBox().catch(() => null)];
      return !!l && !!r && r.y >= l.y - 1 && r.y + r.height <= l.y + l.height + 1;
    };
    assert.ok(await inView(run.name), 'the run row is in view');
    await contextMenu(page, 'Projects', run.name, 'Show Outputs');
    await waitUntil(page, (el) => el?.getAttribute('aria-expanded') === 'true', await runRow.elementHandle(), { timeout: 10_000 });
    let shown: boolean[] = [];
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; await page.waitForTimeout(250)) {
      shown = await Promise.all(run.output.map((o) => inView(o.name)));
      if (shown.every(Boolean)) break;
    }
    await screenshot(page, 'insight-show-outputs');
    assert.deepEqual(
      Object.fromEntries(run.output.map((o, i) => [o.name, shown[i]])),
      Object.fromEntries(run.output.map((o) => [o.name, true])),
      'every output row is in view',
    );
    assert.ok(await inView(run.name), 'the run row stays in view');
  });
});
