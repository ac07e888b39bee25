// One archive order placed from the map as a person places it, in code-server signed in to the
// sandbox CLI: Projects → Paris centre → Show on Map; draw a rectangle over the AOI in the map's
// search panel, search the archive, select a result, "Order…"; answer the real quick picks and
// input boxes (project, name, use case, no cloud delivery); the priced summary is a quick pick
// in the workbench whose default row is Cancel; Place Order picked with the mouse; the sandbox
// then holds exactly one new order, for that item,
// and the Orders view shows it. Screenshots: test-results/screenshots/order-*.png.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Frame } from 'playwright-core';
import { api, contextMenu, waitForBounds, watchWebviewConsole, webviewFrame } from './webviews';
import { openEoContainer, screenshot, soleView, treeRows, viewSection, waitForTreeRow, withSandboxWorkbench } from './workbench';
import { answerQuickInput, clickQuickPickRow, focusedQuickPickRow, quickPickText, waitForQuickInput } from './widgets';
import { waitUntil } from '../support/waitUntil';

/** Page coordinates of a map position (the map frame's own hit testing is not Playwright's). */
async function pagePoint(frame: Frame, lat: number, lng: number): Promise<{ x: number; y: number }> {
  const p = await frame.evaluate(
    ([la, ln]) => {
      const m = (window as unknown as { eoMap: { map: { latLngToContainerPoint(ll: [number, number]): { x: number; y: number } } } }).eoMap.map;
      const q = m.latLngToContainerPoint([la, ln]);
      return { x: q.x, y: q.y };
    },
    [lat, lng] as const,
  );
  const box = await frame.locator('#map').boundingBox();
  assert.ok(box, 'the map has no box');
  return { x: box.x + p.x, y: box.y + p.y };
}

/** A click at the page coordinates of an element in the webview, as a person's mouse would. */
async function clickInFrame(frame: Frame, selector: string): Promise<void> {
  await frame.locator(selector).scrollIntoViewIfNeeded();
  const box = await frame.locator(selector).boundingBox();
  assert.ok(box, `${selector} has no box`);
  await frame.page().mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}

