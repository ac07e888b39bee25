// The order report: CSV for this machine's time zone or a given one, saved as a .csv through a
// save dialog and opened as CSV on request; error bodies (JSON from the service, CSV from a
// fault) shown as their message.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { REPORT_COLUMNS } from '../../../src/api';
import { COMMANDS } from '../../../src/commandIds';
import { machineTimeZone, type SavedReport } from '../../../src/commands/reports/orderReport';
import { useSandbox } from '../harness/sandbox';
import { ScriptedPrompts } from '../support/scriptedPrompts';
import { handle, runScripted } from './ordersSupport';

suite('reports: order report CSV against the sandbox', function () {
  this.timeout(60_000);
  const sb = useSandbox();

  let dir = '';
  setup(() => (dir = mkdtempSync(join(tmpdir(), 'eo-report-'))));
  teardown(async () => {
    handle(sb.current).faults.clear();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(dir, { recursive: true, force: true });
  });

  /** Answers the save dialog with the suggested name inside the test's folder. */
  const saveInDir = () => ({
    kind: 'saveDialog' as const,
    match: /Save the order report/,
    answer: (s: vscode.Uri | undefined) => vscode.Uri.file(join(dir, s?.path.split('/').pop() ?? 'x.csv')),
  });

  test('for this machine’s time zone: saved as a .csv named with date and zone, opened as CSV', async () => {
    const zone = machineTimeZone();
    const prompts = new ScriptedPrompts([
      { kind: 'pick', match: /Time zone/, choose: zone },
      saveInDir(),
      { kind: 'message', match: /Saved the order report/, answer: 'Open' },
    ]);
    const saved = await runScripted<SavedReport | undefined>(sb.current, prompts, COMMANDS.downloadReport);
    prompts.assertDone();
    assert.ok(saved, 'nothing saved');
    // the suggested name carries the date, time and zone, and ends in .csv
    const suggested = prompts.suggestedSave?.path.split('/').pop() ?? '';
    assert.match(suggested, new RegExp(`^order-report-\\d{4}-\\d{2}-\\d{2}-\\d{4}-${zone.replace(/[^A-Za-z0-9+-]+/g, '-').replace(/\+/g, '\\+')}\\.csv$`));
    // the file is on disk with the CSV the service sent
    const onDisk = readFileSync(saved.uri.fsPath, 'utf8');
    const [header, ...rows] = onDisk.trim().split(/\r?\n/);
    assert.deepEqual(header.split(','), [...REPORT_COLUMNS]);
    assert.ok(rows.length > 0, 'the report has no rows');
    // opened from that file, in the CSV language, not an untitled buffer
    assert.ok(saved.document, 'Open did not open the report');
    assert.equal(saved.document.uri.fsPath, saved.uri.fsPath);
    assert.equal(saved.document.isUntitled, false);
    assert.equal(saved.document.languageId, 'csv');
    assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, saved.uri.fsPath);
    assert.ok(prompts.messages.some((m) => /Saved the order report \(\d+ rows?, times in /.test(m.text)));
  });

  test('for a picked zone, times are rendered in that zone; not opened unless asked', async () => {
    const prompts = new ScriptedPrompts([saveInDir()]);
    const saved = await runScripted<SavedReport | undefined>(sb.current, prompts, COMMANDS.downloadReport, 'Asia/Kolkata');
    prompts.assertDone();
    assert.ok(saved);
    assert.equal(saved.document, undefined);
    assert.match(saved.uri.fsPath, /order-report-.*-Asia-Kolkata\.csv$/);
    assert.match(readFileSync(saved.uri.fsPath, 'utf8'), /\+05:30/, 'created_at is not in Asia/Kolkata');
  });

  test('cancelling the save dialog saves and opens nothing', async () => {
    const prompts = new ScriptedPrompts([{ kind: 'cancel', match: /Save the order report/ }]);
    const saved = await runScripted(sb.current, prompts, COMMANDS.downloadReport, 'UTC');
    prompts.assertDone();
    assert.equal(saved, undefined);
    assert.deepEqual(
      prompts.messages.map((m) => m.text),
      [],
    );
    assert.ok(!vscode.workspace.textDocuments.some((d) => d.isUntitled && d.getText().startsWith(REPORT_COLUMNS[0])), 'an untitled report buffer was opened');
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
    handle(sb.current).faults.add({
      method: 'GET',
      path: '/v0/reports',
      status: 403,
      count: 1,
      body: 'code,message\nforbidden,reports are disabled for this workspace',
      contentType: 'text/csv',
    });
    const prompts = new ScriptedPrompts([]);
    await runScripted(sb.current, prompts, COMMANDS.downloadReport, 'UTC');
    prompts.assertDone();
    assert.match(prompts.messages.find((m) => m.severity === 'error')?.text ?? '', /reports are disabled for this workspace/);
  });
});
