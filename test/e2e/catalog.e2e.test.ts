// The catalog side of the extension through the real workbench, in one window signed in to
// the sandbox CLI: the Archive view paged with "Load more…" to the end of a collection; a
// cloud store registered with its secrets typed into password boxes (then looked for in
// settings.json and the log), a catalog entry delivered to it from the Catalog view's context
// menu, the store deleted through the modal; a catalog entry downloaded into a folder (the
// file compared byte for byte with what the service serves); the order report opened as CSV
// in an editor tab. Screenshots: test-results/screenshots/catalog-*.png.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { api } from './webviews';
import {
  activeEditorText,
  answerQuickInput,
  chooseFolder,
  clearNotifications,
  clickDialogButton,
  clickNotificationButton,
  extensionLogText,
  rowContextMenu,
  runCommand,
  userSettingsText,
  waitForDialog,
  waitForNotification,
  waitForQuickInput,
} from './widgets';
import { openEoContainer, screenshot, soleView, treeRows, waitForTreeRow, withSandboxWorkbench } from './workbench';
import { waitUntil } from '../support/waitUntil';

const ACCESS_KEY = 'AKIAE2ECHECK7Q2W';
const SECRET = 'e2e-secret-Vb7pK2mXq9Zt';

async function call<T>(base: string, token: string, method: string, p: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}${p}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  assert.ok(res.ok, `${method} ${p} answered ${res.status}`);
  return (await res.json()) as T;
}

