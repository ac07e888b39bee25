import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Order, OrderItem } from '../../../src/api/records';
import { restateRequest, summarizeOrder } from '../../../src/commands/orders/orderSummary';
import type { FeatureCollection, OrderItemRequest, Polygon } from '../../../src/api/records';
import { UUID_LIKE } from '../../../src/explorer/labels';

const l10n = { t: (m: string, ...a: unknown[]): string => m.replace(/\{(\d+)\}/g, (_, i: string) => String(a[Number(i)])) };

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
    assert.equal(s.headline, '2 items · total amount 1,120.00');
    assert.match(s.detail, /1\. Delhi scene — Archive/);
    assert.match(s.detail, /Area 1,234\.5 km² · base amount 100\.00 · final amount 120\.00/);
    assert.match(s.detail, /Uplift: Priority \(rush\) \+20% = 20\.00/);
    assert.match(s.detail, /Total amount: 1,120\.00$/);
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

  it("shows the OpenAPI's validation_errors (maps of field to messages) one line per field", () => {
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
    assert.match(
      s.detail,
      /✗ geometry: area 812\.0 km² exceeds the 500 km² tasking limit; the polygon intersects itself\n {3}✗ end_date: the window is too short/,
    );
    assert.deepEqual(s.warnings, []);
  });

  it('shows every amount in the billing unit when one is set', () => {
    const s = summarizeOrder({ total_amount: 956.91, order_items: [item({ base_amount: 900, final_amount: 956.91 })] }, { unit: 'EUR' });
    assert.equal(s.headline, '1 item · total amount 956.91 EUR');
    assert.match(s.detail, /base amount 900\.00 EUR · final amount 956\.91 EUR/);
    assert.match(s.detail, /Total amount: 956\.91 EUR$/);
  });

  it('restates a tasking request: dates, captures, bandset and satellite, limits, speed, delivery target', () => {
    const geometry = { type: 'FeatureCollection', features: [] } as unknown as FeatureCollection<Polygon>;
    const req: OrderItemRequest = {
      name: 'Nile Delta',
      usecase: 'general',
      geometry,
      recurrence: 'WEEKLY',
      no_of_occurrences: 4,
      start_date: '2026-12-01T00:00:00Z',
      end_date: '2026-12-31T23:59:59Z',
      bandset: { bandset_id: '7c0e9a52-1111-2222-3333-444455556666' },
      cloud_cover: 20,
      off_nadir: 25,
      delivery_speed: 'PRIORITY',
      cloud_delivery: { config: '0b1c2d3e-1111-2222-3333-444455556666', path: 'eo/nile' },
    };
    const lines = restateRequest(l10n, req, { bandset: 'Red edge (6 bands)', satellite: 'Sentinel-2', store: 'imagery-eu' });
    assert.deepEqual(lines, [
      'Dates: 2026-12-01 → 2026-12-31',
      'Captures: 4 (Weekly)',
      'Bandset: Red edge (6 bands) · satellite Sentinel-2',
      'Limits: cloud cover at most 20 %, off-nadir angle at most 25°',
      'Delivery speed: Priority',
      'Delivered to: imagery-eu / eo/nile',
    ]);
    assert.ok(
      lines.every((l) => !UUID_LIKE.test(l)),
      'an id where a name is known',
    );
    const s = summarizeOrder({ total_amount: 120, order_items: [item({ type: 'TASKING', name: 'Nile Delta' })] }, { requested: [lines] });
    assert.match(s.detail, /1\. Nile Delta — Tasking\n {3}Dates: 2026-12-01 → 2026-12-31\n {3}Captures: 4 \(Weekly\)/);
    assert.ok(s.detail.indexOf('Delivered to') < s.detail.indexOf('base amount'), 'the amounts come after what is bought');
  });

  it('restates an archive request as its scenes with their dates, and says when nothing is delivered', () => {
    const geometry = { type: 'FeatureCollection', features: [] } as unknown as FeatureCollection<Polygon>;
    const lines = restateRequest(
      l10n,
      { usecase: 'general', geometry, item_ids: ['S2A_1', 'S2B_2'] },
      {
        scenes: [
          { id: 'S2A_1', title: 'Paris, clear', date: '2025-03-01T10:33:00Z' },
          { id: 'S2B_2', date: '2025-03-04T10:31:00Z' },
        ],
      },
    );
    assert.deepEqual(lines, [
      '2 archive scenes:',
      '• Paris, clear, acquired 2025-03-01',
      '• S2B_2, acquired 2025-03-04',
      'Delivered to: no cloud store (kept in the catalog)',
    ]);
  });
});
