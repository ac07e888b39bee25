// A shared view's link as two people use it in code-server, both signed in to the same sandbox:
// in one window, Projects → Port of Rotterdam → Show on Map, then Compare Imagery… on two of its
// dates; "Copy Link to This View" from the palette puts the link on the clipboard. That window
// closes; a fresh one (its own code-server, user data and browser) opens the link the way a
// browser hands a `code-oss://` link to the workbench: Developer: Open URL, then the
// workbench's own "Allow … to open this URI?" dialog. The map there draws the same AOI and the
// same imagery layers by name, compared the same way round. Screenshot:
// test-results/screenshots/share-link-fresh-window.png; CSP violations or script errors in the
// map fail it.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Frame } from 'playwright-core';
import { api, contextMenu, imageryRowSettled, waitForBounds, watchWebviewConsole, webviewFrame, type Bounds } from './webviews';
import { clickDialogButton, runCommand, waitForDialog, waitForNotification, waitForQuickInput } from './widgets';
import { assertNoWebviewErrors, screenshot, startMapTest, startSandboxCli, waitForWorkbench, withWorkbench } from './workbench';
import { waitUntil } from '../support/waitUntil';

/** What the map shows, by name: the imagery rows' titles in list order and the compare bar's two sides. */
async function shownLayers(map: Frame): Promise<{ imagery: string[]; left: string; right: string }> {
  return {
    imagery: (await map.locator('.eo-imagery-row .head .title').allInnerTexts()).map((t) => t.trim()),
    left: ((await map.locator('.eo-compare-bar .side.left').textContent()) ?? '').trim(),
    right: ((await map.locator('.eo-compare-bar .side.right').textContent()) ?? '').trim(),
  };
}

const near = (a: Bounds, b: Bounds): boolean => (['west', 'east', 'south', 'north'] as const).every((k) => Math.abs(a[k] - b[k]) < 1e-6);

test('a link to a view, opened in a fresh window, draws the same layers', { timeout: 600_000 }, async () => {
  const sandbox = await startSandboxCli();
  try {
    const base = sandbox.url;
    const token = sandbox.tokens.alice;
    let link = '';
    let before: { imagery: string[]; left: string; right: string } | undefined;
    let aoiBounds: Bounds | undefined;
    let aoiId = '';

    await withWorkbench('share-link', { signedInAs: 'alice', sandbox }, async (wb) => {
      const { page } = wb;
      await wb.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: wb.server.url });
      const start = await startMapTest({ ...wb, sandbox, base, token });
      const aoi = start.aoi('Port of Rotterdam');
      aoiId = aoi.aoi_id;
      const assets = await api<{ assets: Array<{ date: string; visualization_id?: string }> }>(base, token, `/v0/aois/${aoi.aoi_id}/assets?limit=100`);
      const days = [...new Set(assets.assets.filter((a) => !a.visualization_id).map((a) => a.date.slice(0, 10)))].sort();
      assert.ok(days.length >= 2, 'the AOI has two dates of mosaics');
      await start.showAoiRow(aoi);

      await contextMenu(page, 'Projects', aoi.name, 'Show on Map');
      const map = await webviewFrame(page, 'eoMap');
      aoiBounds = await waitForBounds(map, 'aois', aoi.aoi_id);

      await contextMenu(page, 'Projects', aoi.name, 'Compare Imagery…');
      const input = await waitForQuickInput(page, /Pick two dates/);
      for (const d of [days[0], days.at(-1) as string]) {
        const row = page.locator('.quick-input-widget .monaco-list-row').filter({ hasText: d }).first();
        await row.waitFor({ state: 'visible', timeout: 30_000 });
        await row.click();
      }
      await input.press('Enter');
      await map.locator('.eo-swipe-divider').waitFor({ state: 'visible', timeout: 60_000 });
      before = await shownLayers(map);
      assert.equal(before.imagery.length, 2);
      assert.ok(before.left && before.right && before.left !== before.right, JSON.stringify(before));

      await runCommand(page, 'Copy Link to This View');
      await waitForNotification(page, /Link to this view copied \(3 layers\)\. It holds no token/);
      link = await page.evaluate(() => navigator.clipboard.readText());
      assert.match(link, /^code-oss:\/\/eo-imagery\.eo-imagery\/view\?v=[A-Za-z0-9_-]+$/);
      assert.ok(!link.includes(token), 'no token in the link');
      assertNoWebviewErrors(start.webviewConsole);
    });
    assert.ok(before && aoiBounds);

    // a fresh window: its own code-server, user data and browser, signed in to the same service
    await withWorkbench('share-link-fresh', { signedInAs: 'alice', sandbox }, async (wb) => {
      const { page } = wb;
      const webviewConsole = watchWebviewConsole(page);
      await page.setViewportSize({ width: 1400, height: 860 });
      await waitForWorkbench(page);
      await runCommand(page, 'Developer: Open URL');
      const box = await waitForQuickInput(page, /URL to open/);
      await box.fill(link);
      await box.press('Enter');
      // the workbench asks before an extension handles a link from outside
      const allow = await waitForDialog(page, /EO Imagery.*open this URI/s, 60_000);
      await clickDialogButton(allow, 'Open');

      const map = await webviewFrame(page, 'eoMap', 90_000);
      const drawn = await waitForBounds(map, 'aois', aoiId, 60_000);
      assert.ok(near(drawn, aoiBounds as Bounds), `the AOI drawn where it was: ${JSON.stringify(drawn)}`);
      await map.locator('.eo-swipe-divider').waitFor({ state: 'visible', timeout: 90_000 });
      const after = await shownLayers(map);
      assert.deepEqual(after, before, 'the same imagery layers by name, compared the same way round');
      for (const id of await map.locator('.eo-imagery-row').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.id ?? ''))) {
        const s = await imageryRowSettled(map, id);
        assert.equal(s.state, 'ready', s.text);
      }
      if (await map.locator('#side').isVisible()) await map.locator('#tool-panel').click();
      await waitUntil(map, () => !document.querySelector('.leaflet-eo-imagery-pane .leaflet-tile:not(.leaflet-tile-loaded)'), undefined, {
        timeout: 60_000,
      });
      await screenshot(page, 'share-link-fresh-window');
      assertNoWebviewErrors(webviewConsole);
    });
  } finally {
    await sandbox.close();
  }
});
