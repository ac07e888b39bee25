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
import { client, runScripted } from './ordersSupport';

suite('Chart Index Over Time', () => {
  const sb = useSandbox();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-series-'));

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  test('an AOI row → NDVI over its 26 dates → a CSV and a PNG on disk', async function () {
    this.timeout(240_000);
    const c = await client(sb.current);
    let aoi: Aoi | undefined;
    for await (const a of c.aois.iterate({}, { pageSize: 100 })) if (a.name.startsWith('Kings River fields')) aoi = a;
    assert.ok(aoi, 'the seasonal AOI is seeded');
    const chart = new ScriptedPrompts([
      { kind: 'pick', match: /Chart Index Over Time/, choose: 'NDVI' },
      { kind: 'pickMany', match: /Chart Index Over Time/, choose: (items) => items.filter((i) => i.picked) },
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
    assert.equal(lines[0], 'date,index,mean,median,p10,p90,valid_share,valid_pixels,pixels,cloudy_pixels,level,pixel_size,source,note');
    assert.equal(lines.length, 27);
    const rows = lines.slice(1).map((l) => l.split(','));
    const dates = rows.map((r) => r[0]);
    assert.deepEqual(dates, [...dates].sort(), 'oldest first');
    assert.ok(rows.every((r) => /^\d{4}-\d{2}-\d{2}$/.test(r[0]) && r[1] === 'NDVI'));
    const byDate = new Map(state.points.map((p) => [p?.date, p]));
    for (const r of rows) {
      const p = byDate.get(r[0]);
      assert.equal(r[12], p?.source, 'the asset the row came from');
      if (p?.median !== undefined) assert.ok(Math.abs(Number(r[3]) - p.median) < 1e-6);
    }

    const pngTarget = vscode.Uri.file(path.join(tmp, 'chart.png'));
    const png = new ScriptedPrompts([{ kind: 'saveDialog', match: /Save Chart as PNG/, answer: pngTarget }]);
    await runScripted(sb.current, png, 'eoImagery.saveIndexChartPng');
    png.assertDone();
    const bytes = fs.readFileSync(pngTarget.fsPath);
    assert.equal(bytes.subarray(1, 4).toString('latin1'), 'PNG');
    assert.ok(bytes.length > 2000, `a drawn chart (${bytes.length} bytes)`);
  });
});
