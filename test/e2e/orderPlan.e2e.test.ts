// An order plan as a team uses it, in code-server signed in to the sandbox CLI: Projects → an
// AOI → "Order Tasking…", every step answered; on the priced confirmation "Save as Order
// Plan…" writes the plan (nothing is ordered); the file edited (its end date moved, an item
// added, priced, and removed again); the CodeLens "Price" shows the service's total each
// time; "Place Order…" opens the same priced confirmation, where Enter cancels; placed on purpose, the file gets its `placed` record; a
// second "Place Order…" asks first, Cancel first. The service then holds exactly one new order,
// and its request log (`--log-requests`) exactly one order POST that placed.
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

interface PlanItem {
  name?: string;
  geometry: unknown;
  start: string;
  end: string;
  bandset: { id: string };
  cloudCover: number;
  offNadir: number;
  speed: string;
}
interface PlanFile {
  project: { id: string };
  usecase: string;
  items: PlanItem[];
}

/** Writes the plan on disk and waits for the editor to show `shows` (and no longer `gone`). */
async function edit(page: Page, file: string, text: string, shows: string, gone?: string): Promise<void> {
  fs.writeFileSync(file, text);
  const seen = async (): Promise<boolean> => {
    // Monaco draws spaces as no-break spaces
    const t = (await activeEditorText(page)).replace(/\u00a0/g, ' ');
    return t.includes(shows) && (gone === undefined || !t.includes(gone));
  };
  for (const deadline = Date.now() + 30_000; !(await seen()) && Date.now() < deadline;) await page.waitForTimeout(250);
  assert.ok(await seen(), `the editor shows the plan with "${shows}"${gone ? ` and without "${gone}"` : ''}`);
}

/** The service's own dry-run total for the plan's tasking items, asked directly (the interface's request shape). */
async function dryTotal(base: string, token: string, plan: PlanFile): Promise<number> {
  const dry = await fetch(`${base}/v0/orders`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      dry_run: true,
      order_items: plan.items.map((item) => ({
        project_id: plan.project.id,
        name: item.name,
        usecase: plan.usecase,
        geometry: { type: 'FeatureCollection', features: [{ type: 'Feature', geometry: item.geometry, properties: {} }] },
        recurrence: 'ONCE',
        start_date: `${item.start}T00:00:00.000Z`,
        end_date: `${item.end}T00:00:00.000Z`,
        no_of_occurrences: 1,
        bandset: { bandset_id: item.bandset.id },
        cloud_cover: item.cloudCover,
        off_nadir: item.offNadir,
        delivery_speed: item.speed,
      })),
    }),
  });
  assert.equal(dry.status, 200, 'the dry run');
  return ((await dry.json()) as { total_amount: number }).total_amount;
}

/** The Price lens shows `total` in credits, formatted as a person reads it. */
async function waitForTotal(page: Page, total: number): Promise<void> {
  const money = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(total);
  await lens(page, new RegExp(`Priced:.*total amount ${money.replace(/[.]/g, '\\.')} credits`)).waitFor({ state: 'visible', timeout: 60_000 });
}

test('order plan: saved from the wizard, edited, priced by the lens, placed on purpose once', { timeout: 420_000 }, async () => {
  // the service's own request log: what reached it, whatever the extension believes it sent
  await withSandboxWorkbench('plan', { sandboxArgs: ['--log-requests'] }, async ({ page, base, token, folder, sandbox }) => {
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

    // Edited on disk, as a pull request's merge would: the end date moved a week, and a second
    // look at the same area added; priced; then that item removed again and priced anew.
    const moved = isoDay(Date.parse(end) + 7 * DAY);
    const movedText = written.replace(`"end": "${end}"`, `"end": "${moved}"`);
    const twoItems = JSON.parse(movedText) as PlanFile;
    // first, so its name is on the editor's first screen
    twoItems.items.unshift({ ...twoItems.items[0], name: `${name} second look` });
    await edit(page, file, `${JSON.stringify(twoItems, null, 2)}\n`, 'second look');
    await page.keyboard.press('Control+Home');
    await lens(page, /^\s*Price$/).click();
    await waitForTotal(page, await dryTotal(base, token, twoItems));

    await edit(page, file, movedText, moved, 'second look');
    // the price of two items is not kept past the edit: Price again, for the one item left
    await page.keyboard.press('Control+Home');
    await lens(page, /^\s*Price$/).click();
    await waitForTotal(page, await dryTotal(base, token, JSON.parse(movedText) as PlanFile));
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
    const placedPosts = sandbox
      .output()
      .split('\n')
      .filter((l) => l.trim() === 'request POST /v0/orders 201');
    assert.equal(placedPosts.length, 1, 'the service’s request log holds exactly one order POST that placed');
  });
});
