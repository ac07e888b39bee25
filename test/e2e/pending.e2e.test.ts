// What is pending, as a person sees it in code-server: two insight runs started on an AOI (the
// sandbox clock slowed so they stay pending) are followed once their rows have been seen; the
// status bar says "EO: 2 pending", and clicking it opens a quick pick that names each run with
// its status in words, the kind and the AOI. Screenshots: test-results/screenshots/
// pending-status-bar.png and pending-quick-pick.png.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { collect, EoClient } from '../../src/api';
import { waitForQuickInput } from './widgets';
import { expandRow, openEoContainer, screenshot, soleView, treeRowLabels, withSandboxWorkbench } from './workbench';

test('pending: the status bar counts what is followed and lists it in a quick pick', { timeout: 300_000 }, async () => {
  // At a hundredth of real speed a run stays queued for minutes of the test's time.
  await withSandboxWorkbench('pending', { sandboxArgs: ['--speed', '0.01'] }, async ({ page, base, token }) => {
    await page.setViewportSize({ width: 1400, height: 860 });
    const client = new EoClient({ baseUrl: base, token, timeoutMs: 10_000, userAgent: 'eo-imagery-vscode/e2e', retry: { retries: 0, baseDelayMs: 5 } });
    const names = ['Reservoir extent June', 'Reservoir extent July'];
    let aoiName = '';
    let projectName = '';
    try {
      const aoi = (await collect(client.aois.iterate())).find((a) => a.satellite_id === 'sentinel-2');
      assert.ok(aoi, 'alice has a Sentinel-2 AOI');
      aoiName = aoi.name;
      projectName = (await collect(client.projects.iterate())).find((p) => p.id === aoi.project_id)?.name ?? '';
      const water = (await client.blocks.insights({ name: 'water-extent' }))[0];
      const mosaic = (await collect(client.aois.iterateAssets(aoi.aoi_id))).find((a) => a.visualization_id === '' && a.path);
      assert.ok(mosaic, 'the AOI has a mosaic');
      const input = water.spec.inputs.map((d) =>
        d.format === 'raster'
          ? { ...d, stac_url: mosaic.path, asset_source: { id: mosaic.id, type: 'raw_mosaic' as const } }
          : { ...d, value: d.type === 'boolean' ? 'false' : d.format === 'date' ? '2024-01-01' : '0.2' },
      );
      for (const name of names)
        await client.insightRuns.run(aoi.aoi_id, { name, project_id: aoi.project_id, block: { name: water.spec.name, version: water.spec.version }, input });
    } finally {
      await client.close();
    }

    await openEoContainer(page);
    await soleView(page, 'Projects');
    await expandRow(page, 'Projects', projectName, aoiName);
    await expandRow(page, 'Projects', aoiName, 'Insight runs');
    await expandRow(page, 'Projects', 'Insight runs', names[1]);
    const rows = (await treeRowLabels(page, 'Projects')).join(' | ');
    assert.match(rows, new RegExp(`${names[0]}.*Queued`), rows);

    const item = page.locator('.statusbar-item', { hasText: 'EO: 2 pending' });
    await item.waitFor({ timeout: 30_000 });
    await screenshot(page, 'pending-status-bar');

    await item.click();
    await waitForQuickInput(page, /EO Imagery: 2 pending/);
    const list = page.locator('.quick-input-widget .monaco-list-row');
    await list.first().waitFor();
    const texts = (await list.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
    for (const name of names) {
      const row = texts.find((t) => t.includes(name));
      assert.ok(row, `${name} is not listed: ${texts.join(' / ')}`);
      assert.match(row, /Queued|Running/, row);
      assert.match(row, new RegExp(`Insight run · on ${aoiName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} · followed since`), row);
    }
    assert.ok(
      texts.some((t) => t.includes('Check Now')),
      texts.join(' / '),
    );
    await screenshot(page, 'pending-quick-pick');
    await page.keyboard.press('Escape');
  });
});
