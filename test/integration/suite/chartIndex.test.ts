// "Chart Index Over Time…" from an AOI row in a real extension host and map webview: the
// sandbox's seasonal AOI (26 dated mosaics), NDVI picked, all dates kept; every date's point
// arrives in the chart; "Export Index Series as CSV…" writes one row per date through the save
// dialog, and "Save Index Chart as PNG…" a PNG.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Aoi } from '../../../src/api/records';
import type { SeriesState } from '../../../src/panels/imagery/seriesChannel';
import { useSandbox } from '../harness/sandbox';
import { ScriptedPrompts } from '../support/scriptedPrompts';
import { testPanels } from '../support/webviewTap';
import { client, runScripted } from './ordersSupport';

suite('Chart Index Over Time', () => {
  const sb = useSandbox();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-series-'));

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  test('an AOI row → NDVI over its 26 dates → a CSV and a PNG on disk', async function () {
    this.timeout(600_000);
    const c = await client(sb.current);
    let aoi: Aoi | undefined;
    for await (const a of c.aois.iterate({}, { pageSize: 100 })) if (a.name.startsWith('Kings River fields')) aoi = a;
    assert.ok(aoi, 'the seasonal AOI is seeded');
    const chart = new ScriptedPrompts([
      { kind: 'pick', match: /Where the dates come from/, choose: 'Mosaics of Kings River' },
      { kind: 'pickMany', match: /Chart Index Over Time/, choose: (items) => items.filter((i) => i.picked) },
      { kind: 'pick', match: /Chart Index Over Time/, choose: 'NDVI' },
    ]);
    // the row's argument, as the Projects view passes it
    const state = await runScripted<SeriesState | undefined>(sb.current, chart, 'eoImagery.chartIndexOverTime', { kind: 'aoi', record: aoi });
    chart.assertDone();
    assert.ok(state, 'the series ran');
    assert.equal(state.request.dates.length, 26);
    assert.equal(state.points.length, 26);
    assert.ok(
      state.points.every((p) => p && !p.error),
      JSON.stringify(state.points.find((p) => p?.error)),
    );
    const medians = state.points.map((p) => p?.median).filter((v): v is number => v !== undefined);
    assert.ok(Math.max(...medians) > 0.5 && Math.min(...medians) < 0.3, `crops green up and dry off: ${medians.map((m) => m.toFixed(2)).join(' ')}`);
    assert.ok(
      state.points.some((p) => p && p.validShare < 0.5),
      'a cloudy date has few valid pixels',
    );
    assert.deepEqual(
      chart.messages.filter((m) => m.severity !== 'info'),
      [],
    );

    const csvTarget = vscode.Uri.file(path.join(tmp, 'series.csv'));
    let suggested: string | undefined;
    const save = new ScriptedPrompts([
      {
        kind: 'saveDialog',
        match: /Export Series as CSV/,
        answer: (s) => {
          suggested = s ? path.basename(s.fsPath) : undefined;
          return csvTarget;
        },
      },
    ]);
    await runScripted(sb.current, save, 'eoImagery.exportIndexSeriesCsv');
    save.assertDone();
    assert.equal(suggested, 'Kings River fields (two seasons) NDVI over time.csv');
    const lines = fs.readFileSync(csvTarget.fsPath, 'utf8').trimEnd().split('\r\n');
    assert.equal(lines[0], 'date,series,index,mean,median,p10,p90,valid_share,valid_pixels,pixels,cloudy_pixels,pixel_value,level,pixel_size,source,note');
    assert.equal(lines.length, 27);
    const rows = lines.slice(1).map((l) => l.split(','));
    const dates = rows.map((r) => r[0]);
    assert.deepEqual(dates, [...dates].sort(), 'oldest first');
    assert.ok(rows.every((r) => /^\d{4}-\d{2}-\d{2}$/.test(r[0]) && r[1] === 'Kings River fields (two seasons)' && r[2] === 'NDVI'));
    const byDate = new Map(state.points.map((p) => [p?.date, p]));
    for (const r of rows) {
      const p = byDate.get(r[0]);
      assert.equal(r[14], p?.source, 'the asset the row came from');
      if (p?.median !== undefined) assert.ok(Math.abs(Number(r[4]) - p.median) < 1e-6);
    }

    const pngTarget = vscode.Uri.file(path.join(tmp, 'chart.png'));
    const png = new ScriptedPrompts([{ kind: 'saveDialog', match: /Save Chart as PNG/, answer: pngTarget }]);
    await runScripted(sb.current, png, 'eoImagery.saveIndexChartPng');
    png.assertDone();
    const bytes = fs.readFileSync(pngTarget.fsPath);
    assert.equal(bytes.subarray(1, 4).toString('latin1'), 'PNG');
    assert.ok(bytes.length > 2000, `a drawn chart (${bytes.length} bytes)`);
  });

  test('the map’s entries: a drawn area over the AOI, then its pixel overlaid; both named in the CSV', async function () {
    this.timeout(600_000);
    const c = await client(sb.current);
    let aoi: Aoi | undefined;
    for await (const a of c.aois.iterate({}, { pageSize: 100 })) if (a.name.startsWith('Kings River fields')) aoi = a;
    assert.ok(aoi, 'the seasonal AOI is seeded');
    const ring = (aoi.geometry as { coordinates: [number, number][][] }).coordinates[0];
    const xs = ring.map((p) => p[0]);
    const ys = ring.map((p) => p[1]);
    const [cx, cy] = [(Math.min(...xs) + Math.max(...xs)) / 2, (Math.min(...ys) + Math.max(...ys)) / 2];
    const d = 0.004;
    // what the map posts when "Chart Index…" is pressed under a drawn triangle
    const drawn: [number, number][] = [
      [cx - d, cy - d],
      [cx + d, cy - d],
      [cx, cy + d],
      [cx - d, cy - d],
    ];
    const first = new ScriptedPrompts([
      { kind: 'pick', match: /Where the dates come from/, choose: 'Mosaics of Kings River' },
      { kind: 'pickMany', match: /Chart Index Over Time: Area of/, choose: (items) => items.filter((i) => i.picked).slice(0, 6) },
      { kind: 'pick', match: /Chart Index Over Time/, choose: 'NDVI' },
      // the AOI row's chart (the test above) is still open
      { kind: 'pick', match: /A chart is open on the map/, choose: 'New chart' },
    ]);
    const area = await runScripted<SeriesState | undefined>(sb.current, first, 'eoImagery.chartIndexOverTime', { kind: 'polygon', ring: drawn });
    first.assertDone();
    assert.ok(area && area.points.length === 6 && area.points.every((p) => p && !p.error && p.pixels > 0), JSON.stringify(area?.points[0]));
    assert.match(area.request.title, /^Area of [\d.]+ km² at 36\.\d{4}, -120\.\d{4}$/);

    // the inspector's pixel, read from a mosaic of that AOI: its mosaics are the first choice
    const second = new ScriptedPrompts([
      { kind: 'pick', match: /Where the dates come from/, choose: 'Mosaics of Kings River' },
      { kind: 'pickMany', match: /Chart Index Over Time: Pixel at/, choose: (items) => items.filter((i) => i.picked).slice(0, 6) },
      { kind: 'pick', match: /Chart Index Over Time/, choose: 'NDVI' },
      { kind: 'pick', match: /A chart is open on the map/, choose: 'Add to the open chart' },
    ]);
    // the map is open: it is told to load its imagery code before the person's first pick
    const map = testPanels(sb.current.api.services.panels).map();
    assert.ok(map, 'the map of the chart above is open');
    const pixel = await runScripted<SeriesState | undefined>(sb.current, second, 'eoImagery.chartIndexOverTime', {
      kind: 'pixel',
      lon: cx,
      lat: cy,
      aoiId: aoi.aoi_id,
    });
    second.assertDone();
    const types = map.posted.map((m) => (m as { type?: string }).type);
    const started = types.lastIndexOf('seriesStart');
    const prepared = types.lastIndexOf('seriesPrepare');
    assert.ok(prepared > types.lastIndexOf('seriesStart', started - 1) && prepared < started, 'seriesPrepare came before this seriesStart');
    assert.ok(pixel && pixel.points.every((p) => p && !p.error && p.pixels === 1 && p.level === 0), JSON.stringify(pixel?.points));
    assert.ok(
      pixel.points.some((p) => p?.value !== undefined),
      'the pixel has a value',
    );

    const csvTarget = vscode.Uri.file(path.join(tmp, 'overlay.csv'));
    const save = new ScriptedPrompts([{ kind: 'saveDialog', match: /Export Series as CSV/, answer: csvTarget }]);
    await runScripted(sb.current, save, 'eoImagery.exportIndexSeriesCsv');
    save.assertDone();
    const rows = fs.readFileSync(csvTarget.fsPath, 'utf8').trimEnd().split('\r\n').slice(1);
    assert.equal(rows.length, 12, 'six dates of each series');
    assert.equal(rows.filter((r) => r.includes(',"Pixel at ')).length, 6);
    assert.equal(rows.filter((r) => r.includes(area.request.title)).length, 6);
  });

  test('bad input: an area that misses every mosaic, an archive range with nothing, an expression with an unknown band', async function () {
    this.timeout(240_000);
    const c = await client(sb.current);
    let aoi: Aoi | undefined;
    for await (const a of c.aois.iterate({}, { pageSize: 100 })) if (a.name.startsWith('Lake Mead')) aoi = a;
    assert.ok(aoi);
    // a pixel far from every scene, charted on the AOI's mosaics: every date says so, nothing breaks
    const far = new ScriptedPrompts([
      { kind: 'pick', match: /Where the dates come from/, choose: 'Mosaics of Lake Mead' },
      { kind: 'pickMany', match: /Pixel at/, choose: (items) => items.slice(0, 2) },
      { kind: 'pick', match: /Pixel at/, choose: 'NDVI' },
      { kind: 'pick', match: /A chart is open on the map/, choose: 'New chart' },
    ]);
    const state = await runScripted<SeriesState | undefined>(sb.current, far, 'eoImagery.chartIndexOverTime', {
      kind: 'pixel',
      lon: 10,
      lat: 10,
      aoiId: aoi.aoi_id,
    });
    far.assertDone();
    assert.ok(
      state?.points.every((p) => /does not overlap/.test(p?.error ?? '')),
      JSON.stringify(state?.points),
    );
    assert.match(
      far.messages.map((m) => `${m.severity}: ${m.text}`).join('\n'),
      /warning: No date of Pixel at 10\.00000, 10\.00000 could be charted: The area does not overlap/,
    );

    // the archive between two dates with nothing over the area: said, with a way forward
    const empty = new ScriptedPrompts([
      { kind: 'pick', match: /Where the dates come from/, choose: 'Archive items over the area' },
      { kind: 'input', match: /between two dates/, answer: '1990-01-01 to 1990-12-31' },
      { kind: 'input', match: /Cloud limit/, answer: '30' },
    ]);
    assert.equal(await runScripted(sb.current, empty, 'eoImagery.chartIndexOverTime', { kind: 'aoi', aoiId: aoi.aoi_id }), undefined);
    empty.assertDone();
    assert.match(
      empty.messages.map((m) => m.text).join('\n'),
      /The archive has no item over Lake Mead shoreline \(two seasons\) between 1990-01-01 and 1990-12-31: widen the dates/,
    );

    // an expression with a band the files lack is refused in the box, naming the band
    const bad = new ScriptedPrompts([
      { kind: 'pick', match: /Where the dates come from/, choose: 'Mosaics of Lake Mead' },
      { kind: 'pickMany', match: /Chart Index Over Time/, choose: (items) => items.slice(0, 2) },
      { kind: 'pick', match: /Chart Index Over Time/, choose: 'Enter an expression' },
      { kind: 'input', match: /expression over the bands/, answer: '(B08-B99)/(B08+B99)', rejects: /B99/ },
    ]);
    assert.equal(await runScripted(sb.current, bad, 'eoImagery.chartIndexOverTime', { kind: 'aoi', aoiId: aoi.aoi_id }), undefined);
    bad.assertDone();
  });

  test('archive dates: items over the area in a range, those above the cloud limit kept and greyed out', async function () {
    this.timeout(240_000);
    const c = await client(sb.current);
    let aoi: Aoi | undefined;
    for await (const a of c.aois.iterate({}, { pageSize: 100 })) if (a.name.startsWith('Lake Mead')) aoi = a;
    assert.ok(aoi);
    let offered: string[] = [];
    const prompts = new ScriptedPrompts([
      { kind: 'pick', match: /Where the dates come from/, choose: 'Archive items over the area' },
      { kind: 'input', match: /between two dates/, answer: '2023-01-01 to 2025-12-31' },
      { kind: 'input', match: /Cloud limit/, answer: '30' },
      { kind: 'pick', match: /The collection to chart/, choose: 'sentinel-2-l2a' },
      {
        kind: 'pickMany',
        match: /The dates to chart/,
        choose: (items) => {
          offered = items.map((i) => `${i.label} ${i.description ?? ''}`);
          return items.filter((i) => i.picked);
        },
      },
      { kind: 'pick', match: /The index to chart/, choose: 'NDVI' },
      { kind: 'pick', match: /A chart is open on the map/, choose: 'New chart' },
    ]);
    const state = await runScripted<SeriesState | undefined>(sb.current, prompts, 'eoImagery.chartIndexOverTime', { kind: 'aoi', aoiId: aoi.aoi_id });
    prompts.assertDone();
    assert.ok(state, 'the series ran');
    assert.equal(state.request.maxCloud, 30);
    assert.ok(state.request.dates.length >= 2, offered.join('\n'));
    const over = state.request.dates.filter((d) => (d.cloudCover ?? 0) > 30);
    assert.ok(over.length >= 1, `a cloudy item is offered: ${offered.join(' | ')}`);
    assert.ok(offered.some((o) => /above the limit: greyed out/.test(o)));
    for (const [i, d] of state.request.dates.entries()) {
      const p: SeriesState['points'][number] = state.points[i];
      assert.ok(p, d.date);
      assert.equal(p.overCloudLimit === true, (d.cloudCover ?? 0) > 30, `${d.date}: ${d.cloudCover} % cloud`);
      assert.equal(p.source, d.source);
    }
  });
});
