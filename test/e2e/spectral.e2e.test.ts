// The pixel inspector as a person uses it in code-server, signed in to the sandbox: Archive →
// an EnMAP item (224 bands) → "Show Imagery" → "Inspect pixels" → click the scene: the band
// values and the spectral chart over all 224 bands; two more pixels pinned. The screenshot goes
// to test-results/screenshots/imagery-spectrum.png (the README's); CSP violations or script
// errors in the map (the chart chunk loads under the same CSP) fail it.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';

import { api, contextMenu, watchWebviewConsole, webviewFrame } from './webviews';
import { expandRow, openEoContainer, screenshot, soleView, withSandboxWorkbench } from './workbench';
import { waitUntil } from '../support/waitUntil';

test("pixel inspector: an EnMAP pixel's 224-band spectrum, with pinned pixels", { timeout: 480_000 }, async () => {
  await withSandboxWorkbench('spectral', {}, async ({ page, base, token }) => {
    const webviewConsole = watchWebviewConsole(page);
    await page.setViewportSize({ width: 1400, height: 860 });
    await openEoContainer(page);
    await soleView(page, 'Archive');
    const collections = await api<{ collections: Array<{ id: string; title: string }> }>(base, token, '/v0/archives/collections');
    const c = collections.collections.find((x) => /enmap/i.test(x.id));
    assert.ok(c, 'the sandbox has an EnMAP collection');
    const items = await api<{ features: Array<{ id: string; properties: { 'eo:cloud_cover'?: number } }> }>(
      base,
      token,
      `/v0/archives/collections/${c.id}/items?limit=20`,
    );
    const itemId = [...items.features].sort((a, b) => (a.properties['eo:cloud_cover'] ?? 100) - (b.properties['eo:cloud_cover'] ?? 100))[0].id;
    await expandRow(page, 'Archive', c.title || c.id, itemId);
    await contextMenu(page, 'Archive', itemId, 'Show Imagery');
    const map = await webviewFrame(page, 'eoMap');
    const id = `archive:${c.id}/${itemId}`;
    await waitUntil(map, (rid) => (document.querySelector(`.eo-imagery-row[data-id="${rid}"]`) as HTMLElement | null)?.dataset.state === 'ready', id, {
      timeout: 180_000,
    });
    // hide the search panel: the map gets the room
    await map.locator('#tool-panel').click();
    await map.locator('button.inspect').click();
    const box = await map.locator('#map').boundingBox();
    assert.ok(box);
    // three places across the scene's middle, the first two pinned
    const spots = [
      [0.3, 0.5],
      [0.4, 0.45],
      [0.35, 0.6],
    ];
    for (let i = 0; i < spots.length; i++) {
      await map.locator('#map').click({ position: { x: box.width * spots[i][0], y: box.height * spots[i][1] } });
      await map.locator('#pixel-inspector .eo-spectrum canvas').first().waitFor({ timeout: 60_000 });
      if (i < spots.length - 1) await map.locator('#pixel-inspector button.pin').click();
    }
    const rows = await map.locator('#pixel-inspector .bands tbody tr').count();
    assert.equal(rows, 224, 'every band is listed');
    const label = await map.locator('#pixel-inspector .eo-spectrum').getAttribute('aria-label');
    assert.match(label ?? '', /3 pixel\(s\) over 224 bands/);
    await screenshot(page, 'imagery-spectrum');
    assert.deepEqual(
      webviewConsole.filter((m) => /Content Security Policy|Uncaught|TypeError|ReferenceError/.test(m)),
      [],
    );
  });
});
