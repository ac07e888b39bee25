// Compare and the time slider as a person uses them in code-server, signed in to the sandbox:
// Projects → an AOI with mosaics of several dates → "Compare Imagery…" → two dates ticked in
// the quick pick → both drawn side by side; the divider dragged with the mouse; then "Step
// Through Time" on the same AOI and a step back with the keyboard; last, an NDVI visualization
// compared with the mosaic it is computed from (the README's picture). Screenshots go to
// test-results/screenshots/imagery-compare-dates.png, imagery-time-slider.png and
// imagery-compare.png; CSP violations or script errors in the map fail it.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { api, contextMenu, imageryRowSettled, webviewFrame } from './webviews';
import { waitForQuickInput } from './widgets';
import { assertNoWebviewErrors, expandRow, screenshot, startMapTest, withSandboxWorkbench } from './workbench';
import { waitUntil } from '../support/waitUntil';

type AssetRec = { id: string; date: string; path: string; visualization_id: string };

test('compare two dates of an AOI with the swipe divider, then step through its dates', { timeout: 480_000 }, async () => {
  await withSandboxWorkbench('compare', {}, async (wb) => {
    const { page, base, token } = wb;
    const start = await startMapTest(wb);

    // an AOI whose mosaics of two or more dates are on the sandbox host
    const indices = await api<{ indices: Array<{ id: string; name: string; expression_type: string }> }>(base, token, '/v0/indices?limit=100');
    const ndviIndex = new Map(indices.indices.filter((i) => i.expression_type === 'index' && /NDVI/i.test(i.name)).map((i) => [i.id, i.name]));
    let chosen: { aoi: (typeof start.aois)[number]; dates: string[] } | undefined;
    let withNdvi: { aoi: (typeof start.aois)[number]; index: string } | undefined;
    for (const aoi of start.aois) {
      const assets = await api<{ assets: AssetRec[] }>(base, token, `/v0/aois/${aoi.aoi_id}/assets?limit=100`);
      const dates = [...new Set(assets.assets.filter((a) => !a.visualization_id && /^https?:/.test(a.path)).map((a) => a.date))].sort();
      if (!dates.length) continue;
      if (!chosen && dates.length >= 2) chosen = { aoi, dates };
      if (!withNdvi) {
        const vis = await api<{ visualization?: Array<{ id: string; index_id: string }> }>(base, token, `/v0/aois/${aoi.aoi_id}/visualizations?limit=20`);
        const v = (vis.visualization ?? []).find((x) => ndviIndex.has(x.index_id));
        if (v) withNdvi = { aoi, index: ndviIndex.get(v.index_id) ?? '' };
      }
      if (chosen && withNdvi) break;
    }
    assert.ok(chosen, 'no AOI with two dates of http(s) mosaics on the sandbox');
    assert.ok(withNdvi, 'no AOI with http(s) mosaics and an NDVI visualization on the sandbox');
    const project = start.projects.find((p) => p.id === chosen.aoi.project_id)?.name ?? '';
    await expandRow(page, 'Projects', project, chosen.aoi.name);

    // Compare Imagery… → tick the two latest dates → OK
    await contextMenu(page, 'Projects', chosen.aoi.name, 'Compare Imagery…');
    const input = await waitForQuickInput(page, /Pick two dates/);
    const [older, newer] = chosen.dates.slice(-2);
    for (const d of [newer, older]) {
      const row = page.locator('.quick-input-widget .monaco-list-row').filter({ hasText: d }).first();
      await row.waitFor({ state: 'visible', timeout: 30_000 });
      await row.click();
    }
    await input.press('Enter');
    const map = await webviewFrame(page, 'eoMap');
    await map.locator('.eo-swipe-divider').waitFor({ state: 'visible', timeout: 60_000 });
    const ids = await map.locator('.eo-imagery-row').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.id ?? ''));
    assert.equal(ids.length, 2);
    for (const id of ids) {
      const s = await imageryRowSettled(map, id);
      assert.equal(s.state, 'ready', s.text);
    }
    // the bar names the older date's mosaic on the left
    const leftTitle = (await map.locator('.eo-compare-bar .side.left').textContent()) ?? '';
    const rightTitle = (await map.locator('.eo-compare-bar .side.right').textContent()) ?? '';
    assert.notEqual(leftTitle, rightTitle);

    // drag the divider to 40 % of the map with the mouse
    const mapBox = await map.locator('#map').boundingBox();
    const divider = await map.locator('.eo-swipe-divider').boundingBox();
    assert.ok(mapBox && divider);
    await page.mouse.move(divider.x + divider.width / 2, mapBox.y + mapBox.height * 0.3);
    await page.mouse.down();
    await page.mouse.move(mapBox.x + mapBox.width * 0.4, mapBox.y + mapBox.height * 0.3, { steps: 10 });
    await page.mouse.up();
    const now = Number(await map.locator('.eo-swipe-divider').getAttribute('aria-valuenow'));
    assert.ok(Math.abs(now - 40) <= 2, `the divider followed the mouse to 40 % (it is at ${now} %)`);
    await screenshot(page, 'imagery-compare-dates');

    // Step Through Time on the same AOI: a slider over its dates, the latest first
    await map.locator('.eo-compare-bar button.end').click();
    await contextMenu(page, 'Projects', chosen.aoi.name, 'Step Through Time');
    const slider = map.getByRole('slider', { name: 'Date' });
    await slider.waitFor({ state: 'visible', timeout: 60_000 });
    assert.match((await slider.getAttribute('aria-valuetext')) ?? '', new RegExp(`^${chosen.dates.at(-1)}`));
    await slider.focus();
    await page.keyboard.press('ArrowLeft');
    assert.match((await slider.getAttribute('aria-valuetext')) ?? '', new RegExp(`^${chosen.dates.at(-2)}`));
    assert.match((await map.locator('.eo-timeline .when').textContent()) ?? '', new RegExp(`${chosen.dates.length - 1} of ${chosen.dates.length}`));
    await waitUntil(map, () => !document.querySelector('.leaflet-eo-imagery-pane .leaflet-tile:not(.leaflet-tile-loaded)'), undefined, {
      timeout: 60_000,
    });
    await screenshot(page, 'imagery-time-slider');
    await map.locator('.eo-timeline button.end').click();

    // a visualization against the mosaic it is computed from: no prompt, the mosaic on the left
    const visProject = start.projects.find((p) => p.id === withNdvi.aoi.project_id)?.name ?? '';
    await expandRow(page, 'Projects', visProject, withNdvi.aoi.name);
    await expandRow(page, 'Projects', withNdvi.aoi.name, 'Visualizations');
    await expandRow(page, 'Projects', 'Visualizations', withNdvi.index);
    await contextMenu(page, 'Projects', withNdvi.index, 'Compare Imagery…');
    await map.locator('.eo-compare-bar .side.right').filter({ hasText: withNdvi.index }).waitFor({ state: 'visible', timeout: 60_000 });
    const visRows = await map.locator('.eo-imagery-row').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.id ?? ''));
    for (const id of visRows.filter((x) => x.startsWith('visualization:') || x.startsWith(`asset:${withNdvi.aoi.aoi_id}/`))) {
      const s = await imageryRowSettled(map, id);
      assert.equal(s.state, 'ready', s.text);
    }
    // the picture: the map without the search panel, the list's other layers hidden
    if (await map.locator('#side').isVisible()) await map.locator('#tool-panel').click();
    const compared = await map.evaluate(
      async () =>
        (await (window as unknown as { eoMap: { imagery(): Promise<{ compare: { state?: { left: string; right: string } } }> } }).eoMap.imagery()).compare
          .state,
    );
    assert.ok(compared && compared.right.startsWith('visualization:'), 'the visualization is on the right');
    for (const id of visRows.filter((x) => x !== compared.left && x !== compared.right)) {
      await map.locator(`.eo-imagery-row[data-id="${id}"] button.remove`).click();
    }
    await waitUntil(map, () => !document.querySelector('.leaflet-eo-imagery-pane .leaflet-tile:not(.leaflet-tile-loaded)'), undefined, {
      timeout: 60_000,
    });
    await screenshot(page, 'imagery-compare');
    assertNoWebviewErrors(start.webviewConsole);
  });
});
