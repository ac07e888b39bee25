import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { catalogSearchBody, checkBbox, checkDateInterval } from '../../../src/commands/catalog/catalogQuery';
import { targetsOf } from '../../../src/commands/catalog/targets';

describe('catalog search form', () => {
  it('builds the search body from the typed fields, leaving empty ones out', () => {
    assert.deepEqual(catalogSearchBody({ orderIds: '', orderItemIds: '', dateRange: '', bbox: '' }), {});
    assert.deepEqual(catalogSearchBody({ orderIds: 'o1, o2 o1', orderItemIds: 'i1', dateRange: '2025-01-01/2025-01-31', bbox: '77, 28.4, 77.4, 28.8' }), {
      order_ids: ['o1', 'o2'],
      order_item_ids: ['i1'],
      bbox: [77, 28.4, 77.4, 28.8],
      datetime: '2025-01-01T00:00:00.000Z/2025-01-31T23:59:59.999Z',
    });
    assert.equal(catalogSearchBody({ orderIds: '', orderItemIds: '', dateRange: '../2025-01-31T00:00:00Z', bbox: '' }).datetime, '../2025-01-31T00:00:00.000Z');
  });

  it('explains a bad bbox and allows one across the antimeridian', () => {
    assert.match(checkBbox('1,2,3') ?? '', /four numbers/);
    assert.match(checkBbox('0,10,1,5') ?? '', /min latitude/);
    assert.match(checkBbox('0,0,190,5') ?? '', /Longitudes/);
    assert.equal(checkBbox('170,-10,-170,10'), undefined);
  });

  it('explains a bad date interval', () => {
    assert.match(checkDateInterval('2025-01-01') ?? '', /start\/end/);
    assert.match(checkDateInterval('../..') ?? '', /at least one end/);
    assert.match(checkDateInterval('2025-02-01/2025-01-01') ?? '', /before the start/);
    assert.match(checkDateInterval('2025-02-30/..') ?? '', /^Start/);
  });
});

describe('delivery and download targets', () => {
  const cat = (id: string): unknown => ({ kind: 'catalog', record: { id } });
  const item = (id: string): unknown => ({ kind: 'orderItem', record: { id } });
  it('uses the multi-selection over the clicked row', () => {
    assert.deepEqual(targetsOf(cat('a'), [cat('a'), cat('b')]), { catalogIds: ['a', 'b'] });
    assert.deepEqual(targetsOf(item('x')), { orderItemIds: ['x'] });
    assert.deepEqual(targetsOf({ orderItemIds: ['y'] }), { orderItemIds: ['y'] });
    assert.equal(targetsOf(), undefined);
  });
  it('refuses catalog entries and order items together', () => {
    const r = targetsOf(cat('a'), [cat('a'), item('x')]);
    assert.ok(r && 'error' in r);
  });
});
