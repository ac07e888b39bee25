// Signed out: the EO Imagery container shows one view, the welcome, with one set of choices
// (Sign In, Try the Sandbox, Get Started), not the same welcome in each of the five views;
// its Get Started opens the walkthrough.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
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
    await screenshot(page, 'welcome');

    await welcome.getByRole('button', { name: 'Get Started', exact: true }).click();
    await page.locator('.part.editor').getByText('Get Started with EO Imagery').first().waitFor({ state: 'visible', timeout: 30_000 });
  });
});
