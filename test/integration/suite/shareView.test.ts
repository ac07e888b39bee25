// Share a view in a real VS Code against the sandbox: an AOI and an archive item shown on the
// map are saved with Save View As… to a *.eoview.json file (no token, no file address); the map
// closed, the file's Open on Map draws the same records again. A view naming a record the
// opener cannot see says so for that layer and shows the rest; a view of another service is
// refused without touching the settings; Copy Link to This View gives a link that opens the
// same view, and a hostile link is refused in words. A view with a compare pair and a time
// slider is saved and reopened: the map reports the same pair, divider and date again.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { COMMANDS } from '../../../src/commandIds';
import type { Opened } from '../../../src/commands/shareView/openView';
import { useSandbox } from '../harness/sandbox';
import { remove, scriptedSuite, workspaceUri } from '../support/run';
import type { Asset, Visualization } from '../../../src/api/records';
import type { MapViewState } from '../../../src/panels/protocol';
import { client } from './ordersSupport';
import { until } from '../support/until';
import type { ExplorerApi } from '../../../src/explorer';
import type { ExplorerNode } from '../../../src/explorer/tree';
import { testPanels, type PanelProbe } from '../support/webviewTap';
import { aoiAssetSpec } from '../../../src/panels/imagery/specs';

suite('share a view: saved, reopened, linked, refused', function () {
  this.timeout(90_000);
  const sb = useSandbox();
  const scripts = scriptedSuite(sb);
  const file = (name = 'shared'): vscode.Uri => workspaceUri(`${name}.eoview.json`);

  suiteTeardown(async () => {
    for (const name of ['shared', 'partly-hidden', 'elsewhere', 'pair-and-date', 'look']) await remove(file(name));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  async function closeMap(): Promise<void> {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await until('the map closed', () => sb.current.api.services.panels.currentMap() === undefined || undefined);
  }

  async function showAoiAndItem(): Promise<{ aoiId: string; aoiName: string; itemId: string }> {
    const c = await client(sb.current);
    const aoi = (await c.aois.listPage({ limit: 1 })).items[0];
    const item = (await c.archives.search({ intersects: aoi.geometry, limit: 1 })).features[0];
    await vscode.commands.executeCommand(COMMANDS.showOnMap, { kind: 'aoi', record: aoi });
    await vscode.commands.executeCommand(COMMANDS.showOnMap, { kind: 'archiveItem', record: item });
    const { panels } = sb.current.api.services;
    await until('the map to report both layers', () => {
      const s = panels.currentMap()?.viewState?.sources;
      return s?.aois?.length && s.archiveItems?.length ? s : undefined;
    });
    return { aoiId: aoi.aoi_id, aoiName: aoi.name, itemId: item.id };
  }

  test('Save View As… writes a file without secrets; with the map closed, Open on Map draws the same records', async () => {
    const { aoiId, aoiName, itemId } = await showAoiAndItem();
    const p = scripts.script({ kind: 'saveDialog', match: /Save View/, answer: file() });
    const saved = await vscode.commands.executeCommand<vscode.Uri>(COMMANDS.saveViewAs);
    p.assertDone();
    // the file is named by what the view shows, not by the day
    assert.equal(p.suggestedSave?.path.split('/').pop(), `${aoiName}.eoview.json`);
    assert.equal(saved?.toString(), file().toString());
    const text = Buffer.from(await vscode.workspace.fs.readFile(file())).toString('utf8');
    const json = JSON.parse(text) as { eoView: number; host: string; layers: { kind: string; id: string }[] };
    assert.equal(json.eoView, 1);
    assert.equal(json.host, new URL(sb.current.sandbox.url).host);
    assert.deepEqual(json.layers.map((l) => `${l.kind}:${l.id}`).sort(), [`aoi:${aoiId}`, `archiveItem:${itemId}`].sort());
    assert.ok(!text.includes(sb.current.sandbox.tokens.alice) && !text.includes('http'), 'no token, no URL');

    await closeMap();
    scripts.script();
    const opened = await vscode.commands.executeCommand<Opened>(COMMANDS.openViewFile, file());
    assert.deepEqual(opened, { shown: 2, missing: [], leftOut: [] });
    const map = await until('the map', () => sb.current.api.services.panels.currentMap());
    await until('the AOI drawn', () => map.shown('aois').some((f) => f.ref.kind === 'aoi' && f.ref.id === aoiId) || undefined);
    await until('the archive item drawn', () => map.shown('archiveItems').some((f) => f.ref.id === itemId) || undefined);
  });

  test('Save View As… to a name the dialog doubled ("x.eoview.json.eoview.json") writes one "x.eoview.json"', async () => {
    await showAoiAndItem();
    const doubled = workspaceUri('twice.eoview.json.eoview.json');
    const p = scripts.script({ kind: 'saveDialog', match: /Save View/, answer: doubled });
    const saved = await vscode.commands.executeCommand<vscode.Uri>(COMMANDS.saveViewAs);
    p.assertDone();
    try {
      assert.equal(saved?.toString(), file('twice').toString());
      await vscode.workspace.fs.stat(file('twice'));
      await assert.rejects(Promise.resolve(vscode.workspace.fs.stat(doubled)), 'a file with the suffix twice was written');
    } finally {
      await remove(file('twice'));
    }
  });
  test('a record the opener cannot see is named for its layer; the rest is shown', async () => {
    const bob = sb.current.sandbox.tokens.bob;
    const c = await client(sb.current);
    const mine = (await c.aois.listPage({ limit: 1 })).items[0];
    // bob's AOI id, read as bob directly from the sandbox
    const res = await fetch(`${sb.current.sandbox.url}/v0/aois?limit=1`, { headers: { Authorization: `Bearer ${bob}` } });
    const theirs = ((await res.json()) as { aois: { aoi_id: string }[] }).aois[0].aoi_id;
    const view = {
      eoView: 1,
      host: new URL(sb.current.sandbox.url).host,
      center: { lon: 10, lat: 50 },
      zoom: 8,
      layers: [
        { kind: 'aoi', id: mine.aoi_id },
        { kind: 'aoi', id: theirs },
      ],
      imagery: [],
    };
    await vscode.workspace.fs.writeFile(file('partly-hidden'), Buffer.from(JSON.stringify(view)));
    const p = scripts.script();
    const opened = await vscode.commands.executeCommand<Opened>(COMMANDS.openViewFile, file('partly-hidden'));
    assert.equal(opened?.shown, 1);
    assert.deepEqual(opened?.missing, ['AOI: not found, or not visible to you']);
    const note = p.messages.find((m) => m.severity === 'warning');
    assert.equal(note?.text, 'The view is open; 1 layer is not shown: AOI: not found, or not visible to you.');
  });

  test('a view of another service is refused and changes no setting', async () => {
    const before = vscode.workspace.getConfiguration('eoImagery').get<string>('baseUrl');
    const view = { eoView: 1, host: 'api.elsewhere.example', center: { lon: 0, lat: 0 }, zoom: 3, layers: [], imagery: [] };
    await vscode.workspace.fs.writeFile(file('elsewhere'), Buffer.from(JSON.stringify(view)));
    const p = scripts.script();
    assert.equal(await vscode.commands.executeCommand(COMMANDS.openViewFile, file('elsewhere')), undefined);
    assert.match(
      p.messages[0]?.text ?? '',
      /^This view is of api\.elsewhere\.example, but you are connected to 127\.0\.0\.1:\d+\. A shared view never changes/,
    );
    assert.equal(vscode.workspace.getConfiguration('eoImagery').get<string>('baseUrl'), before);
  });

  test('Copy Link to This View gives a link that opens the same view; a hostile link is refused in words', async () => {
    const { aoiId } = await showAoiAndItem();
    scripts.script();
    const link = await vscode.commands.executeCommand<string>(COMMANDS.copyViewLink);
    assert.ok(link?.includes('://eo-imagery.eo-imagery/view?v='), link);
    assert.equal(await vscode.env.clipboard.readText(), link);
    assert.ok(!link.includes(sb.current.sandbox.tokens.alice));
    const opened = await vscode.commands.executeCommand<Opened>(COMMANDS.openViewLink, link);
    assert.equal(opened?.missing.length, 0);
    assert.ok((opened?.shown ?? 0) >= 2);
    assert.ok(
      sb.current.api.services.panels
        .currentMap()
        ?.shown('aois')
        .some((f) => f.ref.id === aoiId),
    );

    const hostile = `vscode://eo-imagery.eo-imagery/view?v=${Buffer.from(JSON.stringify({ eoView: 1, host: 'x', center: { lon: 0, lat: 0 }, zoom: 1, layers: [{ kind: 'settings', id: 'baseUrl' }] })).toString('base64url')}`;
    const p = scripts.script();
    assert.equal(await vscode.commands.executeCommand(COMMANDS.openViewLink, hostile), undefined);
    assert.equal(p.messages[0]?.text, 'This link cannot be opened: Layer 1 is of a kind this version does not know (settings).');
  });

  /** An AOI with at least three dates of mosaics the map can read (http), and those dates, oldest first. */
  async function aoiWithDates(): Promise<{ aoi: Record<string, unknown>; dates: string[]; byDate: Map<string, Asset> }> {
    const c = await client(sb.current);
    for (const aoi of (await c.aois.listPage({ limit: 50 })).items) {
      const byDate = new Map<string, Asset>();
      for await (const a of c.aois.iterateAssets(aoi.aoi_id, { pageSize: 100 }))
        if (!a.visualization_id && /^https?:\/\//.test(String(a.path)) && !byDate.has(a.date.slice(0, 10))) byDate.set(a.date.slice(0, 10), a);
      if (byDate.size >= 3) return { aoi: aoi as unknown as Record<string, unknown>, dates: [...byDate.keys()].sort(), byDate };
    }
    throw new Error('no AOI in the sandbox has three dates of readable mosaics');
  }

  const reported = (): MapViewState | undefined => sb.current.api.services.panels.currentMap()?.viewState;
  /** The compared layers as the map reports them: [left, right] by their sources, the divider and the mode. */
  const pairOf = (v: MapViewState | undefined) => {
    const c = v?.compare;
    if (!c) return undefined;
    const src = (id: string) => JSON.stringify(v.imagery.find((l) => l.id === id)?.source);
    return { left: src(c.left), right: src(c.right), position: c.position, mode: c.mode };
  };

  test('a view saved with a compare pair, and one with a time slider date, reopened, show the same pair, divider and date', async function () {
    this.timeout(150_000);
    const { aoi, dates, byDate } = await aoiWithDates();
    const [older, newer] = [dates[0], dates.at(-1) as string];
    const asset = (d: string) => JSON.stringify({ kind: 'asset', aoiId: aoi.aoi_id, id: (byDate.get(d) as Asset).id });
    /** Saves the map's view as `name`, lets a teammate change it in the file, reopens it. */
    const saveEditReopen = async <T>(name: string, edit: (saved: T) => void): Promise<T> => {
      const p = scripts.script({ kind: 'saveDialog', match: /Save View/, answer: file(name) });
      await vscode.commands.executeCommand(COMMANDS.saveViewAs);
      p.assertDone();
      const saved = JSON.parse(Buffer.from(await vscode.workspace.fs.readFile(file(name))).toString('utf8')) as T;
      edit(saved);
      await vscode.workspace.fs.writeFile(file(name), Buffer.from(JSON.stringify(saved, null, 2)));
      await closeMap();
      scripts.script();
      const opened = await vscode.commands.executeCommand<Opened>(COMMANDS.openViewFile, file(name));
      assert.deepEqual(opened?.missing, []);
      return saved;
    };

    // The pair: older on the left, the divider in the middle.
    scripts.script({
      kind: 'pickMany',
      match: /Pick two dates/,
      choose: (items) => [older, newer].map((d) => items.find((i) => `${i.label} ${i.description ?? ''}`.includes(d)) as vscode.QuickPickItem),
    });
    await vscode.commands.executeCommand(COMMANDS.compareImagery, { kind: 'aoi', record: aoi });
    scripts.prompts.assertDone();
    const live = await until('the map to report the pair', () => (pairOf(reported()) ? reported() : undefined));
    assert.deepEqual(pairOf(live), { left: asset(older), right: asset(newer), position: 0.5, mode: 'swipe' });
    type PairView = { imagery: { source: unknown }[]; compare: { left: number; right: number; position: number; mode: string } };
    // a teammate moves the divider in the file: it must come back as written
    const pair = await saveEditReopen<PairView>('pair', (saved) => (saved.compare.position = 0.25));
    assert.deepEqual(
      [JSON.stringify(pair.imagery[pair.compare.left].source), JSON.stringify(pair.imagery[pair.compare.right].source)],
      [asset(older), asset(newer)],
    );
    const back = await until('the reopened map to report the pair', () => (pairOf(reported()) ? reported() : undefined));
    assert.deepEqual(pairOf(back), { left: asset(older), right: asset(newer), position: 0.25, mode: 'swipe' });

    // The time slider, on its latest date (compare and the slider do not run together).
    await closeMap();
    scripts.script();
    await vscode.commands.executeCommand(COMMANDS.stepThroughTime, { kind: 'aoi', record: aoi });
    const sliding = await until('the map to report the slider', () => (reported()?.timeline?.date ? reported() : undefined));
    assert.equal(sliding?.timeline?.date, newer);
    const middle = dates[1];
    type DateView = { timeline: { date: string; frames: { date: string }[] } };
    // a teammate picks another date in the file
    const dated = await saveEditReopen<DateView>('date', (saved) => {
      assert.equal(saved.timeline.date, newer);
      saved.timeline.date = middle;
    });
    assert.equal(dated.timeline.date, middle);
    const reopened = await until('the reopened map to report the slider', () => (reported()?.timeline?.date ? reported() : undefined));
    assert.equal(reopened?.timeline?.date, middle);
    assert.deepEqual(
      reopened?.timeline?.frames.map((f) => f.date),
      dates,
    );
  });
  /** A finished run's raster output (land cover) in the Projects tree, as a person finds it. */
  async function rasterOutput(): Promise<ExplorerNode> {
    const projects = (sb.current.api.services.explorer as ExplorerApi).providers.projects;
    for (const p of await projects.getChildren(undefined))
      for (const aoi of (await projects.getChildren(p)).filter((n) => n.kind === 'aoi')) {
        const group = (await projects.getChildren(aoi)).find((n) => n.kind === 'insightRunGroup');
        for (const run of group ? await projects.getChildren(group) : [])
          for (const o of run.kind === 'insightRun' ? await projects.getChildren(run) : [])
            if (o.kind === 'insightOutput' && (o as { output?: { name?: string } }).output?.name === 'land_cover') return o;
      }
    throw new Error('the sandbox seeds no finished run with a land_cover raster output');
  }

  /** The map's latest panel once `id` is drawn on it. */
  async function drawn(id: string): Promise<PanelProbe> {
    const panels = testPanels(sb.current.api.services.panels);
    const map = await until('the map panel', () => panels.map());
    await map.whenReady();
    const reports = map.imageryReports as { id: string; state: string; drawn: boolean }[];
    await until(`${id} drawn`, () => reports.find((r) => r.id === id && r.state === 'ready' && r.drawn), 60_000).catch((e: Error) => {
      throw new Error(
        `${e.message}; the map reported ${JSON.stringify(reports.slice(-5))}, and was sent ${JSON.stringify(map.posted.map((m) => (m as { type?: string }).type).slice(-20))}`,
      );
    });
    return map;
  }

  /**
   * Shows a layer (`show` gives its id and footprint), reads its pixels, saves the view (with an
   * insight output on the map too, when `output`), closes the map, opens the file and then the
   * link: each time the same pixels, title and look must come back.
   */
  async function roundTrip(name: string, show: () => Promise<{ id: string; bbox: [number, number, number, number] }>, output = false): Promise<void> {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const { id, bbox } = await show();
    let map = await drawn(id);
    // five points across the middle of the layer's footprint
    const [w, s, e, n] = bbox;
    const points = [0.3, 0.4, 0.5, 0.6, 0.7].map((f): [number, number] => [w + f * (e - w), s + (1 - f) * (n - s)]);
    const before = await map.imageryPixels(points);
    assert.ok(before.filter((p) => p[3] === 255).length >= 3, `${name} draws too few of the points: ${JSON.stringify(before)}`);
    const live = reported()?.imagery.find((l) => l.id === id);
    assert.ok(live, `the map reports ${name}`);
    const { center, zoom } = reported() as MapViewState;

    let outputTitle: string | undefined;
    if (output) {
      // an insight output on the map too: it cannot be shared, so it is left out and named, and the rest is saved
      const outputId = await vscode.commands.executeCommand<string>(COMMANDS.showInsightOutputOnMap, await rasterOutput());
      await drawn(outputId);
      outputTitle = await until('the map to report the output', () => reported()?.imagery.find((l) => l.id === outputId)?.title);
      // the output's place may be elsewhere: back to the layer, as a person pans back
      sb.current.api.services.panels.currentMap()?.setView(center, zoom);
      await until('the map back on the layer', () => {
        const v = reported();
        return v && Math.abs(v.center[0] - center[0]) < 1e-6 && Math.abs(v.center[1] - center[1]) < 1e-6 && v.zoom === zoom ? v : undefined;
      });
    }
    const p = scripts.script({ kind: 'saveDialog', match: /Save View/, answer: file('look') });
    await vscode.commands.executeCommand(COMMANDS.saveViewAs);
    p.assertDone();
    const said = p.messages.find((m) => m.text.startsWith('Saved the view as look.eoview.json.'));
    assert.ok(said, JSON.stringify(p.messages));
    if (outputTitle) assert.ok(said.text.includes(`Left out: ${outputTitle} (an insight output’s picture`), said.text);

    const same = async (how: string): Promise<void> => {
      map = await drawn(id);
      const back = reported()?.imagery.find((l) => l.id === id);
      assert.equal(back?.title, live.title, `${name}, ${how}: the title`);
      assert.deepEqual(back?.render, live.render, `${name}, ${how}: the bands and stretch`);
      const after = await map.imageryPixels(points);
      after.forEach((px, i) =>
        assert.ok(
          px.every((c, k) => Math.abs(c - before[i][k]) <= 3),
          `${name}, ${how}: at ${points[i].join(', ')} the reopened map draws rgba(${px.join(', ')}), the saved one rgba(${before[i].join(', ')})`,
        ),
      );
    };
    await closeMap();
    scripts.script();
    assert.deepEqual((await vscode.commands.executeCommand<Opened>(COMMANDS.openViewFile, file('look')))?.missing, []);
    await same('from the file');

    scripts.script();
    const link = await vscode.commands.executeCommand<string>(COMMANDS.copyViewLink);
    await closeMap();
    assert.deepEqual((await vscode.commands.executeCommand<Opened>(COMMANDS.openViewLink, link))?.missing, []);
    await same('from the link');
  }

  test('a mosaic saved and reopened (file and link) draws the same pixels, title and look; an insight output is left out and named', async function () {
    this.timeout(180_000);
    const { byDate, dates } = await aoiWithDates();
    const asset = byDate.get(dates[0]) as Asset;
    await roundTrip(
      'the mosaic',
      async () => {
        await vscode.commands.executeCommand(COMMANDS.showImagery, { kind: 'asset', record: asset });
        const spec = aoiAssetSpec(asset);
        assert.ok('spec' in spec && spec.spec.bbox, 'the mosaic has a footprint');
        return { id: spec.spec.id, bbox: spec.spec.bbox };
      },
      true,
    );
  });

  test('an index visualization saved and reopened (file and link) draws the same pixels, title and colours; the title the file holds comes back', async function () {
    this.timeout(180_000);
    const { aoi, byDate, dates } = await aoiWithDates();
    const c = await client(sb.current);
    let vis: Visualization | undefined;
    for await (const v of c.visualizations.iterate(String(aoi.aoi_id), {}, { pageSize: 100 })) if (v.expression_type === 'index') vis ??= v;
    assert.ok(vis, 'the AOI has no index visualization');
    const shown = vis;
    const spec = aoiAssetSpec(byDate.get(dates[0]) as Asset);
    assert.ok('spec' in spec && spec.spec.bbox, 'the mosaic has a footprint');
    const bbox = spec.spec.bbox;
    const id = `visualization:${shown.aoi_id}/${shown.id}`;
    await roundTrip('the visualization', async () => {
      await vscode.commands.executeCommand(COMMANDS.showImagery, { kind: 'visualization', record: shown });
      return { id, bbox };
    });
    // the view's title is the one shown, not the record's own (which may lack the date or the place)
    const saved = JSON.parse(Buffer.from(await vscode.workspace.fs.readFile(file('look'))).toString('utf8')) as { imagery: { title: string }[] };
    const titled = `${saved.imagery[0].title} over the northern fields, as the team named it`;
    saved.imagery[0].title = titled;
    await vscode.workspace.fs.writeFile(file('look'), Buffer.from(JSON.stringify(saved, null, 2)));
    await closeMap();
    scripts.script();
    await vscode.commands.executeCommand<Opened>(COMMANDS.openViewFile, file('look'));
    await drawn(id);
    assert.equal(reported()?.imagery.find((l) => l.id === id)?.title, titled);
  });
});
