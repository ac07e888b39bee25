/**
 * Contract: orders and order items (docs/service-interface.md, "Orders", "Order items",
 * "States", "Conventions"). A dry run prices without storing; a real order is stored UNPAID.
 */
import * as assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  asArray,
  asObject,
  assertErrorBody,
  assertFields,
  assertPagination,
  type Call,
  caller,
  DMY,
  expectStatus,
  ISO_T,
  type Service,
  square,
  startService,
} from './service';

const ORDER_STATUS = ['PAID', 'REFUND', 'UNPAID', 'PAYMENT_IN_PROGRESS'];
const ITEM_STATUS = ['DRAFT', 'ACTIVE', 'FULFILLED', 'CANCELLED', 'FAILED', 'PARTIALLY_FULFILLED'];
const PAYMENT_STATUS = ['PAID', 'PARTIAL-REFUND', 'REFUND', 'UNPAID', 'PARTIAL-MONTHLY'];
// The interface's three, and the two the published OpenAPI adds.
const FEASIBILITY = ['FAILED', 'WEAK_SUCCESS', 'SUCCESS', 'NOT_APPLICABLE', 'UNSPECIFIED'];

const ORDER = {
  org_id: 'string',
  user_id: 'string',
  status: ORDER_STATUS,
  total_amount: 'number',
  transaction_id: 'string',
  paid_at: 'string',
  created_at: ISO_T,
  updated_at: ISO_T,
  created_by: 'string',
  updated_by: 'string',
  order_items: 'array',
} as const;
const ITEM = {
  id: 'string',
  order_id: 'string',
  project_id: 'string',
  name: 'string',
  type: ['TASKING', 'ARCHIVE', 'RECURRING'],
  status: ITEM_STATUS,
  payment_status: PAYMENT_STATUS,
  feasibility_status: FEASIBILITY,
  usecase: 'string',
  area: 'number',
  base_amount: 'number',
  final_amount: 'number',
} as const;
const TASK = {
  id: 'string',
  order_item_id: 'string',
  type: 'string',
  status: 'string',
  delivery_status: 'string',
  start_date: DMY,
  end_date: DMY,
  number_of_strips: 'integer',
  created_at: 'string',
  updated_at: 'string',
} as const;

