// An order plan as a team uses it, in code-server signed in to the sandbox CLI: Projects → an
// AOI → "Order Tasking…", every step answered; on the priced confirmation "Save as Order
// Plan…" writes the plan (nothing is ordered); the file edited (its end date moved); the
// CodeLens "Price" shows the service's total; "Place Order…" opens the same priced
// confirmation, where Enter cancels; placed on purpose, the file gets its `placed` record; a
// second "Place Order…" asks first, Cancel first. The service then holds exactly one new order.
// Screenshots: test-results/screenshots/plan-*.png.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { api } from './webviews';
import { activeEditorText, clickQuickPickRow, focusedQuickPickRow, quickPickText, rowContextMenu, waitForQuickInput } from './widgets';
import { answerTaskingWizard, taskableAoi } from './taskable';
import { openEoContainer, screenshot, soleView, waitForTreeRow, withSandboxWorkbench } from './workbench';

const DAY = 86_400_000;
const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

const lens = (page: Page, title: string | RegExp) => page.locator('.editor-group-container.active .codelens-decoration a').filter({ hasText: title }).first();

async function until<T>(what: string, probe: () => T | undefined | false, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`no ${what} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

test('order plan: saved from the wizard, edited, priced by the lens, placed on purpose once', { timeout: 420_000 }, async () => {
  await withSandboxWorkbench('plan', {}, async ({ page, base, token, folder }) => {
    await page.setViewportSize({ width: 1400, height: 900 });
    await openEoContainer(page);
    await soleView(page, 'Projects');

    const { project, aoi, bandset } = await taskableAoi(base, token);
    const orderIds = async (): Promise<string[]> => (await api<{ orders: { id: string }[] }>(base, token, '/v0/orders?limit=100')).orders.map((o) => o.id);
    const before = new Set(await orderIds());
    const newOrders = async (): Promise<string[]> => (await orderIds()).filter((id) => !before.has(id));

    // The tasking wizard, to its priced confirmation.
    const projectRow = await waitForTreeRow(page, 'Projects', project.name, 60_000);
    if ((await projectRow.getAttribute('aria-expanded')) !== 'true') await projectRow.click();
    await rowContextMenu(page, await waitForTreeRow(page, 'Projects', aoi.name), 'Order Tasking…');
    const name = `e2e plan ${Date.now()}`;
    const start = isoDay(Date.now() + 3 * DAY);
    const end = isoDay(Date.now() + 24 * DAY);
    await answerTaskingWizard(page, { name, usecase: 'e2e: plans in pull requests', start, end, bandset: bandset.name });

    // "Save as Order Plan…" on the confirmation, then code-server's save dialog.
    await waitForQuickInput(page, /Place this order\?/, 60_000);
    assert.match(await quickPickText(page), /Save as Order Plan…/);
    await clickQuickPickRow(page, /Place this order\?/, 'Save as Order Plan…');
    const file = path.join(folder, 'vineyards.eoorder.json');
    const saveBox = await waitForQuickInput(page, /Save as Order Plan/);
    await page.waitForTimeout(500);
    await saveBox.fill(file);
    await page.waitForTimeout(300);
    await saveBox.press('Enter');
    const written = await until('the plan file', () => fs.existsSync(file) && fs.readFileSync(file, 'utf8'));
    assert.deepEqual(await newOrders(), [], 'saving the plan ordered nothing');
    assert.match(written, new RegExp(`"aoi": \\{ "id": "${aoi.aoi_id}", "name": ${JSON.stringify(aoi.name)} \\}`));
    assert.match(written, new RegExp(`"end": "${end}"`));
    assert.match(written, /"cloudCover": 15/);

    // Edited: the end date moved a week (on disk, as a pull request's merge would).
    const moved = isoDay(Date.parse(end) + 7 * DAY);
    fs.writeFileSync(file, written.replace(`"end": "${end}"`, `"end": "${moved}"`));
    for (const deadline = Date.now() + 30_000; !(await activeEditorText(page)).includes(moved) && Date.now() < deadline;) await page.waitForTimeout(250);
    assert.ok((await activeEditorText(page)).includes(moved), 'the editor shows the moved date');

    // Price: the lens shows the service's total for the edited plan.
    await page.keyboard.press('Control+Home');
    await lens(page, /^\s*Price$/).click();
    const priced = lens(page, /Priced:/);
    await priced.waitFor({ state: 'visible', timeout: 60_000 });
    const request = JSON.parse(fs.readFileSync(file, 'utf8')) as {
      project: { id: string };
      items: { geometry: unknown; start: string; end: string; bandset: { id: string } }[];
    };
    const item = request.items[0];
    const dry = await fetch(`${base}/v0/orders`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        dry_run: true,
        order_items: [
          {
            project_id: request.project.id,
            name,
            usecase: 'e2e: plans in pull requests',
            geometry: { type: 'FeatureCollection', features: [{ type: 'Feature', geometry: item.geometry, properties: {} }] },
            recurrence: 'ONCE',
            start_date: `${item.start}T00:00:00.000Z`,
            end_date: `${item.end}T00:00:00.000Z`,
            no_of_occurrences: 1,
            bandset: { bandset_id: item.bandset.id },
            cloud_cover: 15,
            off_nadir: 25,
            delivery_speed: 'STANDARD',
          },
        ],
      }),
    });
    const total = ((await dry.json()) as { total_amount: number }).total_amount;
    const money = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(total);
    assert.match(await priced.innerText(), new RegExp(`total amount ${money.replace(/[.]/g, '\\.')} credits`));
    await screenshot(page, 'plan-priced');

    // Place Order…: the wizards' priced confirmation; Enter cancels and nothing is placed.
    await lens(page, 'Place Order…').click();
    await waitForQuickInput(page, /Place this order\?/, 60_000);
    assert.match(await focusedQuickPickRow(page), /^Cancel/, 'Enter would cancel');
    assert.doesNotMatch(await quickPickText(page), /Save as Order Plan/, 'a plan is not offered as a plan again');
    await screenshot(page, 'plan-confirm');
    await page.keyboard.press('Enter');
    await page.waitForTimeout(1500);
    assert.deepEqual(await newOrders(), [], 'Enter on the confirmation placed nothing');

    // Placed on purpose: one order, and the file says so.
    await lens(page, 'Place Order…').click();
    await clickQuickPickRow(page, /Place this order\?/, 'Place Order', 60_000);
    const placedText = await until(
      'the placed record in the file',
      () => fs.readFileSync(file, 'utf8').includes('"placed"') && fs.readFileSync(file, 'utf8'),
      60_000,
    );
    const created = await newOrders();
    assert.equal(created.length, 1, `new orders: ${created.join(', ')}`);
    const placed = (JSON.parse(placedText) as { placed: { order_id: string; at: string } }).placed;
    assert.equal(placed.order_id, created[0]);
    await lens(page, /Placed as order/).waitFor({ state: 'visible', timeout: 30_000 });
    await screenshot(page, 'plan-placed');

    // A second Place asks first, Cancel first: Enter leaves it at one order.
    await lens(page, 'Place Order…').click();
    await waitForQuickInput(page, new RegExp(`This plan was placed as order ${placed.order_id} on ${placed.at.slice(0, 10)}; place a new order\\?`));
    assert.match(await focusedQuickPickRow(page), /^Cancel/);
    await screenshot(page, 'plan-place-again');
    await page.keyboard.press('Enter');
    await page.waitForTimeout(1500);
    assert.deepEqual(await newOrders(), created, 'exactly one order was placed');
  });
});
