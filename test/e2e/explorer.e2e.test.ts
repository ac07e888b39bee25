// The sidebar as a person sees it: signed in to the sandbox CLI, each EO Imagery view is
// opened on its own, its first row expanded, and the side bar saved as a screenshot
// (test-results/screenshots/sidebar-<view>.png). Rows are checked against the service.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import {
  expandRow,
  openEoContainer,
  screenshot,
  SCREENSHOTS_DIR,
  setSidebarWidth,
  soleView,
  treeRows,
  waitForTreeRow,
  withSandboxWorkbench,
} from './workbench';

/** Widens the side bar so rows are not cut short. */
async function widenSidebar(page: Page, width: number): Promise<void> {
  const box = await page.locator('.part.sidebar').boundingBox();
  if (box && box.width < width) await setSidebarWidth(page, width);
}

async function sidebarShot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  const file = path.join(SCREENSHOTS_DIR, `${name}.png`);
  const size = page.viewportSize();
  if (size) await page.mouse.move(size.width - 20, size.height - 20);
  await page.waitForTimeout(300); // let the spinner and row fade-ins settle
  await page.locator('.part.sidebar').screenshot({ path: file });
  await screenshot(page, `${name}-full`);
  return file;
}

async function get<T>(url: string, token: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const res = await fetch(url, {
    method: init.method ?? 'GET',
    headers: { Authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  assert.ok(res.ok, `${url} answered ${res.status}`);
  return (await res.json()) as T;
}

test('each sidebar view expands against the sandbox and is photographed', { timeout: 300_000 }, async () => {
  await withSandboxWorkbench('sidebar', {}, async ({ page, base, token }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await openEoContainer(page);
    await widenSidebar(page, 480);

    // Projects → the first project with AOIs → its first AOI → Assets.
    const projects = await get<{ projects: Array<{ id: string; name: string }> }>(`${base}/v0/projects?page_num=1&page_size=50`, token);
    let project: { id: string; name: string } | undefined;
    let aoi: { name: string } | undefined;
    for (const p of projects.projects) {
      const a = await get<{ aois: Array<{ name: string }> }>(`${base}/v0/aois?project_ids=${p.id}&limit=1`, token);
      if (a.aois.length) {
        project = p;
        aoi = a.aois[0];
        break;
      }
    }
    assert.ok(project && aoi, 'no project with AOIs in the sandbox');
    await soleView(page, 'Projects');
    await expandRow(page, 'Projects', project.name, aoi.name, 60_000);
    await expandRow(page, 'Projects', aoi.name, 'Assets');
    await expandRow(page, 'Projects', 'Assets', /band/);
    await sidebarShot(page, 'sidebar-projects');

    // Orders → the first order → its items.
    await soleView(page, 'Orders');
    const orders = await get<{ orders: Array<{ id: string; order_items: Array<{ name: string }> }> }>(`${base}/v0/orders?limit=50`, token);
    assert.ok(orders.orders.length > 0, 'no orders in the sandbox');
    await treeRows(page, 'Orders').first().waitFor({ state: 'visible', timeout: 30_000 });
    const firstWithItems = orders.orders.findIndex((o) => o.order_items.length > 0);
    if (firstWithItems >= 0) {
      const row = treeRows(page, 'Orders').nth(firstWithItems);
      await row.click();
      await treeRows(page, 'Orders')
        .filter({ hasText: /Tasking|Archive|Recurring tasking/ })
        .first()
        .waitFor({ state: 'visible', timeout: 30_000 });
    }
    await sidebarShot(page, 'sidebar-orders');

    // Catalog → the first entry's deliveries.
    await soleView(page, 'Catalog');
    const catalogs = await get<{ catalogs: Array<{ id: string }> }>(`${base}/v0/catalogs/search`, token, { method: 'POST', body: { limit: 1 } });
    if (catalogs.catalogs.length > 0) {
      const row = treeRows(page, 'Catalog').first();
      await row.waitFor({ state: 'visible', timeout: 30_000 });
      await row.click();
      await treeRows(page, 'Catalog').nth(1).waitFor({ state: 'visible', timeout: 30_000 });
    }
    await sidebarShot(page, 'sidebar-catalog');

    // Cloud Stores.
    await soleView(page, 'Cloud Stores');
    const stores = await get<{ stores: Array<{ name: string }> }>(`${base}/v0/stores`, token);
    if (stores.stores.length > 0) await waitForTreeRow(page, 'Cloud Stores', stores.stores[0].name);
    await sidebarShot(page, 'sidebar-stores');

    // Archive → the first collection → its items.
    await soleView(page, 'Archive');
    const collections = await get<{ collections: Array<{ id: string; title: string }> }>(`${base}/v0/archives/collections`, token);
    assert.ok(collections.collections.length > 0, 'no archive collections in the sandbox');
    const c = collections.collections[0];
    const items = await get<{ features: Array<{ id: string }> }>(`${base}/v0/archives/collections/${c.id}/items?limit=1`, token);
    await expandRow(page, 'Archive', c.title || c.id, items.features[0]?.id ?? 'No items');
    await sidebarShot(page, 'sidebar-archive');

    const labels = (await treeRows(page, 'Archive').allInnerTexts()).join(' | ');
    assert.ok(!/could not load|sign in again/i.test(labels), `error rows in the Archive view: ${labels}`);
  });
});
