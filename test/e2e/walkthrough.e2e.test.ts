// A newcomer's first steps: "EO Imagery: Get Started" from the command palette opens the
// walkthrough (an installed extension offers it once by itself; one under development does
// not), its steps tick off as they are done (signed in from EO_API_TOKEN before the page was
// ever opened, a project expanded); the Accounts menu lists the EO Imagery account with Sign Out.
// The walkthrough's search (its "Search Archive Here" button, a rectangle drawn over the Nile
// Delta AOI, the form left at its defaults) finds scenes on the seeded sandbox.
// Screenshots: test-results/screenshots/walkthrough.png, accounts-menu.png, walkthrough-search.png.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import { api, webviewFrame } from './webviews';
import { clickQuickPickRow, runCommand } from './widgets';
import { openEoContainer, screenshot, SCREENSHOTS_DIR, treeRows, withSandboxWorkbench } from './workbench';
import { moveMap } from '../webview/moveMap';
import { waitUntil } from '../support/waitUntil';

test('Get Started opens the walkthrough, steps tick off, and the Accounts menu lists the account', { timeout: 240_000 }, async () => {
  // A fresh profile: its steps start unticked (a window shared with other tests has done them).
  await withSandboxWorkbench('walkthrough', { ownWindow: true }, async ({ page, sandbox }) => {
    await openEoContainer(page);
    await page.keyboard.press('F1');
    await page.keyboard.type('EO Imagery: Get Started');
    await page
      .locator('.quick-input-list .monaco-list-row')
      .filter({ hasText: 'EO Imagery: Get Started' })
      .first()
      .waitFor({ state: 'visible', timeout: 20_000 });
    await page.keyboard.press('Enter');
    const walkthrough = page.locator('.gettingStartedContainer');
    await walkthrough.getByText('Get Started with EO Imagery').first().waitFor({ state: 'visible', timeout: 60_000 });
    for (const title of [
      'Sign in, or try the sandbox',
      'Browse a project',
      'Show an AOI on the map',
      'Search the archive and see imagery',
      'Price an order',
      'Build an insight input',
    ]) {
      await walkthrough.getByText(title).first().waitFor({ state: 'visible', timeout: 10_000 });
    }
    const step = (title: string) => walkthrough.locator('.getting-started-step').filter({ hasText: title }).first();
    const checkbox = (title: string) => step(title).locator('[role="checkbox"]').first();
    // Signed in from EO_API_TOKEN before the page was first opened (as npm start does): done.
    await waitUntil(page, (el) => el?.getAttribute('aria-checked') === 'true', await checkbox('Sign in, or try the sandbox').elementHandle(), {
      timeout: 30_000,
    });
    assert.equal(await checkbox('Browse a project').getAttribute('aria-checked'), 'false', 'a project counted as browsed before any was');
    await screenshot(page, 'walkthrough');
    // A step ticks off when its event happens while the page is open: expand a project.
    const project = treeRows(page, 'Projects').first();
    await project.waitFor({ state: 'visible', timeout: 30_000 });
    await project.click();
    await page.keyboard.press('ArrowRight');
    await step('Browse a project')
      .locator('.codicon-getting-started-step-checked, .codicon-pass-filled, .complete')
      .first()
      .or(walkthrough.locator('.getting-started-step.complete').filter({ hasText: 'Browse a project' }))
      .first()
      .waitFor({ state: 'attached', timeout: 30_000 });
    await screenshot(page, 'walkthrough-progress');

    const accounts = page
      .locator('.part.activitybar .action-item')
      .filter({ has: page.locator('[aria-label^="Accounts"]') })
      .first();
    await accounts.click();
    const host = new URL(sandbox.url).host;
    const entry = page
      .locator('.monaco-menu .action-item')
      .filter({ hasText: `${host} (from EO_API_TOKEN)` })
      .first();
    await entry.waitFor({ state: 'visible', timeout: 30_000 });
    assert.match((await entry.innerText()).trim(), /EO Imagery/);
    await entry.hover();
    await page.locator('.monaco-menu .action-item').filter({ hasText: 'Sign Out' }).first().waitFor({ state: 'visible', timeout: 10_000 });
    await page.waitForTimeout(300);
    // Not `screenshot()`: it parks the pointer, which would close the submenu.
    fs.mkdirSync(SCREENSHOTS_DIR, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOTS_DIR, 'accounts-menu.png') });
  });
});

