// A map opened before the first sign-in, as a new user meets it: no service URL in the settings,
// "Search Archive Here (Map)" from the palette opens the map with its not-connected banner; then
// "EO Imagery: Sign In…" with the URL and the token typed into its two boxes. The map comes back:
// the banner goes and the search's collections are the service's. (Sign In announced the
// connection before the URL it typed reached the settings, so the map asked the empty setting,
// failed as if signed out, and never asked again.)
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { api, webviewFrame } from './webviews';
import { answerQuickInput, clickQuickPickRow, runCommand, waitForNotification } from './widgets';
import { openEoContainer, screenshot, startSandboxCli, withWorkbench } from './workbench';
import { waitUntil } from '../support/waitUntil';

test('a map open before the first sign-in lists the service collections once signed in', { timeout: 300_000 }, async () => {
  const sandbox = await startSandboxCli();
  try {
    const { collections } = await api<{ collections: { id: string }[] }>(sandbox.url, sandbox.tokens.alice, '/v0/archives/collections');
    assert.ok(collections.length > 0, 'the service has collections to list');

    await withWorkbench('map-first-sign-in', {}, async ({ page }) => {
      await openEoContainer(page, 60_000, { signedOut: true });
      await runCommand(page, 'EO Imagery: Search Archive Here (Map)');
      await clickQuickPickRow(page, /Where to search/, 'The area the map shows now');
      const map = await webviewFrame(page, 'eoMap');
      const banner = map.getByText(/No EO Imagery service is connected/).first();
      await banner.waitFor({ state: 'visible', timeout: 30_000 });
      assert.equal(await map.locator('#collections option').count(), 0, 'signed out, the search lists no collections');

      await runCommand(page, 'EO Imagery: Sign In…');
      await answerQuickInput(page, /URL of the EO Imagery service/, sandbox.url);
      await answerQuickInput(page, /personal access token/, sandbox.tokens.alice);
      await waitForNotification(page, /Signed in to/);

      await waitUntil(map, (n) => document.querySelectorAll('#collections option').length === n, collections.length, { timeout: 30_000 }).catch(
        () => undefined,
      );
      await screenshot(page, 'map-first-sign-in');
      const listed = await map.locator('#collections option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
      assert.deepEqual(listed.sort(), collections.map((c) => c.id).sort(), "signed in, the search lists the service's collections");
      assert.equal(await banner.isVisible(), false, 'the not-connected banner is gone');
    });
  } finally {
    await sandbox.close();
  }
});
