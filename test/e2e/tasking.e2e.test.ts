// A tasking order placed as a person places it, signed in to the sandbox CLI: Projects → an
// AOI → right-click → "Order Tasking…"; every step answered in the real quick picks and input
// boxes, Back pressed once (the earlier answer comes back as the default); the dry run's
// priced summary is a quick pick whose default is Cancel; Place Order picked with the mouse; the
// service then holds exactly one new order with that tasking item. A second test holds Enter
// through the whole wizard: nothing is placed. Screenshots: test-results/screenshots/tasking-*.png.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { api } from './webviews';
import {
  answerQuickInput,
  clickQuickPickRow,
  focusedQuickPickRow,
  pickQuickItem,
  quickInputBack,
  quickPickText,
  rowContextMenu,
  waitForQuickInput,
} from './widgets';
import { openEoContainer, screenshot, soleView, treeRows, waitForTreeRow, withSandboxWorkbench } from './workbench';

const DAY = 86_400_000;
const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

test('tasking: from an AOI’s context menu through every step, Back once, to the priced summary and Place Order', { timeout: 300_000 }, async () => {
  await withSandboxWorkbench('tasking', {}, async ({ page, base, token }) => {
    await openEoContainer(page);
    await soleView(page, 'Projects');

    const { projects } = await api<{ projects: { id: string; name: string; title?: string }[] }>(base, token, '/v0/projects?page_num=1&page_size=50');
    const { aois } = await api<{ aois: { aoi_id: string; name: string; project_id: string; satellite_id: string }[] }>(base, token, '/v0/aois?limit=100');
    type Band = { name: string; wavelength: number };
    const { bandsets: allBandsets } = await api<{ bandsets: { id: string; name: string; bands: Band[] }[] }>(base, token, '/v0/bandsets');
    const satellites = await api<{ id: string; name: string; bands: Band[] }[] | { satellites: { id: string; name: string; bands: Band[] }[] }>(
      base,
      token,
      '/v0/satellites',
    );
    const satList = Array.isArray(satellites) ? satellites : satellites.satellites;
    // The wizard offers only the bandsets of the AOI's satellite.
    const bandsetsOf = (satId: string) => {
      const sat = satList.find((x) => x.id === satId);
      return allBandsets.filter((b) => sat && b.bands.every((x) => sat.bands.some((y) => y.name === x.name && y.wavelength === x.wavelength)));
    };
    const aoi = aois.find((a) => projects.some((p) => p.id === a.project_id) && bandsetsOf(a.satellite_id).length > 0);
    assert.ok(aoi, 'an AOI in one of the projects, on a satellite with bandsets');
    const project = projects.find((p) => p.id === aoi.project_id)!;
    const bandsets = bandsetsOf(aoi.satellite_id);
    const satName = satList.find((x) => x.id === aoi.satellite_id)!.name;
    const before = new Set((await api<{ orders: { id: string }[] }>(base, token, '/v0/orders?limit=100')).orders.map((o) => o.id));

    const projectRow = await waitForTreeRow(page, 'Projects', project.name, 60_000);
    if ((await projectRow.getAttribute('aria-expanded')) !== 'true') await projectRow.click();
    await rowContextMenu(page, await waitForTreeRow(page, 'Projects', aoi.name), 'Order Tasking…');

    const name = `e2e tasking ${Date.now()}`;
    const usecase = 'e2e: flood monitoring';
    const start = isoDay(Date.now() + 3 * DAY);
    const end = isoDay(Date.now() + 24 * DAY);
    // Steps are counted as met: 10 apply at first (the AOI's project is preset, a capture
    // taken once needs no number of captures, no store no folder).
    const counter = async () => /\((\d+\/\d+)\)/.exec(await page.locator('.quick-input-widget .quick-input-title').first().innerText())?.[1];
    await waitForQuickInput(page, /Name of the order item/);
    assert.equal(await counter(), '1/10');
    await answerQuickInput(page, /Name of the order item/, name);
    await answerQuickInput(page, /Use case/, usecase);
    // Back once from the start date: the use case comes back as typed.
    await waitForQuickInput(page, /First day of the capture window/);
    await screenshot(page, 'tasking-start-date');
    await quickInputBack(page);
    const kept = await answerQuickInput(page, /Use case/);
    assert.equal(kept, usecase, 'Back shows the earlier answer');
    await answerQuickInput(page, /First day of the capture window/, start);
    await answerQuickInput(page, /Last day of the capture window/, end);
    await pickQuickItem(page, /How often to capture/, 'Once');
    await waitForQuickInput(page, new RegExp(`Bands to capture with ${satName}`));
    assert.equal(await counter(), '6/10', 'the step after "How often" (5/10) is the sixth');
    await screenshot(page, 'tasking-bandset');
    await pickQuickItem(page, /Bands to capture/, bandsets[0].name);
    await answerQuickInput(page, /Maximum cloud cover/, '15');
    await answerQuickInput(page, /Maximum off-nadir/, '25');
    await pickQuickItem(page, /Delivery speed/, 'Standard');
    await waitForQuickInput(page, /Deliver to a cloud store when fulfilled/);
    assert.equal(await counter(), '10/10', 'the last step');
    await pickQuickItem(page, /Deliver to a cloud store when fulfilled/, 'No cloud delivery');

    // The dry run prices it; the summary is a quick pick whose default row is Cancel, and
    // nothing is placed yet.
    await waitForQuickInput(page, /Place this order\?/, 60_000);
    const summary = await quickPickText(page);
    assert.match(await focusedQuickPickRow(page), /^Cancel/, 'Enter would cancel');
    assert.match(summary, /Total amount:/);
    assert.ok(summary.includes(name), `the summary names the item: ${summary}`);
    const during = (await api<{ orders: { id: string }[] }>(base, token, '/v0/orders?limit=100')).orders.filter((o) => !before.has(o.id));
    assert.deepEqual(during, [], 'the dry run placed nothing');
    await screenshot(page, 'tasking-summary');
    await clickQuickPickRow(page, /Place this order\?/, 'Place Order');

    let created: { id: string }[] = [];
    for (const deadline = Date.now() + 30_000; created.length === 0 && Date.now() < deadline; await page.waitForTimeout(500)) {
      created = (await api<{ orders: { id: string }[] }>(base, token, '/v0/orders?limit=100')).orders.filter((o) => !before.has(o.id));
    }
    assert.equal(created.length, 1, 'exactly one new order');
    const { order_items: items } = await api<{
      order_items: {
        name: string;
        type: string;
        usecase?: string;
        cloud_cover?: number;
        off_nadir?: number;
        start_date?: string;
        end_date?: string;
        bandset?: { bandset_id?: string };
      }[];
    }>(base, token, `/v0/order-items?order_ids=${encodeURIComponent(created[0].id)}`);
    assert.equal(items.length, 1);
    const item = items[0];
    assert.equal(item.name, name);
    assert.equal(item.type, 'TASKING');
    assert.equal(item.usecase, usecase);
    assert.equal(item.cloud_cover, 15);
    assert.equal(item.off_nadir, 25);
    assert.equal(item.bandset?.bandset_id, bandsets[0].id);
    assert.equal(item.start_date?.slice(0, 10), start);
    await treeRows(page, 'Orders')
      .first()
      .waitFor({ state: 'attached', timeout: 30_000 })
      .catch(() => undefined);
    await screenshot(page, 'tasking-placed');
  });
});

