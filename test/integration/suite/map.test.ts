// The map and STAC item panels in a real extension host against the in-process sandbox:
// "Show on Map" from sidebar rows of every kind posts the right layers to a real webview,
// Open STAC Item loads the item, a footprint click opens its detail beside the map, archive
// searches asked by the webview page through `next` links, Create AOI from the GeoJSON file in
// the editor (one Polygon: created and revealed; two features: refused with the reason), the
// serializers bring panels back with their shapes, and the token is in nothing the webviews get.
// Panels are seen through the webview tap (support/webviewTap.ts: what the extension posted, its 'ready').
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ExplorerApi } from '../../../src/explorer';
import type { ExplorerNode } from '../../../src/explorer/tree';
import { testPanels, type PanelProbe, type PanelsApi } from '../support/webviewTap';
import type { MapFeature, SearchOptions, SearchPage, SearchParams } from '../../../src/panels/protocol';
import { Panels } from '../../../src/panels';
import { useSandbox } from '../harness/sandbox';
import { ScriptedPrompts } from '../support/scriptedPrompts';
import { until } from '../support/until';

type ViewId = 'projects' | 'orders' | 'catalog' | 'stores' | 'archive';
type RecordNode = ExplorerNode & { record: Record<string, unknown>; recordId: string };
type LayerMessage = { type: 'layer'; layer: string; features: MapFeature[]; mode: string; sources?: unknown[] };

function withTimeout<T>(p: Promise<T>, what: string, ms = 15_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms))),
  ]);
}

function layerMessages(probe: PanelProbe, layer: string): LayerMessage[] {
  return probe.posted.filter((m): m is LayerMessage => (m as LayerMessage).type === 'layer' && (m as LayerMessage).layer === layer);
}

/** Waits until the map posted a layer message for `layer` holding a feature with id `id`. */
async function waitForFeature(probe: PanelProbe, layer: string, id: string): Promise<MapFeature> {
  return until(`the ${layer} feature ${id} on the map`, () =>
    layerMessages(probe, layer)
      .flatMap((m) => m.features)
      .find((f) => f.id === id),
  );
}

