// An order asked for from chat, through the real workbench: code-server has no language model,
// so the window's tests module (chatOrder.probe) invokes the order tool as chat does
// (vscode.lm.invokeTool). The tool opens EO Imagery's own priced quick pick in the workbench:
// first Enter on its preselected Cancel row (the request log then holds only the dry run, no
// order), then Place Order picked with the mouse (exactly one real POST, one new order).
// Screenshot: test-results/screenshots/chat-order-confirm.png.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { makeTempDir, openWorkbench, REPO_ROOT, waitForFile } from '../integration/harness/codeServer';
import type { ChatOrderSample } from './chatOrder.probe';
import { reportFailure, screenshot, waitForWorkbench } from './workbench';
import { clickQuickPickRow, focusedQuickPickRow, quickPickText, waitForQuickInput } from './widgets';

test('chat order tool: our priced quick pick in the workbench; Enter cancels, Place Order orders once', { timeout: 420_000 }, async () => {
  const resultFile = path.join(makeTempDir('chat-order'), 'result.json');
  const wb = await openWorkbench({
    extensionTestsPath: path.join(REPO_ROOT, 'out', 'test', 'e2e', 'chatOrder.probe'),
    env: { EO_TEST_RESULT_FILE: resultFile, EO_API_TOKEN: '' },
    // the sandbox's prices are made up: in credits, as npm start and Try the Sandbox show them
    settings: { 'eoImagery.amounts.unit': 'credits' },
  });
  try {
    const { page } = wb;
    await waitForWorkbench(page);

    // First invocation: the priced quick pick, Cancel first and focused; Enter.
    await waitForQuickInput(page, /Place this order\?/, 180_000);
    const shown = await quickPickText(page);
    assert.match(shown, /^Place this order\? 1 item · total amount [\d.,]+ credits$/m);
    assert.match(shown, /Asked for from chat\. Nothing is ordered unless you click Place Order\./);
    assert.match(shown, /1 archive scene:/);
    assert.match(shown, /Area [\d.,]+ km²/);
    assert.match(await focusedQuickPickRow(page), /^Cancel/, 'Enter would not cancel');
    await screenshot(page, 'chat-order-confirm');
    await page.keyboard.press('Enter');
    const first = await waitForFile(`${resultFile}.first`, 60_000);
    assert.match(first, /The person did not confirm the priced order .*: nothing was ordered\./);

    // Second invocation: Place Order picked with the mouse.
    await waitForQuickInput(page, /Place this order\?/, 60_000);
    await clickQuickPickRow(page, /Place this order\?/, 'Place Order');
    const sample = JSON.parse(await waitForFile(resultFile, 90_000)) as ChatOrderSample;
    assert.equal(sample.error, undefined, sample.error);
    assert.equal(sample.calls.length, 2);
    assert.deepEqual(sample.calls[0].orderPosts, [true], 'declined: the dry run and nothing else');
    assert.deepEqual(sample.calls[1].orderPosts, [true, false], 'accepted: the dry run, then exactly one real POST');
    assert.match(sample.calls[1].text, /The person clicked Place Order: the order was placed/);
    assert.equal(sample.ordersAfter - sample.ordersBefore, 1, 'exactly one new order');
  } catch (err) {
    await reportFailure(wb, 'chat-order', err);
    throw err;
  } finally {
    await wb.close();
  }
});
