// Signed out: the EO Imagery container shows one view, the welcome, with one set of choices
// (Sign In, Try the Sandbox, Get Started), not the same welcome in each of the five views;
// its Get Started opens the walkthrough.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCommand } from './widgets';
import { EO_VIEWS, openEoContainer, screenshot, signedOutWelcome, viewSection, withWorkbench } from './workbench';

test('signed out, the container shows one welcome with Sign In, Try the Sandbox and Get Started', { timeout: 180_000 }, async () => {
  await withWorkbench('welcome', {}, async ({ page }) => {
    await openEoContainer(page, 60_000, { signedOut: true });
    const welcome = signedOutWelcome(page);
    assert.equal(await welcome.count(), 1, 'more than one welcome in the side bar');
    // The big buttons (the settings link inline in the text is one too, by role).
    const buttons = (await welcome.locator('.monaco-button').allInnerTexts()).map((t) => t.trim());
    assert.deepEqual(buttons, ['Sign In', 'Try the Sandbox', 'Get Started']);
    for (const name of EO_VIEWS) assert.equal(await viewSection(page, name).count(), 0, `the ${name} view is shown while signed out`);
    // the picture once the extension has started and says so (the walkthrough shows it)
    await page.locator('.part.statusbar').getByText('EO: signed out').waitFor({ state: 'visible', timeout: 60_000 });
    await page.locator('.part.statusbar').getByText('Activating Extensions').waitFor({ state: 'hidden', timeout: 60_000 });
    await screenshot(page, 'welcome', { belowTitleBar: true });

    await welcome.getByRole('button', { name: 'Get Started', exact: true }).click();
    await page.locator('.part.editor').getByText('Get Started with EO Imagery').first().waitFor({ state: 'visible', timeout: 30_000 });
  });
});

// A real first start: VS Code opens its own Welcome page at its first-start walkthrough. Get
// Started (the welcome view's button, then the palette's command) must show ours over it.
test('Get Started shows the walkthrough while VS Code shows its own first-start walkthrough', { timeout: 180_000 }, async () => {
  await withWorkbench('welcome-first-start', { settings: { 'workbench.startupEditor': 'welcomePage' } }, async ({ page }) => {
    const editor = page.locator('.part.editor');
    // a walkthrough shows (not only lists) when its steps are visible
    const ours = editor.locator('.gettingStartedContainer .getting-started-step:visible').filter({ hasText: 'Sign in, or try the sandbox' }).first();
    await editor.locator('.gettingStartedContainer').first().waitFor({ state: 'visible', timeout: 60_000 });
    // VS Code's own "Setup" walkthrough, open at its first step
    const ownStep = editor.locator('.gettingStartedContainer .getting-started-step:visible').filter({ hasText: 'Choose your theme' }).first();
    await ownStep.waitFor({ state: 'visible', timeout: 60_000 });
    assert.equal(await ours.isVisible(), false, 'ours is showing before Get Started');
    await screenshot(page, 'welcome-first-start');

    await openEoContainer(page, 60_000, { signedOut: true });
    await page.locator('.part.statusbar').getByText('EO: signed out').waitFor({ state: 'visible', timeout: 60_000 });
    await signedOutWelcome(page).getByRole('button', { name: 'Get Started', exact: true }).click();
    await ours.waitFor({ state: 'visible', timeout: 30_000 });
    await screenshot(page, 'welcome-first-start-ours');

    // Back to VS Code's own walkthrough through the page's list (Escape goes back to it), at a step, then the palette's command.
    await ours.click();
    await page.keyboard.press('Escape');
    await editor
      .locator('.gettingStartedContainer .getting-started-category:visible')
      .filter({ hasText: /Get Started with VS Code/i })
      .first()
      .click();
    await ownStep.click();
    await ours.waitFor({ state: 'hidden', timeout: 30_000 });
    // The page moves focus to the step it opened once its animation ends, which would close a
    // palette opened before: let it settle, as a person would.
    await page.waitForTimeout(1500);
    await runCommand(page, 'EO Imagery: Get Started');
    await ours.waitFor({ state: 'visible', timeout: 30_000 });
  });
});
