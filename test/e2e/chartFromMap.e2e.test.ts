// "Chart Index Over Time" from the map itself, as a person uses it in code-server signed in to
// the sandbox: Projects → Port of Rotterdam → Show on Map; a click on the AOI's outline opens
// its popup, whose "Chart index over time…" asks where the dates come from, which dates and
// which index (NDVI typed in the quick pick), and the chart fills in. Then one of its mosaics
// with Show Imagery, the pixel inspector on, a click on the scene, "Chart over time…" in the
// inspector: the same questions, "Add to the open chart", and the pixel's series joins the
// AOI's on the chart. The screenshot (the README's) goes to
// test-results/screenshots/imagery-chart-from-map.png; CSP violations or script errors in the
// map fail it.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Frame } from 'playwright-core';
import { api, contextMenu, imageryRowSettled, waitForBounds, webviewFrame } from './webviews';
import { answerChartQuestions } from './widgets';
import { assertNoWebviewErrors, expandRow, screenshot, startMapTest, withSandboxWorkbench } from './workbench';
import { waitUntil } from '../support/waitUntil';

/** The page point over a lon/lat of the map (Leaflet's container point, offset by the map's box). */
async function pagePoint(map: Frame, lat: number, lon: number): Promise<{ x: number; y: number }> {
  const at = await map.evaluate(
    ([la, lo]) => {
      const p = (
        window as unknown as { eoMap: { map: { latLngToContainerPoint(ll: [number, number]): { x: number; y: number } } } }
      ).eoMap.map.latLngToContainerPoint([la, lo]);
      return { x: p.x, y: p.y };
    },
    [lat, lon] as const,
  );
  const box = await map.locator('#map').boundingBox();
  assert.ok(box, 'the map has no box');
  return { x: box.x + at.x, y: box.y + at.y };
}

/**
 * A point inside the bounds where nothing floats over the map (the chart, the layer list, the
 * inspector): what a person would click to reach the scene itself.
 */
async function clearSpot(map: Frame, b: { west: number; east: number; south: number; north: number }): Promise<{ lat: number; lon: number }> {
  const spot = await map.evaluate((box) => {
    const m = (window as unknown as { eoMap: { map: { latLngToContainerPoint(ll: [number, number]): { x: number; y: number } } } }).eoMap.map;
    const container = document.getElementById('map') as HTMLElement;
    const r = container.getBoundingClientRect();
    for (let i = 2; i <= 8; i++)
      for (let j = 9; j >= 1; j--) {
        const lat = box.south + ((box.north - box.south) * i) / 10;
        const lon = box.west + ((box.east - box.west) * j) / 10;
        const p = m.latLngToContainerPoint([lat, lon]);
        const hit = document.elementFromPoint(r.left + p.x, r.top + p.y);
        if (hit && container.contains(hit) && !hit.closest('.leaflet-control, .leaflet-popup, .eo-series-panel, .eo-top-centre, .eo-bottom-centre'))
          return { lat, lon };
      }
    return undefined;
  }, b);
  assert.ok(spot, "no part of the area is clear of the map's panels");
  return spot;
}