describe('contract: orders and order items', () => {
  let svc: Service;
  let call: Call;
  before(async () => {
    svc = await startService();
    call = caller(svc);
  });
  after(() => svc.close());

  const fc = (g: unknown) => ({ type: 'FeatureCollection', features: [{ type: 'Feature', properties: {}, geometry: g }] });

  async function taskingRequest(): Promise<Record<string, unknown>> {
    const project = asArray(expectStatus(await call('GET', '/v0/projects'), 200, 'projects').projects, 'projects')[0] as { id: string };
    const bandset = asArray(expectStatus(await call('GET', '/v0/bandsets'), 200, 'bandsets').bandsets, 'bandsets')[0] as { id: string };
    const start = new Date(Date.now() + 7 * 86_400_000);
    const end = new Date(start.getTime() + 30 * 86_400_000);
    return {
      project_id: project.id,
      name: 'contract tasking',
      usecase: 'agriculture',
      geometry: fc(square(5.3, 43.4, 0.05)),
      recurrence: 'ONCE',
      start_date: start.toISOString(),
      end_date: end.toISOString(),
      no_of_occurrences: 1,
      bandset: { bandset_id: bandset.id },
      cloud_cover: 20,
      off_nadir: 20,
      delivery_speed: 'STANDARD',
    };
  }

  it('POST /v0/orders with dry_run prices the order and stores nothing', async () => {
    const before = assertPagination(expectStatus(await call('GET', '/v0/orders?limit=1'), 200, 'orders'), 'orders').total;
    const priced = expectStatus(await call('POST', '/v0/orders', { dry_run: true, order_items: [await taskingRequest()] }), 200, 'dry run');
    const items = asArray(priced.order_items, 'order_items');
    assert.equal(items.length, 1);
    assertFields(items[0], { final_amount: 'number', base_amount: 'number', area: 'number', feasibility_status: FEASIBILITY }, 'priced item');
    assert.equal(typeof priced.total_amount, 'number');
    const after = assertPagination(expectStatus(await call('GET', '/v0/orders?limit=1'), 200, 'orders'), 'orders').total;
    assert.equal(after, before, 'a dry run stores no order');
  });

  it('POST /v0/orders: 201 Order with its items, UNPAID, readable at /v0/orders/{id} and listed', async () => {
    const made = expectStatus(await call('POST', '/v0/orders', { dry_run: false, order_items: [await taskingRequest()] }), 201, 'order');
    assertFields(made, { id: 'string', ...ORDER }, 'order (created)');
    assert.equal(made.status, 'UNPAID');
    const item = (made.order_items as unknown[])[0];
    assertFields(item, ITEM, 'order item (created)');
    assert.equal((item as { type: string }).type, 'TASKING');
    const read = expectStatus(await call('GET', `/v0/orders/${String(made.id)}`), 200, 'get order');
    assertFields(read, { id: 'string', ...ORDER }, 'order (get)');
    assert.equal(read.id, made.id);
    const listed = expectStatus(await call('GET', '/v0/orders?limit=100'), 200, 'orders');
    assertPagination(listed, 'orders', { limit: 100, offset: 0 });
    assert.ok(
      (listed.orders as { id: string }[]).some((o) => o.id === made.id),
      'the new order is listed',
    );
  });

  it('POST /v0/orders refuses a tasking item without a bandset, and one whose end is before its start, with the error body', async () => {
    const good = await taskingRequest();
    const { bandset: _omitted, ...noBandset } = good;
    for (const bad of [noBandset, { ...good, start_date: good.end_date, end_date: good.start_date }]) {
      const r = await call('POST', '/v0/orders', { dry_run: true, order_items: [bad] });
      assert.equal(r.status, 400, r.text);
      assertErrorBody(r, 'order 400');
    }
    const missing = await call('GET', '/v0/orders/no-such-order');
    assert.equal(missing.status, 404);
    assertErrorBody(missing, 'order 404');
  });

  it('GET /v0/orders: every order has the declared fields; paid_at is a timestamp or ""', async () => {
    const body = expectStatus(await call('GET', '/v0/orders?limit=100'), 200, 'orders');
    for (const o of asArray(body.orders, 'orders')) {
      assertFields(o, { id: 'string', ...ORDER }, 'order');
      const paid = (o as { paid_at: string }).paid_at;
      assert.ok(paid === '' || ISO_T.test(paid), `paid_at ${paid}`);
    }
  });

  it('GET /v0/order-items: {order_items with tasks, pagination}; tasks dated DD-MM-YYYY; filters by type and ids', async () => {
    const body = expectStatus(await call('GET', '/v0/order-items?limit=50'), 200, 'order items');
    assertPagination(body, 'order items', { limit: 50, offset: 0 });
    const items = asArray(body.order_items, 'order_items') as Record<string, unknown>[];
    assert.ok(items.length > 0);
    let tasks = 0;
    for (const i of items) {
      assertFields(i, { ...ITEM, tasks: 'array' }, 'order item');
      for (const t of i.tasks as unknown[]) {
        assertFields(t, TASK, 'task');
        assert.equal((t as { order_item_id: string }).order_item_id, i.id);
        tasks++;
      }
    }
    assert.ok(tasks > 0, 'the seeded items carry tasks');
    const archive = asArray(expectStatus(await call('GET', '/v0/order-items?type=ARCHIVE&limit=100'), 200, 'archive items').order_items, 'order_items') as {
      type: string;
    }[];
    assert.ok(archive.length > 0 && archive.every((i) => i.type === 'ARCHIVE'), 'type filter');
    const two = items.slice(0, 2).map((i) => String(i.id));
    const byIds = asArray(expectStatus(await call('GET', `/v0/order-items?ids=${two.join(',')}`), 200, 'by ids').order_items, 'order_items') as {
      id: string;
    }[];
    assert.deepEqual(byIds.map((i) => i.id).sort(), [...two].sort(), 'ids filter, comma-separated');
    const one = expectStatus(await call('GET', `/v0/order-items/${two[0]}`), 200, 'get order item');
    assertFields(one, ITEM, 'order item (get)');
    assert.equal(one.id, two[0]);
    const missing = await call('GET', '/v0/order-items/no-such-item');
    assert.equal(missing.status, 404);
    assertErrorBody(missing, 'order item 404');
    asObject(missing.json, 'order item 404');
  });
});
