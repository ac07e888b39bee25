import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FeatureCollection, OrderItemRequest, Polygon } from '../../../src/api/records';
import { checkOrderItem, checkRecurrence, checkStorePath, orderProblems } from '../../../src/orders/rules';

const square: FeatureCollection<Polygon> = {
  type: 'FeatureCollection',
  features: [
    {
      type: 'Feature',
      properties: {},
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [10, 10],
            [10.1, 10],
            [10.1, 10.1],
            [10, 10.1],
            [10, 10],
          ],
        ],
      },
    },
  ],
};
const tasking = (over: Partial<OrderItemRequest> = {}): OrderItemRequest => ({
  name: 'Vineyards',
  usecase: 'agriculture',
  geometry: square,
  recurrence: 'ONCE',
  start_date: '2025-04-01T00:00:00.000Z',
  end_date: '2025-04-15T00:00:00.000Z',
  no_of_occurrences: 1,
  bandset: { bandset_id: 'bs-1' },
  cloud_cover: 20,
  off_nadir: 30,
  delivery_speed: 'STANDARD',
  ...over,
});
const fields = (req: OrderItemRequest): string[] => checkOrderItem(req).map((p) => p.field);

describe('order rules (one place for the wizard, the chat tools and order plans)', () => {
  it('accepts the requests the wizards build', () => {
    assert.deepEqual(checkOrderItem(tasking()), []);
    assert.deepEqual(checkOrderItem({ name: 'Scenes', usecase: 'general', geometry: square, item_ids: ['a', 'b'] }), []);
  });
  it('refuses an end before the start (the service: start_date < end_date)', () => {
    assert.deepEqual(fields(tasking({ end_date: '2025-03-01T00:00:00.000Z' })), ['end_date']);
  });
  it('refuses cloud cover and off-nadir outside the service ranges', () => {
    assert.deepEqual(fields(tasking({ cloud_cover: 101 })), ['cloud_cover']);
    assert.deepEqual(fields(tasking({ off_nadir: 61 })), ['off_nadir']);
    assert.deepEqual(fields(tasking({ cloud_cover: 2.5 })), ['cloud_cover']);
  });
  it('ties occurrences to the recurrence: ONCE is exactly 1, at most 366', () => {
    assert.deepEqual(fields(tasking({ no_of_occurrences: 3 })), ['no_of_occurrences']);
    assert.deepEqual(fields(tasking({ recurrence: 'WEEKLY', no_of_occurrences: 400 })), ['no_of_occurrences']);
    assert.deepEqual(fields(tasking({ recurrence: 'WEEKLY', no_of_occurrences: 4 })), []);
    assert.match(checkRecurrence('DAILY', 1) ?? '', /ONCE, WEEKLY, MONTHLY/);
  });
  it('needs a bandset, a use case, a valid polygon', () => {
    assert.deepEqual(fields(tasking({ bandset: undefined })), ['bandset']);
    assert.deepEqual(fields(tasking({ usecase: ' ' })), ['usecase']);
    const open = structuredClone(square);
    open.features[0].geometry.coordinates[0].pop();
    assert.deepEqual(fields(tasking({ geometry: open })), ['geometry.features[0]']);
  });
  it('refuses a scene listed twice and more than 100 scenes', () => {
    assert.deepEqual(fields({ usecase: 'x', geometry: square, item_ids: ['a', 'a'] }), ['item_ids[1]']);
    const many = Array.from({ length: 101 }, (_, i) => `s${i}`);
    assert.deepEqual(fields({ usecase: 'x', geometry: square, item_ids: many }), ['item_ids']);
  });
  it('checks the delivery path inside the store', () => {
    assert.equal(checkStorePath('a/../b'), 'The path may not contain "..".');
    assert.deepEqual(fields(tasking({ cloud_delivery: { config: 'st-1', path: '' } })), ['cloud_delivery.path']);
    assert.deepEqual(fields(tasking({ delivery_speed: 'LIGHTNING' })), ['delivery_speed']);
  });
  it('names the item when an order has several', () => {
    const problems = orderProblems([tasking(), tasking({ off_nadir: 90 })]);
    assert.equal(problems.length, 1);
    assert.match(problems[0], /^Item 2 off_nadir: /);
  });
});
