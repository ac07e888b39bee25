import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { areaKm2, count, day, enumLabel, km2, shownOf } from '../../../src/format';
import { isFinalStatus, statusCategory, statusLabel } from '../../../src/explorer/status';

describe('explorer status looks', () => {
  it('sorts every status value of the interface into a look', () => {
    assert.equal(statusCategory('success'), 'success');
    assert.equal(statusCategory('processing'), 'inProgress');
    assert.equal(statusCategory('PAYMENT_IN_PROGRESS'), 'inProgress');
    assert.equal(statusCategory('ACTIVE'), 'inProgress');
    assert.equal(statusCategory('FAILED'), 'failed');
    assert.equal(statusCategory('PARTIALLY_FULFILLED'), 'failed');
    assert.equal(statusCategory('DRAFT'), 'draft');
    assert.equal(statusCategory('UNPAID'), 'draft');
    assert.equal(statusCategory('CANCELLED'), 'cancelled');
    assert.equal(statusCategory('REFUND'), 'cancelled');
    assert.equal(statusCategory('SUCCESSFUL'), 'success');
    assert.equal(statusCategory('something new'), 'neutral');
    assert.equal(statusCategory(undefined), 'neutral');
  });

  it('polls what can still move and nothing unknown', () => {
    for (const s of ['processing', 'ACTIVE', 'DRAFT', 'UNPAID', 'PAYMENT_IN_PROGRESS', 'IN_PROGRESS', 'CREATED']) assert.equal(isFinalStatus(s), false, s);
    // the OpenAPI's values: AOI, asset, visualization and task statuses still moving
    for (const s of ['started', 'running', 'updating', 'partial_success', 'creating', 'SUBMITTED']) assert.equal(isFinalStatus(s), false, s);
    for (const s of ['EXPIRED', 'NOT_APPLICABLE', 'UNSPECIFIED']) assert.equal(isFinalStatus(s), true, s);
    for (const s of ['success', 'FULFILLED', 'PAID', 'FAILED', 'CANCELLED', 'REFUND', 'SUCCESS', 'mystery', undefined])
      assert.equal(isFinalStatus(s), true, String(s));
  });

  it('labels statuses for people', () => {
    assert.equal(statusLabel('PAYMENT_IN_PROGRESS'), 'Payment in progress');
    assert.equal(statusLabel('PARTIAL-REFUND'), 'Partly refunded');
    assert.equal(statusLabel('success'), 'Success');
  });

  it('shows every raw enum value a person reads in words, through one label', () => {
    // statuses are the same function, not a second copy
    assert.equal(statusLabel, enumLabel);
    // recurrence (interface + decisions), delivery speed, item type
    const words: [string, string][] = [
      ['ONCE', 'Once'],
      ['WEEKLY', 'Weekly'],
      ['MONTHLY', 'Monthly'],
      ['BIMONTHLY', 'Every two months'],
      ['QUARTERLY', 'Quarterly'],
      ['NOT_APPLICABLE', 'Not applicable'],
      ['STANDARD', 'Standard'],
      ['PRIORITY', 'Priority'],
      ['RUSH', 'Rush'],
      ['TASKING', 'Tasking'],
      ['ARCHIVE', 'Archive'],
      ['RECURRING', 'Recurring tasking'],
      // Order.status and Order item.payment_status ("States")
      ['PAID', 'Paid'],
      ['UNPAID', 'Unpaid'],
      ['REFUND', 'Refunded'],
      ['PARTIAL-REFUND', 'Partly refunded'],
      ['PARTIAL-MONTHLY', 'Paid monthly, partly paid'],
      ['PAYMENT_IN_PROGRESS', 'Payment in progress'],
      // item, task, delivery and download statuses
      ['ACTIVE', 'Active'],
      ['PARTIALLY_FULFILLED', 'Partially fulfilled'],
      ['IN_PROGRESS', 'In progress'],
      ['SUCCESS', 'Success'],
      ['CREATED', 'Created'],
      ['processing', 'Processing'],
      ['UNSPECIFIED', 'Not specified'],
    ];
    for (const [raw, label] of words) assert.equal(enumLabel(raw), label, raw);
    // feasibility reads as an answer to "can it be captured?"
    assert.equal(enumLabel('SUCCESS', 'feasibility'), 'Feasible');
    assert.equal(enumLabel('WEAK_SUCCESS', 'feasibility'), 'Feasible with reservations');
    assert.equal(enumLabel('FAILED', 'feasibility'), 'Not feasible');
    assert.equal(enumLabel(undefined, 'feasibility'), 'Not checked');
    assert.equal(enumLabel(''), 'Unknown');
    // no label is the raw upper-case value or keeps its underscores
    for (const [raw] of words) assert.doesNotMatch(enumLabel(raw), /_|^[A-Z]{2,}/, raw);
  });
});

describe('explorer formatting', () => {
  it('formats counts, areas and the shown-of message', () => {
    assert.equal(count(10000), '10,000');
    assert.equal(km2(64_912_345), '64.9 km²');
    assert.equal(km2(250_000), '0.25 km²');
    assert.equal(km2(12_345_000_000), '12,345 km²');
    assert.equal(km2(Number.NaN), '? km²');
    assert.equal(areaKm2(95.84), '95.8 km²');
    assert.equal(shownOf(50, 10000, 'orders'), 'Showing 50 of 10,000 orders');
    assert.equal(shownOf(3, undefined, 'items'), 'Showing 3 items');
  });

  it('reads the day of each of the three timestamp formats', () => {
    assert.equal(day('2024-05-01T10:00:00Z'), '2024-05-01');
    assert.equal(day('2024-05-01 10:00:00.123456+00:00'), '2024-05-01');
    assert.equal(day('01-05-2024'), '2024-05-01');
    assert.equal(day(''), '');
  });
});
