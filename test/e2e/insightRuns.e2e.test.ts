// Insight runs as a person sees them in code-server, signed in to the sandbox CLI: Projects →
// an AOI → "Insight runs" → a finished water-extent run → its outputs; "Show Output on Map" on
// the vector output draws its polygons on the map's "Insight outputs" layer, inside the AOI;
// on the raster output it draws an imagery layer in its class colours, with their legend.
// Screenshots: test-results/screenshots/insight-runs-tree.png, insight-output-map.png and
// insight-raster-output-map.png.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';

import { api, contextMenu, waitForBounds, watchWebviewConsole, webviewFrame } from './webviews';
import { expandRow, openEoContainer, screenshot, soleView, treeRows, withSandboxWorkbench } from './workbench';

interface Run {
  id: string;
  name: string;
  status: string;
  output: { name: string; format: string }[];
}

test("insight runs: a finished run's outputs in the tree, its vector and raster outputs on the map", { timeout: 420_000 }, async () => {
  await withSandboxWorkbench('insight-runs', {}, async ({ page, base, token }) => {
    const webviewConsole = watchWebviewConsole(page);
    await page.setViewportSize({ width: 1400, height: 860 });
    await openEoContainer(page);
    await soleView(page, 'Projects');

    const projects = await api<{ projects: Array<{ id: string; name: string }> }>(base, token, '/v0/projects?page_num=1&page_size=50');
    const aois = await api<{ aois: Array<{ aoi_id: string; name: string; project_id: string; geometry: { coordinates: number[][][] } }> }>(
      base,
      token,
      '/v0/aois?limit=100',
    );
    let found: { aoi: (typeof aois.aois)[number]; run: Run } | undefined;
    for (const aoi of aois.aois) {
      const runs = (await api<{ insights: Run[] }>(base, token, `/v0/aoi/${aoi.aoi_id}/insights`)).insights;
      const run = runs.find((r) => r.status === 'success' && r.output.some((o) => o.format === 'vector'));
      if (run) {
        found = { aoi, run };
        break;
      }
    }
    assert.ok(found, 'the sandbox seeds no finished run with a vector output');
    const { aoi, run } = found;
    const project = projects.projects.find((p) => p.id === aoi.project_id)?.name ?? '';

    await expandRow(page, 'Projects', project, aoi.name);
    await expandRow(page, 'Projects', aoi.name, 'Insight runs');
    await expandRow(page, 'Projects', 'Insight runs', run.name);
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
