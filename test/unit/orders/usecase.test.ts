import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_USECASE, usecaseOf } from '../../../src/orders/usecase';

describe('order item use case (required by the service on every item)', () => {
  it('keeps what the person typed, trimmed', () => {
    assert.equal(usecaseOf('  flood mapping '), 'flood mapping');
  });
  it('never leaves it empty: no answer is the default', () => {
    for (const v of ['', '   ', undefined]) assert.equal(usecaseOf(v), DEFAULT_USECASE);
    assert.ok(DEFAULT_USECASE.trim().length > 0);
  });
  it('caps it at 200 characters', () => {
    assert.equal(usecaseOf('x'.repeat(300)).length, 200);
  });
});
