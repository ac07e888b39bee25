// A lost order answer, as a person meets it, in code-server signed in to the sandbox CLI through
// the fault proxy: Projects → an AOI → "Order Tasking…", every step answered in the real quick
// picks; Place Order picked on the priced confirmation; the proxy lets the sandbox place the
// order and resets the connection before its answer comes back. The extension does not send the
// POST again: the real notification says the order was placed and names it by its id, and the
// sandbox holds exactly that one new order. Screenshot: test-results/screenshots/lost-order-*.png.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { FaultProxy } from '../support/faultProxy';
import { startSandboxCli } from './sandboxCli';
import { api } from './webviews';
import { clickQuickPickRow, rowContextMenu, waitForNotification, waitForQuickInput } from './widgets';
import { answerTaskingWizard, taskableAoi } from './taskable';
import { openEoContainer, screenshot, soleView, waitForTreeRow, withWorkbench } from './workbench';

const DAY = 86_400_000;
const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

test('lost order answer: the notification names the order the service placed; one POST', { timeout: 420_000 }, async () => {
  const sandbox = await startSandboxCli();
  const proxy = await FaultProxy.start({ upstream: sandbox.url });
  try {
    // The extension knows only the proxy's address; the test reads the sandbox directly.
    await withWorkbench('lost-order', { signedInAs: 'alice', sandbox: { ...sandbox, url: proxy.url } }, async ({ page }) => {
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
    });
  } finally {
    await proxy.close();
    await sandbox.close();
  }
});
