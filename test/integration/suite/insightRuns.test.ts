// Insight runs end to end in a real VS Code against the sandbox: Run prices first and sends
// one run only after Confirm; the run shows under its AOI's "Insight runs", is followed by
// the poller on the advanced sandbox clock to success and announced once; its outputs are
// listed, a vector output opens as GeoJSON, a raster output feeds a new input file by rule 3
// that validates clean and runs; a failed run shows its reason; a service without the
// endpoints gets one row saying so; delete asks first and says when it is not supported.
// Nodes are checked by `kind`, `record` and TreeItem (the extension is a separate bundle).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { collect, type Aoi, type Asset, type EoClient, type Insight } from '../../../src/api';
import type { ExplorerApi } from '../../../src/explorer';
import type { ExplorerNode } from '../../../src/explorer/tree';
import { useSandbox } from '../harness/sandbox';
import { remove, scriptedSuite, workspaceUri } from '../support/run';
import { until } from '../support/until';
import { waterExtentAoi, writeWaterExtent } from '../support/waterExtent';

const SOURCE = 'EO Imagery';
const INSIGHT_MS = 30_000;

interface Extras {
  clock: { advance(ms: number): void };
  faults: { add(rule: { method?: string; path: string | RegExp; status: number; count?: number; body?: unknown }): void; clear(): void };
  state: { insights: { id: string; name: string }[] };
}

type RunNode = ExplorerNode & { record: Insight };

function text(item: vscode.TreeItem): string {
  const l = typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
  return `${l} | ${String(item.description ?? '')}`;
}