test('catalog: archive paging, a store registered, delivered to and deleted, a download saved whole, the order report', { timeout: 420_000 }, async (t) => {
  // The sandbox clock runs 20 times faster, so that a delivery completes within seconds.
  await withSandboxWorkbench('catalog', { sandboxArgs: ['--speed', '20'] }, async ({ page, userDataDir, folder, base, token }) => {
    await openEoContainer(page);
    let n = 0;
    const step = (name: string, fn: () => Promise<void>) =>
      t.test(name, async () => {
        const shot = `catalog-failure-${++n}`;
        try {
          await fn();
        } catch (err) {
          await screenshot(page, shot).catch(() => undefined);
          throw err;
        }
      });

    await step('Archive: a collection expanded and paged with "Load more…" to its end', async () => {
      // The smallest collection, so that its every page fits the test: its items, in order, from the service.
      const { collections } = await api<{ collections: { id: string; title: string }[] }>(base, token, '/v0/archives/collections');
      const sized = await Promise.all(
        collections.map(async (c) => {
          const fc = await api<{ features: { id: string }[] }>(base, token, `/v0/archives/collections/${c.id}/items?limit=1000`);
          return { c, ids: fc.features.map((f) => f.id) };
        }),
      );
      const { c, ids } = sized.filter((s) => s.ids.length > 50).sort((a, b) => a.ids.length - b.ids.length)[0];
      assert.ok(ids.length <= 200, `the smallest collection with more than one page has ${ids.length} items`);
      await soleView(page, 'Archive');
      const collection = await waitForTreeRow(page, 'Archive', c.title, 60_000);
      await collection.click();
      await waitForTreeRow(page, 'Archive', ids[0]);
      // The tree draws only the rows in sight: End moves the focus to the last row, and Enter
      // on "Load more…" loads the next page, as a keyboard user pages to the end.
      await waitForTreeRow(page, 'Archive', ids[0]);
      await treeRows(page, 'Archive').filter({ hasText: ids[0] }).first().click();
      const focused = treeRows(page, 'Archive').and(page.locator('.focused')).first();
      let presses = 0;
      for (;;) {
        await page.keyboard.press('End');
        await page.waitForTimeout(200);
        const text = await focused.innerText();
        if (/Loading…/.test(text)) continue;
        if (!/Load more…/.test(text)) {
          assert.match(text, new RegExp(ids[ids.length - 1]), `the last row is not the collection's last item ${ids[ids.length - 1]}`);
          break;
        }
        assert.ok(++presses < Math.ceil(ids.length / 50), `more "Load more…" rows than pages (${presses})`);
        assert.match(text, new RegExp(`${presses * 50} items shown`), `"Load more…" counts what is shown: ${text}`);
        if (presses === 1) await screenshot(page, 'catalog-archive-load-more');
        await page.keyboard.press('Enter');
        await treeRows(page, 'Archive').filter({ hasText: 'Loading…' }).first().waitFor({ state: 'detached', timeout: 30_000 });
        await treeRows(page, 'Archive')
          .filter({ hasText: ids[presses * 50] })
          .first()
          .waitFor({ state: 'attached', timeout: 30_000 });
      }
      assert.equal(presses, Math.ceil(ids.length / 50) - 1, 'one "Load more…" per further page of 50');
      await screenshot(page, 'catalog-archive-end');
      await collection.click(); // collapse again
    });

    const storeName = `e2e-store-${Date.now()}`;
    await step('Cloud Stores: register an S3 store, secrets typed into password boxes', async () => {
      await soleView(page, 'Cloud Stores');
      await runCommand(page, 'EO Imagery: Register Cloud Store…');
      await answerQuickInput(page, /Kind of cloud store/, 'S3');
      await answerQuickInput(page, /Name of the store/, storeName);
      // Answer every config and secret step the store type asks for, until the labels step.
      const answers: [RegExp, string, boolean][] = [
        [/^S3 bucket name/, 'e2e-bucket', false],
        [/^S3 region/, 'eu-west-3', false],
        [/Folder prefix inside the bucket \(optional\)/, 'e2e/', false],
        [/Access key ID for the Amazon S3 bucket/, ACCESS_KEY, true],
        [/Secret access key for the Amazon S3 bucket/, SECRET, true],
      ];
      for (;;) {
        const input = await waitForQuickInput(page, /S3 |Folder prefix|Labels as key=value/);
        assert.doesNotMatch(await page.locator('.quick-input-widget').innerText(), /access_key_id|secret_access_key/, 'a prompt shows a field name');
        const prompt = (await page.locator('.quick-input-widget .quick-input-message').first().innerText()).trim();
        if (/Labels as key=value/.test(prompt)) break;
        const answer = answers.find(([re]) => re.test(prompt));
        assert.ok(answer, `an unexpected step: ${prompt}`);
        assert.equal(await input.getAttribute('type'), answer[2] ? 'password' : 'text', `${prompt}: ${answer[2] ? 'a password box' : 'a text box'}`);
        await input.fill(answer[1]);
        await page.waitForTimeout(150);
        await input.press('Enter');
        await waitUntil(page, (p) => (document.querySelector('.quick-input-widget .quick-input-message')?.textContent ?? '').trim() !== p, prompt, {
          timeout: 10_000,
        });
      }
      await answerQuickInput(page, /Labels as key=value/, 'team=e2e');
      await waitForNotification(page, new RegExp(`Cloud store "${storeName}" registered`));
      await waitForTreeRow(page, 'Cloud Stores', storeName);
      const stores = await api<{ stores: { name: string; configs: Record<string, string> }[] }>(base, token, '/v0/stores');
      assert.equal(stores.stores.find((s) => s.name === storeName)?.configs.bucket, 'e2e-bucket');
      await screenshot(page, 'catalog-store-registered');
      await clearNotifications(page);
    });

    const deliveryPath = `e2e-${Date.now()}/`;
    await step('Catalog: deliver the first entry to the new store from the context menu', async () => {
      await soleView(page, 'Catalog');
      const first = treeRows(page, 'Catalog')
        .filter({ hasNotText: /Showing|Load more/ })
        .first();
      await rowContextMenu(page, first, 'Deliver to Cloud Store…');
      await answerQuickInput(page, /Cloud store to deliver to/, storeName);
      await answerQuickInput(page, /Path inside the store/, deliveryPath);
      await waitForNotification(page, /Delivered to/, 120_000);
      const { deliveries } = await call<{ deliveries: { status: string; cloud_delivery: { config: string; path: string } }[] }>(
        base,
        token,
        'GET',
        '/v0/catalogs/deliveries',
      );
      const mine = deliveries.filter((d) => d.cloud_delivery.path === deliveryPath);
      assert.equal(mine.length, 1, `deliveries to ${deliveryPath}: ${JSON.stringify(mine)}`);
      assert.equal(mine[0].status, 'SUCCESS');
      await clearNotifications(page);
    });

    await step('Cloud Stores: delete the store through the modal', async () => {
      await soleView(page, 'Cloud Stores');
      await rowContextMenu(page, await waitForTreeRow(page, 'Cloud Stores', storeName), 'Delete Cloud Store');
      const dialog = await waitForDialog(page, new RegExp(`Delete the cloud store "${storeName}"\\?`));
      await screenshot(page, 'catalog-store-delete-modal');
      await clickDialogButton(dialog, 'Delete');
      await waitForNotification(page, new RegExp(`Cloud store "${storeName}" deleted`));
      await treeRows(page, 'Cloud Stores').filter({ hasText: storeName }).first().waitFor({ state: 'detached', timeout: 30_000 });
      const stores = await api<{ stores: { name: string }[] }>(base, token, '/v0/stores');
      assert.ok(!stores.stores.some((s) => s.name === storeName), 'the service still lists the store');
      await clearNotifications(page);
    });

    await step('Catalog: download the first entry into a folder; the file is whole', async () => {
      await soleView(page, 'Catalog');
      const into = path.join(folder, 'downloads');
      fs.mkdirSync(into, { recursive: true });
      const first = treeRows(page, 'Catalog')
        .filter({ hasNotText: /Showing|Load more/ })
        .first();
      // the row names the entry (place and day): the toast and the file are named after it
      const place = (await first.innerText()).split(' · ')[0].trim();
      await rowContextMenu(page, first, 'Download…');
      const ready = await waitForNotification(page, /The download of catalog entry .+ is ready/, 120_000);
      const readyText = await ready.innerText();
      assert.ok(readyText.includes(place), `the toast "${readyText}" does not name the entry "${place}"`);
      assert.match(readyText, /link is valid/);
      assert.doesNotMatch(readyText, /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i, 'an id in the toast');
      // the download's id is in the log (and the service), never in what a person reads
      const downloadId = [...extensionLogText(userDataDir).matchAll(/Requested download (\S+) for /g)].pop()?.[1];
      assert.ok(downloadId, 'the download request is not logged');
      await clickNotificationButton(ready, 'Save to Folder…');
      await chooseFolder(page, /Folder to save the download of .+ in|Save Here/, into, 'Save Here');
      const saved = await waitForNotification(page, /Saved .+\./, 120_000);
      const files = fs.readdirSync(into);
      assert.equal(files.length, 1, `files in ${into}: ${files.join(', ')}`);
      assert.ok(
        files[0].startsWith(
          place
            .replace(/[\\/:*?"<>|#%]+/g, ' ')
            .replace(/\s+/g, ' ')
            .trim(),
        ),
        `the file "${files[0]}" is not named after "${place}"`,
      );
      assert.doesNotMatch(files[0], /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i, 'an id in the file name');
      assert.match(await saved.innerText(), new RegExp(files[0].replace(/[.]/g, '\\.')));
      const { signed_url } = await api<{ signed_url: string }>(base, token, `/v0/catalogs/download/${downloadId}`);
      const served = Buffer.from(await (await fetch(signed_url)).arrayBuffer());
      const onDisk = fs.readFileSync(path.join(into, files[0]));
      assert.ok(served.length > 0);
      assert.equal(onDisk.length, served.length, 'the saved file has every byte');
      assert.equal(
        createHash('sha256').update(onDisk).digest('hex'),
        createHash('sha256').update(served).digest('hex'),
        'the saved file is what the service serves',
      );
      await clearNotifications(page);
    });

    await step('Orders: the order report is saved as a .csv and opens as CSV in an editor tab', async () => {
      await runCommand(page, 'EO Imagery: Download Order Report…');
      const zone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
      await answerQuickInput(page, /Time zone for the report/);
      // the save dialog suggests a name with the date, time and zone: accept it
      const saveBox = await waitForQuickInput(page, /Save the order report/);
      // the simple file dialog fills in the suggested path just after it opens
      let suggested = '';
      for (let i = 0; i < 100 && !/\.csv$/.test(suggested); i++) {
        suggested = await saveBox.inputValue();
        if (!/\.csv$/.test(suggested)) await page.waitForTimeout(100);
      }
      await saveBox.press('Enter');
      assert.match(suggested, /order-report-\d{4}-\d{2}-\d{2}-\d{4}-.+\.csv$/);
      const savedToast = await waitForNotification(page, /Saved the order report .+ as order-report-.+\.csv\./, 60_000);
      await clickNotificationButton(savedToast, 'Open');
      const expected = await (await fetch(`${base}/v0/reports?tz=${encodeURIComponent(zone)}`, { headers: { authorization: `Bearer ${token}` } })).text();
      const header = expected.split(/\r?\n/)[0];
      await page.locator('.editor-group-container.active .tab.active').first().waitFor({ state: 'visible', timeout: 60_000 });
      await waitUntil(
        page,
        (h) =>
          (document.querySelector('.editor-group-container.active .monaco-editor .view-lines') as HTMLElement | null)?.innerText
            .replace(/\u00a0/g, ' ')
            .includes(h) ?? false,
        header,
        { timeout: 60_000 },
      );
      const shown = (await activeEditorText(page)).replace(/\u00a0/g, ' ');
      assert.ok(shown.includes(expected.split(/\r?\n/)[1]), 'the first data row is shown');
      await screenshot(page, 'catalog-order-report');
    });

    await step('no secret in settings.json or the log', async () => {
      for (const secret of [ACCESS_KEY, SECRET, token]) {
        assert.ok(!userSettingsText(userDataDir).includes(secret), 'a secret in settings.json');
        assert.ok(!extensionLogText(userDataDir).includes(secret), 'a secret in the EO Imagery log');
      }
      assert.match(extensionLogText(userDataDir), /POST \/v0\/stores → 201/, 'the registration is logged');
    });
  });
});
