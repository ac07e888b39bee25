// Signing in as a person does: the service URL is set, the token is typed into the password
// box of "EO Imagery: Sign In…" from the command palette. A wrong token is refused in the box
// itself (it stays open with what was typed), the right one fills the Projects view. Mid-session the
// service stops accepting the token (a relay answers 401, as after a revocation): the view
// shows "Sign in again", whose click asks for a token again. Sign Out brings the welcome back.
// No token reaches settings.json or the extension's log.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { api } from './webviews';
import { revocableService } from './revocable';
import {
  answerQuickInput,
  clearNotifications,
  extensionLogText,
  runCommand,
  userSettingsText,
  viewAction,
  waitForNotification,
  waitForQuickInput,
} from './widgets';
import { EO_VIEWS, openEoContainer, screenshot, signedOutWelcome, startSandboxCli, viewSection, waitForTreeRow, withWorkbench } from './workbench';
import { waitUntil } from '../support/waitUntil';

const WRONG_TOKEN = 'e2e-wrong-token-5Rk2';

test('sign in with a typed token, a wrong one refused, 401 mid-session → "Sign in again", sign out', { timeout: 300_000 }, async () => {
  const sandbox = await startSandboxCli();
  const service = await revocableService(sandbox.url);
  try {
    const { alice, bob } = sandbox.tokens;
    const host = new URL(service.url).host;
    const aliceProject = (await api<{ projects: { name: string }[] }>(sandbox.url, alice, '/v0/projects?page_num=1&page_size=1')).projects[0].name;
    const bobProject = (await api<{ projects: { name: string }[] }>(sandbox.url, bob, '/v0/projects?page_num=1&page_size=1')).projects[0].name;

    await withWorkbench('signin', { settings: { 'eoImagery.baseUrl': service.url } }, async ({ page, userDataDir }) => {
      await openEoContainer(page, 60_000, { signedOut: true });
      const projects = viewSection(page, 'Projects');

      // A wrong token, typed into a password box, is refused with a way forward.
      await runCommand(page, 'EO Imagery: Sign In…');
      const box = await waitForQuickInput(page, /personal access token/);
      assert.equal(await box.getAttribute('type'), 'password', 'the token box hides what is typed');
      await box.pressSequentially(WRONG_TOKEN);
      await box.press('Enter');
      const message = page.locator('.quick-input-widget .quick-input-message');
      await waitUntil(
        page,
        () => /did not accept this token \(401\)/.test(document.querySelector('.quick-input-widget .quick-input-message')?.textContent ?? ''),
        undefined,
        { timeout: 30_000 },
      );
      assert.match(await message.innerText(), /did not accept this token \(401\)/);
      await screenshot(page, 'signin-refused');
      // The box stayed open with what was typed, and it says where it is (the only step).
      const again = await waitForQuickInput(page, /Sign In to/);
      assert.equal(await again.inputValue(), WRONG_TOKEN, 'what was typed is kept');
      assert.match(await page.locator('.quick-input-widget').innerText(), /1\/1/);

      // The right token: the Projects view fills.
      await again.fill('');
      await again.pressSequentially(alice);
      await again.press('Enter');
      await waitForNotification(page, new RegExp(`Signed in to ${host.replace(/[.]/g, '\\.')}`));
      await waitForTreeRow(page, 'Projects', aliceProject, 60_000);
      // Signed in, the welcome gives way to the five views.
      for (const name of EO_VIEWS) await viewSection(page, name).waitFor({ state: 'visible', timeout: 10_000 });
      assert.equal(await signedOutWelcome(page).count(), 0, 'the signed-out welcome stays after sign-in');
      await clearNotifications(page);

      // Mid-session the service stops accepting the token: refreshing shows "Sign in again".
      service.revoke(alice);
      await viewAction(projects, 'Refresh Projects');
      const signInRow = await waitForTreeRow(page, 'Projects', 'Sign in again', 30_000);
      await screenshot(page, 'signin-401-row');
      await signInRow.click();
      await answerQuickInput(page, /personal access token/, bob);
      await waitForTreeRow(page, 'Projects', bobProject, 60_000);
      await clearNotifications(page);

      // Sign out: the welcome comes back, and the stored token is gone.
      await runCommand(page, 'EO Imagery: Sign Out');
      await waitForNotification(page, /Signed out of .*removed from secret storage/);
      await signedOutWelcome(page).getByRole('button', { name: 'Sign In', exact: true }).waitFor({ state: 'visible', timeout: 30_000 });
      assert.equal(await viewSection(page, 'Projects').count(), 0, 'the Projects view stays after sign-out');

      for (const secret of [alice, bob, WRONG_TOKEN]) {
        assert.ok(!userSettingsText(userDataDir).includes(secret), 'a token in settings.json');
        assert.ok(!extensionLogText(userDataDir).includes(secret), 'a token in the EO Imagery log');
      }
      assert.match(extensionLogText(userDataDir), /→ 401/, 'the refused requests are logged (without the token)');
    });
  } finally {
    await service.close();
    await sandbox.close();
  }
});
