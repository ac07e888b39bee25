// The order report: CSV for this machine's time zone or a given one, opened in an editor tab;
// error bodies (JSON from the service, CSV from a fault) shown as their message.
import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { REPORT_COLUMNS } from '../../../src/api';
import { COMMANDS } from '../../../src/commandIds';
import { machineTimeZone } from '../../../src/commands/reports/orderReport';
import { useSandbox } from '../harness/sandbox';
import { ScriptedPrompts } from '../support/scriptedPrompts';
import { handle, runScripted } from './ordersSupport';

suite('reports: order report CSV against the sandbox', function () {
  this.timeout(60_000);
  const sb = useSandbox();

  teardown(() => handle(sb.current).faults.clear());

  test('for this machine’s time zone, opened in an editor tab', async () => {
    const prompts = new ScriptedPrompts([{ kind: 'pick', match: /Time zone/, choose: machineTimeZone() }]);
    const doc = await runScripted<vscode.TextDocument | undefined>(sb.current, prompts, COMMANDS.downloadReport);
    prompts.assertDone();
    assert.ok(doc, 'no document opened');
    const [header, ...rows] = doc.getText().trim().split(/\r?\n/);
    assert.deepEqual(header.split(','), [...REPORT_COLUMNS]);
    assert.ok(rows.length > 0, 'the report has no rows');
  });

  test('for a picked zone, times are rendered in that zone', async () => {
    const prompts = new ScriptedPrompts([]);
    const doc = await runScripted<vscode.TextDocument | undefined>(sb.current, prompts, COMMANDS.downloadReport, 'Asia/Kolkata');
    prompts.assertDone();
    const text = doc?.getText() ?? '';
    assert.match(text, /\+05:30/, 'created_at is not in Asia/Kolkata');
  });

  test('an unknown zone shows the service’s message', async () => {
    const prompts = new ScriptedPrompts([]);
    const doc = await runScripted(sb.current, prompts, COMMANDS.downloadReport, 'Mars/Olympus_Mons');
    prompts.assertDone();
    assert.equal(doc, undefined);
    const shown = prompts.messages.find((m) => m.severity === 'error');
    assert.ok(shown);
    assert.match(shown.text, /order report was refused: .*Mars\/Olympus_Mons/);
  });

  test('a CSV error body is shown as its message', async () => {
    handle(sb.current).faults.add({ method: 'GET', path: '/v0/reports', status: 403, count: 1, body: 'code,message\nforbidden,reports are disabled for this workspace', contentType: 'text/csv' });
    const prompts = new ScriptedPrompts([]);
    await runScripted(sb.current, prompts, COMMANDS.downloadReport, 'UTC');
    prompts.assertDone();
    assert.match(prompts.messages.find((m) => m.severity === 'error')?.text ?? '', /reports are disabled for this workspace/);
  });
});
