// Signed out: the EO Imagery container shows the welcome view with its sign-in choices.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { collapseView, openEoContainer, screenshot, viewSection, withWorkbench } from './workbench';

test('signed out, the Projects view welcomes with "Sign in with a token" and "Try the sandbox"', { timeout: 180_000 }, async () => {
  await withWorkbench('welcome', {}, async ({ page }) => {
    await openEoContainer(page);
    const projects = viewSection(page, 'Projects');
    const signIn = projects.getByRole('button', { name: 'Sign in with a token' });
    const sandbox = projects.getByRole('button', { name: 'Try the sandbox' });
    await signIn.waitFor({ state: 'visible', timeout: 60_000 });
    await sandbox.waitFor({ state: 'visible', timeout: 10_000 });
    assert.equal(await projects.locator('[role="treeitem"]').count(), 0, 'a signed-out Projects view shows no rows');
    // Give the Projects welcome the whole side bar for the picture (the README uses it).
    for (const other of ['Orders', 'Catalog', 'Cloud Stores', 'Archive']) await collapseView(page, other);
    await sandbox.waitFor({ state: 'visible', timeout: 10_000 });
    await screenshot(page, 'welcome');
  });
});
