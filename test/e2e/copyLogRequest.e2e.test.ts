// Copy as curl from the log, in the real workbench: with the EO Imagery log open in the Output
// panel, the panel title's "Copy Logged Request as curl…" button lists the log's request lines;
// the line picked is copied as a curl command that, pasted into a shell with EO_API_TOKEN set,
// gets the same body from the sandbox as the request sent directly. The token never appears.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { test } from 'node:test';
import { clickQuickPickRow, runCommand } from './widgets';
import { openEoContainer, screenshot, waitForTreeRow, withSandboxWorkbench } from './workbench';

function shell(text: string, token: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('/bin/sh', ['-c', text], { env: { ...process.env, EO_API_TOKEN: token }, timeout: 30_000 }, (err, stdout, stderr) =>
      err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout),
    );
  });
}

test("the Output panel's copy button on the EO Imagery log copies a request line as a working curl", { timeout: 240_000 }, async () => {
  await withSandboxWorkbench('copy-log-request', {}, async ({ page, context, token }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(page.url()).origin });
    await openEoContainer(page);
    // Loading the Projects view is a logged GET /v0/projects.
    await waitForTreeRow(page, 'Projects', '', 60_000);
    await runCommand(page, 'EO Imagery: Show Log');
    const panel = page.locator('.part.panel');
    await panel.locator('.monaco-editor').first().waitFor({ state: 'visible', timeout: 30_000 });
    const copy = panel.locator('.title-actions .action-label[aria-label^="Copy Logged Request as curl"]').first();
    await copy.waitFor({ state: 'visible', timeout: 30_000 });
    await screenshot(page, 'log-copy-as-curl');
    await copy.click();
    await clickQuickPickRow(page, /Copy Logged Request as curl/, 'GET /v0/projects');
    let text = '';
    const deadline = Date.now() + 15_000;
    while (!text.startsWith('curl ') && Date.now() < deadline) {
      text = await page.evaluate(() => navigator.clipboard.readText()).catch(() => '');
      if (!text.startsWith('curl ')) await page.waitForTimeout(200);
    }
    assert.match(text, /^curl -sS '[^']*\/v0\/projects/, `not the projects request:\n${text}`);
    assert.ok(text.includes('$EO_API_TOKEN'), `no token variable:\n${text}`);
    assert.ok(!text.includes(token), 'the token value was copied');
    const url = /^curl -sS '([^']+)'/.exec(text)?.[1] ?? '';
    const direct = await fetch(url, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
    assert.equal(direct.status, 200);
    assert.deepEqual(JSON.parse(await shell(text, token)), await direct.json());
  });
});
