import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { spokenRow, spokenText } from '../../../src/explorer/spoken';

test('tree rows read as words: dates, areas, separators', () => {
  assert.equal(spokenRow('Nile Delta fields', '64.9 km² · Success'), 'Nile Delta fields, 64.9 square kilometres, Success');
  assert.equal(spokenRow('2026-11-22 23:06', 'Paid · 956.91 · 5 items'), '22 November 2026, 23:06, Paid, 956.91, 5 items');
  assert.equal(spokenText('2026-04-07 mosaic · 12 bands'), '7 April 2026 mosaic, 12 bands');
  assert.equal(spokenText('captured 2024-05-01T10:32:11.123Z'), 'captured 1 May 2024, 10:32');
  assert.equal(spokenText('Load more…'), 'Load more');
  assert.equal(spokenRow('Stores', undefined), 'Stores');
  assert.equal(spokenText('2024-13-01'), '2024-13-01', 'not a date: left alone');
});
