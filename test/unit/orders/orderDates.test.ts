import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkDateRange, checkInteger, parseOrderDate } from '../../../src/orders/orderDates';

describe('order dates', () => {
  it('reads YYYY-MM-DD as midnight UTC', () => {
    const r = parseOrderDate('2025-03-01');
    assert.ok(r.ok);
    assert.equal(r.iso, '2025-03-01T00:00:00.000Z');
  });

  it('reads a date-time with an offset and converts it to UTC', () => {
    const r = parseOrderDate('2025-03-01T10:30:00+02:00');
    assert.ok(r.ok);
    assert.equal(r.iso, '2025-03-01T08:30:00.000Z');
  });

  it('refuses impossible calendar dates, times without a zone and free text', () => {
    for (const bad of ['2025-02-30', '2025-13-01', '2025-03-01T10:00', 'next tuesday', '']) {
      const r = parseOrderDate(bad);
      assert.equal(r.ok, false, bad);
    }
  });

  it('requires the end after the start', () => {
    assert.equal(checkDateRange('2025-03-01', '2025-03-02'), undefined);
    assert.match(checkDateRange('2025-03-02', '2025-03-01') ?? '', /must be after the start/);
    assert.match(checkDateRange('2025-03-01', '2025-03-01') ?? '', /must be after the start/);
    assert.match(checkDateRange('soon', '2025-03-01') ?? '', /^Start:/);
  });

  it('checks whole numbers in a range', () => {
    assert.equal(checkInteger('3', 1, 10, 'Occurrences'), undefined);
    assert.match(checkInteger('0', 1, 10, 'Occurrences') ?? '', /between 1 and 10/);
    assert.match(checkInteger('2.5', 1, 10, 'Occurrences') ?? '', /whole number/);
  });
});
