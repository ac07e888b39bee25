// A hostile shared link as a person meets it in code-server: Developer: Open URL with a link
// whose view holds a key written as `[x](command:…)`, the workbench's own "Allow … to open this
// URI?" dialog, then EO Imagery's refusal. The workbench turns such text in a notification into
// a link that runs the command on a click; here the notification names the key as text: no
// anchor in its message, and it reads as the key did, with no backslash. Screenshot:
// test-results/screenshots/untrusted-link-refused.png.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { clickDialogButton, runCommand, waitForDialog, waitForNotification, waitForQuickInput } from './widgets';
import { screenshot, waitForWorkbench, withWorkbench } from './workbench';

test('a refused link names its hostile key as text, not as a link that runs a command', { timeout: 300_000 }, async () => {
  await withWorkbench('untrusted-link', {}, async ({ page }) => {
    await page.setViewportSize({ width: 1400, height: 860 });
    await waitForWorkbench(page);
    const key = '[Open the map](command:workbench.action.reloadWindow)';
    const view = Buffer.from(JSON.stringify({ eoView: 1, [key]: 1 })).toString('base64url');
    await runCommand(page, 'Developer: Open URL');
    const box = await waitForQuickInput(page, /URL to open/);
    await box.fill(`code-oss://eo-imagery.eo-imagery/view?v=${view}`);
    await box.press('Enter');
    await clickDialogButton(await waitForDialog(page, /EO Imagery.*open this URI/s, 60_000), 'Open');

    const toast = await waitForNotification(page, /This link cannot be opened/, 60_000);
    const message = toast.locator('.notification-list-item-message');
    assert.equal(await message.locator('a').count(), 0, `the notification holds a link: ${await message.innerHTML()}`);
    assert.equal(
      (await message.innerText()).trim(),
      'This link cannot be opened: The view has parts this version does not know ([Open the map] (command:workbench.action.reloadWindow)): a view holds a place and layers, nothing else.',
    );
    // expanded, so the picture shows the whole sentence
    await toast.hover();
    await toast.locator('.codicon-notifications-expand').click({ timeout: 5_000 });
    await screenshot(page, 'untrusted-link-refused');
  });
});
