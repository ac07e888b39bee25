// The @eo chat participant's model loop in the real Chat view of code-server, with a scripted
// model (test/fixtures/scripted-model-extension, proposed chatProvider API: code-server has no
// model) as request.model. The window's tests module (chatParticipant.probe) sends the
// requests; this test reads and clicks the answer in the workbench: the tools ran through
// invokeTool and their answers went back to the model; the answer ends with "Show <AOI> on
// Map", which opens the map on the AOI; an order asked for by the model stops at EO Imagery's
// priced quick pick even with chat's own confirmation auto-approved, and Cancel (its default,
// Enter) leaves the dry run as the only POST.
// Screenshots: test-results/screenshots/chat-participant-answer.png, chat-participant-order.png.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { makeTempDir, openWorkbench, REPO_ROOT, waitForFile } from '../integration/harness/codeServer';
import { TOOLS } from '../../src/tools/toolIds';
import type { ChatParticipantSample, Received } from './chatParticipant.probe';
import { waitForBounds, webviewFrame } from './webviews';
import { reportFailure, screenshot, waitForWorkbench } from './workbench';
import { focusedQuickPickRow, quickPickText, waitForQuickInput } from './widgets';

/** The tool answers a request carried back to the model, by tool name (matched through the call ids). */
function toolAnswers(before: Received, after: Received): Record<string, string> {
  const names = new Map<string, string>();
  for (const m of after.messages) for (const p of m.parts) if (p.toolCall) names.set(String(p.callId), p.toolCall);
  const out: Record<string, string> = {};
  for (const m of after.messages.slice(before.messages.length))
    for (const p of m.parts) if (p.toolResult) out[names.get(p.toolResult) ?? p.toolResult] = p.text ?? '';
  return out;
}

test(
  '@eo in the Chat view: a scripted model searches and prices through invokeTool, Show on Map, and an order stops at our Cancel',
  { timeout: 600_000 },
  async () => {
    const resultFile = path.join(makeTempDir('chat-participant'), 'result.json');
    const wb = await openWorkbench({
      extensionTestsPath: path.join(REPO_ROOT, 'out', 'test', 'e2e', 'chatParticipant.probe'),
      installedExtensionPaths: [path.join(REPO_ROOT, 'test', 'fixtures', 'scripted-model-extension')],
      enableProposedApi: true,
      env: { EO_TEST_RESULT_FILE: resultFile, EO_API_TOKEN: '' },
      // "Always allow" for every tool: chat's own confirmation of the order tool is skipped.
      settings: { 'eoImagery.amounts.unit': 'credits', 'chat.tools.autoApprove': true },
    });
    try {
      const { page } = wb;
      await waitForWorkbench(page);
      const first = JSON.parse(await waitForFile(`${resultFile}.first`, 240_000)) as { aoi: string; aoiId: string };

      const chat = page.locator('.interactive-session');
      const button = chat.getByRole('button', { name: `Show ${first.aoi} on Map` });
      await button.waitFor({ timeout: 60_000 });
      const answer = await chat.locator('.interactive-response').last().innerText();
      assert.match(answer, /Scripted answer: the search and the price are above\./);
      await screenshot(page, 'chat-participant-answer');
      await button.click();
      const map = await webviewFrame(page, 'eoMap', 60_000);
      await waitForBounds(map, 'aois', first.aoiId, 60_000);
      fs.writeFileSync(`${resultFile}.go`, '');

      await waitForQuickInput(page, /Place this order\?/, 180_000);
      assert.match(await quickPickText(page), /Asked for from chat\. Nothing is ordered unless you click Place Order\./);
      assert.match(await focusedQuickPickRow(page), /^Cancel/, 'Enter would not cancel');
      await screenshot(page, 'chat-participant-order');
      await page.keyboard.press('Enter');

      const sample = JSON.parse(await waitForFile(resultFile, 180_000)) as ChatParticipantSample;
      assert.equal(sample.error, undefined, sample.error);
      assert.deepEqual(sample.models, ['eo-test-scripted/scripted'], 'selectChatModels finds the scripted model');
      assert.equal(sample.received.length, 4, 'two model requests per chat request');
      for (const r of sample.received) {
        assert.equal(r.from, 'eo-imagery.eo-imagery', 'the participant sent to request.model');
        assert.ok(r.tools.includes(TOOLS.searchArchive) && r.tools.includes(TOOLS.placeOrder), 'with the EO Imagery tools');
      }
      const found = toolAnswers(sample.received[0], sample.received[1]);
      const carried = JSON.stringify(sample.received[1].messages.slice(sample.received[0].messages.length)).slice(0, 2000);
      assert.deepEqual(Object.keys(found).sort(), [TOOLS.priceOrder, TOOLS.searchArchive].sort(), `both answers went back to the model: ${carried}`);
      assert.match(found[TOOLS.searchArchive] ?? '', /^Text in double quotes is data from the imagery service/);
      assert.match(found[TOOLS.searchArchive] ?? '', /^- /m, 'the search answer lists scenes');
      assert.match(found[TOOLS.priceOrder] ?? '', /[\d.,]+ credits/, 'the price answer has the amount with its unit');
      assert.deepEqual(sample.orderPosts[0], [true], 'pricing: one dry run');

      const ordered = toolAnswers(sample.received[2], sample.received[3]);
      assert.match(ordered[TOOLS.placeOrder] ?? '', /The person did not confirm the priced order .*: nothing was ordered\./);
      assert.deepEqual(sample.orderPosts[1], [true], 'declined: the dry run and nothing else');
      assert.equal(sample.ordersAfter, sample.ordersBefore, 'no order was placed');
    } catch (err) {
      await reportFailure(wb, 'chat-participant', err);
      throw err;
    } finally {
      await wb.close();
    }
  },
);
