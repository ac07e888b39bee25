// Order plans (*.eoorder.json) in a real VS Code against the sandbox: the schema's hovers, ids
// completed from the signed-in service, diagnostics as the file changes (the file's own and the
// service's), the quick fix that takes the service's name, the Price lens and its amounts
// (gone after an edit), Place Order… through the priced confirmation and the placed record, a
// second Place that asks first, and the check task's problems in the Problems view.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Aoi, Bandset, EoClient, Project } from '../../../src/api';
import { requestOf, type OrderPlan } from '../../../src/plans/planFile';
import { planText } from '../../../src/plans/planWrite';
import { useSandbox } from '../harness/sandbox';
import { quickFixes } from '../support/quickFixes';
import { remove, runScripted, workspaceUri } from '../support/run';
import { ScriptedPrompts } from '../support/scriptedPrompts';
import { until } from '../support/until';

const SOURCE = 'EO Imagery order plan';
const planDiagnostics = (uri: vscode.Uri): vscode.Diagnostic[] => vscode.languages.getDiagnostics(uri).filter((d) => d.source === SOURCE);
const codes = (uri: vscode.Uri): string[] => planDiagnostics(uri).map((d) => String(d.code));

suite('order plans: schema, completion, diagnostics, quick fix, lenses, place, task', function () {
  this.timeout(120_000);
  const env = useSandbox();
  const file = workspaceUri('integration.eoorder.json');
  let client: EoClient;
  let plan: OrderPlan;
  let aoi: Aoi;

  suiteSetup(async () => {
    client = await env.current.api.services.connection.getClient();
    const project: Project = (await client.projects.listPage()).items[0];
    aoi = (await client.aois.listPage({ limit: 1 })).items[0];
    const bandset: Bandset = (await client.bandsets.list())[0];
    const day = 86_400_000;
    const iso = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
    plan = {
      name: 'Integration plan',
      project: { id: project.id, name: project.title || project.name },
      usecase: 'agriculture',
      items: [
        {
          kind: 'tasking',
          name: 'Next month',
          aoi: { id: aoi.aoi_id, name: aoi.name },
          geometry: aoi.geometry,
          start: iso(Date.now() + 2 * day),
          end: iso(Date.now() + 30 * day),
          recurrence: 'ONCE',
          occurrences: 1,
          bandset: { id: bandset.id, name: bandset.name },
          cloudCover: 20,
          offNadir: 30,
          speed: 'STANDARD',
        },
      ],
    };
  });
  setup(async () => {
    // An edit an earlier test left unsaved would be in conflict with the file written here.
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === file.toString());
    if (open?.isDirty) {
      await vscode.window.showTextDocument(open);
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
    await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(planText(plan)));
  });
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await remove(file);
  });

  async function open(): Promise<vscode.TextEditor> {
    const doc = await vscode.workspace.openTextDocument(file);
    const editor = await vscode.window.showTextDocument(doc);
    // The file was written by setup: on a busy machine the open document may not have reloaded yet.
    await until('the plan as setup wrote it', () => doc.getText() === planText(plan) || undefined);
    // The service's checks have run once every id is known: none of the plan's ids is unknown.
    await until('the plan checked', () => vscode.languages.getDiagnostics(file) !== undefined && doc.version > 0);
    return editor;
  }
  async function replace(editor: vscode.TextEditor, from: string, to: string): Promise<void> {
    const text = editor.document.getText();
    const at = text.indexOf(from);
    assert.ok(at >= 0, `no ${from} in the plan`);
    await editor.edit((e) => e.replace(new vscode.Range(editor.document.positionAt(at), editor.document.positionAt(at + from.length)), to));
  }

  test('the schema explains a field on hover', async () => {
    const editor = await open();
    const at = editor.document.getText().indexOf('"cloudCover"') + 3;
    const hovers = await until('a hover', async () => {
      const h = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', file, editor.document.positionAt(at));
      return h.length ? h : undefined;
    });
    const text = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
    assert.match(text, /Maximum cloud cover, %/);
  });

  test('completes an AOI id from the signed-in service, named', async () => {
    const editor = await open();
    const text = editor.document.getText();
    const at = text.indexOf(`"${aoi.aoi_id}"`) + 1;
    const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', file, editor.document.positionAt(at));
    const ours = list.items.find((i) => typeof i.label === 'object' && i.label.label === aoi.name);
    assert.ok(ours, `no completion named ${aoi.name}: ${list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label)).join(', ')}`);
    assert.equal(ours.insertText, JSON.stringify(aoi.aoi_id));
  });

  test('publishes the file\u2019s own problems as it changes, at their place', async () => {
    const editor = await open();
    await until('no problem in the plan', () => codes(file).length === 0 || undefined);
    await replace(editor, '"cloudCover": 20', '"cloudCover": 120');
    const d = await until('the cloud cover problem', () => planDiagnostics(file).find((x) => x.code === 'order-rule'));
    assert.equal(editor.document.getText(d.range), '120');
    assert.match(d.message, /Cloud cover must be between 0 and 100/);
    await replace(editor, '"cloudCover": 120', '"cloudCover": 20');
    await until('the problem gone', () => codes(file).length === 0 || undefined);
  });

  test('reports an id the service does not know, and fixes a name the service changed', async () => {
    const editor = await open();
    await replace(editor, `"name": ${JSON.stringify(aoi.name)}`, '"name": "Old AOI name"');
    const renamed = await until('the AOI renamed', () => planDiagnostics(file).find((x) => x.code === 'name-differs'));
    const fixes = await quickFixes(file, renamed.range);
    const fix = fixes.find((f) => f.title.includes(aoi.name));
    assert.ok(fix?.edit, `no quick fix: ${fixes.map((f) => f.title).join(', ')}`);
    assert.ok(await vscode.workspace.applyEdit(fix.edit));
    assert.match(
      editor.document.getText(),
      new RegExp(`"aoi": \\{ "id": "${aoi.aoi_id}", "name": ${JSON.stringify(aoi.name).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\}`),
    );
    await until('the name problem gone', () => !codes(file).includes('name-differs') || undefined);
    await replace(editor, `"id": "${aoi.aoi_id}"`, '"id": "aoi-that-is-not-there"');
    await until('the unknown AOI', () => planDiagnostics(file).find((x) => x.code === 'unknown-aoi'));
  });

  test('Price shows the dry run\u2019s total and each item\u2019s amount, until the next edit', async () => {
    const editor = await open();
    const expected = await client.orders.create({ dry_run: true, order_items: requestOf(plan) });
    const ordersBefore = env.current.sandbox.state.orders.length;
    await vscode.commands.executeCommand('eoImagery.pricePlan', file);
    const lenses = async (): Promise<string[]> =>
      ((await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', file, 100)) ?? []).map((l) => l.command?.title ?? '');
    const priced = await until('the priced lens', async () => ((await lenses()).some((t) => t.includes('Priced:')) ? lenses() : undefined));
    const total = expected.total_amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    assert.ok(
      priced.some((t) => t.includes(total)),
      `no lens with ${total}: ${priced.join(' | ')}`,
    );
    assert.ok(
      priced.some((t) => /km²/.test(t)),
      'no item lens with its area',
    );
    assert.equal(env.current.sandbox.state.orders.length, ordersBefore, 'pricing ordered something');
    await replace(editor, '"offNadir": 30', '"offNadir": 25');
    await until('the price dropped', async () => ((await lenses()).some((t) => t.includes('Priced:')) ? undefined : true));
  });

  test('Place Order… places once after the priced confirmation, records it, and asks before placing again', async () => {
    await open();
    const ordersBefore = env.current.sandbox.state.orders.length;
    const place = new ScriptedPrompts([{ kind: 'pick', match: /^Place this order\? 1 item · total/, choose: 'Place Order' }]);
    await runScripted(env.current, place, 'eoImagery.placePlan', file);
    place.assertDone();
    assert.equal(env.current.sandbox.state.orders.length, ordersBefore + 1);
    const saved = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(file))) as OrderPlan;
    assert.ok(saved.placed?.order_id, 'no placed record in the saved file');
    assert.equal(saved.placed.order_id, env.current.sandbox.state.orders.at(-1)?.id);
    await until('the placed diagnostic', () => planDiagnostics(file).find((x) => x.code === 'placed'));
    // A second Place: the question comes first, Cancel is its first row, and nothing is sent.
    let rows: string[] = [];
    const again = new ScriptedPrompts([
      {
        kind: 'pick',
        match: new RegExp(`^This plan was placed as order ${saved.placed.order_id} on \\d{4}-\\d{2}-\\d{2}; place a new order\\?`),
        choose: (items) => {
          rows = items.map((i) => i.label);
          return items[0];
        },
      },
    ]);
    const posts = env.current.sandbox.requests.filter((r) => r === 'POST /v0/orders').length;
    await runScripted(env.current, again, 'eoImagery.placePlan', file);
    again.assertDone();
    assert.match(rows[0], /Cancel/);
    assert.equal(env.current.sandbox.requests.filter((r) => r === 'POST /v0/orders').length, posts);
    assert.equal(env.current.sandbox.state.orders.length, ordersBefore + 1);
  });

  test('the check task puts its problems in the Problems view', async () => {
    const bad = workspaceUri('task-check.eoorder.json');
    await vscode.workspace.fs.writeFile(bad, new TextEncoder().encode(planText(plan).replace('"offNadir": 30', '"offNadir": 75')));
    try {
      const tasks = await vscode.tasks.fetchTasks({ type: 'eoImagery.check' });
      const task = tasks.find((t) => t.definition.type === 'eoImagery.check');
      assert.ok(task, 'no check task');
      const ended = new Promise<number | undefined>((resolve) => {
        const sub = vscode.tasks.onDidEndTaskProcess((e) => {
          if (e.execution.task.definition.type !== 'eoImagery.check') return;
          sub.dispose();
          resolve(e.exitCode);
        });
      });
      await vscode.tasks.executeTask(task);
      assert.equal(await ended, 1);
      const problem = await until('the task\u2019s problem', () =>
        vscode.languages.getDiagnostics(bad).find((d) => d.source === 'EO Imagery check' && /off-nadir angle must be between 0 and 60/.test(d.message)),
      );
      assert.equal(problem.severity, vscode.DiagnosticSeverity.Error);
      assert.equal(problem.code, 'order-rule');
    } finally {
      await remove(bad);
    }
  });

  test('a plan saved from the tasking confirmation over an AOI names the AOI\u2019s project beside its id', async () => {
    const withProject = (await client.aois.listPage({ limit: 100 })).items.find((a) => a.project_id);
    assert.ok(withProject, 'a seeded AOI in a project');
    const project = await client.projects.get(withProject.project_id);
    const target = workspaceUri('from-tasking.eoorder.json');
    const day = 86_400_000;
    const prompts = new ScriptedPrompts([
      { kind: 'input', match: /Name/, answer: 'Saved from tasking' },
      { kind: 'input', match: /Use case/, answer: '' },
      { kind: 'input', match: /First day/, answer: new Date(Date.now() + day).toISOString().slice(0, 10) },
      { kind: 'input', match: /Last day/, answer: new Date(Date.now() + 30 * day).toISOString().slice(0, 10) },
      { kind: 'pick', match: /How often/, choose: 'Once' },
      { kind: 'pick', match: /Bands/, choose: (items) => items[0] },
      { kind: 'input', match: /cloud cover/, answer: '20' },
      { kind: 'input', match: /off-nadir/, answer: '30' },
      { kind: 'pick', match: /Delivery speed/, choose: 'Standard' },
      { kind: 'pick', match: /cloud store/, choose: 'No cloud delivery' },
      { kind: 'pick', match: /^Place this order\?/, choose: 'Save as Order Plan\u2026' },
      { kind: 'saveDialog', match: /Save as Order Plan/, answer: target },
    ]);
    const posts = env.current.sandbox.requests.filter((r) => r === 'POST /v0/orders').length;
    try {
      await runScripted(env.current, prompts, 'eoImagery.orderTasking', { kind: 'aoi', record: withProject });
      prompts.assertDone();
      const saved = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(target))) as OrderPlan;
      assert.deepEqual(saved.project, { id: project.id, name: project.title || project.name });
      assert.notEqual(saved.project.name, project.id, 'the project is named, not shown by its id');
      // Saving prices (one dry run) and places nothing.
      assert.equal(env.current.sandbox.requests.filter((r) => r === 'POST /v0/orders').length, posts + 1);
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      await remove(target);
    }
  });
});
