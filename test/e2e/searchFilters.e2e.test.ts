// The map's search filters from the satellite's queryables, as a person uses them in
// code-server signed in to the sandbox: Projects → Port of Rotterdam → Show on Map; in the
// search form, Satellite imagery, the first satellite, its Filters box (each queryable with its
// range and unit) with one highest value typed, Current view, Search here; the results list. The
// screenshot (the README's) goes to test-results/screenshots/map-search-filters.png; CSP
// violations or script errors in the map fail it.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { contextMenu, waitForBounds, webviewFrame } from './webviews';
import { assertNoWebviewErrors, screenshot, startMapTest, withSandboxWorkbench } from './workbench';
import { waitUntil } from '../support/waitUntil';

test('search imagery with a filter on one of the satellite’s queryables', { timeout: 480_000 }, async () => {
  await withSandboxWorkbench('search-filters', {}, async (wb) => {
    const { page } = wb;
    const start = await startMapTest(wb);
    const aoi = start.aoi('Port of Rotterdam');
    await start.showAoiRow(aoi);
    await contextMenu(page, 'Projects', aoi.name, 'Show on Map');
    const map = await webviewFrame(page, 'eoMap');
    await waitForBounds(map, 'aois', aoi.aoi_id);
    if (!(await map.locator('#side').isVisible())) await map.locator('#tool-panel').click();

    // the form: Satellite imagery, the first satellite listed
    await map.locator('#kind-imagery').check();
    const satellites = map.locator('#satellites');
    await satellites.locator('option').first().waitFor({ state: 'attached', timeout: 60_000 });
    const first = (await satellites.locator('option').first().getAttribute('value')) ?? '';
    await satellites.selectOption([first]);
    const rows = map.locator('#filters .filter-row');
    await rows.first().waitFor({ state: 'visible', timeout: 30_000 });
    const offered = await rows.evaluateAll((r) => r.map((e) => (e as HTMLElement).dataset.queryable ?? ''));
    assert.ok(offered.length > 0, 'the satellite lists queryables');
    // each row says its range and unit, e.g. "Off-nadir angle (0–90 °)"
    for (const label of await map.locator('#filters .filter-label').allInnerTexts()) assert.match(label, /\(.+–.+\)/, label);

    // one filter, typed into its "highest" box: off-nadir when offered, else the first row
    const id = offered.includes('view:off_nadir') ? 'view:off_nadir' : offered[0];
    const highest = map.locator(`#filters input[data-queryable="${id}"][data-side="max"]`);
    await highest.click();
    await page.keyboard.type('20');
    await map.locator('#draw-view').click();
    const search = map.locator('#search');
    await search.waitFor({ state: 'visible' });
    await search.click();
    const status = map.locator('#status');
    await waitUntil(
      map,
      () => {
        const s = document.querySelector('#status')?.textContent ?? '';
        return s !== '' && !/…/.test(s);
      },
      undefined,
      { timeout: 120_000 },
    );
    const said = (await status.textContent()) ?? '';
    assert.doesNotMatch(said, /fail|error|cannot|refused/i, said);
    assert.equal(await highest.inputValue(), '20', 'the filter stays in the form');
    // the AOI's popup (Show on Map selects it) closed: the picture is the form's
    const close = map.locator('.leaflet-popup-close-button');
    if (await close.isVisible()) await close.click();
    await screenshot(page, 'map-search-filters');
    assertNoWebviewErrors(start.webviewConsole);
  });
});
