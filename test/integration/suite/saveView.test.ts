// "Save View to GeoTIFF…" through the command in a real extension host and webview: a COG on a
// loopback range server (made by GDAL), shown on the map; the command asks for bands and
// resolution, offers a name that names the scene and its date, and writes a file GDAL reads
// with the scene's CRS, pixel size and values. Nothing but the finished file is left behind.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { testPanels, type PanelProbe } from '../support/webviewTap';
import { useSandbox } from '../harness/sandbox';
import { ScriptedPrompts } from '../support/scriptedPrompts';
import { runScripted } from './ordersSupport';
import { until } from '../support/until';

suite('Save View to GeoTIFF', () => {
  const sb = useSandbox();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-saveview-'));
  let scene: { file: string; corners: [[number, number], [number, number]]; points: Record<string, [number, number]>; values: Record<string, number[]> };
  let server: http.Server;
  let url: string;
  const ranges: string[] = [];

  suiteSetup(async () => {
    const script = path.join(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'imagery', 'make_scene.py');
    scene = JSON.parse(execFileSync('/usr/bin/python3', [script, path.join(tmp, 'scene.tif'), '--size', '512'], { encoding: 'utf8' }));
    const body = fs.readFileSync(scene.file);
    server = http.createServer((req, res) => {
      const m = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
      if (!m) {
        res.writeHead(200, { 'content-type': 'image/tiff', 'content-length': body.length }).end(body);
        return;
      }
      ranges.push(req.headers.range as string);
      const a = Number(m[1]);
      const b = Math.min(Number(m[2]), body.length - 1);
      res
        .writeHead(206, { 'content-type': 'image/tiff', 'content-range': `bytes ${a}-${b}/${body.length}`, 'content-length': b - a + 1 })
        .end(body.subarray(a, b + 1));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/scene.tif`;
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await new Promise((r) => server.close(r));
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  test("writes the view's window of the chosen bands, named after the scene and date, that GDAL reads", async function () {
    this.timeout(90_000);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const [[w, n], [e, s]] = scene.corners;
    const item = {
      type: 'Feature',
      stac_version: '1.0.0',
      id: 'S2B_MSIL2A_20250601_T33TUG',
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
      properties: { datetime: '2025-06-01T10:00:00Z', title: 'Sentinel-2B over Abruzzo', 'proj:epsg': 32633 },
      assets: {
        data: {
          href: url,
          type: 'image/tiff; application=geotiff; profile=cloud-optimized',
          roles: ['data'],
          'eo:bands': ['B02', 'B03', 'B04', 'B08'].map((name, i) => ({
            name,
            common_name: ['blue', 'green', 'red', 'nir'][i],
            center_wavelength: [0.49, 0.56, 0.665, 0.842][i],
          })),
          'raster:bands': [0, 1, 2, 3].map(() => ({ nodata: 0, scale: 0.0001 })),
        },
      },
      links: [],
    };
    await vscode.commands.executeCommand('eoImagery.showImagery', item);
    const panels = testPanels(sb.current.api.services.panels);
    const map: PanelProbe = await until('the map panel', () => panels.map());
    await map.whenReady();
    await until(
      'the layer drawn',
      () => ((map.imageryReports ?? []) as { state: string; drawn: boolean }[]).find((r) => r.state === 'ready' && r.drawn),
      60_000,
    );
    const target = vscode.Uri.file(path.join(tmp, 'clip.tif'));
    let suggested: string | undefined;
    const prompts = new ScriptedPrompts([
      { kind: 'pickMany', match: /bands/, choose: ['B04', 'B08'] },
      { kind: 'pick', match: /resolution/, choose: 'Full resolution' },
      {
        kind: 'saveDialog',
        match: /Save View to GeoTIFF/,
        answer: (s) => {
          suggested = s ? path.basename(s.fsPath) : undefined;
          return target;
        },
      },
    ]);
    const saved = await runScripted<vscode.Uri | undefined>(sb.current, prompts, 'eoImagery.saveViewGeoTiff');
    prompts.assertDone();
    assert.deepEqual(
      prompts.messages.filter((m) => m.severity === 'error'),
      [],
    );
    assert.equal(saved?.fsPath, target.fsPath);
    // the scene's title and date, no id
    assert.equal(suggested, 'Sentinel-2B over Abruzzo 2025-06-01 clip.tif');
    assert.deepEqual(
      fs.readdirSync(tmp).filter((f) => f.endsWith('.part')),
      [],
      'no temporary file left',
    );
    const info = JSON.parse(execFileSync('gdalinfo', ['-json', target.fsPath], { encoding: 'utf8' })) as {
      bands: { description: string }[];
      geoTransform: number[];
      coordinateSystem: { wkt: string };
    };
    assert.deepEqual(
      info.bands.map((b) => b.description),
      ['B04', 'B08'],
    );
    assert.match(info.coordinateSystem.wkt, /ID\["EPSG",32633\]\]$/);
    assert.equal(info.geoTransform[1], 10);
    for (const k of ['vegetation', 'bare']) {
      const [lon, lat] = scene.points[k];
      const vals = execFileSync('gdallocationinfo', ['-valonly', '-wgs84', target.fsPath, String(lon), String(lat)], { encoding: 'utf8' })
        .trim()
        .split('\n')
        .map(Number);
      assert.deepEqual(vals, [scene.values[k][2], scene.values[k][3]], k);
    }
    assert.ok(ranges.length > 0, 'the file was read by ranges');
  });

  test('an AOI asset saved with the extent "The AOI" is its polygon\'s window, no-data outside the polygon, as GDAL burns it', async function () {
    this.timeout(90_000);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const [[w, n], [e, s]] = scene.corners;
    const at = (a: number, b: number): [number, number] => [w + a * (e - w), n - b * (n - s)];
    // the AOI: a pentagon over the scene's vegetation, water and bare-soil quadrants
    const polygon = { type: 'Polygon', coordinates: [[at(0.1, 0.1), at(0.8, 0.1), at(0.45, 0.9), at(0.1, 0.9), at(0.05, 0.5), at(0.1, 0.1)]] };
    // an asset record as the service lists it under an AOI (the row's argument)
    const asset = {
      id: 'mosaic-1',
      aoi_id: 'aoi-abruzzo',
      visualization_id: '',
      name: 'Abruzzo fields mosaic',
      description: '',
      asset_type: 'mosaic',
      band_list: ['B02', 'B03', 'B04', 'B08'],
      centroid: at(0.4, 0.5),
      geometry: polygon,
      area_in_sq_m: 0,
      date: '2025-06-01',
      path: url,
      progress: 100,
      status: 'ready',
      created_at: '2025-06-02 10:00:00.000000+00:00',
      updated_at: '2025-06-02 10:00:00.000000+00:00',
    };
    await vscode.commands.executeCommand('eoImagery.showImagery', { kind: 'asset', record: asset });
    const panels = testPanels(sb.current.api.services.panels);
    const map: PanelProbe = await until('the map panel', () => panels.map());
    await map.whenReady();
    await until(
      'the mosaic drawn',
      () =>
        ((map.imageryReports ?? []) as { id: string; state: string; drawn: boolean }[]).find(
          (r) => r.id === 'asset:aoi-abruzzo/mosaic-1' && r.state === 'ready' && r.drawn,
        ),
      60_000,
    );
    const target = vscode.Uri.file(path.join(tmp, 'aoi.tif'));
    let full: vscode.QuickPickItem | undefined;
    const prompts = new ScriptedPrompts([
      { kind: 'pickMany', match: /bands/, choose: ['B04', 'B08'] },
      { kind: 'pick', match: /extent/, choose: 'The AOI' },
      { kind: 'pick', match: /resolution/, choose: (items) => (full = items.find((i) => i.label.startsWith('Full resolution'))) },
      { kind: 'saveDialog', match: /Save View to GeoTIFF/, answer: target },
    ]);
    await runScripted(sb.current, prompts, 'eoImagery.saveViewGeoTiff');
    prompts.assertDone();
    assert.deepEqual(
      prompts.messages.filter((m) => m.severity === 'error'),
      [],
    );
    assert.deepEqual(prompts.seen.find((p) => /extent/.test(p.label))?.items, ['The view', 'The AOI'], 'the view or the AOI is offered');
    const script = path.join(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'imagery', 'check_masked_clip.py');
    const truth = JSON.parse(execFileSync('/usr/bin/python3', [script, scene.file, target.fsPath, JSON.stringify(polygon), '0'], { encoding: 'utf8' })) as {
      expected: { size: [number, number]; geoTransform: number[] };
      counts: { inside: number; outside: number; outsideWithData: number };
      maskFlags: number[];
      wrong: number[][];
      wrongCount: number;
    };
    const info = JSON.parse(execFileSync('gdalinfo', ['-json', target.fsPath], { encoding: 'utf8' })) as {
      size: [number, number];
      geoTransform: number[];
      coordinateSystem: { wkt: string };
    };
    assert.match(info.coordinateSystem.wkt, /ID\["EPSG",32633\]\]$/);
    assert.deepEqual(info.size, truth.expected.size, "the polygon's bounding window, not the view's");
    info.geoTransform.forEach((v, i) =>
      assert.ok(Math.abs(v - truth.expected.geoTransform[i]) < 1e-6, `geotransform ${info.geoTransform} vs ${truth.expected.geoTransform}`),
    );
    assert.deepEqual(truth.maskFlags, [8, 8], 'GDAL masks by the no-data value');
    // the resolution picker told the size of what it saved (the AOI's window), not the view's
    assert.match(full?.description ?? '', new RegExp(`^${truth.expected.size[0]} × ${truth.expected.size[1]} pixels, about `), `picked ${full?.description}`);
    assert.ok(truth.counts.inside > 1000 && truth.counts.outsideWithData > 1000, JSON.stringify(truth.counts));
    assert.equal(truth.wrongCount, 0, `pixels neither the scene's value inside nor no-data outside: ${JSON.stringify(truth.wrong)}`);
    const valuesAt = (p: [number, number]) =>
      execFileSync('gdallocationinfo', ['-valonly', '-wgs84', target.fsPath, String(p[0]), String(p[1])], { encoding: 'utf8' })
        .trim()
        .split('\n')
        .map(Number);
    assert.deepEqual(valuesAt(scene.points.vegetation), [scene.values.vegetation[2], scene.values.vegetation[3]], 'vegetation, inside the AOI');
    assert.deepEqual(valuesAt(at(0.7, 0.8)), [0, 0], 'roofs, outside the AOI but inside its window');
  });
});
