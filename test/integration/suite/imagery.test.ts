// Imagery on the map in a real extension host and webview: "Show Imagery" from an archive row,
// from the STAC page and from a visualization; a COG on another host (a loopback range server
// here, made by GDAL) drawn through the extension's byte reads; problems end in a row of the
// layer list; the serializer brings the layers back. What the webview drew is seen through its
// `imageryStatus` reports (ready + drawn, or error + text); the token never reaches it.
import * as assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ExplorerApi } from '../../../src/explorer';
import type { ExplorerNode } from '../../../src/explorer/tree';
import type { ImageryLayerSpec } from '../../../src/panels/imagery/protocol';
import { testPanels, type PanelProbe, type PanelsApi } from '../support/webviewTap';
import { useSandbox } from '../harness/sandbox';
import { until } from '../support/until';

type RecordNode = ExplorerNode & { record: Record<string, unknown>; recordId: string };
type Report = { id: string; state: 'ready' | 'error'; text?: string; drawn: boolean; decode?: string };

interface ServerOpts {
  /** Answer every request with this status (e.g. 404). */
  status?: number;
  /** Ignore `Range`: send the whole file, with its length or (`chunked`) without, padded with zeros to `padTo` bytes. */
  ignoreRange?: { chunked?: boolean; padTo?: number };
  /** Never answer a range that starts after byte 0 (a stalled server). */
  holdAfterHeader?: boolean;
}

