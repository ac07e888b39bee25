// "Chart Index Over Time…" as a person uses it in code-server, signed in to the sandbox:
// Projects → the seasonal AOI → its context menu → its mosaics as the dates' source → the dates
// (all ticked) accepted → NDVI typed in the quick pick → the chart fills in on the map, n of N; End and Enter on the chart
// show the last date under it with the time slider. The screenshot goes to
// test-results/screenshots/imagery-index-chart.png (the README's picture); CSP violations or
// script errors in the map fail it.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { api, contextMenu, webviewFrame } from './webviews';
import { answerChartQuestions } from './widgets';
import { assertNoWebviewErrors, screenshot, startMapTest, withSandboxWorkbench } from './workbench';
import { waitUntil } from '../support/waitUntil';

test('chart NDVI over an AOI’s two seasons from its context menu, then show a date from the chart', { timeout: 480_000 }, async () => {
  await withSandboxWorkbench('series', {}, async (wb) => {
    const { page, base, token } = wb;
    const start = await startMapTest(wb);
    const aoi = start.aoi(/^Kings River fields/);
    const assets = await api<{ assets: Array<{ date: string }> }>(base, token, `/v0/aois/${aoi.aoi_id}/assets?limit=100`);
    const last = assets.assets
      .map((a) => a.date)
      .sort()
      .at(-1);
    await start.showAoiRow(aoi);

    await contextMenu(page, 'Projects', aoi.name, 'Chart Index Over Time…');
    // the AOI's mosaics are the first source offered (the archive is the other), all dates, NDVI
    await answerChartQuestions(page, false);

    const map = await webviewFrame(page, 'eoMap');
    const status = map.locator('#imagery-series .status');
    await status.waitFor({ state: 'visible', timeout: 60_000 });
    await map
      .locator('#imagery-series .status')
      .filter({ hasText: /^26 dates$/ })
      .waitFor({ timeout: 180_000 });
    assert.equal(await map.locator('#imagery-series .problems li').count(), 0);

    // the keyboard: the last date, then Enter shows it on the map with the time slider
    const chart = map.locator('.eo-series-chart');
    await chart.focus();
    await page.keyboard.press('End');
    const readout = (await map.locator('.eo-series-chart .readout').textContent()) ?? '';
    assert.match(readout, new RegExp(`^${last}: NDVI median`));
    assert.match(readout, /: NDVI median -?\d\.\d{3} \(10–90 %: /);
    await page.keyboard.press('Enter');
    const slider = map.getByRole('slider', { name: 'Date' });
    await slider.waitFor({ state: 'visible', timeout: 60_000 });
    assert.equal((await slider.getAttribute('aria-valuetext'))?.slice(0, 10), readout.slice(0, 10));
    if (await map.locator('#side').isVisible()) await map.locator('#tool-panel').click();
    await waitUntil(map, () => !document.querySelector('.leaflet-eo-imagery-pane .leaflet-tile:not(.leaflet-tile-loaded)'), undefined, {
      timeout: 60_000,
    });
    await screenshot(page, 'imagery-index-chart');
    assertNoWebviewErrors(start.webviewConsole);
  });
});
