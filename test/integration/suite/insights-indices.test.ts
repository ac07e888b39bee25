// Custom index and visualization commands against the sandbox, answered through the prompt seam.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { legendsOf } from '../../../src/api/legend';
import { collect, type Index, type Visualization } from '../../../src/api';
import { useSandbox } from '../harness/sandbox';
import { scriptedSuite } from '../support/run';

suite('insights: indices and visualizations against the sandbox', function () {
  this.timeout(60_000);
  const env = useSandbox();
  const { script } = scriptedSuite(env);

  test('a fractional rescale bound is refused in the box with the reason, and nothing is created', async () => {
    const client = await env.current.api.services.connection.getClient();
    const sat = (await client.search.satellites()).find((s) => s.id === 'sentinel-2') ?? (await client.search.satellites())[0];
    const [b1, b2] = sat.bands.map((b) => b.name);
    const name = `int-frac-${Date.now()}`;
    const p = script(
      { kind: 'pick', match: 'Satellite', choose: (items) => items.find((i) => i.description === sat.id) },
      { kind: 'input', match: 'Name', answer: name },
      { kind: 'pick', match: 'Expression type', choose: (items) => items.find((i) => (i as { value?: string }).value === 'index') },
      { kind: 'input', match: 'Expression', answer: `(${b2}-${b1})/(${b2}+${b1})` },
      { kind: 'pick', match: 'Colormap', choose: 'viridis' },
      {
        kind: 'input',
        match: 'minimum',
        answer: '-0.5',
        rejects: /rescale min -0\.5 is not a whole number: the service takes the rescale range as two integers/,
      },
    );
    const index = await vscode.commands.executeCommand<Index | undefined>('eoImagery.createIndex');
    p.assertDone();
    assert.equal(index, undefined);
    const all = await collect(client.indices.iterate({}, { pageSize: 100 }));
    assert.ok(!all.some((i) => i.name === name), 'an index was created');
  });

  test('create a custom index, then a visualization from it whose legend is dynamic only', async () => {
    const client = await env.current.api.services.connection.getClient();
    const aois = await collect(client.aois.iterate({}, { pageSize: 100 }));
    const sats = await client.search.satellites();
    const aoi = aois.find((a) => a.satellite_id === 'sentinel-2') ?? aois[0];
    const sat = sats.find((s) => s.id === aoi.satellite_id);
    assert.ok(sat);
    const [b1, b2] = sat.bands.map((b) => b.name);
    const name = `int-ratio-${Date.now()}`;

    const p1 = script(
      { kind: 'pick', match: 'Satellite', choose: (items) => items.find((i) => i.description === sat.id) },
      { kind: 'input', match: 'Name', answer: name },
      { kind: 'pick', match: 'Expression type', choose: (items) => items.find((i) => (i as { value?: string }).value === 'index') },
      { kind: 'input', match: 'Expression', answer: `(${b2}-${b1})/(${b2}+${b1})` },
      { kind: 'pick', match: 'Colormap', choose: 'viridis' },
      { kind: 'input', match: 'minimum', answer: '-1' },
      { kind: 'input', match: 'maximum', answer: '1' },
      { kind: 'input', match: 'Description', answer: 'integration test' },
    );
    const index = await vscode.commands.executeCommand<Index | undefined>('eoImagery.createIndex');
    p1.assertDone();
    assert.ok(index, 'no index created');
    assert.equal(index.type, 'custom');
    assert.deepEqual([...index.bands].sort(), [b1, b2].sort());

    const p2 = script(
      { kind: 'pick', match: 'AOI', choose: (items) => items.find((i) => i.label === aoi.name) },
      { kind: 'pick', match: 'Index', choose: (items) => items.find((i) => i.label === name) },
      { kind: 'pickMany', match: 'Assets', choose: (items) => items.slice(0, 1) },
    );
    const viz = await vscode.commands.executeCommand<Visualization | undefined>('eoImagery.createVisualization');
    p2.assertDone();
    assert.ok(viz, 'no visualization created');
    // the OpenAPI's legend: metadata.legend keyed by date, LegendItem lists per mode
    const legends = legendsOf(viz);
    assert.ok(legends.length > 0 && legends.every((l) => l.dynamic?.length), 'a custom index visualization has a dynamic legend');
    assert.ok(legends.every((l) => l.theoretical === undefined));
    // The legend is shown as JSON in the active editor.
    const shown = JSON.parse(vscode.window.activeTextEditor?.document.getText() ?? '{}') as { legend_expected?: unknown; legend_summary?: string[] };
    assert.deepEqual(shown.legend_expected, ['dynamic']);
    assert.match(shown.legend_summary?.[0] ?? '', /^Dynamic legend for \d{4}-\d{2}-\d{2}: Very low .* % of the area/);
    const listed = await collect(client.visualizations.iterate(aoi.aoi_id));
    assert.ok(
      listed.some((v) => v.id === viz.id),
      'the visualization is listed under the AOI',
    );
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });
});
