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

  it('defaults to all the data of the collections (STAC temporal extents), widened to the place’s own image dates', () => {
    // ended in the past: all of it, up to its end
    assert.deepEqual(defaultRange([['2015-06-23T00:00:00Z', '2021-06-30T12:00:00Z']], TODAY), { from: '2015-06-23', to: '2021-06-30' });
    // open-ended: up to today
    assert.deepEqual(defaultRange([['2015-06-23T00:00:00Z', null]], TODAY), { from: '2015-06-23', to: '2026-11-22' });
    // several collections: their union
    assert.deepEqual(
      defaultRange(
        [
          ['2019-01-01T00:00:00Z', '2021-06-30T00:00:00Z'],
          ['2022-02-01T00:00:00Z', '2022-03-15T00:00:00Z'],
        ],
        TODAY,
      ),
      { from: '2019-01-01', to: '2022-03-15' },
    );
    // an extent in the future is capped at today
    assert.deepEqual(defaultRange([['2020-01-01T00:00:00Z', '2030-01-01T00:00:00Z']], TODAY), { from: '2020-01-01', to: '2026-11-22' });
    // nothing known: the last 12 months
    assert.deepEqual(defaultRange([undefined, [null, 'not a date']], TODAY), { from: '2025-11-22', to: '2026-11-22' });
    // an AOI's images lie outside what the collections say (or they say nothing): taken in
    assert.deepEqual(defaultRange([['2022-02-01T00:00:00Z', '2022-03-15T00:00:00Z']], TODAY, ['2021-05-04T10:00:00Z', '2022-01-02']), {
      from: '2021-05-04',
      to: '2022-03-15',
    });
    assert.deepEqual(defaultRange([], TODAY, ['2021-05-04', '2023-07-01']), { from: '2021-05-04', to: '2023-07-01' });
    assert.equal(coverage([], TODAY), undefined);
  });
});