// Enter held down from the first step: every step takes its default, the dry run prices the
// order, and the Enter that follows lands on the confirmation's default, Cancel. The sandbox
// holds no new order afterwards.
test('tasking: Enter held through the whole wizard places nothing', { timeout: 300_000 }, async () => {
  await withSandboxWorkbench('tasking-enter', {}, async ({ page, base, token }) => {
    await openEoContainer(page);
    await soleView(page, 'Projects');
    const { projects } = await api<{ projects: { id: string; name: string; title?: string }[] }>(base, token, '/v0/projects?page_num=1&page_size=50');
    const { aois } = await api<{ aois: { aoi_id: string; name: string; project_id: string }[] }>(base, token, '/v0/aois?limit=100');
    const aoi = aois.find((a) => projects.some((p) => p.id === a.project_id));
    assert.ok(aoi, 'an AOI in one of the projects');
    const project = projects.find((p) => p.id === aoi.project_id)!;
    const ordersNow = async () => (await api<{ orders: { id: string }[] }>(base, token, '/v0/orders?limit=100')).orders.map((o) => o.id);
    const before = new Set(await ordersNow());

    const projectRow = await waitForTreeRow(page, 'Projects', project.title || project.name, 60_000);
    if ((await projectRow.getAttribute('aria-expanded')) !== 'true') await projectRow.click();
    await rowContextMenu(page, await waitForTreeRow(page, 'Projects', aoi.name), 'Order Tasking…');
    await waitForQuickInput(page, /Name of the order item/);

    // A held key repeats about every 30 ms; here every 100 ms, for as long as the wizard and
    // the dry run take, and a second more once the confirmation has shown.
    let confirmationSeen = false;
    let shownFor = 0;
    for (const deadline = Date.now() + 120_000; Date.now() < deadline && shownFor < 10;) {
      await page.keyboard.press('Enter');
      await page.waitForTimeout(100);
      const title = await page
        .locator('.quick-input-widget .quick-input-title')
        .first()
        .innerText({ timeout: 200 })
        .catch(() => '');
      if (/Place this order\?/.test(title)) {
        if (!confirmationSeen) await screenshot(page, 'tasking-enter-confirmation');
        confirmationSeen = true;
      }
      if (confirmationSeen) shownFor++;
    }
    assert.ok(confirmationSeen, 'the held Enter reached the priced confirmation');
    // give a placed order time to show up on the sandbox
    await page.waitForTimeout(3_000);
    const created = (await ordersNow()).filter((id) => !before.has(id));
    assert.deepEqual(created, [], 'Enter placed an order');
    await screenshot(page, 'tasking-enter-nothing-placed');
  });
});
