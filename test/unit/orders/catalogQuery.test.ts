import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { catalogSearchBody, checkBbox, checkDateInterval } from '../../../src/commands/catalog/catalogQuery';
import { describeTargets, targetsOf } from '../../../src/commands/catalog/targets';
import { UUID_LIKE } from '../../../src/explorer/labels';

const l10n = { t: (m: string, ...a: unknown[]): string => m.replace(/\{(\d+)\}/g, (_, i: string) => String(a[Number(i)])) };

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
  it("carries the rows' names and the file name parts, and describes targets by name, never by id", () => {
    const id = '44aa7b27-0b1c-4d2e-9f30-5a6b7c8d9e0f';
    const row = {
      kind: 'catalog',
      label: 'Nile Delta #1.1 · 2026-11-22',
      origin: { itemName: 'Nile Delta #1.1' },
      record: { id, created_at: '2026-11-22T10:00:00Z', bandset_id: 'bs-s2-rededge' },
    };
    const t = targetsOf(row);
    assert.deepEqual(t, { catalogIds: [id], names: ['Nile Delta #1.1 · 2026-11-22'], fileParts: ['Nile Delta #1.1', '2026-11-22', 'bs-s2-rededge'] });
    assert.ok(t && !('error' in t));
    assert.equal(describeTargets(l10n, t), 'catalog entry Nile Delta #1.1 · 2026-11-22');
    const unnamed = targetsOf({ catalogIds: [id, 'b'] });
    assert.ok(unnamed && !('error' in unnamed));
    assert.equal(describeTargets(l10n, unnamed), '2 catalog entries');
    const one = targetsOf({ orderItemIds: [id] });
    assert.ok(one && !('error' in one));
    assert.ok(!UUID_LIKE.test(describeTargets(l10n, one)), 'an id in the description');
    const item2 = targetsOf({
      kind: 'orderItem',
      record: { id, name: 'Po Valley #2.1', start_date: '2026-05-01T00:00:00Z', bandset: { bandset_id: 'bs-pneo' } },
    });
    assert.deepEqual(item2, { orderItemIds: [id], names: ['Po Valley #2.1'], fileParts: ['Po Valley #2.1', '2026-05-01', 'bs-pneo'] });
  });
});
