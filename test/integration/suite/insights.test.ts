// Insight input files end to end in a real VS Code against the sandbox: the New Insight Input
// command answered through the prompt seam, the diagnostics and quick fixes in a real editor,
// Estimate and Run through the insight-run endpoints, and the clear message when a service
// does not have them.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { collect, type Aoi, type Asset, type EoClient } from '../../../src/api';
import { useSandbox } from '../harness/sandbox';
import { remove, scriptedSuite, workspaceUri } from '../support/run';
import { printFigure } from '../support/figures';
import { generatedInsight } from '../../unit/insights/fixtures';
import { quickFixes } from '../support/quickFixes';
import type { Step } from '../support/scriptedPrompts';

const SOURCE = 'EO Imagery';
const NOT_SUPPORTED = 'This service does not support running insights from the editor.';

interface FaultsHandle {
  faults: { add(rule: { method?: string; path: string | RegExp; status: number; count?: number }): void; clear(): void };
}

/** Names the step of a failure ("Canceled" alone says nothing). */
async function step<T>(what: string, p: Thenable<T>): Promise<T> {
  try {
    return await p;
  } catch (e) {
    throw new Error(`${what}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** Waits until `check` holds for the file's EO Imagery diagnostics. */
async function diagnosticsUntil(uri: vscode.Uri, check: (d: vscode.Diagnostic[]) => boolean, ms = 10_000): Promise<vscode.Diagnostic[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const mine = vscode.languages.getDiagnostics(uri).filter((d) => d.source === SOURCE);
    if (check(mine)) return mine;
    if (Date.now() > deadline) {
      throw new Error(
        `diagnostics never settled; last: ${mine.map((d) => `${String(d.code)}@${d.range.start.line}:${d.range.start.character}`).join(', ') || 'none'}`,
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

suite('insights: input files against the sandbox', function () {
  this.timeout(60_000);
  const env = useSandbox();
  const scripts = scriptedSuite(env);
  const script = scripts.script;
  let client: EoClient;
  let aoi: Aoi;
  let asset: Asset;

  suiteSetup(async () => {
    client = await env.current.api.services.connection.getClient();
    // An AOI with an asset that covers the water-extent block's bands (B03, B08, B11).
    const aois = await collect(client.aois.iterate({}, { pageSize: 100 }));
    for (const a of aois) {
      const assets = await collect(client.aois.iterateAssets(a.aoi_id, { pageSize: 100 }));
      const fit = assets.find((x) => ['B03', 'B08', 'B11'].every((b) => x.band_list.includes(b)) && x.path);
      if (fit) {
        aoi = a;
        asset = fit;
        break;
      }
    }
    assert.ok(aoi, 'the sandbox seeds no AOI with a B03/B08/B11 asset');
  });

  teardown(() => (env.current.sandbox as unknown as FaultsHandle).faults.clear());

  /** New Insight Input's answers for Water extent up to its threshold: the block (and its version), the AOI, the image. */
  const waterExtentUpToThreshold = async (): Promise<Step[]> => {
    const versions = await client.blocks.insights({ name: 'water-extent' });
    return [
      { kind: 'pick', match: 'block', choose: 'Water extent' },
      ...(versions.length > 1 ? [{ kind: 'pick' as const, match: 'version', choose: versions[0].spec.version }] : []),
      { kind: 'pick', match: 'AOI', choose: (items) => items.find((i) => i.label === aoi.name) },
      { kind: 'pick', match: 'image', choose: (items) => items.find((i) => i.label.includes(asset.name)) },
    ];
  };

  test('New Insight Input: an empty required value is refused with what the spec says it is', async () => {
    const p = script(...(await waterExtentUpToThreshold()), {
      kind: 'input',
      match: 'threshold',
      answer: '',
      rejects: /^threshold is required: NDWI threshold above which a pixel is water \(a number\)$/,
    });
    assert.equal(await vscode.commands.executeCommand('eoImagery.newInsightInput'), undefined, 'Escape after the refusal writes nothing');
    p.assertDone();
  });

  test('New Insight Input builds the file from the block spec, writes it and opens it', async () => {
    const uri = workspaceUri('water-int.insight.json');
    await remove(uri);
    const p = script(
      ...(await waterExtentUpToThreshold()),
      { kind: 'input', match: 'threshold', answer: '0.25' },
      { kind: 'pick', match: 'include_wetlands', choose: 'false' },
      { kind: 'input', match: 'label', answer: '' },
      { kind: 'input', match: 'name', answer: 'water-int' },
    );
    const written = await vscode.commands.executeCommand<vscode.Uri | undefined>('eoImagery.newInsightInput');
    p.assertDone();
    assert.equal(written?.toString(), uri.toString());
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), uri.toString(), 'the file is opened');

    const doc = JSON.parse(Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8')) as {
      name: string;
      block: { name: string; version: string };
      input: Record<string, unknown>[];
    };
    assert.equal(doc.name, 'water-int');
    assert.equal(doc.block.name, 'water-extent');
    assert.deepEqual(
      doc.input.map((i) => i.name),
      ['image', 'threshold', 'include_wetlands'],
      'the skipped optional label is left out',
    );
    const image = doc.input[0];
    assert.equal(image.stac_url, asset.path);
    assert.deepEqual(image.asset_source, { type: 'raw_mosaic', id: asset.id });
    assert.equal(doc.input[1].value, '0.25');
    assert.equal(doc.input[1].type, 'number');
    assert.equal(doc.input[2].value, 'false');

    // The real editor shows no problem for it once the spec has been fetched.
    const errors = await vscode.commands.executeCommand<number>('eoImagery.validateInsight', uri);
    assert.equal(errors, 0);
    await diagnosticsUntil(uri, (d) => d.length === 0);
  });

  test("New Insight Input marks the AOIs that lack the block's bands; picking one anyway goes back to the AOI step", async () => {
    // an AOI whose bands miss the water-extent image's (B03, B08, B11), with no raster output to offer instead
    const aois = await collect(client.aois.iterate({}, { pageSize: 100 }));
    let lacking: Aoi | undefined;
    for (const a of aois) {
      if (['B03', 'B08', 'B11'].every((b) => a.eo_bands.includes(b))) continue;
      const runs = await client.insightRuns.list(a.aoi_id);
      if (runs.some((r) => (r.output ?? []).some((o) => o.format === 'raster' && o.value))) continue;
      lacking = a;
      break;
    }
    assert.ok(lacking, 'the sandbox seeds an AOI of another satellite');
    const versions = await client.blocks.insights({ name: 'water-extent' });
    const aoiStep = (choose: (items: readonly vscode.QuickPickItem[]) => vscode.QuickPickItem | undefined) => ({ kind: 'pick' as const, match: 'AOI', choose });
    let shown: readonly vscode.QuickPickItem[] = [];
    const p = script(
      { kind: 'pick', match: 'block', choose: 'Water extent' },
      ...(versions.length > 1 ? [{ kind: 'pick' as const, match: 'version', choose: versions[0].spec.version }] : []),
      aoiStep((items) => {
        shown = items;
        return items.find((i) => i.label === lacking.name);
      }),
      // back one step: the AOI picker again, the block kept; the person closes it
      { kind: 'cancel', match: /AOI for water-extent/ },
    );
    const before = scripts.prompts.messages.length;
    const written = await vscode.commands.executeCommand<vscode.Uri | undefined>('eoImagery.newInsightInput');
    p.assertDone();
    assert.equal(written, undefined);
    const heading = shown.findIndex((i) => i.kind === vscode.QuickPickItemKind.Separator);
    const marked = shown.findIndex((i) => i.label === lacking.name);
    const fitting = shown.findIndex((i) => i.label === aoi.name);
    assert.ok(
      heading > 0 && marked > heading && fitting < heading,
      `the fitting AOIs first, the lacking ones under a heading: ${shown.map((i) => i.label).join(', ')}`,
    );
    assert.match(shown[marked].description ?? '', /lacks .*B08.* for input "image"/);
    assert.doesNotMatch(shown[fitting].description ?? '', /lacks/);
    const said = scripts.prompts.messages.slice(before);
    assert.equal(said.filter((m) => m.severity === 'error').length, 0, JSON.stringify(said));
    const note = said.find((m) => m.severity === 'warning');
    assert.ok(note, 'a short message says why');
    assert.match(note.text, /^Nothing of AOI ".+" has bands B03, B08, B11 for input "image": pick another AOI\.$/);
  });

  test("Show Imagery from the palette offers the AOIs, then the picked one's mosaics", async () => {
    let dates: readonly vscode.QuickPickItem[] = [];
    const p = script(
      { kind: 'pick', match: /^Show Imagery \|/, choose: (items) => items.find((i) => i.label.endsWith(aoi.name)) },
      {
        kind: 'pick',
        match: `Show Imagery: ${aoi.name}`,
        choose: (items) => {
          dates = items;
          return items.find((i) => i.label === asset.name);
        },
      },
    );
    const before = scripts.prompts.messages.length;
    await vscode.commands.executeCommand('eoImagery.showImagery');
    p.assertDone();
    assert.ok(dates.length > 0, "the AOI's mosaics are offered");
    const said = scripts.prompts.messages.slice(before).filter((m) => m.severity !== 'info');
    assert.deepEqual(said, [], 'nothing went wrong');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('"Use as insight input": a STAC item from the STAC panel fills the raster input', async () => {
    const uri = workspaceUri('water-stac-int.insight.json');
    await remove(uri);
    // A Sentinel-2 archive item over the AOI (items declare their bands in eo:bands, and the
    // block needs Sentinel-2's), handed over as the STAC panel posts it.
    const found = await client.archives.search({ intersects: aoi.geometry, collections: ['sentinel-2-l2a'], limit: 1 });
    const item = found.features[0];
    assert.ok(item, `the sandbox archive has no item over AOI ${aoi.name}`);
    const stacUrl = `${client.baseUrl}/v0/archives/collections/${encodeURIComponent(item.collection)}/items/${encodeURIComponent(item.id)}`;
    const versions = await client.blocks.insights({ name: 'water-extent' });
    let offered: string[] = [];
    const p = script(
      { kind: 'pick', match: 'block', choose: 'Water extent' },
      ...(versions.length > 1 ? [{ kind: 'pick' as const, match: 'version', choose: versions[0].spec.version }] : []),
      { kind: 'pick', match: 'AOI', choose: (items) => items.find((i) => i.label === aoi.name) },
      {
        kind: 'pick',
        match: 'image',
        choose: (items) => {
          offered = items.map((i) => i.label);
          return items.find((i) => i.label.includes(`STAC item ${item.id}`));
        },
      },
      { kind: 'input', match: 'threshold', answer: '0.3' },
      { kind: 'pick', match: 'include_wetlands', choose: 'true' },
      { kind: 'input', match: 'label', answer: '' },
      { kind: 'input', match: 'name', answer: 'water-stac-int' },
    );
    const written = await vscode.commands.executeCommand<vscode.Uri | undefined>('eoImagery.newInsightInput', { stacItem: item, stacUrl });
    p.assertDone();
    assert.match(offered[0] ?? '', new RegExp(`STAC item ${item.id}`), `the STAC item is offered first: ${JSON.stringify(offered)}`);
    assert.ok(
      offered.some((l) => l.includes(asset.name)),
      "the AOI's assets are still offered",
    );
    assert.equal(written?.toString(), uri.toString(), JSON.stringify(scripts.prompts.messages));
    const doc = JSON.parse(Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8')) as { input: Record<string, unknown>[] };
    assert.deepEqual(
      doc.input.map((i) => i.name),
      ['image', 'threshold', 'include_wetlands'],
    );
    assert.equal(doc.input[0].stac_url, stacUrl);
    assert.deepEqual(doc.input[0].asset_source, { type: 'raw_mosaic', id: item.id });
    assert.equal(doc.input[0].value, undefined);
    assert.equal(doc.input[2].value, 'true');
    assert.equal(await vscode.commands.executeCommand<number>('eoImagery.validateInsight', uri), 0);
    await remove(uri);

    // A malformed hand-over is refused before any prompt.
    script();
    const none = await vscode.commands.executeCommand<vscode.Uri | undefined>('eoImagery.newInsightInput', { stacItem: item, stacUrl: 'file:///etc/hosts' });
    assert.equal(none, undefined);
    assert.deepEqual(
      scripts.prompts.messages.map((m) => m.text),
      [`Cannot use this as an insight input: the STAC item ${item.id} has no http(s) STAC URL to reference.`],
    );
  });

  test('Estimate and Run use the insight-run endpoints with the remembered AOI', async () => {
    const uri = workspaceUri('water-int.insight.json');
    script();
    const tokens = await vscode.commands.executeCommand<number | undefined>('eoImagery.estimateInsight', uri);
    assert.ok(typeof tokens === 'number' && tokens > 0, `estimate: ${String(tokens)}`);
    assert.ok(
      scripts.prompts.messages.some((m) => m.text.includes(`${tokens} tokens`)),
      JSON.stringify(scripts.prompts.messages),
    );

    const p = script({ kind: 'pick', match: 'Run water-int', choose: 'Run' });
    const id = await vscode.commands.executeCommand<string | undefined>('eoImagery.runInsight', uri);
    p.assertDone();
    assert.ok(id, `run: ${JSON.stringify(scripts.prompts.messages)}`);
    const listed = await client.insightRuns.list(aoi.aoi_id);
    assert.ok(
      listed.some((i) => i.id === id && i.name === 'water-int'),
      'the sandbox lists the new insight',
    );
  });

  test('Run prices the file itself: its confirmation shows the estimate without Estimate first', async () => {
    const uri = workspaceUri('water-int.insight.json');
    const file = JSON.parse(Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8')) as {
      name: string;
      block: { name: string; version: string };
      input: never[];
    };
    const tokens = await client.insightRuns.estimate(aoi.aoi_id, { name: file.name, project_id: aoi.project_id, block: file.block, input: file.input });
    const p = script({ kind: 'cancel', match: new RegExp(`^Run water-int .* for about ${tokens} tokens\\?`) });
    const id = await vscode.commands.executeCommand<string | undefined>('eoImagery.runInsight', uri);
    p.assertDone();
    assert.equal(id, undefined, 'cancelled at the confirmation: nothing runs');
    assert.ok(!scripts.prompts.messages.some((m) => /would cost about/.test(m.text)), 'no separate Estimate was needed');
  });

  test('a file with comments and trailing commas that validates clean also estimates (one parser)', async () => {
    const original = Buffer.from(await vscode.workspace.fs.readFile(workspaceUri('water-int.insight.json'))).toString('utf8');
    const uri = workspaceUri('water-commented.insight.json');
    const commented = `// water extent, by hand\n${original.trimEnd().replace(/\n\}$/, ',\n}')}\n`;
    assert.match(commented, /\],\n\}\n$/, 'the trailing comma went in');
    await vscode.workspace.fs.writeFile(uri, Buffer.from(commented, 'utf8'));
    try {
      script();
      const problems = await vscode.commands.executeCommand<number | undefined>('eoImagery.validateInsight', uri);
      assert.equal(problems, 0, JSON.stringify(scripts.prompts.messages));
      script({ kind: 'pick', choose: aoi.name });
      const tokens = await vscode.commands.executeCommand<number | undefined>('eoImagery.estimateInsight', uri);
      assert.ok(typeof tokens === 'number' && tokens > 0, `estimate: ${String(tokens)}; ${JSON.stringify(scripts.prompts.messages)}`);
    } finally {
      await remove(uri);
    }
  });

  test('a service without the insight-run endpoints gets a clear message, not an error dump', async () => {
    const uri = workspaceUri('water-int.insight.json');
    const sandbox = env.current.sandbox as unknown as FaultsHandle;
    for (const status of [404, 405]) {
      sandbox.faults.add({ method: 'POST', path: /^\/v0\/aoi\/[^/]+\/insights$/, status, count: 1 });
      script();
      const tokens = await vscode.commands.executeCommand<number | undefined>('eoImagery.estimateInsight', uri);
      assert.equal(tokens, undefined);
      assert.deepEqual(
        scripts.prompts.messages.map((m) => m.text),
        [NOT_SUPPORTED],
        `status ${status}`,
      );
    }
  });

  test('diagnostics appear in a real editor with precise ranges, and a quick fix clears one', async () => {
    const uri = workspaceUri('broken-int.insight.json');
    const text = [
      '{',
      '  "name": "broken",',
      '  "block": { "name": "water-extent", "version": "0.9.1" },',
      '  "input": [',
      `    { "format": "raster", "name": "image", "type": "url", "description": "d", "stac_url": "${asset.path}", "asset_source": { "id": "${asset.id}", "type": "raw_mosaic" } },`,
      '    { "format": "number", "name": "threshold", "type": "number", "description": "t", "value": 0.25 }',
      '  ]',
      '}',
      '',
    ].join('\n');
    await vscode.workspace.fs.writeFile(uri, Buffer.from(text, 'utf8'));
    const editor = await vscode.window.showTextDocument(uri);
    const diags = await diagnosticsUntil(uri, (d) => d.some((x) => x.code === 'input-required-missing') && d.some((x) => x.code === 'value-not-string'));
    const notString = diags.find((d) => d.code === 'value-not-string');
    assert.ok(notString);
    assert.equal(editor.document.getText(notString.range), '0.25');
    assert.equal(notString.range.start.line, 5);
    const missing = diags.find((d) => d.code === 'input-required-missing');
    assert.equal(editor.document.getText(missing?.range), '"input"');
    assert.match(missing?.message ?? '', /include_wetlands/);

    const actions = await quickFixes(uri, notString.range);
    const stringify = actions.find((a) => a.title.startsWith('Write the value as a string'));
    assert.ok(stringify?.edit, `actions: ${actions.map((a) => a.title).join(', ')}`);
    assert.ok(await vscode.workspace.applyEdit(stringify.edit));
    await diagnosticsUntil(uri, (d) => !d.some((x) => x.code === 'value-not-string') && d.some((x) => x.code === 'input-required-missing'));
    assert.match(editor.document.getText(), /"value": "0.25"/);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await remove(uri);
  });

  test('a block name with a typo says which block was meant, and the quick fix names it', async () => {
    const uri = workspaceUri('typo-int.insight.json');
    const text = '{\n  "name": "typo",\n  "block": { "name": "water-extnt", "version": "0.9.1" },\n  "input": []\n}\n';
    await vscode.workspace.fs.writeFile(uri, Buffer.from(text, 'utf8'));
    const editor = await vscode.window.showTextDocument(uri);
    const diags = await diagnosticsUntil(uri, (d) => d.some((x) => x.code === 'block-unknown'));
    const unknown = diags.find((d) => d.code === 'block-unknown');
    assert.ok(unknown);
    assert.match(unknown.message, /no insight block named "water-extnt"\. Did you mean "water-extent"\?/);
    const actions = await quickFixes(uri, unknown.range);
    const use = actions.find((a) => a.title === 'Use block "water-extent"');
    assert.ok(use?.edit, `actions: ${actions.map((a) => a.title).join(', ')}`);
    assert.ok(await vscode.workspace.applyEdit(use.edit));
    await diagnosticsUntil(uri, (d) => !d.some((x) => x.code === 'block-unknown'));
    assert.match(editor.document.getText(), /"name": "water-extent"/);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await remove(uri);
  });

  test('a quick fix that adds lines far below the diagnostic brings them into view', async () => {
    const uri = workspaceUri('long-int.insight.json');
    // Many entries: the missing input is added at the end of the array, far below "input".
    const filler = Array.from({ length: 120 }, (_, i) => `    { "format": "string", "name": "extra_${i}", "type": "string", "value": "x" },`);
    const text = [
      '{',
      '  "name": "long",',
      '  "block": { "name": "water-extent", "version": "0.9.1" },',
      '  "input": [',
      ...filler,
      `    { "format": "raster", "name": "image", "type": "url", "description": "d", "stac_url": "${asset.path}", "asset_source": { "id": "${asset.id}", "type": "raw_mosaic" } }`,
      '  ]',
      '}',
      '',
    ].join('\n');
    await vscode.workspace.fs.writeFile(uri, Buffer.from(text, 'utf8'));
    const editor = await vscode.window.showTextDocument(uri, { preview: false });
    editor.revealRange(new vscode.Range(0, 0, 0, 0), vscode.TextEditorRevealType.AtTop);
    const diags = await diagnosticsUntil(uri, (d) => d.some((x) => x.code === 'input-required-missing' && /threshold/.test(x.message)));
    const missing = diags.find((d) => d.code === 'input-required-missing' && /threshold/.test(d.message))!;
    // what the hover on the squiggle says: required, and what the block's spec says the input is
    assert.equal(missing.message, 'Required input "threshold" (number) is missing: NDWI threshold above which a pixel is water');
    const actions = await quickFixes(uri, missing.range);
    const add = actions.find((a) => /Add input "threshold"/.test(a.title));
    assert.ok(add?.edit && add.command, `actions: ${actions.map((a) => `${a.title} ${a.command?.command ?? ''}`).join(', ')}`);
    assert.ok(await vscode.workspace.applyEdit(add.edit));
    await vscode.commands.executeCommand(add.command.command, ...(add.command.arguments ?? []));
    const line = (add.command.arguments?.[0] as { lineNumber: number }).lineNumber;
    assert.match(editor.document.lineAt(line).text, /"threshold"|\{/, `line ${line} is the inserted entry: ${editor.document.lineAt(line).text}`);
    assert.ok(line > 100, 'the entry goes at the end of the array');
    for (const deadline = Date.now() + 5000; !editor.visibleRanges.some((r) => r.start.line <= line && line <= r.end.line) && Date.now() < deadline;) {
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(
      editor.visibleRanges.some((r) => r.start.line <= line && line <= r.end.line),
      `line ${line} is not visible: ${JSON.stringify(editor.visibleRanges)}`,
    );
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await remove(uri);
  });

  test('a 1 MB file with thousands of problems: the light bulb answers with a few fixes, resolved when picked', async () => {
    const uri = workspaceUri('huge-int.insight.json');
    await vscode.workspace.fs.writeFile(uri, Buffer.from(generatedInsight(1_000_000), 'utf8'));
    const editor = await vscode.window.showTextDocument(uri, { preview: false });
    try {
      // The spec has arrived once the unknown names are reported (thousands of them).
      const diags = await diagnosticsUntil(uri, (d) => d.filter((x) => x.code === 'input-unknown').length > 1000, 60_000);
      const typeMissing = diags.filter((d) => d.code === 'type-missing');
      assert.ok(typeMissing.length > 1000, `${typeMissing.length} type-missing problems`);
      const target = typeMissing[Math.floor(typeMissing.length / 2)];
      const name = /Input "([^"]+)"/.exec(target.message)?.[1];
      assert.ok(name, target.message);

      // What the light bulb asks for: the fixes of the diagnostics under the cursor. The first
      // request also waits for JSON language features to start on the file; the figure is the
      // median of the requests after it.
      let t0 = Date.now();
      const offered = await step('asking for the fixes', quickFixes(uri, target.range, 0));
      const firstMs = Date.now() - t0;
      assert.ok(
        offered.some((a) => a.title === 'Add "type": "number"'),
        `offered: ${offered.map((a) => a.title).join(', ')}`,
      );
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        t0 = Date.now();
        const again = await quickFixes(uri, target.range, 0);
        times.push(Date.now() - t0);
        assert.deepEqual(
          again.map((a) => a.title),
          offered.map((a) => a.title),
        );
      }
      const lightBulbMs = [...times].sort((x, y) => x - y)[2];

      // Resolving computes the edit of the fix; applied, it adds the type to that input.
      t0 = Date.now();
      const resolved = (await step('resolving the fixes', quickFixes(uri, target.range, offered.length))).find((a) => a.title === 'Add "type": "number"');
      const resolveMs = Date.now() - t0;
      assert.ok(resolved?.edit, 'the picked fix has its edit once resolved');
      assert.ok(await step('applying the fix', vscode.workspace.applyEdit(resolved.edit)));
      const input = (JSON.parse(editor.document.getText()) as { input: { name: string; type?: string }[] }).input;
      assert.equal(input.find((i) => i.name === name)?.type, 'number');
      assert.equal(input.filter((i) => i.type === undefined).length, typeMissing.length - 1, 'no other input changed');

      // A selection over the whole file gets a bounded answer, not thousands of actions.
      await diagnosticsUntil(uri, (d) => d.filter((x) => x.code === 'type-missing').length === typeMissing.length - 1, 60_000);
      const all = new vscode.Range(0, 0, editor.document.lineCount, 0);
      t0 = Date.now();
      const everything = await step('asking for the whole file', quickFixes(uri, all, 0));
      const wholeFileMs = Date.now() - t0;
      assert.ok(everything.length > 0 && everything.length <= 50, `${everything.length} actions for the whole file`);

      printFigure(
        `insight quick fixes, 1 MB file with ${diags.length} problems: light bulb ${lightBulbMs} ms (median of 5; the first, with JSON language features starting, ${firstMs} ms), resolving its ${offered.length} fixes ${resolveMs} ms, whole-file selection ${wholeFileMs} ms (${everything.length} actions)`,
      );
    } finally {
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
      await remove(uri);
    }
  });
});
