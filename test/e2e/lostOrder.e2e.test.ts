// A lost order answer, as a person meets it, in code-server signed in to the sandbox CLI through
// the fault proxy: Projects → an AOI → "Order Tasking…", every step answered in the real quick
// picks; Place Order picked on the priced confirmation; the proxy lets the sandbox place the
// order and resets the connection before its answer comes back. The extension does not send the
// POST again: the real notification says the order was placed and names it by its id, and the
// sandbox holds exactly that one new order. Then, in the same window, a catalog download whose
// file answer is cut after 100 bytes and then refused: the notification that offers Resume is let
// go; the status bar's "EO: N pending" still lists it, and Resume there finishes the file.
// Screenshots: test-results/screenshots/lost-order-*.png, pending-stopped-download.png.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { FaultProxy } from '../support/faultProxy';
import { startSandboxCli } from './sandboxCli';
import { api } from './webviews';
import {
  chooseFolder,
  clearNotifications,
  clickNotificationButton,
  clickQuickPickRow,
  rowContextMenu,
  waitForNotification,
  waitForQuickInput,
} from './widgets';
import { answerTaskingWizard, taskableAoi } from './taskable';
import { openEoContainer, screenshot, soleView, treeRows, waitForTreeRow, withWorkbench } from './workbench';

const DAY = 86_400_000;
const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

test('lost order answer: the notification names the order the service placed; one POST', { timeout: 420_000 }, async () => {
  // The sandbox's links (signed files) point at the proxy too, as a service's behind its load balancer.
  const proxy = await FaultProxy.start({ upstream: 'http://127.0.0.1:9' });
  const sandbox = await startSandboxCli(['--public-url', proxy.url]);
  proxy.retarget(sandbox.url);
  try {
    // The extension knows only the proxy's address; the test reads the sandbox directly.
    await withWorkbench('lost-order', { signedInAs: 'alice', sandbox: { ...sandbox, url: proxy.url } }, async ({ page, folder }) => {
      const base = sandbox.url;
      const token = sandbox.tokens.alice;
      await page.setViewportSize({ width: 1400, height: 900 });
      await openEoContainer(page);
      await soleView(page, 'Projects');

      const { project, aoi, bandset } = await taskableAoi(base, token);
      const orderIds = async (): Promise<string[]> => (await api<{ orders: { id: string }[] }>(base, token, '/v0/orders?limit=100')).orders.map((o) => o.id);
      const before = new Set(await orderIds());

      const projectRow = await waitForTreeRow(page, 'Projects', project.name, 60_000);
      if ((await projectRow.getAttribute('aria-expanded')) !== 'true') await projectRow.click();
      await rowContextMenu(page, await waitForTreeRow(page, 'Projects', aoi.name), 'Order Tasking…');
      const name = `e2e lost answer ${Date.now()}`;
      await answerTaskingWizard(page, {
        name,
        usecase: 'e2e: a lost answer',
        start: isoDay(Date.now() + 3 * DAY),
        end: isoDay(Date.now() + 24 * DAY),
        bandset: bandset.name,
      });

      // Priced (the dry run went through); the next POST is placed and its answer lost.
      await waitForQuickInput(page, /Place this order\?/, 60_000);
      proxy.add({ method: 'POST', path: '/v0/orders', times: 1, toxic: { kind: 'lostAnswer' } });
      await clickQuickPickRow(page, /Place this order\?/, 'Place Order', 60_000);

      const told = await waitForNotification(page, /answer was lost, but the service has the order: placed as/, 60_000);
      const text = await told.innerText();
      await screenshot(page, 'lost-order-placed');
      const created = (await orderIds()).filter((id) => !before.has(id));
      assert.equal(created.length, 1, `new orders: ${created.join(', ')}`);
      assert.ok(text.includes(created[0]) && text.includes(name), `the notification does not name order ${created[0]} (${name}): ${text}`);
      const posts = proxy.log.filter((r) => r.method === 'POST' && r.path.startsWith('/v0/orders'));
      assert.deepEqual(
        posts.map((r) => r.toxic),
        [undefined, 'lostAnswer'],
        'the dry run, then the one real POST: never a second',
      );

      // A download that stops with bytes kept, its notification let go: What is pending keeps it.
      await clearNotifications(page);
      proxy.add({ method: 'GET', path: /^\/files\//, times: 1, toxic: { kind: 'limitData', bytes: 100 } });
      proxy.add({ method: 'GET', path: /^\/files\//, times: 1, toxic: { kind: 'status', status: 404 } });
      await soleView(page, 'Catalog');
      const into = path.join(folder, 'stopped-download');
      fs.mkdirSync(into, { recursive: true });
      const entry = treeRows(page, 'Catalog')
        .filter({ hasNotText: /Showing|Load more/ })
        .first();
      await rowContextMenu(page, entry, 'Download…');
      await clickNotificationButton(await waitForNotification(page, /The download of catalog entry .+ is ready/, 120_000), 'Save to Folder…');
      await chooseFolder(page, /Folder to save the download of .+ in|Save Here/, into, 'Save Here');
      await waitForNotification(page, /stopped after \d+ KB: The download link answered 404\. Resume goes on from there\./, 120_000);
      await clearNotifications(page);
      await page.locator('.statusbar-item', { hasText: /EO: \d+ pending/ }).click();
      await waitForQuickInput(page, /EO Imagery: \d+ pending/);
      const stopped = page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Saving the download of' });
      await stopped.waitFor({ timeout: 10_000 });
      assert.match(
        (await stopped.innerText()).replace(/\s+/g, ' '),
        /stopped after \d+ KB .*The download link answered 404 · stopped at .+ · pick to resume or discard/,
      );
      await screenshot(page, 'pending-stopped-download');
      await stopped.click();
      await clickQuickPickRow(page, /stopped after \d+ KB/, 'Resume');
      await waitForNotification(page, /Saved .+\.zip\./, 60_000);
      const files = fs.readdirSync(into);
      assert.equal(files.length, 1, `left in the folder: ${files.join(', ')}`);
      const zip = fs.readFileSync(path.join(into, files[0]));
      // A zip's last record (end of central directory) is in its last bytes: the whole file came.
      assert.ok(zip.subarray(-22, -18).equals(Buffer.from('PK\x05\x06', 'latin1')), 'the resumed zip is not whole');
      const asked = proxy.log.filter((r) => r.path.startsWith('/files/'));
      // The cut, the refusal; then Resume asks at once for the rest, from the kept byte.
      assert.deepEqual(
        asked.map((r) => [r.toxic, r.range]),
        [
          ['limitData', undefined],
          ['status', 'bytes=100-'],
          [undefined, 'bytes=100-'],
        ],
        'the cut, the refusal, then Resume goes on from the kept byte',
      );
    });
  } finally {
    await proxy.close();
    await sandbox.close();
  }
});