suite('map and STAC item panels against the sandbox', () => {
  const sb = useSandbox();
  let explorer: ExplorerApi;
  let panels: PanelsApi;
  /** Everything the extension posted to any webview, gathered after each test. */
  const everythingPosted: unknown[] = [];
  const htmls: string[] = [];
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-map-suite-'));

  suiteSetup(() => {
    const services = sb.current.api.services;
    assert.ok(services.explorer, 'services.explorer is not set after activation');
    assert.ok(services.panels, 'services.panels is not set after activation');
    explorer = services.explorer;
    panels = testPanels(services.panels);
  });

  function gather(): void {
    const probes = [panels.map(), ...panels.stacItems().values()].filter((p): p is PanelProbe => !!p);
    for (const p of probes) {
      everythingPosted.push(...p.posted);
      htmls.push(p.panel.webview.html);
    }
  }

  teardown(async () => {
    gather();
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  async function children(view: ViewId, node?: ExplorerNode): Promise<ExplorerNode[]> {
    return explorer.providers[view].getChildren(node);
  }

  async function firstRecord(
    view: ViewId,
    kind: string,
    parents: ExplorerNode[],
    accept: (n: RecordNode) => boolean = () => true,
  ): Promise<RecordNode | undefined> {
    for (const p of parents) {
      const found = (await children(view, p)).find((n): n is RecordNode => n.kind === kind && 'record' in n && accept(n as RecordNode));
      if (found) return found;
    }
    return undefined;
  }

  async function service<T>(p: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
    const res = await fetch(`${sb.current.sandbox.url}${p}`, {
      method: init.method ?? 'GET',
      headers: { Authorization: `Bearer ${sb.current.sandbox.tokens.alice}`, 'content-type': 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    assert.ok(res.ok, `${init.method ?? 'GET'} ${p} answered ${res.status}`);
    return (await res.json()) as T;
  }

  let requestId = 90_000;
  /** A request from the map's webview, answered by the extension as the page would see it. */
  async function askMap(map: PanelProbe, request: unknown): Promise<{ ok: boolean; result?: unknown; error?: { message: string } }> {
    const rid = ++requestId;
    await map.receive({ type: 'request', id: rid, request });
    const res = map.posted.find((m) => (m as { type: string; id?: number }).type === 'response' && (m as { id: number }).id === rid);
    assert.ok(res, `no response to request ${rid}`);
    return res as { ok: boolean; result?: unknown; error?: { message: string } };
  }

  async function mapProbe(): Promise<PanelProbe> {
    const probe = await until('the map panel', () => panels.map());
    await withTimeout(probe.whenReady(), "the map webview's 'ready'");
    return probe;
  }

  /** The STAC panel of item `key` (`panel`: the one the test made, when an older one may show the same item). */
  async function stacProbe(key: string, panel?: vscode.WebviewPanel): Promise<PanelProbe> {
    const probe = await until(`the STAC panel ${key}`, () => [panels.stacItems().get(key)].find((p) => p && (!panel || p.panel === panel)));
    await withTimeout(probe.whenReady(), `the STAC webview ${key} 'ready'`);
    return probe;
  }

  function withPrompts(prompts: ScriptedPrompts): () => void {
    return sb.current.api.testing.usePrompts(prompts);
  }

  test('Show on Map from sidebar rows of every kind draws them on one map', async function () {
    this.timeout(45_000);
    const projects = await children('projects');
    const aoi = await firstRecord('projects', 'aoi', projects);
    assert.ok(aoi, 'no AOI row under any project');
    await vscode.commands.executeCommand('eoImagery.showOnMap', aoi);
    const map = await mapProbe();
    assert.equal(map.panel.viewType, 'eoImagery.map');
    const f = await waitForFeature(map, 'aois', aoi.recordId);
    assert.deepEqual(f.geometry, aoi.record.geometry, 'the AOI polygon is sent as the service gave it');
    assert.ok(Array.isArray(f.centroid), 'the AOI centroid is sent');
    assert.ok(map.posted.some((m) => (m as { type: string; id?: string }).type === 'select' && (m as { id: string }).id === aoi.recordId));

    const groups = await children('projects', aoi);
    const assetGroup = groups.find((n) => n.kind === 'assetGroup');
    assert.ok(assetGroup, 'the AOI row has no Assets group');
    const asset = await firstRecord('projects', 'asset', [assetGroup]);
    assert.ok(asset, 'no asset under the AOI');
    await vscode.commands.executeCommand('eoImagery.showOnMap', asset);
    const af = await waitForFeature(map, 'assets', asset.recordId);
    assert.deepEqual(af.ref, { kind: 'asset', aoiId: asset.record.aoi_id, id: asset.recordId });
    const assetLayer = layerMessages(map, 'assets').find((m) => m.features.some((x) => x.id === asset.recordId));
    assert.deepEqual(assetLayer?.sources, [{ kind: 'asset', aoiId: asset.record.aoi_id, id: asset.recordId }], 'an asset is remembered for a reload');

    const orders = await children('orders');
    const orderItem = await firstRecord(
      'orders',
      'orderItem',
      orders.filter((n) => n.kind === 'order'),
      (n) => Array.isArray(n.record.images) && (n.record.images as unknown[]).length > 0,
    );
    assert.ok(orderItem, 'no order item with images in the Orders view');
    await vscode.commands.executeCommand('eoImagery.showOnMap', orderItem);
    await until('the order item on the map', () =>
      layerMessages(map, 'orderItems').some((m) => m.features.some((x) => x.id.startsWith(`${orderItem.recordId}/`))),
    );

    const collections = await children('archive');
    const item = await firstRecord(
      'archive',
      'archiveItem',
      collections.filter((n) => n.kind === 'collection'),
    );
    assert.ok(item, 'no archive item under any collection');
    await vscode.commands.executeCommand('eoImagery.showOnMap', item);
    await waitForFeature(map, 'archiveItems', `${String(item.record.collection)}/${item.recordId}`);

    // The sandbox sends catalog entries without a footprint: refused, with the reason, and no layer.
    const catalog = (await children('catalog')).find((n): n is RecordNode => n.kind === 'catalog');
    assert.ok(catalog, 'no catalog entry in the Catalog view');
    const prompts = new ScriptedPrompts();
    const restore = withPrompts(prompts);
    try {
      await vscode.commands.executeCommand('eoImagery.showOnMap', catalog);
    } finally {
      restore();
    }
    if (catalog.record.geometry) {
      await waitForFeature(map, 'catalogs', catalog.recordId);
    } else {
      assert.match(prompts.messages.map((m) => m.text).join('\n'), /carries no footprint/);
      assert.equal(layerMessages(map, 'catalogs').length, 0);
    }

    // One map for all of them.
    assert.equal(panels.map()?.panel, map.panel);
  });

  test('Show on Map of the Fiji AOI sends its antimeridian polygon', async function () {
    this.timeout(20_000);
    const projects = await children('projects');
    const fiji = await firstRecord('projects', 'aoi', projects, (n) => /Fiji/.test(String(n.record.name)));
    assert.ok(fiji, 'the sandbox has no Fiji AOI');
    await vscode.commands.executeCommand('eoImagery.showOnMap', fiji);
    const map = await mapProbe();
    const f = await waitForFeature(map, 'aois', fiji.recordId);
    const ring = (f.geometry as { coordinates: number[][][] }).coordinates[0];
    assert.ok(ring.some(([x]) => x > 179) && ring.some(([x]) => x < -179), 'the test AOI crosses the antimeridian');
  });

  test('Search Archive Here from the palette offers the AOI shown on the map and searches over it; drawing is a choice, never a silent switch', async function () {
    this.timeout(30_000);
    const projects = await children('projects');
    const fiji = await firstRecord('projects', 'aoi', projects, (n) => /Fiji/.test(String(n.record.name)));
    assert.ok(fiji);
    await vscode.commands.executeCommand('eoImagery.showOnMap', fiji);
    const map = await mapProbe();
    await waitForFeature(map, 'aois', fiji.recordId);
    const before = map.posted.length;
    let offered: string[] = [];
    const prompts = new ScriptedPrompts([
      {
        kind: 'pick',
        match: /Where to search/,
        choose: (items) => {
          offered = items.map((i) => `${i.label} · ${i.description ?? ''}`);
          return items.find((i) => i.label.includes(String(fiji.record.name)) && i.description === 'shown on the map');
        },
      },
    ]);
    const restore = withPrompts(prompts);
    try {
      await vscode.commands.executeCommand('eoImagery.searchArchiveHere');
    } finally {
      restore();
    }
    prompts.assertDone();
    // The AOIs shown on the map come first, then the others.
    const onMap = offered.map((o) => o.endsWith('· shown on the map'));
    assert.ok(
      onMap[0] && onMap.indexOf(false) > 0 && !onMap.slice(onMap.indexOf(false)).includes(true),
      `the AOIs on the map come first: ${offered.join(' | ')}`,
    );
    assert.ok(
      offered.some((o) => /Draw a rectangle/.test(o)),
      'drawing is offered as a choice',
    );
    const sent = map.posted.slice(before) as { type: string; params?: SearchParams }[];
    assert.ok(!sent.some((m) => m.type === 'startDraw'), 'it switched to a drawing tool');
    const run = sent.find((m) => m.type === 'runSearch');
    assert.ok(run?.params, `no search was run: ${sent.map((m) => m.type).join(', ')}`);
    assert.equal(run.params.shape, 'polygon');
    // The Fiji AOI's outline, across the antimeridian in continuous longitudes.
    const lons = run.params.ring.map(([x]) => x);
    assert.ok(Math.max(...lons) - Math.min(...lons) < 10, `the ring spans the world: ${JSON.stringify(run.params.ring)}`);

    // From the palette with "Draw…" chosen, the drawing tool is started: the person asked for it.
    const drawPrompts = new ScriptedPrompts([{ kind: 'pick', match: /Where to search/, choose: 'Draw a rectangle on the map…' }]);
    const restoreDraw = withPrompts(drawPrompts);
    const mark = map.posted.length;
    try {
      await vscode.commands.executeCommand('eoImagery.searchArchiveHere');
    } finally {
      restoreDraw();
    }
    drawPrompts.assertDone();
    assert.ok(
      map.posted.slice(mark).some((m) => (m as { type: string; shape?: string }).type === 'startDraw' && (m as { shape?: string }).shape === 'rectangle'),
    );
  });

  test('Open STAC Item opens the item panel; a footprint click opens its detail beside the map', async function () {
    this.timeout(30_000);
    const collections = (await children('archive')).filter((n) => n.kind === 'collection');
    const items = (await children('archive', collections[0])).filter((n): n is RecordNode => n.kind === 'archiveItem');
    assert.ok(items.length >= 3, 'the first collection has fewer than 3 items');
    const [first, second, third] = items;
    const key = (n: RecordNode) => `${String(n.record.collection)}/${n.recordId}`;

    await vscode.commands.executeCommand('eoImagery.openStacItem', first);
    const stac = await stacProbe(key(first));
    assert.equal(stac.panel.viewType, 'eoImagery.stacItem');
    const shown = stac.posted.find((m) => (m as { type: string }).type === 'item') as { item: { id: string }; stacUrl: string } | undefined;
    assert.equal(shown?.item.id, first.recordId);
    assert.match(shown.stacUrl, /^http:\/\/127\.0\.0\.1:\d+\//);

    // Copy STAC URL from the panel's action.
    await vscode.env.clipboard.writeText('');
    await stac.receive({ type: 'action', action: 'copyStacUrl' });
    assert.match(await vscode.env.clipboard.readText(), new RegExp(`${first.recordId}$`));

    // A click on a footprint (the webview posts 'open' with preview) opens beside the map,
    // and the next click reuses that panel.
    await vscode.commands.executeCommand('eoImagery.showOnMap', second);
    const map = await mapProbe();
    await map.receive({ type: 'open', ref: { kind: 'archiveItem', collection: second.record.collection, id: second.recordId }, preview: true });
    const preview = await stacProbe(key(second));
    assert.notEqual(preview.panel.viewColumn, map.panel.viewColumn, 'the detail opens beside the map');
    assert.ok(map.panel.visible, 'the map stays visible');
    const before = panels.stacItems().size;
    await map.receive({ type: 'open', ref: { kind: 'archiveItem', collection: third.record.collection, id: third.recordId }, preview: true });
    await until('the preview to show the third item', () =>
      preview.posted.some((m) => (m as { type: string; item?: { id: string } }).type === 'item' && (m as { item: { id: string } }).item.id === third.recordId),
    );
    assert.equal(panels.stacItems().size, before, 'one preview panel follows the clicks');
    assert.ok(panels.stacItems().has(key(third)) && !panels.stacItems().has(key(second)));
    assert.equal(preview.panel.title, `STAC ${third.recordId}`);
  });

  test('an archive search from the map pages through next links to the end', async function () {
    this.timeout(30_000);
    await vscode.commands.executeCommand('eoImagery.showOnMap', (await firstRecord('projects', 'aoi', await children('projects')))!);
    const map = await mapProbe();
    const bbox: [number, number, number, number] = [0, 45, 5, 50];
    const all = await service<{ features: { id: string; collection: string }[]; links?: { rel: string }[] }>('/v0/archives/search', {
      method: 'POST',
      body: { bbox, limit: 1000 },
    });
    assert.ok(all.features.length > 8 && all.features.length < 1000, `want a few pages of results, got ${all.features.length}`);
    const firstPage = await service<{ links?: { rel: string }[] }>('/v0/archives/search', { method: 'POST', body: { bbox, limit: 4 } });
    assert.ok(
      firstPage.links?.some((l) => l.rel === 'next'),
      'the service pages this search with a next link',
    );

    const [w, s, e, n] = bbox;
    const params: SearchParams = {
      kind: 'archive',
      shape: 'rectangle',
      ring: [
        [w, s],
        [e, s],
        [e, n],
        [w, n],
        [w, s],
      ],
      collections: [],
      satellites: [],
      from: '',
      to: '',
      sort: 'datetime-desc',
      limit: 4,
    };
    const ask = async (request: unknown): Promise<SearchPage> => {
      const res = await askMap(map, request);
      assert.ok(res.ok, `the map's request failed: ${res.error?.message}`);
      return res.result as SearchPage;
    };
    let page = await ask({ method: 'search', params });
    const ids = page.features.map((f) => f.id);
    let pages = 1;
    while (page.hasMore) {
      assert.equal(page.features.length, 4);
      page = await ask({ method: 'searchMore', searchId: page.searchId });
      ids.push(...page.features.map((f) => f.id));
      pages++;
    }
    assert.ok(pages >= 3, `only ${pages} page(s)`);
    assert.equal(page.loaded, ids.length);
    assert.equal(new Set(ids).size, ids.length, 'no item twice');
    assert.deepEqual([...ids].sort(), all.features.map((f) => `${f.collection}/${f.id}`).sort());

    // An ended search says so.
    const ended = await askMap(map, { method: 'searchMore', searchId: page.searchId });
    assert.equal(ended.ok, false);
    assert.match(ended.error?.message ?? '', /search again/);
  });

  test("filters on a satellite's queryables: offered per satellite, sent to both searches, and the results are the items inside the ranges", async function () {
    this.timeout(60_000);
    await vscode.commands.executeCommand('eoImagery.showOnMap', (await firstRecord('projects', 'aoi', await children('projects')))!);
    const map = await mapProbe();
    const options = (await askMap(map, { method: 'searchOptions' })).result as SearchOptions;
    const queryables = (id: string): string[] | undefined => options.satellites.find((s) => s.id === id)?.queryables;
    // What each satellite's collection lists (GET /v0/satellites) reaches the form.
    assert.ok(queryables('landsat-8-9')?.includes('view:off_nadir'), 'Landsat lists off-nadir');
    assert.ok(!queryables('sentinel-2')?.includes('view:off_nadir'), 'Sentinel-2 does not');

    const [w, s, e, n] = [0, 40, 10, 50];
    const ring: [number, number][] = [
      [w, s],
      [e, s],
      [e, n],
      [w, n],
      [w, s],
    ];
    const base: SearchParams = {
      kind: 'imagery',
      shape: 'polygon',
      ring,
      collections: [],
      satellites: ['landsat-8-9'],
      from: '',
      to: '',
      sort: 'datetime-desc',
      limit: 1000,
    };
    type Props = { properties: Record<string, unknown> };
    const unfiltered = await service<{ items: Record<string, Props> }>('/v0/search', {
      method: 'POST',
      body: {
        start_date: '1970-01-01T00:00:00Z',
        end_date: `${new Date().toISOString().slice(0, 10)}T23:59:59Z`,
        satellites: [{ satellite_id: 'landsat-8-9', collection_id: 'landsat-c2-l2' }],
        geometry: { type: 'Polygon', coordinates: [ring] },
        limit: 10_000,
      },
    });
    // The interface's semantics: a range keeps the items whose property lies in it, bounds included.
    const inRange = (items: Record<string, Props>, key: string, min: number, max: number): string[] =>
      Object.entries(items)
        .filter(([, i]) => typeof i.properties[key] === 'number' && (i.properties[key] as number) >= min && (i.properties[key] as number) <= max)
        .map(([id]) => id)
        .sort();
    const expected = inRange(unfiltered.items, 'view:off_nadir', 0, 4);
    const all = Object.keys(unfiltered.items).length;
    assert.ok(expected.length > 0 && expected.length < all, `the range should keep some of the ${all} items, keeps ${expected.length}`);

    const ids = (page: SearchPage): string[] => page.features.map((f) => f.id.split('/').pop() ?? '').sort();
    const imagery = await askMap(map, { method: 'search', params: { ...base, filters: [{ id: 'view:off_nadir', max: 4 }] } });
    assert.ok(imagery.ok, imagery.error?.message);
    assert.deepEqual(ids(imagery.result as SearchPage), expected);

    // The archive search: the same range as a STAC query.
    const archiveAll = await service<{ features: (Props & { id: string })[] }>('/v0/archives/search', {
      method: 'POST',
      body: { intersects: { type: 'Polygon', coordinates: [ring] }, collections: ['landsat-c2-l2'], limit: 1000 },
    });
    const archiveExpected = inRange(Object.fromEntries(archiveAll.features.map((f) => [f.id, f])), 'view:sun_elevation', 40, 60);
    assert.ok(archiveExpected.length > 0 && archiveExpected.length < archiveAll.features.length, 'the sun-elevation range keeps some archive items');
    const archive = await askMap(map, {
      method: 'search',
      params: { ...base, kind: 'archive', satellites: [], collections: ['landsat-c2-l2'], filters: [{ id: 'view:sun_elevation', min: 40, max: 60 }] },
    });
    assert.ok(archive.ok, archive.error?.message);
    assert.deepEqual(ids(archive.result as SearchPage), archiveExpected);

    // A filter Sentinel-2 does not list, and a range past 90°, are refused in words before anything is sent.
    const refused = await askMap(map, { method: 'search', params: { ...base, satellites: ['sentinel-2'], filters: [{ id: 'view:off_nadir', max: 4 }] } });
    assert.equal(refused.ok, false);
    assert.match(refused.error?.message ?? '', /cannot filter on Off-nadir angle; it can on Sun elevation, Ground sample distance/);
    const outside = await askMap(map, { method: 'search', params: { ...base, filters: [{ id: 'view:off_nadir', max: 120 }] } });
    assert.match(outside.error?.message ?? '', /Off-nadir angle is from 0–90 °; 120 ° is outside it/);
  });

  async function openInEditor(name: string, json: unknown): Promise<vscode.Uri> {
    const file = path.join(tmp, name);
    fs.writeFileSync(file, JSON.stringify(json, null, 2));
    const uri = vscode.Uri.file(file);
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: false });
    await until(`${name} as the active editor`, () => vscode.window.activeTextEditor?.document.uri.fsPath === uri.fsPath);
    return uri;
  }

  test('Create AOI from the GeoJSON in the editor: created, revealed in Projects, drawn on the map', async function () {
    this.timeout(30_000);
    const name = `Map suite AOI ${Date.now()}`;
    await openInEditor('field.geojson', {
      type: 'Feature',
      properties: {},
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [2.3, 48.84],
            [2.33, 48.84],
            [2.33, 48.86],
            [2.3, 48.86],
            [2.3, 48.84],
          ],
        ],
      },
    });
    // the service makes an AOI from images: the polygon is searched, the person picks them
    let offered: readonly vscode.QuickPickItem[] = [];
    const prompts = new ScriptedPrompts([
      { kind: 'input', match: /Create AOI \(\d+(\.\d+)? km²\)/, answer: name },
      { kind: 'pick', match: 'project', choose: (items) => items[0] },
      { kind: 'pick', match: 'satellite', choose: (items) => items.find((i) => i.label === 'Sentinel-2 MSI') },
      {
        kind: 'pickMany',
        match: 'images',
        choose: (items) => {
          offered = items;
          return items.slice(0, 2);
        },
      },
      { kind: 'message', match: new RegExp(`Create AOI "${name}" of .* from 2 Sentinel-2 MSI image`), answer: 'Create' },
    ]);
    const restore = withPrompts(prompts);
    try {
      await vscode.commands.executeCommand('eoImagery.createAoiFromGeoJson');
    } finally {
      restore();
    }
    prompts.assertDone();
    assert.deepEqual(
      prompts.messages.filter((m) => m.severity === 'error'),
      [],
    );
    // every step says where it is, with the one total known from the first
    assert.deepEqual(
      prompts.seen.filter((p) => p.kind !== 'message').map((p) => /\((\d+\/\d+)\)/.exec(p.label)?.[1]),
      ['1/4', '2/4', '3/4', '4/4'],
    );
    const listed = await service<{ aois: { aoi_id: string; name: string; images: Record<string, unknown> }[] }>('/v0/aois?limit=100');
    const created = listed.aois.find((a) => a.name === name);
    assert.ok(created, 'the AOI is not on the service');
    // each image row names its date, cloud cover and satellite, newest first; the thumbnail is its icon
    assert.ok(offered.length >= 2, `images offered: ${offered.length}`);
    for (const i of offered) {
      assert.match(i.label, /^\d{4}-\d{2}-\d{2}$/);
      assert.match(i.description ?? '', /^\d+ % cloud · Sentinel-2 MSI$/);
      assert.ok(i.iconPath instanceof vscode.Uri && /thumbnail\.png$/.test(i.iconPath.path), 'thumbnail icon');
    }
    assert.ok(offered[0].label >= offered[1].label, 'newest first');
    assert.deepEqual(
      Object.keys(created.images).sort(),
      offered
        .slice(0, 2)
        .map((i) => i.detail)
        .sort(),
      'the AOI holds the picked images',
    );
    await until('the new AOI selected in the Projects view', () =>
      explorer.selected('projects').some((n) => (n as unknown as RecordNode).recordId === created.aoi_id),
    );
    const map = await mapProbe();
    await waitForFeature(map, 'aois', created.aoi_id);
  });

  test('Create AOI from a shape drawn on the map: the form, then the same image choice, then the AOI on the map', async function () {
    this.timeout(45_000);
    await vscode.commands.executeCommand('eoImagery.showOnMap');
    const map = await mapProbe();
    const project = (await service<{ projects: { id: string }[] }>('/v0/projects')).projects[0];
    const name = `Drawn AOI ${Date.now()}`;
    const prompts = new ScriptedPrompts([
      { kind: 'pickMany', match: 'images', choose: (items) => items.slice(0, 1) },
      { kind: 'message', match: new RegExp(`Create AOI "${name}" .* from 1 Sentinel-2 MSI image`), answer: 'Create' },
    ]);
    const restore = withPrompts(prompts);
    const ring: [number, number][] = [
      [2.3, 48.84],
      [2.33, 48.84],
      [2.33, 48.86],
      [2.3, 48.86],
      [2.3, 48.84],
    ];
    const before = map.posted.length;
    try {
      await map.receive({
        type: 'request',
        id: 4242,
        request: { method: 'createAoi', params: { name, projectId: project.id, satelliteId: 'sentinel-2', ring } },
      });
      await until('the createAoi answer', () =>
        map.posted.slice(before).find((m) => (m as { type?: string; id?: number }).type === 'response' && (m as { id?: number }).id === 4242),
      );
    } finally {
      restore();
    }
    prompts.assertDone();
    const answer = map.posted.slice(before).find((m) => (m as { id?: number }).id === 4242) as {
      ok: boolean;
      result?: { ref?: { id: string } };
      error?: unknown;
    };
    assert.ok(answer.ok, `createAoi failed: ${JSON.stringify(answer.error)}`);
    const listed = await service<{ aois: { aoi_id: string; name: string; images: Record<string, unknown> }[] }>('/v0/aois?limit=100');
    const created = listed.aois.find((a) => a.name === name);
    assert.ok(created && answer.result?.ref?.id === created.aoi_id, 'the AOI is on the service and answered to the map');
    assert.equal(Object.keys(created.images).length, 1);
  });

  test('Create AOI from a FeatureCollection of two features is refused with the reason', async function () {
    this.timeout(20_000);
    const square = (x: number) => ({
      type: 'Feature',
      properties: {},
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [x, 10],
            [x + 0.1, 10],
            [x + 0.1, 10.1],
            [x, 10.1],
            [x, 10],
          ],
        ],
      },
    });
    await openInEditor('two.geojson', { type: 'FeatureCollection', features: [square(10), square(11)] });
    const before = await service<{ aois: unknown[] }>('/v0/aois?limit=100');
    const prompts = new ScriptedPrompts();
    const restore = withPrompts(prompts);
    try {
      await vscode.commands.executeCommand('eoImagery.createAoiFromGeoJson');
    } finally {
      restore();
    }
    prompts.assertDone();
    const errors = prompts.messages.filter((m) => m.severity === 'error').map((m) => m.text);
    assert.equal(errors.length, 1, `errors: ${errors.join(' | ')}`);
    assert.match(errors[0], /two\.geojson/);
    assert.match(errors[0], /holds 2 features; an AOI needs exactly one/);
    const after = await service<{ aois: unknown[] }>('/v0/aois?limit=100');
    assert.equal(after.aois.length, before.aois.length, 'nothing was created');
  });

  test('the serializers restore the map with its AOIs and assets, and a STAC panel', async function () {
    this.timeout(30_000);
    const aoi = (await firstRecord('projects', 'aoi', await children('projects')))!;
    const assetGroup = (await children('projects', aoi)).find((n) => n.kind === 'assetGroup')!;
    const asset = (await firstRecord('projects', 'asset', [assetGroup]))!;
    gather();
    panels.map()?.panel.dispose();
    const state = {
      center: [10, 20],
      zoom: 4,
      sources: {
        aois: [{ kind: 'aoi', id: aoi.recordId }],
        assets: [{ kind: 'asset', aoiId: asset.record.aoi_id, id: asset.recordId }],
      },
    };
    const restoredPanel = vscode.window.createWebviewPanel('eoImagery.map', 'EO Map', vscode.ViewColumn.One, {});
    await panels.serializers['eoImagery.map'].deserializeWebviewPanel(restoredPanel, state);
    const map = await mapProbe();
    assert.equal(map.panel, restoredPanel);
    const init = map.posted.find((m) => (m as { type: string }).type === 'init') as { state: unknown } | undefined;
    assert.deepEqual(init?.state, state, 'the webview gets its saved state back');
    await waitForFeature(map, 'aois', aoi.recordId);
    await waitForFeature(map, 'assets', asset.recordId);
    assert.ok(!map.posted.some((m) => (m as { type: string; level?: string }).type === 'notice' && (m as { level: string }).level === 'error'));

    const collections = (await children('archive')).filter((n) => n.kind === 'collection');
    const item = (await firstRecord('archive', 'archiveItem', collections))!;
    const stacPanel = vscode.window.createWebviewPanel('eoImagery.stacItem', 'STAC', vscode.ViewColumn.One, {});
    await panels.serializers['eoImagery.stacItem'].deserializeWebviewPanel(stacPanel, { collection: item.record.collection, id: item.recordId });
    const stac = await stacProbe(`${String(item.record.collection)}/${item.recordId}`, stacPanel);
    assert.ok(
      stac.posted.some((m) => (m as { type: string; item?: { id: string } }).type === 'item' && (m as { item: { id: string } }).item.id === item.recordId),
    );
  });

  test('malformed webview messages are refused: logged once per type, never a rejection, nothing done', async function () {
    this.timeout(30_000);
    await vscode.commands.executeCommand('eoImagery.showOnMap');
    const map = await mapProbe();
    const log = sb.current.api.services.log;
    const warned: string[] = [];
    const warn = log.warn;
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    log.warn = (message: string, ...args: unknown[]) => {
      warned.push(String(message));
      warn.call(log, message, ...args);
    };
    const malformed: unknown[] = [
      null,
      'ready',
      { type: 42 },
      { type: 'noSuchMessage' },
      { type: 'open' },
      { type: 'open', ref: { kind: 'aoi' } },
      { type: 'showImagery', ref: null },
      { type: 'request', id: 'x', request: { method: 'searchOptions' } },
      { type: 'request', id: 7 },
      { type: 'cancelRequest' },
      { type: 'saveSearch', params: { kind: 'archive' } },
      { type: 'orderResults', items: 'all of them' },
      { type: 'clipProgress', requestId: 1, done: 'half' },
      { type: 'copyText', text: 12 },
      { type: 'imageryStatus', id: 'x' },
      { type: 'openExternal', url: { href: 'https://example.com' } },
    ];
    const posted = map.posted.length;
    try {
      // twice each: the second time is not logged again
      for (const m of [...malformed, ...malformed]) await map.receive(m);
      await new Promise((r) => setTimeout(r, 200));
    } finally {
      log.warn = warn;
      process.off('unhandledRejection', onRejection);
    }
    assert.deepEqual(rejections, [], 'no unhandled rejection');
    // (the page itself may be asking for the search form's options meanwhile)
    const ours = map.posted.slice(posted).filter((m) => {
      const x = m as { type: string; id?: unknown };
      return x.type === 'notice' || (x.type === 'response' && (x.id === 7 || x.id === 'x'));
    });
    assert.deepEqual(ours, [], 'nothing was answered or shown');
    const refusals = warned.filter((w) => /^map: ignored/.test(w));
    // one line per message type (every message of no known type shares one)
    const types = [
      'open',
      'showImagery',
      'request',
      'cancelRequest',
      'saveSearch',
      'orderResults',
      'clipProgress',
      'copyText',
      'imageryStatus',
      'openExternal',
    ];
    assert.equal(refusals.length, types.length + 1, refusals.join('\n'));
    for (const t of types) assert.equal(refusals.filter((w) => w.includes(`'${t}'`)).length, 1, `${t}: ${refusals.join('\n')}`);
    assert.equal(refusals.filter((w) => /no known type/.test(w)).length, 1);
    assert.ok(!vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => /eosearch/.test(t.label))), 'no Save Search dialog or file');
  });

  test('"Copy as CSV" puts the text on the clipboard, up to 64 KiB; a longer one is refused', async function () {
    await vscode.commands.executeCommand('eoImagery.showOnMap');
    const map = await mapProbe();
    const csv = 'band,wavelength_nm,lat 42.00000 lon 15.00000\nB04,665,0.0712\n';
    await vscode.env.clipboard.writeText('');
    await map.receive({ type: 'copyText', text: csv });
    assert.equal(await vscode.env.clipboard.readText(), csv);
    const largest = 'x'.repeat(64 * 1024);
    await map.receive({ type: 'copyText', text: largest });
    assert.equal((await vscode.env.clipboard.readText()).length, largest.length);
    await vscode.env.clipboard.writeText('kept');
    await map.receive({ type: 'copyText', text: `${largest}y` });
    assert.equal(await vscode.env.clipboard.readText(), 'kept', 'a text over 64 KiB does not reach the clipboard');
  });

  test('outside test mode the map serves the page as it ships: no test page, nothing said of tests', async function () {
    this.timeout(30_000);
    // the panels as a normal activation builds them: the same services, in production mode
    const services = sb.current.api.services;
    const context = new Proxy(services.context, {
      get: (target, key) => (key === 'extensionMode' ? vscode.ExtensionMode.Production : Reflect.get(target, key)),
    });
    const production = new Panels(
      { ...services, context },
      { revealInSidebar: async () => false, createAoi: async () => undefined, saveSearch: async () => undefined },
    );
    const panel = vscode.window.createWebviewPanel('eoImagery.map', 'EO Map', vscode.ViewColumn.One, {});
    try {
      await production.serializers['eoImagery.map'].deserializeWebviewPanel(panel, { center: [10, 20], zoom: 4 });
      const html = panel.webview.html;
      assert.match(html, /dist\/media\/map\.js/, 'the shipped page');
      assert.doesNotMatch(html, /testMedia/, 'not the test page');
      const roots = (panel.webview.options.localResourceRoots ?? []).map((u) => u.path);
      assert.ok(!roots.some((r) => /testMedia/.test(r)), roots.join(', '));
      const tapped = testPanels(production).map();
      assert.equal(tapped?.panel, panel);
      const init = await until("the production page's init", () => tapped?.posted.find((m) => (m as { type?: string }).type === 'init'));
      assert.equal('testing' in (init as object), false, 'the page is not told it runs for tests');
      assert.equal(production.currentMap()?.lastSearch, undefined);
      assert.ok(production.currentMap(), 'the map is open');
    } finally {
      production.dispose();
    }
  });

  test('the token is in no HTML and no message given to the webviews', function () {
    gather();
    assert.ok(everythingPosted.length > 20, `only ${everythingPosted.length} messages were seen`);
    assert.ok(htmls.length > 0);
    const token = sb.current.sandbox.tokens.alice;
    const text = JSON.stringify(everythingPosted) + htmls.join('\n');
    assert.ok(!text.includes(token), 'the token reached a webview');
    assert.ok(!/authorization|bearer/i.test(text), 'an auth header reached a webview');
    for (const h of htmls) assert.match(h, /default-src &#39;none&#39;; script-src &#39;nonce-/);
  });
});
