// "Export Timelapse…" as a person uses it in code-server, signed in to the sandbox: Projects →
// Port of Rotterdam (4 dated mosaics) → its context menu → Animated GIF, 720 × 720 pixels, 2 frames per second in
// the quick picks → code-server's save dialog with the suggested name (the AOI and its date
// range) → progress, then "Saved …" with Open: the GIF plays in VS Code's image preview. The
// file is decoded (omggif): 4 frames of 720 × 720, half a second each. Screenshots:
// test-results/screenshots/imagery-timelapse.png (the README's picture) and
// imagery-timelapse-frame.png (the preview's image alone).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import type { Locator } from 'playwright-core';
import { GifReader } from 'omggif';
import { api, contextMenu } from './webviews';
import { clickNotificationButton, pickQuickItem, waitForNotification, waitForQuickInput } from './widgets';
import { assertNoWebviewErrors, screenshot, startMapTest, withSandboxWorkbench, SCREENSHOTS_DIR } from './workbench';

test('export an AOI’s dated mosaics as a GIF from its context menu, then open it', { timeout: 600_000 }, async () => {
  await withSandboxWorkbench('timelapse', {}, async (wb) => {
    const { page, base, token, folder } = wb;
    const start = await startMapTest(wb);
    const aoi = start.aoi('Port of Rotterdam');
    const assets = await api<{ assets: Array<{ date: string }> }>(base, token, `/v0/aois/${aoi.aoi_id}/assets?limit=100`);
    const days = [...new Set(assets.assets.filter((a) => !(a as { visualization_id?: string }).visualization_id).map((a) => a.date.slice(0, 10)))].sort();
    await start.showAoiRow(aoi);

    await contextMenu(page, 'Projects', aoi.name, 'Export Timelapse…');
    await pickQuickItem(page, /Export Timelapse: format/, 'Animated GIF');
    await pickQuickItem(page, /Export Timelapse: frame size/, '720 × 720 pixels');
    await pickQuickItem(page, /Export Timelapse: frame rate/, '2 frames per second');
    // code-server's save dialog fills in the suggested path just after it opens
    const saveBox = await waitForQuickInput(page, /Export Timelapse/);
    let suggested = '';
    for (let i = 0; i < 100 && !/\.gif$/.test(suggested); i++) {
      suggested = await saveBox.inputValue();
      if (!/\.gif$/.test(suggested)) await page.waitForTimeout(100);
    }
    assert.equal(path.basename(suggested), `${aoi.name} ${days[0]} to ${days.at(-1)} timelapse.gif`);
    await saveBox.press('Enter');

    const saved = await waitForNotification(page, /Saved .+timelapse\.gif: \d+ frames, 720 × 720 pixels, 2 frames per second\./, 480_000);
    const file = path.join(folder, path.basename(suggested));
    const gif = new GifReader(new Uint8Array(fs.readFileSync(file)));
    assert.equal(gif.numFrames(), days.length, 'one frame per date');
    assert.equal(gif.width, 720);
    assert.equal(gif.height, 720);
    assert.equal(gif.frameInfo(0).delay, 50, 'half a second per date');

    await clickNotificationButton(saved, 'Open');
    const tab = page.locator('.tab.active').filter({ hasText: /timelapse\.gif/ });
    await tab.waitFor({ state: 'visible', timeout: 60_000 });
    // the image preview is a webview of its own: find its picture of the GIF, once decoded
    let preview: Locator | undefined;
    for (let i = 0; i < 120 && !preview; i++) {
      for (const f of page.frames()) {
        const img = f.locator('img[src*="timelapse"]');
        if ((await img.count().catch(() => 0)) && (await img.first().evaluate((e) => (e as HTMLImageElement).naturalWidth > 0))) preview = img.first();
      }
      if (!preview) await page.waitForTimeout(500);
    }
    assert.ok(preview, 'the GIF opens in the image preview');
    await page.waitForTimeout(1500);
    await screenshot(page, 'imagery-timelapse');
    fs.mkdirSync(SCREENSHOTS_DIR, { recursive: true });
    await preview.screenshot({ path: path.join(SCREENSHOTS_DIR, 'imagery-timelapse-frame.png') });
    assertNoWebviewErrors(start.webviewConsole);
  });
});
