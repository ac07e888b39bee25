import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Catalog, OrderItem } from '../../../src/api/records';
import { assetRow, catalogOrigins, catalogRow, documentName, downloadFileName, orderLabel, UUID_LIKE } from '../../../src/explorer/labels';
import { linkExpiry, minutesLeft } from '../../../src/commands/catalog/linkExpiry';
import { preferredName } from '../../../src/commands/catalog/downloadFile';

const l10n = { t: (m: string, ...a: unknown[]): string => m.replace(/\{(\d+)\}/g, (_, i: string) => String(a[Number(i)])) };
const ID = 'eb23dedb-5c1f-4a7e-9d0b-2f3a4b5c6d7e';

describe('row labels name records, never by id', () => {
  it('an asset is its name (without the repeated date), then date and bands', () => {
    assert.deepEqual(assetRow(l10n, { name: 'NDVI 2026-04-07', date: '2026-04-07', asset_type: 'mosaic', band_list: ['NDVI'] }), {
      label: 'NDVI',
      description: '2026-04-07 · 1 band (NDVI)',
    });
    assert.deepEqual(assetRow(l10n, { name: 'Mosaic 2026-04-07', date: '2026-04-07', asset_type: 'mosaic', band_list: ['B02', 'B03', 'B04', 'B08'] }), {
      label: 'Mosaic',
      description: '2026-04-07 · 4 bands',
    });
    // no usable name: the index its visualization shows, else its type in words
    assert.equal(assetRow(l10n, { name: ID, date: '2026-04-07', asset_type: 'mosaic', band_list: [] }, 'True colour').label, 'True colour');
    assert.equal(assetRow(l10n, { name: '', date: '2026-04-07', asset_type: 'mosaic', band_list: [] }).label, 'Mosaic');
    // eight one-band rows of one day differ by what they are
    const rows = ['NDVI', 'NDWI', 'True colour'].map((n) =>
      assetRow(l10n, { name: `${n} 2026-04-07`, date: '2026-04-07', asset_type: 'mosaic', band_list: ['X'] }),
    );
    assert.equal(new Set(rows.map((r) => r.label)).size, 3);
  });

  it('a catalog entry names the order item it was bought for, by its own link or by its task', () => {
    const item = {
      id: 'item-1',
      order_id: 'order-1',
      name: 'Nile Delta #1.1',
      created_at: '2026-11-20T08:00:00Z',
      tasks: [{ id: 'task-9' }],
    } as unknown as OrderItem;
    const byLink = {
      id: ID,
      task_id: 'x',
      order_item_id: 'item-1',
      bandset_id: 'bs-s2-rededge',
      area: 34.7,
      created_at: '2026-11-22T10:00:00Z',
    } as unknown as Catalog;
    const byTask = { id: 'c2', task_id: 'task-9', bandset_id: 'bs-s2', area: 1, created_at: '2026-11-23T10:00:00Z' } as unknown as Catalog;
    const origins = catalogOrigins([byLink, byTask], [item]);
    assert.deepEqual(origins.get(ID), { itemName: 'Nile Delta #1.1', itemId: 'item-1', orderId: 'order-1', ordered: '2026-11-20' });
    assert.equal(origins.get('c2')?.itemName, 'Nile Delta #1.1');
    assert.deepEqual(catalogRow(l10n, byLink, origins.get(ID), 'Delivered'), {
      label: 'Nile Delta #1.1 · 2026-11-22',
      description: 'bs-s2-rededge · 34.7 km² · Delivered',
    });
    // unknown origin: the day and bandset, still no id
    const bare = catalogRow(l10n, { created_at: '2026-11-22T10:00:00Z', bandset_id: '', area: 2 }, undefined, 'Created');
    assert.equal(bare.label, '2026-11-22 · Catalog entry');
    assert.doesNotMatch(bare.label + bare.description, UUID_LIKE);
  });

  it('an order is its first item\'s name and "+N more"; the time when it has none', () => {
    assert.equal(orderLabel(l10n, ['Nile Delta #1.1'], '2026-11-22 10:00'), 'Nile Delta #1.1');
    assert.equal(orderLabel(l10n, ['Nile Delta #1.1', 'Po Valley', 'Delhi'], '2026-11-22 10:00'), 'Nile Delta #1.1 +2 more');
    assert.equal(orderLabel(l10n, [], '2026-11-22 10:00'), 'Order of 2026-11-22 10:00');
    assert.equal(orderLabel(l10n, [ID], '2026-11-22 10:00'), 'Order of 2026-11-22 10:00');
  });

  it("download and tab names: the entry's words, safe on every file system, never an id", () => {
    assert.equal(downloadFileName(['Nile Delta #1.1', '2026-11-22', 'bs-s2-rededge']), 'Nile Delta 1.1 2026-11-22 bs-s2-rededge.zip');
    assert.equal(downloadFileName([ID, '2026-11-22'], ''), '2026-11-22');
    assert.equal(downloadFileName(['a/b:c*?'], ''), 'a b c');
    assert.equal(documentName('Nile Delta #1.1 · 2026-11-22', ID), 'Nile Delta 1.1 · 2026-11-22');
    assert.equal(documentName('', ID), ID);
    // the server's name only gives the extension
    assert.equal(preferredName('Nile Delta 1.1 2026-11-22', `download-${ID}.zip`), 'Nile Delta 1.1 2026-11-22.zip');
    assert.equal(preferredName('Scene', 'x.tar.gz'), 'Scene.tar.gz');
  });

  it('reads how long a signed link is valid from its signature, and says nothing when it cannot', () => {
    const s3 = linkExpiry('https://b.s3.amazonaws.com/k?X-Amz-Date=20261122T100000Z&X-Amz-Expires=3600&X-Amz-Signature=abc');
    assert.equal(s3?.toISOString(), '2026-11-22T11:00:00.000Z');
    assert.equal(minutesLeft(s3!, new Date('2026-11-22T10:15:00Z')), 45);
    assert.equal(linkExpiry('https://storage.googleapis.com/b/k?X-Goog-Date=20261122T100000Z&X-Goog-Expires=600')?.toISOString(), '2026-11-22T10:10:00.000Z');
    assert.equal(linkExpiry('https://x.blob.core.windows.net/c/k?sv=1&se=2026-11-22T12:00:00Z&sig=z')?.toISOString(), '2026-11-22T12:00:00.000Z');
    assert.equal(linkExpiry('https://example.com/k?Expires=1795000000')?.getTime(), 1795000000 * 1000);
    assert.equal(linkExpiry('https://example.com/files/abc'), undefined);
    assert.equal(linkExpiry('not a url'), undefined);
  });
});

describe('amounts and tokens say what they count', () => {
  it('an amount carries the billing unit when one is set, tokens say tokens', async () => {
    const { amount, tokens } = await import('../../../src/format');
    assert.equal(amount(956.91), '956.91');
    assert.equal(amount(956.91, 'EUR'), '956.91 EUR');
    assert.equal(amount(7500, '  credits '), '7,500.00 credits');
    assert.equal(amount(undefined, 'EUR'), '—');
    assert.equal(tokens(1250), '1,250 tokens');
    assert.equal(tokens(1), '1 token');
  });
});
