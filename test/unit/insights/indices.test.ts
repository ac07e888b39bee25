import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkExpression, checkRescale } from '../../../src/commands/indices/expression';
import { legendsOf } from '../../../src/api/legend';
import { describeLegend, expectedLegend, sparkline } from '../../../src/commands/indices/legend';

const S2 = ['B01', 'B02', 'B03', 'B04', 'B05', 'B08', 'B8A', 'B11', 'B12'];

describe('custom index expression, checked before sending', () => {
  it("accepts band arithmetic over the satellite's bands and lists the bands used", () => {
    assert.deepEqual(checkExpression('(B08-B04)/(B08+B04)', 'index', S2), { ok: true, bands: ['B08', 'B04'] });
    assert.deepEqual(checkExpression('2.5*(B08-B04)/(B08+6*B04-7.5*B02+1)', 'index', S2), { ok: true, bands: ['B08', 'B04', 'B02'] });
    assert.deepEqual(checkExpression('-B11', 'grayscale', S2), { ok: true, bands: ['B11'] });
    assert.deepEqual(checkExpression('B04, B03 ,B02', 'composite', S2), { ok: true, bands: ['B04', 'B03', 'B02'] });
  });

  it('refuses a band the satellite lacks, with a suggestion', () => {
    const r = checkExpression('(B8-B4)/(B8+B4)', 'index', S2);
    assert.equal(r.ok, false);
    assert.match(r.ok ? '' : r.reason, /no band B8 \(did you mean B08\?\), B4 \(did you mean B04\?\); its bands: B01/);
    const lower = checkExpression('b08', 'grayscale', S2);
    assert.match(lower.ok ? '' : lower.reason, /did you mean B08/);
  });

  it('refuses expressions that do not parse', () => {
    for (const [expr, pattern] of [
      ['', /empty/],
      ['(B08-B04', /expected "\)"/],
      ['B08 B04', /unexpected "B04"/],
      ['B08 % 2', /unexpected "%"/],
      ['B08-', /ends too early/],
      ['2*3', /uses no band/],
    ] as const) {
      const r = checkExpression(expr, 'index', S2);
      assert.equal(r.ok, false, expr);
      assert.match(r.ok ? '' : r.reason, pattern, expr);
    }
  });

  it('a composite is exactly three band names', () => {
    assert.match((checkExpression('B04,B03', 'composite', S2) as { reason: string }).reason, /three band names/);
    assert.match((checkExpression('B04,B03,(B02)', 'composite', S2) as { reason: string }).reason, /three band names/);
  });

  it('rescale needs two numbers with min < max', () => {
    assert.deepEqual(checkRescale('-1', '1'), { ok: true, value: [-1, 1] });
    assert.match((checkRescale('1', '1') as { reason: string }).reason, /min \(1\) must be less than max \(1\)/);
    assert.match((checkRescale('2', '1') as { reason: string }).reason, /less than max/);
    assert.match((checkRescale('a', '1') as { reason: string }).reason, /min "a" is not a number/);
    assert.match((checkRescale('0', '') as { reason: string }).reason, /max "" is not a number/);
    // The OpenAPI's rescale is two integers: fractions are refused with the reason.
    assert.match((checkRescale('-0.5', '1') as { reason: string }).reason, /min -0\.5 is not a whole number.*two integers/);
    assert.match((checkRescale('0', '0.8') as { reason: string }).reason, /max 0\.8 is not a whole number/);
    assert.deepEqual(checkRescale(' 0 ', '3000'), { ok: true, value: [0, 3000] });
  });
});

describe('legend rules', () => {
  it('preset: dynamic and theoretical; custom index: dynamic; custom composite/grayscale: none', () => {
    assert.deepEqual(expectedLegend('preset', 'index'), { dynamic: true, theoretical: true });
    assert.deepEqual(expectedLegend('preset', 'composite'), { dynamic: true, theoretical: true });
    assert.deepEqual(expectedLegend('custom', 'index'), { dynamic: true, theoretical: false });
    assert.deepEqual(expectedLegend('custom', 'composite'), { dynamic: false, theoretical: false });
    assert.deepEqual(expectedLegend('custom', 'grayscale'), { dynamic: false, theoretical: false });
  });

  it('describes what the legend holds, or why there is none', () => {
    const both = describeLegend({
      type: 'preset',
      expression_type: 'index',
      index_name: 'NDVI',
      legend: { theoretical: { min: -1, max: 1 }, dynamic: { min: -0.2, max: 0.81, mean: 0.4, stddev: 0.12, histogram: [0, 2, 8, 4] } },
    });
    assert.deepEqual(both, ['Theoretical range: -1 … 1', 'Dynamic range: -0.2000 … 0.8100 (mean 0.4000, std dev 0.1200)', 'Histogram: ▁▂█▄ (4 bins)']);
    assert.deepEqual(describeLegend({ type: 'custom', expression_type: 'composite', index_name: 'RGB' }), [
      'No legend: a custom composite index has no legend metadata.',
    ]);
    assert.match(describeLegend({ type: 'preset', expression_type: 'index', index_name: 'NDVI' })[0], /should have one/);
    assert.equal(sparkline([0, 0]), '▁▁');
  });

  it('reads the OpenAPI legend (metadata.legend keyed by date) and the undated form', () => {
    const cls = (label: string, min: number, max: number, color: string, pct: number) => ({ label, min, max, color, area: 10, area_percentage: pct });
    const dated = {
      type: 'preset',
      expression_type: 'index' as const,
      index_name: 'NDVI',
      metadata: {
        legend: {
          '2024_05_06': { dynamic: [cls('Low', 0, 0.5, '#d7191c', 40), cls('High', 0.5, 1, '#1a9641', 60)], theoretical: [cls('All', -1, 1, '#ffffff', 100)] },
        },
      },
    };
    assert.deepEqual(
      legendsOf(dated).map((l) => l.date),
      ['2024-05-06'],
    );
    assert.deepEqual(describeLegend(dated), [
      'Dynamic legend for 2024-05-06: Low 0 … 0.5000 (#d7191c, 40 % of the area); High 0.5000 … 1 (#1a9641, 60 % of the area)',
      'Theoretical legend for 2024-05-06: All -1 … 1 (#ffffff, 100 % of the area)',
    ]);
    const undated = {
      type: 'custom',
      expression_type: 'index' as const,
      index_name: 'X',
      metadata: { legend: { dynamic: [cls('Low', 0, 1, '#000000', 100)] } },
    };
    assert.deepEqual(legendsOf(undated), [{ dynamic: [cls('Low', 0, 1, '#000000', 100)] }]);
    assert.match(describeLegend(undated)[0], /^Dynamic legend: Low 0 … 1/);
    assert.deepEqual(legendsOf({ metadata: { legend: {} } }), []);
    assert.deepEqual(legendsOf({}), []);
  });
});
