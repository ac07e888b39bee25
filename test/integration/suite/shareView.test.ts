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
import type { Asset } from '../../../src/api/records';
import type { MapViewState } from '../../../src/panels/protocol';
import { client } from './ordersSupport';
import { until } from '../support/until';

suite('share a view: saved, reopened, linked, refused', function () {
  this.timeout(90_000);
  const sb = useSandbox();
  const scripts = scriptedSuite(sb);
  const file = (name = 'shared'): vscode.Uri => workspaceUri(`${name}.eoview.json`);

  suiteTeardown(async () => {
    for (const name of ['shared', 'partly-hidden', 'elsewhere', 'pair-and-date']) await remove(file(name));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  async function showAoiAndItem(): Promise<{ aoiId: string; itemId: string }> {
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
    return { aoiId: aoi.aoi_id, itemId: item.id };
  }

  test('Save View As… writes a file without secrets; with the map closed, Open on Map draws the same records', async () => {
    const { aoiId, itemId } = await showAoiAndItem();
    const p = scripts.script({ kind: 'saveDialog', match: /Save View/, answer: file() });
    const saved = await vscode.commands.executeCommand<vscode.Uri>(COMMANDS.saveViewAs);
    p.assertDone();
    assert.equal(saved?.toString(), file().toString());
    const text = Buffer.from(await vscode.workspace.fs.readFile(file())).toString('utf8');
    const json = JSON.parse(text) as { eoView: number; host: string; layers: { kind: string; id: string }[] };
    assert.equal(json.eoView, 1);
    assert.equal(json.host, new URL(sb.current.sandbox.url).host);
    assert.deepEqual(json.layers.map((l) => `${l.kind}:${l.id}`).sort(), [`aoi:${aoiId}`, `archiveItem:${itemId}`].sort());
    assert.ok(!text.includes(sb.current.sandbox.tokens.alice) && !text.includes('http'), 'no token, no URL');

    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await until('the map closed', () => sb.current.api.services.panels.currentMap() === undefined || undefined);
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

  test('a view saved with a compare pair and a time slider date, reopened, shows the same pair, divider and date', async function () {
    this.timeout(150_000);
    const { aoi, dates, byDate } = await aoiWithDates();
    const [older, newer] = [dates[0], dates.at(-1) as string];
    scripts.script({
      kind: 'pickMany',
      match: /Pick two dates/,
      choose: (items) => [older, newer].map((d) => items.find((i) => `${i.label} ${i.description ?? ''}`.includes(d)) as vscode.QuickPickItem),
    });
    await vscode.commands.executeCommand(COMMANDS.compareImagery, { kind: 'aoi', record: aoi });
    scripts.prompts.assertDone();
    scripts.script();
    await vscode.commands.executeCommand(COMMANDS.stepThroughTime, { kind: 'aoi', record: aoi });
    const asset = (d: string) => JSON.stringify({ kind: 'asset', aoiId: aoi.aoi_id, id: (byDate.get(d) as Asset).id });
    // the map reports the pair (older on the left, the divider in the middle) and the slider on its latest date
    const live = await until('the map to report the pair and the slider', () => {
      const v = reported();
      return pairOf(v) && v?.timeline?.date ? v : undefined;
    });
    assert.deepEqual(pairOf(live), { left: asset(older), right: asset(newer), position: 0.5, mode: 'swipe' });
    assert.equal(live.timeline?.date, newer);
    assert.deepEqual(
      live.timeline?.frames.map((f) => f.date),
      dates,
    );

    const p = scripts.script({ kind: 'saveDialog', match: /Save View/, answer: file('pair-and-date') });
    await vscode.commands.executeCommand(COMMANDS.saveViewAs);
    p.assertDone();
    const saved = JSON.parse(Buffer.from(await vscode.workspace.fs.readFile(file('pair-and-date'))).toString('utf8')) as {
      imagery: { source: unknown }[];
      compare: { left: number; right: number; position: number; mode: string };
      timeline: { date: string; frames: { date: string }[] };
    };
    assert.deepEqual(
      [JSON.stringify(saved.imagery[saved.compare.left].source), JSON.stringify(saved.imagery[saved.compare.right].source)],
      [asset(older), asset(newer)],
    );
    assert.equal(saved.timeline.date, newer);
    // a teammate moves the divider and picks another date in the file: both must come back as written
    const middle = dates[1];
    saved.compare.position = 0.25;
    saved.timeline.date = middle;
    await vscode.workspace.fs.writeFile(file('pair-and-date'), Buffer.from(JSON.stringify(saved, null, 2)));

    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await until('the map closed', () => sb.current.api.services.panels.currentMap() === undefined || undefined);
    scripts.script();
    const opened = await vscode.commands.executeCommand<Opened>(COMMANDS.openViewFile, file('pair-and-date'));
    assert.deepEqual(opened?.missing, []);
    const back = await until('the reopened map to report the pair and the slider', () => {
      const v = reported();
      return pairOf(v) && v?.timeline?.date ? v : undefined;
    });
    assert.deepEqual(pairOf(back), { left: asset(older), right: asset(newer), position: 0.25, mode: 'swipe' });
    assert.equal(back.timeline?.date, middle);
    assert.deepEqual(
      back.timeline?.frames.map((f) => f.date),
      dates,
    );
  });
});