test('order: an archive item searched on the map, ordered through the priced summary', { timeout: 480_000 }, async () => {
  await withSandboxWorkbench('order', {}, async ({ page, base, token }) => {
    const webviewConsole = watchWebviewConsole(page);
    await page.setViewportSize({ width: 1400, height: 900 });
    await openEoContainer(page);
    await soleView(page, 'Projects');

    const projects = await api<{ projects: Array<{ id: string; name: string; title?: string }> }>(base, token, '/v0/projects?page_num=1&page_size=50');
    const aois = await api<{ aois: Array<{ aoi_id: string; name: string; project_id: string }> }>(base, token, '/v0/aois?limit=100');
    const paris = aois.aois.find((a) => a.name === 'Paris centre');
    assert.ok(paris, 'the sandbox has no Paris centre AOI');
    const project = projects.projects.find((p) => p.id === paris.project_id);
    assert.ok(project, 'the AOI has no project');
    const ordersBefore = await api<{ orders: Array<{ id: string }> }>(base, token, '/v0/orders?limit=100');

    // Projects → Paris centre → Show on Map.
    const projectRow = await waitForTreeRow(page, 'Projects', project.title || project.name, 60_000);
    if ((await projectRow.getAttribute('aria-expanded')) !== 'true') await projectRow.click();
    await contextMenu(page, 'Projects', paris.name, 'Show on Map');
    const map = await webviewFrame(page, 'eoMap');
    const aoi = await waitForBounds(map, 'aois', paris.aoi_id);

    // The search panel: a rectangle drawn with the mouse over the AOI's southern half (the
    // AOI's popup sits over its centre, and the map is fitted to the AOI), any date, any cloud.
    await clickInFrame(map, '#draw-rect');
    const h = aoi.north - aoi.south;
    const w = aoi.east - aoi.west;
    const nw = await pagePoint(map, aoi.south + h * 0.45, aoi.west + w * 0.2);
    const se = await pagePoint(map, aoi.south + h * 0.1, aoi.east - w * 0.2);
    await page.mouse.move(nw.x, nw.y);
    await page.mouse.down();
    await page.mouse.move((nw.x + se.x) / 2, (nw.y + se.y) / 2, { steps: 4 });
    await page.mouse.move(se.x, se.y, { steps: 4 });
    await page.mouse.up();
    await map
      .locator('#shape-info')
      .filter({ hasText: /Rectangle drawn/ })
      .waitFor({ timeout: 10_000 });
    await map.locator('#kind-archive').check();
    await map.locator('#from').fill('2000-01-01');
    await map.locator('#to').fill('2099-12-31');
    await map.locator('#max-cloud').fill('100');
    await clickInFrame(map, '#search');
    await waitUntil(map, () => /result/i.test(document.getElementById('status')?.textContent ?? ''), undefined, { timeout: 60_000 });
    const status = await map.locator('#status').innerText();
    assert.ok(!/No results|failed/i.test(status), `the search over Paris found nothing: ${status}`);
    const rows = map.locator('#results li');
    assert.ok((await rows.count()) > 0, 'no result rows');

    // Select the first result in the list (the map selects its footprint too), then Order….
    const first = rows.first();
    const featureId = (await first.getAttribute('data-id')) ?? '';
    const slash = featureId.indexOf('/');
    const collection = featureId.slice(0, slash);
    const itemId = featureId.slice(slash + 1);
    assert.ok(slash > 0 && itemId, `a result row without a collection/id: ${featureId}`);
    await clickInFrame(map, '#results li:first-child');
    await waitUntil(map, (id) => (window as unknown as { eoMap: { selected?: { id: string } } }).eoMap.selected?.id === id, featureId);
    assert.equal(await first.getAttribute('aria-selected'), 'true');
    await map.locator('#order-results').waitFor({ state: 'visible' });
    await screenshot(page, 'order-map-results', { belowTitleBar: true });
    await clickInFrame(map, '#order-results');

    // The order wizard: real quick picks and input boxes in the workbench.
    await answerQuickInput(page, /Project to bill the order to/, project.title || project.name);
    const suggested = await answerQuickInput(page, /Name of the order item/);
    assert.ok(suggested.length > 0, 'the order name is suggested');
    // the service requires a use case on every item: the step is prefilled with the default
    const usecaseDefault = await answerQuickInput(page, /Use case/, 'e2e: one scene over Paris');
    assert.equal(usecaseDefault, 'general');
    await screenshot(page, 'order-store-step').catch(() => undefined);
    await answerQuickInput(page, /Deliver to a cloud store/, 'No cloud delivery');

    // The dry run prices the order; its summary is a quick pick whose first row, Cancel, is
    // what Enter picks: Place Order is chosen on purpose.
    await waitForQuickInput(page, /Place this order\?/, 60_000);
    const dialogText = await quickPickText(page);
    assert.match(dialogText, /Place this order\?/);
    assert.match(await focusedQuickPickRow(page), /^Cancel/, 'Enter would cancel');
    assert.match(dialogText, /Total amount:/);
    // it restates what is bought: the scene with its acquisition date, and where it goes
    assert.match(dialogText, /1 archive scene:\n• .+, acquired \d{4}-\d{2}-\d{2}/);
    assert.match(dialogText, /Delivered to: no cloud store/);
    assert.match(dialogText, new RegExp(suggested.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    const ordersDuringSummary = await api<{ orders: Array<{ id: string }> }>(base, token, '/v0/orders?limit=100');
    assert.equal(ordersDuringSummary.orders.length, ordersBefore.orders.length, 'the dry run placed nothing');
    // the map's transient notice (offline tiles) goes after 6 s: keep it out of the picture
    await map
      .locator('.notice')
      .waitFor({ state: 'detached', timeout: 10_000 })
      .catch(() => undefined);
    // the whole window: the quick pick's title ("Place this order? …") sits over the title bar and hides its words
    await screenshot(page, 'order-summary');
    await clickQuickPickRow(page, /Place this order\?/, 'Place Order');

    // Exactly one new order, for the selected item.
    const before = new Set(ordersBefore.orders.map((o) => o.id));
    let created: Array<{ id: string; created_at?: string; total_amount?: number }> = [];
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const now = await api<{ orders: Array<{ id: string; created_at?: string; total_amount?: number }> }>(base, token, '/v0/orders?limit=100');
      created = now.orders.filter((o) => !before.has(o.id));
      if (created.length) break;
      await page.waitForTimeout(500);
    }
    assert.equal(created.length, 1, `new orders: ${JSON.stringify(created)}`);
    const order = created[0];
    const items = await api<{ order_items: Array<{ name: string; usecase: string; item_ids?: string[]; images?: unknown }> }>(
      base,
      token,
      `/v0/order-items?order_ids=${encodeURIComponent(order.id)}`,
    );
    assert.equal(items.order_items.length, 1);
    assert.equal(items.order_items[0].name, suggested);
    assert.equal(items.order_items[0].usecase, 'e2e: one scene over Paris');
    assert.ok(
      JSON.stringify(items.order_items[0]).includes(itemId),
      `the order item is not for ${collection}/${itemId}: ${JSON.stringify(items.order_items[0]).slice(0, 400)}`,
    );

    // The Orders view shows it: placing reveals and selects the new order's row, labelled by
    // what it buys (its item's name), with its total amount and day. The reveal opens the
    // collapsed view itself (clicking its header here would race the reveal and could fold it again).
    await viewSection(page, 'Orders').locator('.pane-header[aria-expanded="true"]').waitFor({ state: 'visible', timeout: 30_000 });
    const ts = order.created_at ?? '';
    const day = new Date(ts.includes('T') ? ts : ts.replace(' ', 'T')).toISOString().slice(0, 10);
    const total = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(order.total_amount ?? NaN);
    const row = treeRows(page, 'Orders').and(page.locator('[aria-selected="true"]')).first();
    await row.waitFor({ state: 'visible', timeout: 30_000 });
    const rowText = await row.innerText();
    assert.ok(
      rowText.includes(suggested) && rowText.includes(`total amount ${total}`) && rowText.includes(day),
      `the selected Orders row is "${rowText}", not the new order (${suggested}, total amount ${total}, ${day})`,
    );
    assert.match(dialogText, new RegExp(`total amount ${total.replace(/[.]/g, '\\.')}`), 'the summary priced what was placed');
    await screenshot(page, 'order-placed');

    const problems = webviewConsole.filter((l) => /Content Security Policy|Refused to|pageerror|Uncaught/i.test(l));
    assert.deepEqual(problems, [], `webview console:\n${webviewConsole.join('\n')}`);
  });
});
