// Compare Imagery and Step Through Time in a real extension host and webview, from the
// Projects view's rows against the sandbox: what the commands send to the map (two layers, or
// the dates of a place in order) and what the webview then draws (its `imageryStatus` reports:
// ready and drawn). Quick picks are answered by a script; unexpected prompts fail.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExplorerApi } from '../../../src/explorer';
import type { ExplorerNode } from '../../../src/explorer/tree';
import type { ImageryLayerSpec, TimeFrame } from '../../../src/panels/imagery/protocol';
import { testPanels, type PanelProbe, type PanelsApi } from '../support/webviewTap';
import { useSandbox } from '../harness/sandbox';
import { runScripted } from '../support/run';
import { ScriptedPrompts } from '../support/scriptedPrompts';
import { until } from '../support/until';

type RecordNode = ExplorerNode & { record: Record<string, unknown>; recordId: string };
type Report = { id: string; state: 'ready' | 'error'; text?: string; drawn: boolean };

suite('compare imagery and step through time', () => {
  const sb = useSandbox();
  let explorer: ExplorerApi;
  let panels: PanelsApi;

  suiteSetup(() => {
    explorer = sb.current.api.services.explorer as ExplorerApi;
    panels = testPanels(sb.current.api.services.panels);
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  const run = (prompts: ScriptedPrompts, command: string, ...args: unknown[]): Promise<unknown> => runScripted(sb.current, prompts, command, ...args);

  async function mapProbe(): Promise<PanelProbe> {
    const probe = await until('the map panel', () => panels.map());
    await probe.whenReady();
    return probe;
  }

  function settled(probe: PanelProbe, id: string, timeoutMs = 45_000): Promise<Report> {
    return until(
      `the webview's report on layer ${id}`,
      () => ((probe.imageryReports ?? []) as Report[]).filter((r) => r.id === id).find((r) => r.drawn || r.state === 'error'),
      timeoutMs,
    );
  }

  function lastPosted<T>(probe: PanelProbe, type: string): T | undefined {
    return probe.posted.filter((m) => (m as { type: string }).type === type).at(-1) as T | undefined;
  }

  /** The first AOI row with at least two dates of mosaics the map can read (http), and those assets. */
  async function aoiWithDates(): Promise<{ aoi: RecordNode; assets: RecordNode[]; vis?: RecordNode }> {
    for (const p of await explorer.providers.projects.getChildren(undefined)) {
      for (const aoi of (await explorer.providers.projects.getChildren(p)).filter((n): n is RecordNode => n.kind === 'aoi')) {
        const groups = await explorer.providers.projects.getChildren(aoi);
        const assetGroup = groups.find((n) => n.kind === 'assetGroup');
        const assets = assetGroup ? (await explorer.providers.projects.getChildren(assetGroup)).filter((n): n is RecordNode => n.kind === 'asset') : [];
        const readable = assets.filter((a) => !a.record.visualization_id && /^https?:\/\//.test(String(a.record.path)));
        if (new Set(readable.map((a) => a.record.date)).size < 2) continue;
        const visGroup = groups.find((n) => n.kind === 'visualizationGroup');
        const vis =
          visGroup &&
          (await explorer.providers.projects.getChildren(visGroup)).find(
            (n): n is RecordNode => n.kind === 'visualization' && (n as RecordNode).record.expression_type === 'index',
          );
        return { aoi, assets: readable, vis };
      }
    }
    throw new Error('no AOI in the sandbox has two dates of readable mosaics');
  }

  test('Step Through Time on an AOI puts its mosaics on a time slider in date order, and the shown date is drawn', async function () {
    this.timeout(90_000);
    const { aoi, assets } = await aoiWithDates();
    const prompts = new ScriptedPrompts();
    await run(prompts, 'eoImagery.stepThroughTime', aoi);
    prompts.assertDone();
    assert.deepEqual(prompts.messages, []);
    const map = await mapProbe();
    const sent = await until('the time slider message', () => lastPosted<{ title: string; frames: TimeFrame[] }>(map, 'imageryTimeline'));
    assert.equal(sent.title, aoi.record.name);
    const dates = sent.frames.map((f) => f.date);
    assert.deepEqual(dates, [...new Set(assets.map((a) => String(a.record.date)))].sort(), 'one frame per date, oldest first');
    for (const f of sent.frames) {
      assert.match(f.spec.url, /^https?:\/\//);
      assert.ok(f.spec.clip, 'each date is clipped to the AOI');
    }
    // the slider opens on the latest date in view: its layer draws (the webview reports it)
    const latest = sent.frames.at(-1) as TimeFrame;
    const r = await settled(map, latest.spec.id);
    assert.deepEqual({ state: r.state, drawn: r.drawn }, { state: 'ready', drawn: true }, r.text);
  });

  test('Compare Imagery on an AOI compares the two dates picked, the older on the left, and both are drawn', async function () {
    this.timeout(90_000);
    const { aoi, assets } = await aoiWithDates();
    const byDate = [...assets].sort((a, b) => String(a.record.date).localeCompare(String(b.record.date)));
    const [older, newer] = [byDate[0], byDate.find((a) => a.record.date !== byDate[0].record.date) as RecordNode];
    const prompts = new ScriptedPrompts([
      {
        kind: 'pickMany',
        match: /Pick two dates/,
        // picked newest first: the command still puts the older date on the left
        // the date is in the row's title, or in its description when the title lacks it
        choose: (items) =>
          [newer, older].map(
            (a) => items.find((i) => `${i.label} ${i.description ?? ''}`.includes(String(a.record.date).slice(0, 10))) as vscode.QuickPickItem,
          ),
      },
    ]);
    const before = panels.map()?.posted.length ?? 0;
    await run(prompts, 'eoImagery.compareImagery', aoi);
    prompts.assertDone();
    assert.deepEqual(prompts.messages, []);
    const map = await mapProbe();
    const sent = await until(
      'the compare message',
      () =>
        map.posted.slice(before).find((m) => (m as { type: string }).type === 'imageryCompare') as
          { left: ImageryLayerSpec; right: ImageryLayerSpec } | undefined,
    );
    assert.equal(sent.left.id, `asset:${String(older.record.aoi_id)}/${older.recordId}`);
    assert.equal(sent.right.id, `asset:${String(newer.record.aoi_id)}/${newer.recordId}`);
    for (const id of [sent.left.id, sent.right.id]) {
      const r = await settled(map, id);
      assert.deepEqual({ state: r.state, drawn: r.drawn }, { state: 'ready', drawn: true }, r.text);
    }
  });

  test('Compare Imagery on a visualization puts its source mosaic on the left and the index on the right', async function () {
    this.timeout(90_000);
    const { vis } = await aoiWithDates();
    if (!vis) this.skip();
    const prompts = new ScriptedPrompts();
    const before = panels.map()?.posted.length ?? 0;
    await run(prompts, 'eoImagery.compareImagery', vis);
    prompts.assertDone();
    if (prompts.messages.length) {
      // a visualization the map cannot compute says why (and nothing is sent)
      assert.match(prompts.messages[0].text, /cannot|no mosaic|does not parse/);
      return;
    }
    const map = await mapProbe();
    const sent = await until(
      'the compare message',
      () =>
        map.posted.slice(before).find((m) => (m as { type: string }).type === 'imageryCompare') as
          { left: ImageryLayerSpec; right: ImageryLayerSpec } | undefined,
    );
    assert.equal(sent.left.source.kind, 'asset');
    assert.equal(sent.left.render.kind, 'rgb');
    assert.equal(sent.right.id, `visualization:${String(vis.record.aoi_id)}/${vis.recordId}`);
    assert.equal(sent.right.render.kind, 'index');
    const src = sent.right.source;
    assert.ok(src.kind === 'visualization' && sent.left.id === `asset:${src.aoiId}/${src.assetId}`, 'the left layer is the mosaic the index is computed from');
    for (const id of [sent.left.id, sent.right.id]) {
      const r = await settled(map, id);
      assert.deepEqual({ state: r.state, drawn: r.drawn }, { state: 'ready', drawn: true }, r.text);
    }
  });

  test('from the palette with no search on the map, both commands say where to start', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const prompts = new ScriptedPrompts();
    await run(prompts, 'eoImagery.compareImagery');
    await run(prompts, 'eoImagery.stepThroughTime');
    prompts.assertDone();
    assert.equal(prompts.messages.length, 2);
    assert.match(prompts.messages[0].text, /Right-click an AOI.*Compare Imagery/);
    assert.match(prompts.messages[1].text, /Right-click an AOI.*Step Through Time/);
  });
});