/** A loopback file server with HTTP Range (what an asset host does), counting requests and connections closed before the answer ended. */
async function rangeServer(
  file: string,
  opts: ServerOpts = {},
): Promise<{ url: string; ranges: string[]; auth: (string | undefined)[]; held: number; cut: number; close(): Promise<void> }> {
  const body = fs.readFileSync(file);
  const ranges: string[] = [];
  const auth: (string | undefined)[] = [];
  const stats = { held: 0, cut: 0 };
  const server = http.createServer((req, res) => {
    auth.push(req.headers.authorization);
    res.on('close', () => {
      if (!res.writableFinished) stats.cut++;
    });
    if (opts.status) {
      res.writeHead(opts.status, { 'content-type': 'text/plain' }).end('no such file');
      return;
    }
    const m = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
    if (!m || opts.ignoreRange) {
      const size = Math.max(body.length, opts.ignoreRange?.padTo ?? 0);
      res.writeHead(200, { 'content-type': 'image/tiff', ...(opts.ignoreRange?.chunked ? {} : { 'content-length': size }) });
      // in 1 MiB pieces, as a file server streams
      let at = 0;
      const more = (): void => {
        while (at < size && !res.destroyed) {
          const piece = Buffer.alloc(Math.min(1 << 20, size - at));
          if (at < body.length) body.copy(piece, 0, at, Math.min(body.length, at + piece.length));
          at += piece.length;
          if (!res.write(piece)) {
            res.once('drain', more);
            return;
          }
        }
        if (!res.destroyed) res.end();
      };
      more();
      return;
    }
    ranges.push(req.headers.range as string);
    const a = Number(m[1]);
    if (opts.holdAfterHeader && a > 0) {
      stats.held++;
      return;
    }
    if (a >= body.length) {
      res.writeHead(416, { 'content-range': `bytes */${body.length}` }).end();
      return;
    }
    const b = Math.min(Number(m[2]), body.length - 1);
    res.writeHead(206, {
      'content-type': 'image/tiff',
      'accept-ranges': 'bytes',
      'content-range': `bytes ${a}-${b}/${body.length}`,
      'content-length': b - a + 1,
    });
    res.end(body.subarray(a, b + 1));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/scene.tif`,
    ranges,
    auth,
    get held() {
      return stats.held;
    },
    get cut() {
      return stats.cut;
    },
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** Class colours as the interface writes them (#rgb, #rgba, #rrggbb, #rrggbbaa) → RGBA. */
function hexRgba(c: string): number[] {
  let h = c.replace('#', '');
  if (h.length <= 4) h = [...h].map((x) => x + x).join('');
  if (h.length === 6) h += 'ff';
  return [0, 2, 4, 6].map((i) => parseInt(h.slice(i, i + 2), 16));
}

suite('imagery layers on the map', () => {
  const sb = useSandbox();
  let explorer: ExplorerApi;
  let panels: PanelsApi;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-imagery-suite-'));
  let scene: { file: string; corners: [[number, number], [number, number]] };
  /** Textured: its tiles are big enough to lie past its header block. */
  let noisy: { file: string; corners: [[number, number], [number, number]] };

  suiteSetup(() => {
    explorer = sb.current.api.services.explorer as ExplorerApi;
    panels = testPanels(sb.current.api.services.panels);
    const script = path.join(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'imagery', 'make_scene.py');
    scene = JSON.parse(execFileSync('/usr/bin/python3', [script, path.join(tmp, 'scene.tif'), '--size', '512'], { encoding: 'utf8' }));
    noisy = JSON.parse(execFileSync('/usr/bin/python3', [script, path.join(tmp, 'noisy.tif'), '--noise'], { encoding: 'utf8' }));
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  async function mapProbe(): Promise<PanelProbe> {
    const probe = await until('the map panel', () => panels.map());
    await probe.whenReady();
    return probe;
  }

  function reports(probe: PanelProbe, id: string): Report[] {
    return ((probe.imageryReports ?? []) as Report[]).filter((r) => r.id === id);
  }

  function settled(probe: PanelProbe, id: string, timeoutMs = 30_000): Promise<Report> {
    return until(`the webview's report on imagery layer ${id}`, () => reports(probe, id).at(-1), timeoutMs);
  }

  function specOf(probe: PanelProbe, id: string): ImageryLayerSpec | undefined {
    return probe.posted.map((m) => m as { type: string; spec?: ImageryLayerSpec }).find((m) => m.type === 'imagery' && m.spec?.id === id)?.spec;
  }

  const item = (href: string, corners: [[number, number], [number, number]], id = 'synthetic-1') => {
    const [[w, n], [e, s]] = corners;
    return {
      type: 'Feature',
      stac_version: '1.0.0',
      id,
      collection: 'test-collection',
      bbox: [w, s, e, n],
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [w, s],
            [e, s],
            [e, n],
            [w, n],
            [w, s],
          ],
        ],
      },
      properties: { datetime: '2025-06-01T10:00:00Z', title: 'Synthetic scene', 'proj:epsg': 32633 },
      assets: {
        data: {
          href,
          type: 'image/tiff; application=geotiff; profile=cloud-optimized',
          roles: ['data'],
          'eo:bands': [
            { name: 'B02', common_name: 'blue' },
            { name: 'B03', common_name: 'green' },
            { name: 'B04', common_name: 'red' },
            { name: 'B08', common_name: 'nir' },
          ],
          'raster:bands': [
            { nodata: 0, scale: 0.0001 },
            { nodata: 0, scale: 0.0001 },
            { nodata: 0, scale: 0.0001 },
            { nodata: 0, scale: 0.0001 },
          ],
        },
      },
      links: [],
    };
  };

  test('a COG on another host is drawn from range reads through the extension, without the token', async function () {
    this.timeout(60_000);
    const srv = await rangeServer(scene.file);
    try {
      await vscode.commands.executeCommand('eoImagery.showImagery', item(srv.url, scene.corners));
      const map = await mapProbe();
      const spec = specOf(map, 'archive:test-collection/synthetic-1');
      assert.ok(spec, 'no imagery layer was sent to the map');
      assert.equal(spec.url, srv.url);
      assert.deepEqual(
        spec.bands.map((b) => b.commonName),
        ['blue', 'green', 'red', 'nir'],
      );
      const r = await settled(map, spec.id);
      assert.deepEqual({ state: r.state, text: r.text, drawn: r.drawn }, { state: 'ready', text: undefined, drawn: true });
      // code-server's webview lets the map start its decoder workers from blob URLs
      assert.equal(r.decode, 'worker');
      assert.ok(srv.ranges.length > 0, 'the file was read by ranges');
      assert.ok(
        srv.auth.every((a) => a === undefined),
        'the token went to another host',
      );
      assert.equal(srv.ranges.length, srv.auth.length, 'every request was a range request');
      const responses = map.posted.filter((m) => (m as { type: string; ok?: boolean }).type === 'response');
      assert.ok(responses.length >= srv.ranges.length, 'bytes went back to the webview as responses');
    } finally {
      await srv.close();
    }
  });

  test('Show Imagery from an Archive row draws its data COG read through the extension with the token', async function () {
    this.timeout(60_000);
    const collections = (await explorer.providers.archive.getChildren(undefined)).filter((n) => n.kind === 'collection');
    const items = (await explorer.providers.archive.getChildren(collections[0])).filter((n): n is RecordNode => n.kind === 'archiveItem');
    assert.ok(items.length > 0, 'the first collection has no items');
    await vscode.commands.executeCommand('eoImagery.showImagery', items[0]);
    const map = await mapProbe();
    const id = `archive:${String(items[0].record.collection)}/${items[0].recordId}`;
    const spec = await until('the archive item as an imagery layer', () => specOf(map, id));
    assert.match(spec.url, /^https?:\/\//);
    // the sandbox serves the item's data COG on its own host, behind the token
    assert.ok(spec.url.startsWith(sb.current.sandbox.url), `the data asset ${spec.url} is not on the sandbox host`);
    assert.ok(
      spec.bands.some((b) => b.commonName === 'red'),
      'the bands come from eo:bands',
    );
    const r = await settled(map, id, 45_000);
    assert.deepEqual({ state: r.state, drawn: r.drawn }, { state: 'ready', drawn: true }, r.text);
  });

  test('Show imagery on the STAC page draws the item on the map', async function () {
    this.timeout(60_000);
    const collections = (await explorer.providers.archive.getChildren(undefined)).filter((n) => n.kind === 'collection');
    const first = (await explorer.providers.archive.getChildren(collections[0])).find((n): n is RecordNode => n.kind === 'archiveItem');
    assert.ok(first);
    await vscode.commands.executeCommand('eoImagery.openStacItem', first);
    const key = `${String(first.record.collection)}/${first.recordId}`;
    const stac = await until('the STAC panel', () => panels.stacItems().get(key));
    await stac.whenReady();
    await until('the item on the STAC page', () => stac.posted.some((m) => (m as { type: string }).type === 'item'));
    const before = panels.map()?.posted.length ?? 0;
    await stac.receive({ type: 'action', action: 'showImagery' });
    const map = await mapProbe();
    await until(
      'the imagery layer from the STAC page',
      () =>
        map.posted
          .slice(before)
          .some((m) => (m as { type: string; spec?: ImageryLayerSpec }).type === 'imagery' && (m as { spec: ImageryLayerSpec }).spec.id === `archive:${key}`) ||
        undefined,
    );
  });

  test('an index visualization becomes an index layer over its source mosaic with its colour map, or a note saying why it cannot', async function () {
    this.timeout(60_000);
    const projects = await explorer.providers.projects.getChildren(undefined);
    let vis: RecordNode | undefined;
    for (const p of projects) {
      for (const aoi of (await explorer.providers.projects.getChildren(p)).filter((n) => n.kind === 'aoi')) {
        const group = (await explorer.providers.projects.getChildren(aoi)).find((n) => n.kind === 'visualizationGroup');
        vis =
          group &&
          (await explorer.providers.projects.getChildren(group)).find(
            (n): n is RecordNode => n.kind === 'visualization' && (n as RecordNode).record.expression_type === 'index',
          );
        if (vis) break;
      }
      if (vis) break;
    }
    assert.ok(vis, 'no index visualization row in the Projects view');
    await vscode.commands.executeCommand('eoImagery.showImagery', vis);
    const map = await mapProbe();
    const id = `visualization:${String(vis.record.aoi_id)}/${vis.recordId}`;
    const sent = await until('the visualization on the map', () =>
      map.posted
        .map((m) => m as { type: string; id?: string; spec?: ImageryLayerSpec; text?: string })
        .find((m) => (m.type === 'imagery' && m.spec?.id === id) || (m.type === 'imageryNote' && m.id === id)),
    );
    if (sent.type === 'imageryNote') {
      assert.match(sent.text ?? '', /s3:\/\/|gs:\/\/|http\(s\)/, 'the note says why the file cannot be read');
    } else {
      const render = sent.spec?.render;
      assert.equal(render?.kind, 'index');
      const rescale = vis.record.rescale as number[];
      if (render?.kind === 'index' && rescale.length >= 2 && rescale[0] !== rescale[1]) assert.deepEqual(render.rescale, rescale.slice(0, 2));
      assert.ok(sent.spec?.clip, 'clipped to the AOI');
      const r = await settled(map, id, 45_000);
      assert.equal(r.state, 'ready', r.text);
    }
  });

  test('a reloaded map draws its imagery layers again', async function () {
    this.timeout(60_000);
    const srv = await rangeServer(scene.file);
    try {
      const spec: ImageryLayerSpec = {
        id: 'restored',
        title: 'Restored scene',
        url: srv.url,
        bands: [{ name: 'B02' }, { name: 'B03' }, { name: 'B04' }, { name: 'B08' }],
        render: { kind: 'index', expression: '(B08-B04)/(B08+B04)', rescale: [-1, 1], colormap: 'RdYlGn', legendTitle: 'NDVI' },
        source: { kind: 'url', url: srv.url },
        opacity: 0.8,
      };
      // the extension put the file on the map before the reload (a revived map reads no other)
      sb.current.api.services.panels.showMap().showImagery(spec, { fit: false });
      panels.map()?.panel.dispose();
      const restored = vscode.window.createWebviewPanel('eoImagery.map', 'EO Map', vscode.ViewColumn.One, {});
      await panels.serializers['eoImagery.map'].deserializeWebviewPanel(restored, { center: [42, 15], zoom: 10, imagery: [spec] });
      const map = await mapProbe();
      // A restored layer may settle once before the restored view is applied (nothing of it in
      // view yet); what counts is that it then draws, or says why not.
      const r = await until('the restored layer drawn or failed', () => reports(map, 'restored').find((x) => x.drawn || x.state === 'error'), 45_000);
      assert.deepEqual({ state: r.state, drawn: r.drawn }, { state: 'ready', drawn: true }, r.text);
      assert.ok(srv.ranges.length > 0);
    } finally {
      await srv.close();
    }
  });

  test("a revived map reads only the files the extension put on it, not whatever the webview's saved state names", async function () {
    this.timeout(60_000);
    const shown = await rangeServer(scene.file);
    const foreign = await rangeServer(scene.file);
    try {
      const spec = (id: string, url: string): ImageryLayerSpec => ({
        id,
        title: id,
        url,
        bands: [],
        render: { kind: 'rgb', bands: ['', '', ''] },
        source: { kind: 'url', url },
      });
      panels.map()?.panel.dispose();
      sb.current.api.services.panels.showMap().showImagery(spec('shown', shown.url), { fit: false });
      panels.map()?.panel.dispose();
      // the saved state is the page's to write: it names a file the extension never showed
      const restored = vscode.window.createWebviewPanel('eoImagery.map', 'EO Map', vscode.ViewColumn.One, {});
      await panels.serializers['eoImagery.map'].deserializeWebviewPanel(restored, {
        center: [42, 15],
        zoom: 10,
        imagery: [spec('shown', shown.url), spec('foreign', foreign.url)],
      });
      const map = await mapProbe();
      type Response = { type: string; id: number; ok: boolean; error?: { message: string } };
      const read = async (id: number, url: string): Promise<Response> => {
        await map.receive({ type: 'request', id, request: { method: 'readBytes', params: { url, offset: 0, length: 16 } } });
        return until(`the answer to request ${id}`, () =>
          map.posted.find((m): m is Response => (m as Response).type === 'response' && (m as Response).id === id),
        );
      };
      const mine = await read(900_001, shown.url);
      assert.equal(mine.ok, true, mine.error?.message);
      const theirs = await read(900_002, foreign.url);
      assert.equal(theirs.ok, false);
      assert.match(theirs.error?.message ?? '', /not put on the map by the extension/);
      // the page's own attempt at the foreign layer ends in its row, and nothing reached that host
      const refused = await until('the foreign layer refused', () => reports(map, 'foreign').find((r) => r.state === 'error'));
      assert.match(refused.text ?? '', /not put on the map by the extension/);
      assert.equal(foreign.ranges.length, 0, 'the foreign file was never read');

      // a new map (not revived) starts a new list: nothing of the old one is readable
      panels.map()?.panel.dispose();
      sb.current.api.services.panels.showMap();
      const fresh = await mapProbe();
      await fresh.receive({ type: 'request', id: 900_003, request: { method: 'readBytes', params: { url: shown.url, offset: 0, length: 16 } } });
      const again = await until('the answer to request 900003', () =>
        fresh.posted.find((m): m is Response => (m as Response).type === 'response' && (m as Response).id === 900_003),
      );
      assert.equal(again.ok, false);
      assert.match(again.error?.message ?? '', /not put on the map by the extension/);
    } finally {
      await shown.close();
      await foreign.close();
    }
  });

  /** Shows `href` as a synthetic archive item's data COG and waits for the webview's verdict. */
  async function showFile(href: string, id: string, corners = scene.corners): Promise<Report> {
    await vscode.commands.executeCommand('eoImagery.showImagery', item(href, corners, id));
    const map = await mapProbe();
    return settled(map, `archive:test-collection/${id}`, 45_000);
  }

  test('a raster insight output is drawn in the class colours its properties declare, with its legend', async function () {
    this.timeout(90_000);
    const projects = explorer.providers.projects;
    let node:
      (ExplorerNode & { output: { name: string; value: string; properties: Record<string, unknown> }; run: { aoi: { geometry: unknown } } }) | undefined;
    for (const p of await projects.getChildren(undefined)) {
      for (const aoi of (await projects.getChildren(p)).filter((n) => n.kind === 'aoi')) {
        const group = (await projects.getChildren(aoi)).find((n) => n.kind === 'insightRunGroup');
        for (const run of group ? await projects.getChildren(group) : []) {
          if (run.kind !== 'insightRun') continue;
          node = (await projects.getChildren(run)).find(
            (o): o is NonNullable<typeof node> => o.kind === 'insightOutput' && (o as NonNullable<typeof node>).output.name === 'land_cover',
          );
          if (node) break;
        }
        if (node) break;
      }
      if (node) break;
    }
    assert.ok(node, 'the sandbox seeds no finished run with a land_cover raster output');
    const declared = (node.output.properties.visualisation as { discrete: Record<string, string> }).discrete;
    // where GDAL reads each class in the output file (its values are what the properties describe)
    const script = path.join(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'imagery', 'class_points.py');
    // (not execFileSync: the sandbox serving the file runs in this extension host's event loop)
    // output files need the token, as every path of the service
    const { stdout } = await promisify(execFile)('/usr/bin/python3', [script, node.output.value], {
      encoding: 'utf8',
      env: { ...process.env, GDAL_HTTP_HEADERS: `Authorization: Bearer ${sb.current.sandbox.tokens.alice}` },
    });
    const truth = JSON.parse(stdout) as { points: Record<string, [number, number]> };
    const values = Object.keys(truth.points);
    assert.ok(values.length >= 2, `GDAL finds too few classes: ${values.join(', ')}`);
    for (const v of values) assert.ok(declared[v], `value ${v} in the file is not a class of the output's properties`);

    const id = await vscode.commands.executeCommand<string>('eoImagery.showInsightOutputOnMap', node);
    const map = await mapProbe();
    const spec = specOf(map, id);
    assert.ok(spec, 'the output was not sent to the map as an imagery layer');
    assert.equal(spec.render.kind, 'classes');
    assert.deepEqual(spec.outline, node.run.aoi.geometry, "the run's AOI is outlined with its output");
    const r = await settled(map, id, 45_000);
    assert.deepEqual({ state: r.state, drawn: r.drawn }, { state: 'ready', drawn: true }, r.text);
    assert.ok(map.imageryPixels, 'the map answers pixel read-backs');
    const pixels = await map.imageryPixels(values.map((v) => truth.points[v]));
    values.forEach((v, i) => {
      const want = hexRgba(declared[v]);
      const got = pixels[i];
      assert.ok(
        want.every((c, k) => Math.abs(c - got[k]) <= 2),
        `class ${v} at ${truth.points[v].join(', ')}: drew rgba(${got.join(', ')}), declared ${declared[v]}`,
      );
    });
  });

  test('a 404 and a truncated file each end in a row saying why', async function () {
    this.timeout(90_000);
    const missing = await rangeServer(scene.file, { status: 404 });
    try {
      const r = await showFile(missing.url, 'missing');
      assert.equal(r.state, 'error');
      assert.match(r.text ?? '', /\(404\): the file does not exist/);
    } finally {
      await missing.close();
    }
    // a file cut short after its header: the tiles it points to are past its end
    const cut = path.join(tmp, 'cut.tif');
    fs.writeFileSync(cut, fs.readFileSync(noisy.file).subarray(0, 200_000));
    const truncated = await rangeServer(cut);
    try {
      const r = await showFile(truncated.url, 'truncated', noisy.corners);
      assert.equal(r.state, 'error');
      assert.match(r.text ?? '', /truncated/);
    } finally {
      await truncated.close();
    }
  });

  test('a server that ignores Range: a small file is read once and drawn, a big one is stopped at 50 MB with the reason', async function () {
    this.timeout(90_000);
    const small = await rangeServer(scene.file, { ignoreRange: {} });
    try {
      const r = await showFile(small.url, 'whole-small');
      assert.deepEqual({ state: r.state, drawn: r.drawn }, { state: 'ready', drawn: true }, r.text);
      assert.equal(small.auth.length, 1, 'the whole file was read once and served from memory');
    } finally {
      await small.close();
    }
    const big = await rangeServer(scene.file, { ignoreRange: { chunked: true, padTo: 80 * 1024 * 1024 } });
    try {
      const r = await showFile(big.url, 'whole-big');
      assert.equal(r.state, 'error');
      assert.match(r.text ?? '', /ignores range requests and sent more than 52\.4 MB; reading stopped there/);
      await until('the server to see the read stopped', () => big.cut > 0 || undefined, 10_000);
    } finally {
      await big.close();
    }
  });

  test('showing a layer again while a stalled server holds its tiles aborts those reads: the server sees the connections closed', async function () {
    this.timeout(90_000);
    const slow = await rangeServer(noisy.file, { holdAfterHeader: true });
    try {
      await vscode.commands.executeCommand('eoImagery.showImagery', item(slow.url, noisy.corners, 'stalled'));
      await mapProbe();
      const held = await until('tile reads held by the server', () => slow.held || undefined, 30_000);
      assert.equal(slow.cut, 0);
      // the same item again replaces its layer: the old layer's reads are cancelled
      await vscode.commands.executeCommand('eoImagery.showImagery', item(slow.url, noisy.corners, 'stalled'));
      await until(`the ${held} held connections closed`, () => slow.cut >= held || undefined, 15_000);
    } finally {
      await slow.close();
    }
  });

  test('the token is in no message given to the map', () => {
    const map = panels.map();
    assert.ok(map);
    const text = JSON.stringify(map.posted.filter((m) => (m as { type: string }).type !== 'response'));
    assert.ok(!text.includes(sb.current.sandbox.tokens.alice));
  });
});