test('chart NDVI from an AOI’s popup on the map, then a pixel’s from the inspector onto the same chart', { timeout: 600_000 }, async () => {
  await withSandboxWorkbench('chart-from-map', {}, async (wb) => {
    const { page, base, token } = wb;
    const start = await startMapTest(wb);
    const aoi = start.aoi('Port of Rotterdam');
    const assets = await api<{ assets: Array<{ date: string; visualization_id?: string }> }>(base, token, `/v0/aois/${aoi.aoi_id}/assets?limit=100`);
    const days = [...new Set(assets.assets.filter((a) => !a.visualization_id).map((a) => a.date.slice(0, 10)))].sort();
    assert.ok(days.length >= 2, 'the AOI has dated mosaics');
    await start.showAoiRow(aoi);
    await contextMenu(page, 'Projects', aoi.name, 'Show on Map');
    const map = await webviewFrame(page, 'eoMap');
    if (await map.locator('#side').isVisible()) await map.locator('#tool-panel').click();
    const b = await waitForBounds(map, 'aois', aoi.aoi_id);

    // the AOI's popup: a mouse click on its outline's middle, then its chart button
    const middle = await pagePoint(map, (b.south + b.north) / 2, (b.west + b.east) / 2);
    await page.mouse.click(middle.x, middle.y);
    const chartButton = map.locator('.eo-popup button.chart-index');
    await chartButton.waitFor({ state: 'visible', timeout: 30_000 });
    await chartButton.click();
    await answerChartQuestions(page, false);
    const status = map.locator('#imagery-series .status');
    await status.filter({ hasText: new RegExp(`^${days.length} dates$`) }).waitFor({ timeout: 240_000 });
    assert.equal(await map.locator('#imagery-series .problems li').count(), 0);
    // the chart's points: the keyboard's last date reads its median
    await map.locator('.eo-series-chart').focus();
    await page.keyboard.press('End');
    assert.match((await map.locator('.eo-series-chart .readout').textContent()) ?? '', new RegExp(`^${days.at(-1)}: NDVI median -?\\d\\.\\d{3}`));

    // a mosaic of the AOI as an imagery layer, then the pixel inspector on the AOI's middle
    await expandRow(page, 'Projects', aoi.name, 'Assets');
    await expandRow(page, 'Projects', 'Assets', days.at(-1) as string);
    await contextMenu(page, 'Projects', days.at(-1) as string, 'Show Imagery');
    const row = map.locator('.eo-imagery-row').first();
    await row.waitFor({ state: 'visible', timeout: 60_000 });
    const layerId = (await row.getAttribute('data-id')) ?? '';
    assert.equal((await imageryRowSettled(map, layerId)).state, 'ready');
    await map.locator('button.inspect').click();
    // the chart covers the AOI: drag the map to the right with the mouse, as a person would
    const mapBox = await map.locator('#map').boundingBox();
    assert.ok(mapBox);
    await page.mouse.move(mapBox.x + mapBox.width * 0.45, mapBox.y + 40);
    await page.mouse.down();
    await page.mouse.move(mapBox.x + mapBox.width * 0.45 + 340, mapBox.y + 60, { steps: 12 });
    await page.mouse.up();
    const spot = await clearSpot(map, b);
    const pixel = await pagePoint(map, spot.lat, spot.lon);
    await page.mouse.click(pixel.x, pixel.y);
    const overTime = map.locator('#pixel-inspector button.chart-pixel');
    await overTime.waitFor({ state: 'visible', timeout: 60_000 });
    await overTime.click();
    await answerChartQuestions(page, true);
    await map.locator('#imagery-series .head').filter({ hasText: 'Index over time · 2 series' }).waitFor({ timeout: 60_000 });
    await status.filter({ hasText: new RegExp(`^${days.length * 2} dates$`) }).waitFor({ timeout: 240_000 });
    assert.equal(await map.locator('#imagery-series .problems li').count(), 0);
    const legend = (await map.locator('#imagery-series .u-legend .u-series').allInnerTexts()).join(' | ');
    assert.match(legend, /Port of Rotterdam/);
    assert.match(legend, /Pixel at \d+\.\d{5}, \d+\.\d{5}/);
    await map.locator('.eo-series-chart').focus();
    await page.keyboard.press('End');
    // the inspector off and the AOI's popup (the click opened it too) closed: the picture is the chart's
    await map.locator('button.inspect').click();
    // Escape from the map, as a keyboard closes a popup: its close button can sit under the
    // map's layer control when the popup opens at the map's right edge.
    const close = map.locator('.leaflet-popup-close-button');
    if (await close.isVisible()) {
      await map.locator('#map').focus();
      await page.keyboard.press('Escape');
      await close.waitFor({ state: 'hidden', timeout: 10_000 });
    }
    // the chart's panel scrolls in its cell; its head (the title) in view
    await map.locator('#imagery-series').evaluate((e) => e.scrollTo(0, 0));
    await waitUntil(map, () => !document.querySelector('.leaflet-eo-imagery-pane .leaflet-tile:not(.leaflet-tile-loaded)'), undefined, {
      timeout: 60_000,
    });
    await screenshot(page, 'imagery-chart-from-map');
    assertNoWebviewErrors(start.webviewConsole);
  });
});