suite('insight runs: price, run, follow, outputs, chain', function () {
  this.timeout(90_000);
  const env = useSandbox();
  let client: EoClient;
  let explorer: ExplorerApi;
  let extras: Extras;
  const scripts = scriptedSuite(env);
  const script = scripts.script;
  let aoi: Aoi;
  let asset: Asset;
  let lastGroup: ExplorerNode | undefined;

  /** The AOI's "Insight runs" rows, rendered as the tree renders them (so the poller sees them). */
  async function runRows(aoiId: string): Promise<{ group: ExplorerNode; rows: ExplorerNode[] }> {
    const provider = explorer.providers.projects;
    const aoiNode = await explorer.reveal('aoi', aoiId, { expand: true, focus: true });
    assert.ok(aoiNode, `AOI ${aoiId} is not in the Projects view`);
    const group = (await provider.getChildren(aoiNode)).find((n) => n.kind === 'insightRunGroup');
    assert.ok(group, 'the AOI has no "Insight runs" group');
    provider.getTreeItem(group);
    const rows = await provider.getChildren(group);
    for (const r of rows) provider.getTreeItem(r);
    return { group, rows };
  }

  const writeInsight = (name: string): Promise<vscode.Uri> => writeWaterExtent(name, asset);

  suiteSetup(async () => {
    client = await env.current.api.services.connection.getClient();
    explorer = env.current.api.services.explorer as ExplorerApi;
    extras = env.current.sandbox as unknown as Extras;
    ({ aoi, asset } = await waterExtentAoi(client));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  teardown(() => extras.faults.clear());

  test('Run asks for the estimate, shows it naming the block and AOI; Cancel sends no run, Confirm exactly one', async () => {
    const uri = await writeInsight('priced');
    const before = extras.state.insights.length;

    let p = script(
      { kind: 'pick', match: 'AOI', choose: (items) => items.find((i) => i.label === aoi.name) },
      { kind: 'cancel', match: /^Run priced \(water-extent 0\.9\.1\) on .+ for about \d+ tokens\?/ },
    );
    assert.equal(await vscode.commands.executeCommand('eoImagery.runInsight', uri), undefined);
    p.assertDone();
    const shown = scripts.prompts.seen.find((m) => m.kind === 'pick' && /tokens\?/.test(m.label));
    assert.ok(shown, 'no confirmation shown');
    assert.ok(shown.label.includes(aoi.name), shown.label);
    // Enter on the confirmation picks its first row: Cancel, never Run
    assert.match(shown.items?.[0] ?? '', /Cancel/);
    const tokens = Number(/about (\d+) tokens/.exec(shown.label)?.[1]);
    assert.equal(tokens, Math.max(1, Math.round((aoi.area_in_sq_m / 1e6) * 0.3)), 'the estimate the service gave');
    assert.equal(extras.state.insights.length, before, 'Cancel sent no run');

    p = script({ kind: 'pick', match: /for about \d+ tokens\?/, choose: 'Run' });
    const id = await vscode.commands.executeCommand<string | undefined>('eoImagery.runInsight', uri);
    p.assertDone();
    assert.ok(id, JSON.stringify(scripts.prompts.messages));
    assert.equal(extras.state.insights.length, before + 1, 'exactly one run was created');
    assert.equal(extras.state.insights.at(-1)?.id, id);
  });

  test('an estimate that fails stops the run with the reason; nothing is sent', async () => {
    const uri = workspaceUri('priced.insight.json');
    const before = extras.state.insights.length;
    extras.faults.add({
      method: 'POST',
      path: /^\/v0\/aoi\/[^/]+\/insights$/,
      status: 500,
      count: 1,
      body: { error: { code: 'internal', message: 'pricing is down', details: '' } },
    });
    script();
    assert.equal(await vscode.commands.executeCommand('eoImagery.runInsight', uri), undefined);
    const err = scripts.prompts.messages.find((m) => m.severity === 'error');
    assert.match(err?.text ?? '', /^Pricing priced \(water-extent 0\.9\.1\) on .+ \(nothing was run\) failed: .*pricing is down/);
    assert.ok(!scripts.prompts.messages.some((m) => m.modal), 'no confirmation without a price');
    assert.equal(extras.state.insights.length, before);
  });

  test('a run is followed to success on the advanced clock, announced once with Show Outputs, its outputs listed', async () => {
    const uri = await writeInsight('followed');
    script(
      { kind: 'pick', match: 'AOI', choose: (items) => items.find((i) => i.label === aoi.name) },
      { kind: 'pick', match: /for about \d+ tokens\?/, choose: 'Run' },
    );
    const id = await vscode.commands.executeCommand<string>('eoImagery.runInsight', uri);
    assert.ok(id);
    const { rows, group: g3 } = await runRows(aoi.aoi_id);
    lastGroup = g3;
    const node = rows.find((n) => (n as RunNode).record?.id === id) as RunNode | undefined;
    assert.ok(node, `the new run is not listed: ${rows.map((r) => r.key).join(', ')}`);
    assert.equal(rows[0], node, 'newest first');
    assert.match(text(explorer.providers.projects.getTreeItem(node)), /^followed \| (Queued|Running)/);
    assert.ok(explorer.poller.isWatching(node as never), 'a pending run is followed');

    // the group counts the runs under way (this one, and any an earlier test left queued)
    const running = (label: string) => Number(/(\d+) running/.exec(label)?.[1] ?? 0);
    const runningBefore = running(text(explorer.providers.projects.getTreeItem(g3)));
    assert.ok(runningBefore >= 1, 'the group counts the run under way');
    // the group's row is redrawn when the run finishes (VS Code asks for a row again only then)
    const redrawn: unknown[] = [];
    const watch = explorer.providers.projects.onDidChangeTreeData((n) => redrawn.push(n));
    const done = new Promise<void>((resolve) => {
      const sub = explorer.onDidUpdateRecord((n) => {
        if (n === (node as unknown) && node.record.status === 'success') {
          sub.dispose();
          resolve();
        }
      });
    });
    // The person clicks "Show Outputs" on the notification.
    script({ kind: 'message', match: /^Insight followed on /, answer: 'Show Outputs' });
    extras.clock.advance(INSIGHT_MS);
    await Promise.race([done, new Promise((_, reject) => setTimeout(() => reject(new Error('no live update within 30 s')), 30_000))]);
    assert.ok(!explorer.poller.isWatching(node as never), 'a finished run is no longer polled');
    await until('the group row redrawn', () => (redrawn.includes(g3) ? true : undefined));
    watch.dispose();
    const stillPending = (await explorer.providers.projects.getChildren(g3)).filter((n) =>
      / \| (Queued|Running)/.test(text(explorer.providers.projects.getTreeItem(n))),
    ).length;
    assert.ok(stillPending < runningBefore, 'a run finished');
    // The other runs' rows may still be taking their own finish from the watcher: wait for the count to settle.
    await until('the group counts only the runs still under way', () =>
      running(text(explorer.providers.projects.getTreeItem(g3))) === stillPending ? true : undefined,
    );
    const view = explorer.providers.projects.view;
    assert.ok(view);
    await until('Show Outputs to select the run', () => view.selection.some((n) => n.id === node.id) || undefined);
    const announced = await until('the finish notification', () =>
      scripts.prompts.messages.filter((m) => m.text.startsWith('Insight followed on ')).length > 0 ? scripts.prompts.messages : undefined,
    );
    const notes = announced.filter((m) => m.text.startsWith('Insight followed on '));
    assert.equal(notes.length, 1, 'announced once');
    assert.match(notes[0].text, /finished with 2 outputs/);
    assert.deepEqual(notes[0].buttons, ['Show Outputs']);

    const item = explorer.providers.projects.getTreeItem(node);
    assert.match(text(item), /^followed \| Success · 2 outputs/);
    const outputs = await explorer.providers.projects.getChildren(node);
    assert.deepEqual(
      outputs.map((o) => text(explorer.providers.projects.getTreeItem(o))),
      ['water_mask | raster · 2 classes', 'water_bodies | vector · 2 classes'],
    );
    assert.deepEqual(
      outputs.map((o) => explorer.providers.projects.getTreeItem(o).contextValue),
      ['insightOutput.raster', 'insightOutput.vector'],
    );
  });

  test('a vector output opens as a GeoJSON document; the input opens read-only and as a new editable file', async () => {
    const { rows, group: g4 } = await runRows(aoi.aoi_id);
    assert.equal(g4, lastGroup, 'the same rows as before');
    const run = rows.find((n) => (n as RunNode).record?.name === 'followed' && (n as RunNode).record.status === 'success') as RunNode;
    assert.ok(run, rows.map((r) => text(explorer.providers.projects.getTreeItem(r))).join('; '));
    const vector = (await explorer.providers.projects.getChildren(run)).find((o) => o.key.includes('water_bodies'));
    assert.ok(vector);
    script();
    const editor = await vscode.commands.executeCommand<vscode.TextEditor>('eoImagery.openInsightOutput', vector);
    assert.ok(editor, JSON.stringify(scripts.prompts.messages));
    const fc = JSON.parse(editor.document.getText()) as { type: string; features: { geometry: { type: string } }[] };
    assert.equal(fc.type, 'FeatureCollection');
    assert.ok(fc.features.length > 0 && fc.features.every((f) => f.geometry.type === 'Polygon'));
    assert.equal(editor.document.languageId, 'json');

    // The output file gone, or not GeoJSON: a message that says which, and no document.
    const fileOf = new RegExp(`^/outputs/${run.record.id}/water_bodies\\.geojson$`);
    extras.faults.add({ method: 'GET', path: fileOf, status: 404, count: 1 });
    script();
    assert.equal(await vscode.commands.executeCommand('eoImagery.openInsightOutput', vector), undefined);
    assert.match(scripts.prompts.messages[0]?.text ?? '', /^Cannot open water_bodies of followed: 127\.0\.0\.1:\d+ answered 404: the file is not there/);
    extras.faults.add({ method: 'GET', path: fileOf, status: 200, count: 1, body: { type: 'Topology', objects: {} } });
    script();
    assert.equal(await vscode.commands.executeCommand('eoImagery.openInsightOutput', vector), undefined);
    assert.match(scripts.prompts.messages[0]?.text ?? '', /^Cannot open water_bodies of followed: the file is not valid GeoJSON: its type is "Topology"/);

    const input = await vscode.commands.executeCommand<vscode.TextEditor>('eoImagery.openInsightInput', run);
    assert.deepEqual(
      (JSON.parse(input.document.getText()) as { name: string }[]).map((i) => i.name),
      ['image', 'threshold', 'include_wetlands'],
    );
    assert.equal(input.document.uri.scheme, 'eo-imagery-run', 'read-only document');

    await remove(workspaceUri('followed-rerun.insight.json'));
    const copy = await vscode.commands.executeCommand<vscode.Uri>('eoImagery.openInsightInputAsNewFile', run);
    assert.equal(copy?.toString(), workspaceUri('followed-rerun.insight.json').toString());
    const file = JSON.parse(Buffer.from(await vscode.workspace.fs.readFile(copy)).toString('utf8')) as { block: unknown; input: unknown[] };
    assert.deepEqual(file.block, { name: 'water-extent', version: '0.9.1' });
    assert.equal(file.input.length, 3);
    assert.equal(await vscode.commands.executeCommand<number>('eoImagery.validateInsight', copy), 0);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await remove(copy);

    // Download Run…: the package saved into the folder picked.
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-run-'));
    script({ kind: 'openDialog', match: 'Folder to save followed in', answer: [vscode.Uri.file(folder)] });
    const saved = await vscode.commands.executeCommand<string | undefined>('eoImagery.downloadInsightRun', run);
    assert.ok(saved && fs.existsSync(saved), JSON.stringify(scripts.prompts.messages));
    assert.equal(fs.readFileSync(saved).subarray(0, 2).toString('latin1'), 'PK', 'a zip archive');
    fs.rmSync(folder, { recursive: true, force: true });
  });

  test('"Use Output as Input…" starts a change-detection file from a land-cover output: clean diagnostics, and it runs', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const aois = await collect(client.aois.iterate({}, { pageSize: 100 }));
    const runs = (await Promise.all(aois.map((a) => client.insightRuns.list(a.aoi_id)))).flat();
    const land = runs.find((r) => r.block?.name === 'land-cover-classification' && r.status === 'success');
    assert.ok(land, 'the seeded world has a finished land-cover run');
    const { rows } = await runRows(land.aoi_id);
    const runNode = rows.find((n) => (n as RunNode).record?.id === land.id) as RunNode;
    const raster = (await explorer.providers.projects.getChildren(runNode)).find((o) => o.key.includes('land_cover'));
    assert.ok(raster);
    const uri = workspaceUri('change-int.insight.json');
    await remove(uri);
    const versions = await client.blocks.insights({ name: 'change-detection' });
    let offered: string[] = [];
    const p = script(
      { kind: 'pick', match: 'block', choose: 'Change detection' },
      ...(versions.length > 1 ? [{ kind: 'pick' as const, match: 'version', choose: versions[0].spec.version }] : []),
      {
        kind: 'pick',
        match: 'baseline',
        choose: (items) => {
          offered = items.map((i) => i.label);
          return items[0];
        },
      },
      { kind: 'pick', match: 'image', choose: (items) => items.find((i) => i.iconPath instanceof vscode.ThemeIcon && i.iconPath.id === 'file-media') },
      { kind: 'input', match: 'as_of', answer: '2025-06-01' },
      { kind: 'input', match: 'sensitivity', answer: 'low' },
      { kind: 'pick', match: 'mask', choose: 'Skip' },
      { kind: 'input', match: 'name', answer: 'change-int' },
    );
    const written = await vscode.commands.executeCommand<vscode.Uri | undefined>('eoImagery.useInsightOutputAsInput', raster);
    p.assertDone();
    assert.equal(written?.toString(), uri.toString(), JSON.stringify(scripts.prompts.messages));
    assert.match(offered[0], new RegExp(`${land.name} › land_cover`), 'the chosen output is offered first');
    const doc = JSON.parse(Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8')) as { input: Record<string, unknown>[] };
    const baseline = doc.input.find((i) => i.name === 'baseline');
    const out = land.output.find((o) => o.name === 'land_cover');
    assert.equal(baseline?.value, out?.value, 'rule 3: value is the output URL');
    assert.deepEqual(baseline?.asset_source, { type: 'model_output', id: land.id });
    assert.deepEqual(
      (baseline?.properties as Record<string, unknown>).discretization,
      out?.properties.discretization,
      "rule 3: the output's properties are copied",
    );
    assert.equal(await vscode.commands.executeCommand<number>('eoImagery.validateInsight', uri), 0);
    await until('clean diagnostics', () => vscode.languages.getDiagnostics(uri).filter((d) => d.source === SOURCE).length === 0 || undefined);

    script({ kind: 'pick', match: /^Run change-int \(change-detection .+\) on .+ for about \d+ tokens\?/, choose: 'Run' });
    const id = await vscode.commands.executeCommand<string>('eoImagery.runInsight', uri);
    assert.ok(id, JSON.stringify(scripts.prompts.messages));
    extras.clock.advance(INSIGHT_MS);
    const after = (await client.insightRuns.list(land.aoi_id, { id }))[0];
    assert.equal(after.status, 'success', after.err_msg);
    await remove(uri);
  });

  test('a failed run shows its error message on the row and under it', async () => {
    const failed = (
      await Promise.all(
        (await collect(client.aois.iterate({}, { pageSize: 100 }))).map(async (a) =>
          (await client.insightRuns.list(a.aoi_id)).filter((r) => r.status === 'failed'),
        ),
      )
    ).flat()[0];
    assert.ok(failed, 'the seeded world has a failed run');
    const { rows } = await runRows(failed.aoi_id);
    const node = rows.find((n) => (n as RunNode).record?.id === failed.id) as RunNode;
    assert.ok(node);
    assert.match(text(explorer.providers.projects.getTreeItem(node)), /^Water extent of .+ \| Failed · input image: asset .+ has no band B03/);
    const under = await explorer.providers.projects.getChildren(node);
    assert.equal(under.length, 1);
    assert.match(text(explorer.providers.projects.getTreeItem(under[0])), /^Failed: input image: asset .+ has no band B03, B08, B11/);
  });

  test('a service without insight runs: one row saying so (404 and 405), no error storm', async () => {
    const { group } = await runRows(aoi.aoi_id);
    for (const status of [404, 405]) {
      extras.faults.add({ method: 'GET', path: /^\/v0\/aoi\/[^/]+\/insights$/, status, count: 1 });
      explorer.refreshNode(group);
      const rows = await explorer.providers.projects.getChildren(group);
      assert.deepEqual(
        rows.map((r) => text(explorer.providers.projects.getTreeItem(r))),
        ['This service does not support insight runs | '],
        `status ${status}`,
      );
      assert.equal(explorer.providers.projects.getTreeItem(group).description, 'not supported');
      extras.faults.clear();
      explorer.refreshNode(group);
    }
  });

  test('an AOI deleted on the service: the group says so instead of an error', async () => {
    const { group } = await runRows(aoi.aoi_id);
    extras.faults.add({ method: 'GET', path: new RegExp(`^/v0/aoi/${aoi.aoi_id}/insights$`), status: 404, count: 1 });
    extras.faults.add({ method: 'GET', path: new RegExp(`^/v0/aoi/${aoi.aoi_id}$`), status: 404, count: 1 });
    explorer.refreshNode(group);
    const rows = await explorer.providers.projects.getChildren(group);
    assert.deepEqual(
      rows.map((r) => text(explorer.providers.projects.getTreeItem(r))),
      ['This AOI no longer exists | '],
    );
    extras.faults.clear();
    explorer.refreshNode(group);
  });

  test('delete asks first; Cancel keeps the run, Delete removes it; a 405 says the service does not support it', async () => {
    const uri = workspaceUri('priced.insight.json');
    script({ kind: 'pick', match: /for about \d+ tokens\?/, choose: 'Run' });
    const id = await vscode.commands.executeCommand<string>('eoImagery.runInsight', uri);
    const find = async (): Promise<RunNode | undefined> =>
      (await runRows(aoi.aoi_id)).rows.find((n) => (n as RunNode).record?.id === id) as RunNode | undefined;
    let node = await find();
    assert.ok(node);

    script({ kind: 'message', match: /^Delete insight run priced on /, answer: undefined });
    assert.equal(await vscode.commands.executeCommand('eoImagery.deleteInsightRun', node), false);
    assert.equal((await client.insightRuns.list(aoi.aoi_id, { id })).length, 1);

    extras.faults.add({ method: 'DELETE', path: /^\/v0\/aoi\/[^/]+\/insights\/[^/]+$/, status: 405, count: 1 });
    script({ kind: 'message', match: /^Delete insight run priced on /, answer: 'Delete' });
    assert.equal(await vscode.commands.executeCommand('eoImagery.deleteInsightRun', node), false);
    assert.ok(
      scripts.prompts.messages.some((m) => m.text === 'This service does not support deleting insight runs.'),
      JSON.stringify(scripts.prompts.messages),
    );

    node = await find();
    script({ kind: 'message', match: /^Delete insight run priced on /, answer: 'Delete' });
    assert.equal(await vscode.commands.executeCommand('eoImagery.deleteInsightRun', node), true);
    assert.equal((await client.insightRuns.list(aoi.aoi_id, { id })).length, 0);
    assert.equal(await until('the row to go', async () => ((await find()) ? undefined : true)), true);
  });
});
