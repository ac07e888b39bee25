// Searches as files: "Save Search…" on the map writes a `*.eosearch.json`; VS Code's JSON
// support validates, completes and explains it from the contributed schema; the CodeLenses
// "Run on Map" and "What's New" run it in the real map webview (seen as the search request it
// sends), the last run remembered per file; opening such a file offers the same.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LoggedRequest } from '../../../src/auth/connection';
import type { SearchParams } from '../../../src/panels/protocol';
import { useSandbox } from '../harness/sandbox';
import { ScriptedPrompts } from '../support/scriptedPrompts';
import { until } from '../support/until';
import { testPanels } from '../support/webviewTap';

const params: SearchParams = {
  kind: 'archive',
  shape: 'rectangle',
  ring: [
    [0, 45],
    [5, 45],
    [5, 50],
    [0, 50],
    [0, 45],
  ],
  collections: [],
  satellites: [],
  from: '2020-01-01',
  to: '',
  maxCloud: 40,
  sort: 'cloud-asc',
  limit: 7,
};

const today = (): string => new Date().toISOString().slice(0, 10);

suite('search files: save, schema, CodeLens, run on the map', function () {
  this.timeout(120_000);
  const env = useSandbox();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-searches-'));
  let saved: vscode.Uri;
  const requests: LoggedRequest[] = [];
  let sub: vscode.Disposable | undefined;

  suiteSetup(async () => {
    sub = env.current.api.services.connection.onDidRequest((e) => requests.push(e));
  });
  suiteTeardown(async () => {
    sub?.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('"Save Search…" from the map writes the search to the chosen file, readable and complete', async () => {
    const { api } = env.current;
    const projects = api.services.explorer!.providers.projects;
    const project = (await projects.getChildren()).find((n) => n.kind === 'project');
    assert.ok(project);
    const aoi = (await projects.getChildren(project)).find((n) => n.kind === 'aoi');
    assert.ok(aoi, 'no AOI to show on the map');
    await vscode.commands.executeCommand('eoImagery.showOnMap', aoi);
    const map = await until('the map panel', () => testPanels(api.services.panels).map());
    await map.whenReady();
    const target = vscode.Uri.file(path.join(dir, 'alps'));
    const prompts = new ScriptedPrompts([{ kind: 'saveDialog', match: /Save Search/, answer: target }]);
    const restore = api.testing.usePrompts(prompts);
    try {
      await map.receive({ type: 'saveSearch', params });
    } finally {
      restore();
    }
    prompts.assertDone();
    saved = vscode.Uri.file(path.join(dir, 'alps.eosearch.json'));
    assert.ok(fs.existsSync(saved.fsPath), 'no file ending in .eosearch.json was written');
    const json = JSON.parse(fs.readFileSync(saved.fsPath, 'utf8')) as Record<string, unknown>;
    assert.deepEqual(json, {
      kind: 'archive',
      geometry: { type: 'Polygon', coordinates: [params.ring] },
      shape: 'rectangle',
      from: '2020-01-01',
      maxCloud: 40,
      sort: 'cloud-asc',
      limit: 7,
    });
  });

  test('a name the dialog hands back with the suffix twice is written with it once; an existing file is not replaced unasked', async () => {
    const { api } = env.current;
    const map = await until('the map panel', () => testPanels(api.services.panels).map());
    // VS Code's own save dialog (code-server's) compares only the name's last dot with the
    // filter: a name typed as "delta.eosearch.json" came back with the suffix appended again.
    const doubled = vscode.Uri.file(path.join(dir, 'delta.eosearch.json.eosearch.json'));
    const once = path.join(dir, 'delta.eosearch.json');
    const prompts = new ScriptedPrompts([
      { kind: 'saveDialog', match: /Save Search/, answer: doubled },
      { kind: 'saveDialog', match: /Save Search/, answer: doubled },
      { kind: 'message', match: /delta\.eosearch\.json already exists\. Replace it\?/, answer: undefined },
    ]);
    const restore = api.testing.usePrompts(prompts);
    try {
      await map.receive({ type: 'saveSearch', params });
      assert.deepEqual(
        fs.readdirSync(dir).filter((n) => n.startsWith('delta')),
        ['delta.eosearch.json'],
        'not exactly one file named with one suffix',
      );
      fs.writeFileSync(once, 'kept');
      await map.receive({ type: 'saveSearch', params: { ...params, limit: 9 } });
    } finally {
      restore();
    }
    prompts.assertDone();
    assert.equal(fs.readFileSync(once, 'utf8'), 'kept', 'the existing file was replaced after Cancel');
    assert.equal(fs.existsSync(doubled.fsPath), false);
  });

  test('the schema validates, completes and explains the file in the JSON editor', async () => {
    const broken = vscode.Uri.file(path.join(dir, 'broken.eosearch.json'));
    fs.writeFileSync(
      broken.fsPath,
      JSON.stringify({ kind: 'imagery', geometry: { type: 'Polygon', coordinates: [params.ring] }, sort: 'random', from: '1 May' }, null, 2),
    );
    const doc = await vscode.workspace.openTextDocument(broken);
    await vscode.window.showTextDocument(doc);
    const problems = await until('schema diagnostics', () => {
      const d = vscode.languages.getDiagnostics(broken);
      return d.length >= 3 ? d : undefined;
    });
    const text = problems.map((d) => d.message).join(' | ');
    assert.match(text, /satellites/, `no problem about the missing satellites: ${text}`);
    assert.match(text, /datetime-desc|Value is not accepted/, `no problem about sort: ${text}`);
    assert.match(text, /pattern|format/i, `no problem about the date: ${text}`);

    const good = await vscode.workspace.openTextDocument(saved);
    await vscode.window.showTextDocument(good);
    const kindValue = good.positionAt(good.getText().indexOf('"archive"') + 1);
    const completion = await until('completions for "kind"', async () => {
      const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', good.uri, kindValue);
      return list.items.length ? list : undefined;
    });
    const labels = completion.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
    assert.ok(
      labels.some((l) => l.includes('imagery')),
      `kind completions: ${labels.join(', ')}`,
    );
    const cloudKey = good.positionAt(good.getText().indexOf('"maxCloud"') + 2);
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', good.uri, cloudKey);
    const hoverText = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : 'value' in c ? c.value : ''))).join(' ');
    assert.match(hoverText, /cloud cover/i, `hover: ${hoverText}`);
    assert.equal(vscode.languages.getDiagnostics(saved).length, 0, 'the saved file has problems');
  });

  test('CodeLens "Run on Map" runs the file in the map webview; "What\'s New" then searches from the last run', async () => {
    const { api } = env.current;
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', saved);
    const titles = lenses.map((l) => l.command?.title ?? '');
    const run = lenses.find((l) => l.command?.title.includes('Run on Map'));
    assert.ok(run?.command, `lenses: ${titles.join(', ')}`);
    assert.ok(
      titles.some((t) => /What's New$/.test(t)),
      `a file never run shows plain "What's New": ${titles.join(', ')}`,
    );

    const map = await until('the map panel', () => testPanels(api.services.panels).map());
    const seen = requests.length;
    await vscode.commands.executeCommand(run.command.command, ...(run.command.arguments ?? []));
    const posted = await until(
      'runSearch posted',
      () => map.posted.find((m) => (m as { type: string }).type === 'runSearch') as { params: SearchParams } | undefined,
    );
    assert.deepEqual(posted.params, params);
    // The webview fills its form and searches: the service gets the file's search.
    const sent = await until('the archive search from the webview', () =>
      requests.slice(seen).find((r) => r.method === 'POST' && r.path.startsWith('/v0/archives/search')),
    );
    const body = sent.requestBody as { bbox?: number[]; limit?: number };
    assert.deepEqual(body.bbox, [0, 45, 5, 50], `not the file's area: ${JSON.stringify(body)}`);
    assert.equal(body.limit, 7);

    const after = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', saved);
    const whatsNew = after.find((l) => l.command?.title.includes("What's New"));
    assert.ok(whatsNew?.command, "no What's New lens after the run");
    assert.ok(whatsNew.command.title.endsWith(`since ${today()}`), `What's New does not name the last run: ${whatsNew.command.title}`);
    const before = map.posted.length;
    await vscode.commands.executeCommand(whatsNew.command.command, ...(whatsNew.command.arguments ?? []));
    const again = await until(
      'the second runSearch',
      () => map.posted.slice(before).find((m) => (m as { type: string }).type === 'runSearch') as { params: SearchParams } | undefined,
    );
    assert.equal(again.params.from, today(), "What's New does not start at the last run");
    assert.equal(again.params.limit, 7);
  });

  test('opening a saved search offers to run it, once per file', async () => {
    const { api } = env.current;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const other = vscode.Uri.file(path.join(dir, 'other.eosearch.json'));
    fs.copyFileSync(saved.fsPath, other.fsPath);
    const prompts = new ScriptedPrompts([{ kind: 'message', match: /other\.eosearch\.json is a saved EO Imagery search/, answer: 'Run on Map' }]);
    const restore = api.testing.usePrompts(prompts);
    try {
      // closeAllEditors closed the map too: "Run on Map" opens a new one.
      await vscode.window.showTextDocument(other);
      await until('the offer', () => prompts.messages.find((m) => m.text.includes('other.eosearch.json')));
      const map = await until('the map panel', () => testPanels(api.services.panels).map());
      await until('runSearch after the offer', () => map.posted.find((m) => (m as { type: string }).type === 'runSearch'));
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await vscode.window.showTextDocument(other);
      await new Promise((r) => setTimeout(r, 500));
    } finally {
      restore();
    }
    prompts.assertDone();
    assert.equal(prompts.messages.filter((m) => m.text.includes('other.eosearch.json')).length, 1, 'offered twice');
  });
});
