import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { coverage, defaultRange, parseIsoDay } from '../../../src/geo/temporalExtent';

const TODAY = new Date('2026-11-22T15:00:00Z');

describe('map search dates', () => {
  it('reads only real YYYY-MM-DD days', () => {
    assert.equal(parseIsoDay('2024-02-29'), '2024-02-29');
    assert.equal(parseIsoDay(' 2024-03-01 '), '2024-03-01');
    for (const bad of ['2023-02-29', '2024-13-01', '03/01/2024', '2024-3-1', '', '2024-03-01T00:00:00Z']) assert.equal(parseIsoDay(bad), undefined, bad);
  });

  it('defaults to the last 12 months with data in the collections (STAC temporal extents)', () => {
    // ended in the past: the year before its end
    assert.deepEqual(defaultRange([['2015-06-23T00:00:00Z', '2021-06-30T12:00:00Z']], TODAY), { from: '2020-06-30', to: '2021-06-30' });
    // open-ended: the year up to today
    assert.deepEqual(defaultRange([['2015-06-23T00:00:00Z', null]], TODAY), { from: '2025-11-22', to: '2026-11-22' });
    // shorter than a year: all of it; several collections: their union
    assert.deepEqual(defaultRange([['2022-02-01T00:00:00Z', '2022-03-15T00:00:00Z']], TODAY), { from: '2022-02-01', to: '2022-03-15' });
    assert.deepEqual(
      defaultRange(
        [
          ['2019-01-01T00:00:00Z', '2021-06-30T00:00:00Z'],
          ['2022-02-01T00:00:00Z', '2022-03-15T00:00:00Z'],
        ],
        TODAY,
      ),
      { from: '2021-03-15', to: '2022-03-15' },
    );
    // an extent in the future is capped at today
    assert.deepEqual(defaultRange([['2020-01-01T00:00:00Z', '2030-01-01T00:00:00Z']], TODAY), { from: '2025-11-22', to: '2026-11-22' });
    // nothing known: the last 12 months
    assert.deepEqual(defaultRange([undefined, [null, 'not a date']], TODAY), { from: '2025-11-22', to: '2026-11-22' });
    assert.equal(coverage([], TODAY), undefined);
  });
});
