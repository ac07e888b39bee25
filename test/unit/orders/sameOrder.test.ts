// The order found after a lost answer is the one that was asked for: same project, name, type
// and archive images, item for item.
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import type { OrderItem, OrderItemRequest } from '../../../src/api';
import { sameOrder } from '../../../src/commands/orders/lostOrder';

const geometry = { type: 'FeatureCollection' as const, features: [] };
const asked: OrderItemRequest = { project_id: 'p1', name: 'Delta', usecase: 'general', geometry, item_ids: ['a', 'b'] };
const item = (over: Partial<OrderItem>): OrderItem =>
  ({ project_id: 'p1', name: 'Delta', type: 'ARCHIVE', images: [{ item_id: 'b' }, { item_id: 'a' }], ...over }) as unknown as OrderItem;

describe('sameOrder', () => {
  it('matches the same items in any order of images', () => assert.ok(sameOrder([asked], [item({})])));
  it('refuses another name, project, image set or item count', () => {
    assert.ok(!sameOrder([asked], [item({ name: 'Other' })]));
    assert.ok(!sameOrder([asked], [item({ project_id: 'p2' })]));
    assert.ok(!sameOrder([asked], [item({ images: [{ item_id: 'a' }] as OrderItem['images'] })]));
    assert.ok(!sameOrder([asked], [item({}), item({})]));
  });
  it('a tasking request matches a tasking item, never an archive one', () => {
    const tasking: OrderItemRequest = { project_id: 'p1', name: 'Delta', usecase: 'general', geometry, bandset: { bandset_id: 'b' } };
    assert.ok(sameOrder([tasking], [item({ type: 'TASKING', images: [] })]));
    assert.ok(!sameOrder([tasking], [item({})]));
  });
});
