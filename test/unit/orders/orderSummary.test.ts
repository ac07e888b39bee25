import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Order, OrderItem } from '../../../src/api/records';
import { summarizeOrder } from '../../../src/commands/orders/orderSummary';

function item(over: Partial<OrderItem>): OrderItem {
  return {
    name: 'Delhi scene',
    type: 'ARCHIVE',
    area: 1234.5,
    base_amount: 100,
    final_amount: 120,
    feasibility_status: 'SUCCESS',
    uplifts: [],
    validation_errors: [],
    ...over,
  } as OrderItem;
}

describe('priced order summary', () => {
  it('shows each item with area, amounts, uplifts and feasibility, then the total', () => {
    const order = {
      total_amount: 1120,
      order_items: [
        item({ uplifts: [{ title: 'Priority', subtitle: 'rush', percentage: 20, amount: 20, item_id: 'x' }] }),
        item({ name: 'Second', base_amount: 1000, final_amount: 1000 }),
      ],
    } as Pick<Order, 'order_items' | 'total_amount'>;
    const s = summarizeOrder(order);
    assert.equal(s.headline, '2 items · total 1,120.00');
    assert.match(s.detail, /1\. Delhi scene — Archive/);
    assert.match(s.detail, /Area 1,234\.5 km² · base 100\.00 · final 120\.00/);
    assert.match(s.detail, /Uplift: Priority \(rush\) \+20% = 20\.00/);
    assert.match(s.detail, /Total: 1,120\.00$/);
    assert.deepEqual(s.blockers, []);
  });

  it('turns validation errors and infeasible items into blockers, weak feasibility into a warning', () => {
    const s = summarizeOrder({
      total_amount: 0,
      order_items: [
        item({ validation_errors: [{ field: 'item_ids', message: 'unknown item x' }] }),
        item({ name: 'B', feasibility_status: 'FAILED' }),
        item({ name: 'C', feasibility_status: 'WEAK_SUCCESS', validation_errors: [{ field: 'cloud_cover', message: 'strict', severity: 'warning' }] }),
      ],
    });
    assert.deepEqual(s.blockers, ['Delhi scene: item_ids: unknown item x', 'B is not feasible.']);
    assert.deepEqual(s.warnings, ['C: cloud_cover: strict', 'C is only weakly feasible.']);
    assert.match(s.detail, /⚠ cloud_cover: strict/);
    assert.match(s.detail, /✗ item_ids: unknown item x/);
  });

  it('shows the OpenAPI\'s validation_errors (maps of field to messages) one line per field', () => {
    const s = summarizeOrder({
      total_amount: 0,
      order_items: [
        item({
          name: 'Field A',
          validation_errors: [
            { geometry: ['area 812.0 km² exceeds the 500 km² tasking limit'], end_date: ['the window is too short'] },
            { geometry: ['the polygon intersects itself'] },
          ],
        }),
      ],
    });
    assert.deepEqual(s.blockers, [
      'Field A: geometry: area 812.0 km² exceeds the 500 km² tasking limit; the polygon intersects itself',
      'Field A: end_date: the window is too short',
    ]);
    assert.match(s.detail, /✗ geometry: area 812\.0 km² exceeds the 500 km² tasking limit; the polygon intersects itself\n {3}✗ end_date: the window is too short/);
    assert.deepEqual(s.warnings, []);
  });
});
