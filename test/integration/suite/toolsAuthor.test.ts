// The chat tools that author, show, run and follow, invoked as chat invokes them: list blocks
// and inputs, create an insight input with the New Insight Input builder, validate a file with
// line numbers, show an AOI and a search on the map, estimate a run, start one only when the
// person clicks Run in our own modal (Cancel: nothing but the estimate), follow orders and runs.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { TOOLS } from '../../../src/tools/toolIds';
import { useSandbox } from '../harness/sandbox';
import { remove, scriptedSuite, workspaceUri } from '../support/run';
import { handle } from './ordersSupport';
import { assertNoSecrets, invokeTool, recordRequests, rowsOf } from './toolsSupport';

suite('chat tools: author, show, run and follow against the sandbox', function () {
  this.timeout(60_000);
  const env = useSandbox();
  const log = recordRequests(env);
  const prompts = scriptedSuite(env);
  const file = 'chat-water.insight.json';

  suiteTeardown(async () => {
    await remove(workspaceUri(file));
    await remove(workspaceUri('broken-chat.insight.json'));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
  teardown(() => env.current.api.testing.restrictedMode(undefined));

  test("blocks, then one block's inputs with format and whether required", async () => {
    const all = await invokeTool(TOOLS.listBlocks, {});
    assert.match(all, /^- "Water extent" · name "water-extent" · /m);
    const one = await invokeTool(TOOLS.listBlocks, { block: 'water-extent' });
    assert.match(one, /Block "water-extent" version "0\.9\.1": 4 inputs\./);
    assert.match(one, /^- "image" · format "raster" · required/m);
    assert.match(one, /^- "label" · format "string" · optional/m);
  });

  test('create an insight input: missing values are named, then the file is written with the builder and opened', async () => {
    const missing = await invokeTool(TOOLS.createInsightInput, { block: 'water-extent', aoi: 'Lake Mead', asset: 'Mosaic', name: 'chat-water' });
    assert.match(missing, /AOI "Lake Mead" has no asset named "Mosaic"\. The closest names: "Mosaic \d{4}-\d{2}-\d{2}"/);
    const assetName = /The closest names: "(Mosaic [\d-]+)"/.exec(missing)?.[1] ?? '';
    const noValues = await invokeTool(TOOLS.createInsightInput, { block: 'water-extent', aoi: 'Lake Mead', asset: assetName, name: 'chat-water' });
    assert.match(noValues, /No file was written:\n- missing a value for input "threshold" \(number/);
    assert.match(noValues, /- missing a value for input "include_wetlands"/);
    const text = await invokeTool(TOOLS.createInsightInput, {
      block: 'water-extent',
      aoi: 'Lake Mead',
      asset: assetName,
      values: { threshold: 0.2, include_wetlands: false },
      name: 'chat-water',
    });
    assert.match(text, /Wrote and opened "chat-water\.insight\.json": block "water-extent" "0\.9\.1" on AOI "Lake Mead", 3 inputs\./);
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), workspaceUri(file).toString(), 'the file was not opened');
    const doc = JSON.parse(Buffer.from(await vscode.workspace.fs.readFile(workspaceUri(file))).toString('utf8'));
    assert.deepEqual(doc.block, { name: 'water-extent', version: '0.9.1' });
    const image = doc.input.find((i: { name: string }) => i.name === 'image');
    // rule 2 of the interface: an asset input carries its stac_url and a raw_mosaic asset_source
    assert.equal(image.asset_source.type, 'raw_mosaic');
    assert.match(image.stac_url, /^http/);
    assert.equal(doc.input.find((i: { name: string }) => i.name === 'threshold').value, '0.2');
    const again = await invokeTool(TOOLS.createInsightInput, {
      block: 'water-extent',
      aoi: 'Lake Mead',
      asset: assetName,
      values: { threshold: 0.2, include_wetlands: false },
      name: 'chat-water',
    });
    assert.match(again, /already exists/);
  });

  test('validate: a clean file says so; a broken one lists its problems with line numbers', async () => {
    assert.match(await invokeTool(TOOLS.validateInsight, { file }), /"chat-water\.insight\.json": no problems against the block spec\./);
    const broken = workspaceUri('broken-chat.insight.json');
    const text = JSON.stringify(
      {
        name: 'broken-chat',
        block: { name: 'water-extent', version: '0.9.1' },
        input: [{ format: 'number', name: 'threshold', type: 'number', description: 'x', value: 'lots' }],
      },
      null,
      2,
    );
    await vscode.workspace.fs.writeFile(broken, Buffer.from(text, 'utf8'));
    const answer = await invokeTool(TOOLS.validateInsight, { file: 'broken-chat.insight.json' });
    assert.match(answer, /"broken-chat\.insight\.json": \d+ problems?\./);
    assert.match(answer, /^- line \d+ \(error\): /m);
    const missingLine = rowsOf(answer).find((r) => /image/.test(r));
    assert.ok(missingLine, `the missing required input "image" is not named:\n${answer}`);
    assert.match(await invokeTool(TOOLS.validateInsight, { file: '../outside.insight.json' }), /There is no "\.\.\/outside\.insight\.json" in the workspace/);
  });

  test('show on map: an AOI, then a page of an archive search, on the map panel', async () => {
    const { panels } = env.current.api.services;
    assert.match(await invokeTool(TOOLS.showOnMap, { aoi: 'Lake Mead' }), /The map shows AOI "Lake Mead", zoomed to it\./);
    assert.deepEqual(
      panels
        .currentMap()
        ?.shown('aois')
        .map((f) => f.label),
      ['Lake Mead'],
    );
    const text = await invokeTool(TOOLS.showOnMap, { search: { aoi: 'Lake Mead', maxCloud: 50 } });
    const n = Number(/The map shows (\d+) scene footprint/.exec(text)?.[1]);
    assert.ok(n > 0 && n <= 20, text);
    assert.equal(panels.currentMap()?.shown('archiveItems').length, n);
    assert.match(await invokeTool(TOOLS.showOnMap, {}), /Give exactly one of "aoi"/);
  });

  test('estimate, then start: Cancel sends only the estimate; Run sends exactly one run', async () => {
    const state = handle(env.current).state as unknown as { insights: { id: string }[] };
    const before = state.insights.length;
    const estimate = await invokeTool(TOOLS.estimateRun, { file });
    assert.match(estimate, /Running "chat-water" \(block "water-extent" "0\.9\.1"\) on AOI "Lake Mead" would cost about \d+ tokens\. Nothing was run\./);

    let mark = log.mark();
    let script = prompts.script({ kind: 'cancel', match: /^Run chat-water \(water-extent 0\.9\.1\) on Lake Mead for about \d+ tokens\?/ });
    const declined = await invokeTool(TOOLS.startRun, { file });
    script.assertDone();
    assert.match(declined, /did not confirm the run .*: nothing was run/);
    const posts = (m: number) => log.since(m).filter((r) => r.method === 'POST');
    assert.ok(
      posts(mark).every((r) => /estimate/.test(r.path) || (r.requestBody as { estimate?: boolean })?.estimate === true),
      `a POST other than the estimate: ${posts(mark)
        .map((r) => r.path)
        .join(', ')}`,
    );
    assert.equal(state.insights.length, before);

    mark = log.mark();
    script = prompts.script({ kind: 'pick', match: /for about \d+ tokens\?/, choose: 'Run' });
    const started = await invokeTool(TOOLS.startRun, { file });
    script.assertDone();
    assert.match(started, /The person clicked Run: insight "chat-water" started on AOI "Lake Mead" for about \d+ tokens\. Run id /);
    assert.equal(state.insights.length, before + 1);
    // Searches are reads the sidebar's views send meanwhile (the Catalog view's), not spends.
    const spends = posts(mark).filter((r) => !/\/search$/.test(r.path));
    assert.equal(spends.length, 2, `one estimate and one run: ${spends.map((r) => r.path).join(', ')}`);

    const runs = await invokeTool(TOOLS.status, { aoi: 'Lake Mead' });
    assert.match(runs, /^- "chat-water" · block "water-extent" "0\.9\.1" · status "[^"]+"/m);
  });

  test('Restricted Mode: creating a file and starting a run refuse and say why; validating still works', async () => {
    env.current.api.testing.restrictedMode(true);
    const script = prompts.script();
    assert.match(await invokeTool(TOOLS.createInsightInput, { block: 'water-extent', aoi: 'Lake Mead' }), /not available in Restricted Mode: .* writes files/);
    assert.match(await invokeTool(TOOLS.startRun, { file }), /not available in Restricted Mode: .* can spend money or tokens/);
    script.assertDone();
    assert.match(await invokeTool(TOOLS.validateInsight, { file }), /no problems/);
  });

  test('status of orders: names, status in words, amounts, ids; bounded', async () => {
    const text = await invokeTool(TOOLS.status, {});
    const rows = rowsOf(text);
    assert.ok(rows.length > 0 && rows.length <= 20, text);
    assert.match(rows[0], /^- ".*" · status "[^"]+" · total amount [\d.,—]+ · placed \d{4}-\d{2}-\d{2} · id /);
    // the id is quoted data, as a model reads it: a JSON string
    const quotedId = /id ("[^"]+")$/.exec(rows[0])?.[1];
    const id = quotedId ? (JSON.parse(quotedId) as string) : '';
    const one = await invokeTool(TOOLS.status, { order: id });
    assert.match(one, new RegExp(`^Order ${quotedId} · status "`, 'm'));
    assertNoSecrets(text + one, env.current);
  });
});

suite('chat tools: the worked exchange of the README', function () {
  this.timeout(60_000);
  useSandbox();
  const file = 'water-extent-lake-mead.insight.json';
  suiteTeardown(async () => {
    await remove(workspaceUri(file));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  // "Find scenes of Lake Mead under 10 % cloud in June 2024, price the clearest one and draft a
  // water-extent insight input for it": the calls an assistant makes, each answer checked and
  // printed (the README quotes this output).
  test('search, price the clearest, draft the insight input', async () => {
    const calls: [string, object][] = [
      [TOOLS.searchArchive, { aoi: 'Lake Mead', from: '2024-06-01', to: '2024-06-30', maxCloud: 10, collections: ['sentinel-2-l2a'], sort: 'least-cloudy' }],
    ];
    const search = await invokeTool(...calls[0]);
    const ref = /ref "([^"]+)"/.exec(search)?.[1];
    assert.ok(ref, search);
    calls.push([TOOLS.priceOrder, { items: [ref], project: 'Water resources' }]);
    const price = await invokeTool(...calls[1]);
    assert.match(price, /Nothing was ordered\./);
    calls.push([TOOLS.listBlocks, { block: 'water extent' }]);
    const inputs = await invokeTool(...calls[2]);
    calls.push([TOOLS.createInsightInput, { block: 'water-extent', aoi: 'Lake Mead', asset: 'Mosaic', values: { threshold: 0.3, include_wetlands: true } }]);
    const refused = await invokeTool(...calls[3]);
    const asset = /The closest names: "([^"]+)"/.exec(refused)?.[1];
    assert.ok(asset, refused);
    calls.push([TOOLS.createInsightInput, { block: 'water-extent', aoi: 'Lake Mead', asset, values: { threshold: 0.3, include_wetlands: true } }]);
    const created = await invokeTool(...calls[4]);
    assert.match(created, /Wrote and opened "water-extent-lake-mead\.insight\.json"/);
    const answers = [search, price, inputs, refused, created];
    // For the README: the exchange as it ran.
    fs.writeFileSync(
      path.join(os.tmpdir(), 'eo-imagery-chat-exchange.txt'),
      calls.map(([name, input], i) => `>>> ${name} ${JSON.stringify(input)}\n${answers[i]}`).join('\n\n'),
    );
  });
});
