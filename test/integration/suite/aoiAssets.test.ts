// The service's rendering of a visualization and AOI asset downloads, from the Projects view
// in a real extension host against the sandbox. The PNG's colours are checked against the
// index's definition (its expression over the ground's reflectance, its rescale and colour
// map); the downloaded file is read by GDAL.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Asset, Index } from '../../../src/api';
import { colormapLut } from '../../../src/api/colormaps';
import type { AssetDownloadOutcome } from '../../../src/commands/assets/downloadAssets';
import type { ServiceRendering } from '../../../src/commands/visualizations/showServiceRendering';
import type { ExplorerApi } from '../../../src/explorer';
import type { ExplorerNode } from '../../../src/explorer/tree';
import { testPanels } from '../support/webviewTap';
import { indexValueAt } from '../../../src/sandbox/imagery/indexPng';
import { decodePng, pixel } from '../../unit/contract/pngDecode';
import { useSandbox } from '../harness/sandbox';
import { ScriptedPrompts } from '../support/scriptedPrompts';
import { client, runScripted, runWhileAdvancing } from './ordersSupport';
import { until } from '../support/until';

type RecordNode = ExplorerNode & { record: Record<string, unknown>; recordId: string };

suite('AOI assets: the service’s rendering on the map, and downloads', function () {
  this.timeout(120_000);
  const sb = useSandbox();
  let explorer: ExplorerApi;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-aoi-assets-'));

  suiteSetup(() => {
    explorer = sb.current.api.services.explorer as ExplorerApi;
  });
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  /** Rows of every AOI of the Projects view, with the rows of one group kind under each. */
  async function rowsUnder(groupKind: string, rowKind: string): Promise<{ aoi: RecordNode; rows: RecordNode[] }[]> {
    const out: { aoi: RecordNode; rows: RecordNode[] }[] = [];
    for (const p of await explorer.providers.projects.getChildren(undefined)) {
      for (const aoi of (await explorer.providers.projects.getChildren(p)).filter((n): n is RecordNode => n.kind === 'aoi')) {
        const group = (await explorer.providers.projects.getChildren(aoi)).find((n) => n.kind === groupKind);
        const rows = group ? (await explorer.providers.projects.getChildren(group)).filter((n): n is RecordNode => n.kind === rowKind) : [];
        out.push({ aoi, rows });
      }
    }
    return out;
  }

  test('Show Service Rendering on Map: the newest date, theoretical range; the picture has the colour map’s colours for the index’s values', async () => {
    const found = (await rowsUnder('visualizationGroup', 'visualization'))
      .filter(({ aoi }) => aoi.record.satellite_id === 'sentinel-2')
      .flatMap(({ aoi, rows }) => rows.filter((r) => /^preset-ndvi-/.test(String(r.record.index_id))).map((vis) => ({ aoi, vis })))[0];
    assert.ok(found, 'no Sentinel-2 NDVI visualization row');
    const { aoi, vis } = found;
    const c = await client(sb.current);
    const index = (await c.indices.listPage({ index_id: String(vis.record.index_id) })).items[0] as Index;
    const assets: Asset[] = (await c.aois.assetsPage(String(aoi.record.aoi_id), { limit: 100 })).items;
    const newest = [...new Set(assets.filter((a) => a.visualization_id === vis.recordId).map((a) => a.date))].sort().at(-1) as string;
    const prompts = new ScriptedPrompts([
      {
        kind: 'pick',
        match: /Date of the imagery/,
        choose: (items) => {
          assert.equal(items[0].label, newest, 'the newest date is not first');
          assert.ok(
            items.every((i) => /^\d{4}-\d{2}-\d{2}$/.test(i.label)),
            'dates are not ISO dates',
          );
          return items[0];
        },
      },
      { kind: 'pick', match: /Which legend/, choose: 'Theoretical range' },
    ]);
    const out = await runScripted<ServiceRendering | undefined>(sb.current, prompts, 'eoImagery.showServiceRendering', vis);
    prompts.assertDone();
    assert.ok(out, 'nothing was shown');
    assert.equal(out.spec.render.kind, 'png');
    if (out.spec.render.kind !== 'png') return;
    assert.equal(out.spec.render.legend.colormap, index.colormap);
    assert.deepEqual(out.spec.render.legend.range, index.rescale.slice(0, 2));
    const png = decodePng(Buffer.from(out.spec.render.dataUrl.replace(/^data:image\/png;base64,/, ''), 'base64'));
    assert.deepEqual([png.width, png.height], [out.width, out.height]);

    // The index's definition: its expression over the ground's reflectance, scaled by its
    // rescale onto its colour map. Pixels inside a uniform patch (a field, a lake) only, where
    // the picture's sampling and the ground's value at the pixel's centre agree.
    const lut = colormapLut(index.colormap) as Uint8ClampedArray;
    const [lo, hi] = index.rescale;
    const [w, s, e, n] = out.spec.bbox as [number, number, number, number];
    const mercY = (lat: number) => Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360));
    const lonLat = (x: number, y: number): [number, number] => {
      const my = mercY(n) - ((y + 0.5) / png.height) * (mercY(n) - mercY(s));
      return [w + ((x + 0.5) / png.width) * (e - w), (Math.atan(Math.sinh(my)) * 180) / Math.PI];
    };
    const aoiRec = sb.current.sandbox.state.aois.find((a) => a.aoi_id === aoi.record.aoi_id);
    assert.ok(aoiRec);
    let checked = 0;
    const seen = new Set<number>();
    const step = Math.max(3, Math.floor(png.width / 60));
    for (let y = 3; y < png.height - 3; y += step) {
      for (let x = 3; x < png.width - 3; x += step) {
        const here = pixel(png, x, y);
        if (here[3] === 0) continue;
        const uniform = [
          [-2, -2],
          [2, -2],
          [-2, 2],
          [2, 2],
          [0, 2],
          [2, 0],
        ].every(([dx, dy]) => pixel(png, x + dx, y + dy).join() === here.join());
        if (!uniform) continue;
        const [lon, lat] = lonLat(x, y);
        const v = indexValueAt(aoiRec, newest, index.expression, lon, lat);
        if (v === undefined) continue;
        const k = Math.max(0, Math.min(255, Math.round(((v - lo) / (hi - lo)) * 255)));
        const want = [lut[k * 3], lut[k * 3 + 1], lut[k * 3 + 2]];
        // one step of the colour map either way: the two samplings may round differently
        const near = [k - 1, k, k + 1]
          .filter((j) => j >= 0 && j <= 255)
          .some((j) => here[0] === lut[j * 3] && here[1] === lut[j * 3 + 1] && here[2] === lut[j * 3 + 2]);
        assert.ok(
          near,
          `pixel (${x}, ${y}) at ${lon.toFixed(5)}, ${lat.toFixed(5)}: NDVI ${v.toFixed(3)} should be ${want.join(',')}, the picture has ${here.slice(0, 3).join(',')}`,
        );
        seen.add(k >> 5);
        checked++;
      }
    }
    assert.ok(checked >= 20, `only ${checked} pixels could be checked`);
    assert.ok(seen.size >= 2, 'every checked pixel had about the same value: the test would not see a wrong scale');

    // the webview drew it as a layer of the imagery list
    const panels = testPanels(sb.current.api.services.panels);
    const map = await until('the map panel', () => panels.map());
    await map.whenReady();
    const report = await until('the picture layer’s report', () =>
      ((map.imageryReports ?? []) as { id: string; state: string; drawn: boolean; text?: string }[]).filter((r) => r.id === out.spec.id).at(-1),
    );
    assert.equal(report.state, 'ready', report.text);
    assert.equal(report.drawn, true);
  });

  test('Show Service Rendering on Map: an unknown date ends in the service’s reason, nothing drawn', async () => {
    const found = (await rowsUnder('visualizationGroup', 'visualization')).flatMap(({ rows }) =>
      rows.filter((r) => /^preset-ndvi-/.test(String(r.record.index_id))),
    )[0];
    assert.ok(found);
    sb.current.sandbox.faults.add({
      method: 'POST',
      path: `/v0/aois/${String(found.record.aoi_id)}/visualizations/${found.recordId}/png`,
      status: 404,
      count: 1,
      body: { error: { code: 'not_found', message: 'date: no image on that day', details: 'date' } },
    });
    const prompts = new ScriptedPrompts([
      { kind: 'pick', match: /Date of the imagery/, choose: (items) => items[0] },
      { kind: 'pick', match: /Which legend/, choose: 'Dynamic range' },
    ]);
    const out = await runScripted<ServiceRendering | undefined>(sb.current, prompts, 'eoImagery.showServiceRendering', found);
    prompts.assertDone();
    assert.equal(out, undefined);
    assert.match(prompts.messages.at(-1)?.text ?? '', /refused to render .*no image on that day/);
  });

  test('Download Assets… on an asset row: followed to ready, saved under the AOI’s and the asset’s names, readable by GDAL', async () => {
    // the smallest AOI's NDVI output (one float32 band) keeps the file small
    const all = (await rowsUnder('assetGroup', 'asset')).filter(({ aoi }) => aoi.record.satellite_id === 'sentinel-2');
    all.sort((a, b) => Number(a.aoi.record.area_in_sq_m) - Number(b.aoi.record.area_in_sq_m));
    const pick = all.map(({ aoi, rows }) => ({ aoi, row: rows.find((r) => String(r.record.name).startsWith('NDVI')) })).find((x) => x.row);
    assert.ok(pick?.row, 'no NDVI output asset row');
    const { aoi, row } = pick;
    const expected = `${String(aoi.record.name).replace(/[\\/:*?"<>|]/g, '_')} - ${String(row.record.name)}.tif`;
    const prompts = new ScriptedPrompts([
      {
        kind: 'saveDialog',
        answer: (suggested) => {
          assert.equal(suggested && path.basename(suggested.fsPath), expected, 'the suggested file name');
          return vscode.Uri.file(path.join(tmp, expected));
        },
      },
    ]);
    const out = await runWhileAdvancing<AssetDownloadOutcome | undefined>(sb.current, prompts, 'eoImagery.downloadAssets', [row], 2_000);
    prompts.assertDone();
    assert.ok(out?.file, `nothing saved: ${prompts.messages.map((m) => m.text).join(' | ')}`);
    assert.equal(out.download.status, 'SUCCESS');
    assert.deepEqual(fs.readdirSync(tmp), [expected], 'a temporary file was left behind');
    const info = JSON.parse(execFileSync('gdalinfo', ['-json', out.file], { encoding: 'utf8' })) as {
      size: [number, number];
      bands: { type: string; noDataValue?: number }[];
    };
    assert.equal(info.bands.length, 1);
    assert.equal(info.bands[0].type, 'Float32');
    assert.ok(info.size[0] > 0 && info.size[1] > 0);
    // whole: GDAL reads every pixel (a truncated file fails here)
    execFileSync('gdalinfo', ['-stats', '-nomd', out.file], { encoding: 'utf8' });
    assert.ok(!prompts.messages.some((m) => m.text.includes(out.download.signed_url ?? '\u0000')), 'the signed URL was shown');
  });

  test('Download Assets… is requested once: a refused request is reported, never sent again', async () => {
    const { rows } = (await rowsUnder('assetGroup', 'asset')).find((x) => x.rows.length) as { rows: RecordNode[] };
    const aoiId = String(rows[0].record.aoi_id);
    sb.current.sandbox.faults.add({ method: 'POST', path: `/v0/aois/${aoiId}/downloads`, status: 503, count: 1 });
    const before = sb.current.sandbox.state.downloads.length;
    const prompts = new ScriptedPrompts([]);
    const out = await runScripted<AssetDownloadOutcome | undefined>(sb.current, prompts, 'eoImagery.downloadAssets', rows[0]);
    prompts.assertDone();
    assert.equal(out, undefined);
    assert.equal(sb.current.sandbox.state.downloads.length, before, 'a download was created');
    assert.ok(
      prompts.messages.some((m) => m.severity === 'error'),
      'no message',
    );
  });
});
