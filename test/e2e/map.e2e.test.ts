// The map and STAC item panels as a person sees them in code-server, signed in to the sandbox
// CLI: Projects → an AOI → "Show on Map" from its context menu draws the polygon; the Fiji AOI
// across the antimeridian is one small shape; a click on an archive footprint opens its STAC
// page beside the map; Archive → collection → item → "Open STAC Item" shows the item page.
// Screenshots go to test-results/screenshots/map-*.png and stac-item.png. Console errors from
// the webview frames fail the test when they are CSP violations or script errors.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';

import { api, contextMenu, waitForBounds, webviewFrame } from './webviews';
import { assertNoWebviewErrors, collapseView, expandRow, screenshot, startMapTest, viewSection, withSandboxWorkbench } from './workbench';
import { waitUntil } from '../support/waitUntil';

test('map: an AOI, the Fiji AOI and an archive footprint on the map; a STAC item page', { timeout: 420_000 }, async () => {
  await withSandboxWorkbench('map', {}, async (wb) => {
    const { page, base, token } = wb;
    const start = await startMapTest(wb);
    const paris = start.aoi('Paris centre');
    const fiji = start.aoi(/Fiji/);

    // Projects → Paris centre → Show on Map.
    await start.showAoiRow(paris);
    await contextMenu(page, 'Projects', paris.name, 'Show on Map');
    const map = await webviewFrame(page, 'eoMap');
    const pb = await waitForBounds(map, 'aois', paris.aoi_id);
    assert.ok(pb.west > 2 && pb.east < 2.7 && pb.south > 48.7 && pb.north < 49, `Paris drawn at ${JSON.stringify(pb)}`);
    const view = await map.evaluate(() => {
      const m = (window as unknown as { eoMap: { map: { getBounds(): { contains(b: unknown): boolean; getWest(): number; getEast(): number } } } }).eoMap.map;
      const b = m.getBounds();
      return { west: b.getWest(), east: b.getEast() };
    });
    assert.ok(view.west < pb.west && view.east > pb.east && view.east - view.west < 5, `the map fits the AOI: ${JSON.stringify(view)}`);
    await screenshot(page, 'map-aoi', { belowTitleBar: true });

    // The Fiji AOI crosses the antimeridian: one shape a few tens of km wide, not a band.
    await start.showAoiRow(fiji);
    await contextMenu(page, 'Projects', fiji.name, 'Show on Map');
    const fb = await waitForBounds(map, 'aois', fiji.aoi_id);
    assert.ok(fb.east - fb.west < 1, `Fiji is ${fb.east - fb.west}° wide: ${JSON.stringify(fb)}`);
    assert.ok((fb.west < 180 && fb.east > 180) || (fb.west < -180 && fb.east > -180), `Fiji straddles the 180° line in map longitudes: ${JSON.stringify(fb)}`);
    await screenshot(page, 'map-fiji');

    // Archive → first collection → first item → Open STAC Item.
    await collapseView(page, 'Projects');
    const archiveHeader = viewSection(page, 'Archive').locator('.pane-header');
    if ((await archiveHeader.getAttribute('aria-expanded')) === 'false') await archiveHeader.click();
    const collections = await api<{ collections: Array<{ id: string; title: string }> }>(base, token, '/v0/archives/collections');
    const c = collections.collections[0];
    const items = await api<{ features: Array<{ id: string }> }>(base, token, `/v0/archives/collections/${c.id}/items?limit=1`);
    const itemId = items.features[0].id;
    await expandRow(page, 'Archive', c.title || c.id, itemId);
    await contextMenu(page, 'Archive', itemId, 'Open STAC Item');
    const stac = await webviewFrame(page, 'eoStac');
    await stac.locator('#item-id').filter({ hasText: itemId }).waitFor({ state: 'visible', timeout: 30_000 });
    await stac.locator('#properties').waitFor({ state: 'visible' });
    assert.equal(await stac.locator('#item-collection').innerText(), c.id);
    await waitUntil(stac, () => document.querySelector('#footprint canvas') !== null);
    // The extension fetched the sandbox's quick-look and handed it over as a data URL.
    await stac.locator('#thumbnail img[src^="data:image/png;base64,"]').waitFor({ state: 'visible', timeout: 15_000 });
    await screenshot(page, 'stac-item');

    // Another item on the map; a click on its footprint selects it and opens its STAC page beside.
    const more = await api<{ features: Array<{ id: string }> }>(base, token, `/v0/archives/collections/${c.id}/items?limit=2`);
    const second = more.features[1].id;
    await contextMenu(page, 'Archive', second, 'Show on Map');
    const map2 = await webviewFrame(page, 'eoMap');
    const b = await waitForBounds(map2, 'archiveItems', `${c.id}/${second}`);
    // below the centre: the selection's popup opens above it
    const at = await map2.evaluate(
      ([lat, lng]) => {
        const p = (
          window as unknown as { eoMap: { map: { latLngToContainerPoint(ll: [number, number]): { x: number; y: number } } } }
        ).eoMap.map.latLngToContainerPoint([lat, lng]);
        return { x: p.x, y: p.y };
      },
      [b.south + (b.north - b.south) * 0.2, (b.west + b.east) / 2] as const,
    );
    // a mouse click at page coordinates, as a person's: Playwright's own hit test does not see
    // through the workbench's webview iframes
    const box = await map2.locator('#map').boundingBox();
    assert.ok(box, 'the map has no box');
    await page.mouse.click(box.x + at.x, box.y + at.y);
    await waitUntil(map2, (id) => (window as unknown as { eoMap: { selected?: { id: string } } }).eoMap.selected?.id === id, `${c.id}/${second}`);
    const deadline = Date.now() + 30_000;
    let opened = false;
    while (!opened && Date.now() < deadline) {
      for (const f of page.frames()) {
        const text = await f.evaluate(() => document.getElementById('item-id')?.textContent ?? '').catch(() => '');
        if (text.includes(second)) opened = true;
      }
      if (!opened) await page.waitForTimeout(250);
    }
    assert.ok(opened, `a click on the footprint of ${second} did not open its STAC page`);
    assert.equal(await page.locator('.editor-group-container').count(), 2, 'the detail opens beside the map');
    await screenshot(page, 'map-click-detail');

    assertNoWebviewErrors(start.webviewConsole);
  });
});
