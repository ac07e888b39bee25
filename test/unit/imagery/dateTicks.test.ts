// The series chart's time axis: labels as precise as the ticks' spacing, never one month twice.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dateTicks } from '../../../media/map/analysis/dateTicks';

const at = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 1000;

describe('dateTicks', () => {
  it('gives days when ticks are under a month apart, months under a year, else years', () => {
    assert.deepEqual(dateTicks([at('2026-05-01'), at('2026-05-16'), at('2026-06-01')]), ['2026-05-01', '2026-05-16', '2026-06-01']);
    assert.deepEqual(dateTicks([at('2026-05-01'), at('2026-07-01'), at('2026-09-01')]), ['2026-05', '2026-07', '2026-09']);
    assert.deepEqual(dateTicks([at('2024-01-01'), at('2025-01-01')]), ['2024', '2025']);
    assert.deepEqual(dateTicks([at('2026-05-09')]), ['2026']);
  });
  it('a single tick says the month when the axis spans months, not only the year', () => {
    // four monthly dates in a narrow chart: one tick, in June
    assert.deepEqual(dateTicks([at('2026-06-01')], at('2026-07-13') - at('2026-04-14')), ['2026-06']);
    assert.deepEqual(dateTicks([at('2026-06-01')], 20 * 86_400), ['2026-06-01']);
    assert.deepEqual(dateTicks([at('2026-01-01')], 3 * 365 * 86_400), ['2026']);
  });
  it('never repeats a label for ticks half a month apart', () => {
    const ticks = Array.from({ length: 8 }, (_, i) => at('2026-05-01') + i * 15 * 86_400);
    const labels = dateTicks(ticks);
    assert.equal(new Set(labels).size, labels.length);
  });
});