/** Page coordinates of a map position (the map frame's own hit testing is not Playwright's). */
async function pagePoint(frame: Frame, lat: number, lng: number): Promise<{ x: number; y: number }> {
  const p = await frame.evaluate(
    ([la, ln]) => {
      const m = (window as unknown as { eoMap: { map: { latLngToContainerPoint(ll: [number, number]): { x: number; y: number } } } }).eoMap.map;
      return m.latLngToContainerPoint([la, ln]);
    },
    [lat, lng] as const,
  );
  const box = await frame.locator('#map').boundingBox();
  assert.ok(box, 'the map has no box');
  return { x: box.x + p.x, y: box.y + p.y };
}

test('the walkthrough’s search: a rectangle over the Nile Delta with the form’s defaults finds scenes', { timeout: 240_000 }, async () => {
  await withSandboxWorkbench('walkthrough-search', {}, async ({ page, sandbox }) => {
    const { aois } = await api<{ aois: { aoi_id: string; name: string; geometry: { coordinates: number[][][] } }[] }>(
      sandbox.url,
      sandbox.tokens.alice,
      '/v0/aois?limit=100',
    );
    const nile = aois.find((a) => a.name === 'Nile Delta fields');
    assert.ok(nile, 'the seeded sandbox has the Nile Delta AOI');
    const ring = nile.geometry.coordinates[0];
    const [w, e] = [Math.min(...ring.map((p) => p[0])), Math.max(...ring.map((p) => p[0]))];
    const [s, n] = [Math.min(...ring.map((p) => p[1])), Math.max(...ring.map((p) => p[1]))];

    await openEoContainer(page);
    await treeRows(page, 'Projects').first().waitFor({ state: 'visible', timeout: 60_000 });
    await runCommand(page, 'EO Imagery: Get Started');
    const walkthrough = page.locator('.gettingStartedContainer');
    await walkthrough.getByText('Get Started with EO Imagery').first().waitFor({ state: 'visible', timeout: 60_000 });
    await walkthrough.getByText('Search the archive and see imagery').first().click();
    // The page focuses the step it selects twice: at once, and again when its slide animation ends
    // (VS Code's SLIDE_TRANSITION_TIME_MS, 250 ms). A picker opened before the second closes on
    // that focus change, so click the button once the step is settled, as a person would.
    await waitUntil(page, () => /Search the archive/.test(document.activeElement?.closest('.getting-started-step.expanded')?.textContent ?? ''), undefined, {
      timeout: 10_000,
    });
    await page.waitForTimeout(400);
    await walkthrough.getByRole('button', { name: 'Search Archive Here' }).first().click();
    await clickQuickPickRow(page, /Where to search/, 'Draw a rectangle on the map');

    // the map opens drawing; over the AOI, a rectangle dragged with the mouse
    const map = await webviewFrame(page, 'eoMap');
    await waitUntil(map, () => document.body.dataset.drawing === 'rectangle', undefined, { timeout: 30_000 });
    await moveMap(map, {
      fitBounds: [
        [s, w],
        [n, e],
      ],
      options: { animate: false },
    });
    const nw = await pagePoint(map, n - (n - s) * 0.15, w + (e - w) * 0.15);
    const se = await pagePoint(map, s + (n - s) * 0.15, e - (e - w) * 0.15);
    await page.mouse.move(nw.x, nw.y);
    await page.mouse.down();
    await page.mouse.move((nw.x + se.x) / 2, (nw.y + se.y) / 2, { steps: 4 });
    await page.mouse.move(se.x, se.y, { steps: 4 });
    await page.mouse.up();

    // the search runs at once, with the form as it opened: nothing typed into it
    await waitUntil(map, () => /result|No results|failed/i.test(document.getElementById('status')?.textContent ?? ''), undefined, { timeout: 60_000 });
    const status = await map.locator('#status').innerText();
    const form = await map.evaluate(() => ({
      from: (document.getElementById('from') as HTMLInputElement).value,
      to: (document.getElementById('to') as HTMLInputElement).value,
      maxCloud: (document.getElementById('max-cloud') as HTMLInputElement).value,
    }));
    assert.ok(!/No results|failed/i.test(status), `the walkthrough's search found nothing (${JSON.stringify(form)}): ${status}`);
    assert.ok((await map.locator('#results li').count()) > 0, 'no result rows');
    assert.equal(form.maxCloud, '30', 'the cloud limit is the form’s default');
    await screenshot(page, 'walkthrough-search');
  });
});
