// A newcomer's first steps: "EO Imagery: Get Started" from the command palette opens the
// walkthrough (an installed extension offers it once by itself; one under development does
// not), its steps tick off as they are done (signed in from EO_API_TOKEN before the page was
// ever opened, a project expanded); the Accounts menu lists the EO Imagery account with Sign Out.
// Screenshots: test-results/screenshots/walkthrough.png, accounts-menu.png.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openEoContainer, screenshot, SCREENSHOTS_DIR, treeRows, withSandboxWorkbench } from './workbench';

test('Get Started opens the walkthrough, steps tick off, and the Accounts menu lists the account', { timeout: 240_000 }, async () => {
  await withSandboxWorkbench('walkthrough', {}, async ({ page, sandbox }) => {
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
    await page.waitForFunction((el) => el?.getAttribute('aria-checked') === 'true', await checkbox('Sign in, or try the sandbox').elementHandle(), {
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
