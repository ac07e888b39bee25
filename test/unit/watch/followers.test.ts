/**
 * The watcher's followers: what each says and offers when a thing is final (the interface's
 * final statuses), and their reads against the sandbox over loopback: an order item followed
 * from ACTIVE to a final status on the advanced clock; three runs on one AOI read by one request.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { collect, EoClient, FINAL_STATUSES, type Aoi, type OrderItem } from '../../../src/api';
import type { Delivery, Insight } from '../../../src/api/records';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';
import type { WatchRef } from '../../../src/watch/followed';
import { FOLLOWERS } from '../../../src/watch/followers';

const ref = (kind: WatchRef['kind'], id: string, parent?: string): WatchRef => ({ kind, id, since: 0, ...(parent ? { parent } : {}) });

describe('followers: outcome and next action', () => {
  const item = { id: 'oi1', name: 'Lake Constance 2026-06', status: 'FULFILLED', payment_status: 'PAID' } as OrderItem;

  it('an order item is pending until a final status of the interface, and says how it stands in words', () => {
    const f = FOLLOWERS.orderItem;
    for (const s of FINAL_STATUSES.orderItem) assert.notEqual(f.snapshot({ ...item, status: s }).outcome, 'pending', s);
    const active = f.snapshot({ ...item, status: 'ACTIVE', payment_status: 'UNPAID' });
    assert.equal(active.outcome, 'pending');
    assert.equal(active.words, 'Active · payment unpaid');
    assert.equal(active.name, 'Lake Constance 2026-06');
  });

  it('a fulfilled order item offers Show on Map, Deliver… and Download… for that item', () => {
    const f = FOLLOWERS.orderItem;
    const fin = f.finish(item, f.snapshot(item), ref('orderItem', 'oi1'), {});
    assert.equal(fin.severity, 'info');
    assert.equal(fin.text, 'Order item Lake Constance 2026-06 is fulfilled: its imagery is ready.');
    assert.deepEqual(
      fin.actions.map((a) => [a.title, a.command]),
      [
        ['Show on Map', 'showOnMap'],
        ['Deliver…', 'deliver'],
        ['Download…', 'download'],
      ],
    );
    assert.deepEqual(fin.actions[1].args, [{ orderItemIds: ['oi1'], names: ['Lake Constance 2026-06'] }]);
  });

  it('a failed order item gives the reason', () => {
    const f = FOLLOWERS.orderItem;
    const failed = { ...item, status: 'FAILED', validation_errors: [{ field: 'geometry', message: 'the area is outside the scene' }] } as OrderItem;
    const fin = f.finish(failed, f.snapshot(failed), ref('orderItem', 'oi1'), {});
    assert.equal(fin.severity, 'error');
    assert.equal(fin.text, 'Order item Lake Constance 2026-06 failed: the area is outside the scene.');
    assert.deepEqual(fin.actions, []);
  });

  it('deliveries, downloads and insight runs end in words with their next action; no link is carried', () => {
    const d = { delivery_id: 'd1', status: 'SUCCESS', target_path: 'imagery/lake/scene.tif' } as Delivery;
    assert.equal(FOLLOWERS.delivery.finish(d, FOLLOWERS.delivery.snapshot(d), ref('delivery', 'd1'), {}).text, 'Delivered to imagery/lake/scene.tif.');
    const dl = { id: 'dl1', status: 'success' as const, signed_url: 'https://store/x.zip?X-Amz-Signature=abc' };
    const ready = FOLLOWERS.download.finish(dl, FOLLOWERS.download.snapshot(dl), ref('download', 'dl1'), { where: 'order item Lake' });
    assert.equal(ready.text, 'The download of order item Lake is ready.');
    assert.deepEqual(ready.actions, [{ title: 'Download…', command: 'saveReadyDownload', args: [{ downloadId: 'dl1', what: 'order item Lake' }] }]);
    assert.ok(!JSON.stringify(ready).includes('Signature'), 'the signed URL is read again when the person acts');
    const run = { id: 'r1', name: 'water', status: 'success', output: [{}, {}] } as unknown as Insight;
    const done = FOLLOWERS.insightRun.finish(run, FOLLOWERS.insightRun.snapshot(run), ref('insightRun', 'r1', 'a1'), { where: 'Lake X' });
    assert.equal(done.text, 'Insight water on Lake X finished with 2 outputs.');
    assert.deepEqual(done.actions, [{ title: 'Show Outputs', command: 'showInsightOutputs', args: [{ aoiId: 'a1', id: 'r1' }] }]);
    const failed = { ...run, status: 'failed', err_msg: 'no water pixels' } as Insight;
    assert.equal(
      FOLLOWERS.insightRun.finish(failed, FOLLOWERS.insightRun.snapshot(failed), ref('insightRun', 'r1', 'a1'), {}).text,
      'Insight water failed: no water pixels.',
    );
  });
});

describe('followers against the sandbox', () => {
  let sb: SandboxHandle;
  let client: EoClient;
  let requests: string[] = [];
  let aoi: Aoi;

  before(async () => {
    sb = await startSandbox({ port: 0 });
    client = new EoClient({
      baseUrl: sb.url,
      token: sb.tokens.alice,
      timeoutMs: 5000,
      userAgent: 'eo-imagery-vscode/test',
      retry: { retries: 0, baseDelayMs: 5 },
      onRequest: (e) => requests.push(`${e.method} ${e.path}`),
    });
    aoi = (await collect(client.aois.iterate())).find((a) => a.satellite_id === 'sentinel-2')!;
    assert.ok(aoi, 'alice has a Sentinel-2 AOI');
  });
  after(async () => {
    await client?.close();
    await sb?.close();
  });

  it('an order item placed now is pending, and final once the clock has moved on', async () => {
    const archive = await client.archives.search({ intersects: aoi.geometry, limit: 1 });
    const order = await client.orders.create({
      dry_run: false,
      order_items: [
        {
          project_id: aoi.project_id,
          name: 'watched',
          usecase: 'agriculture',
          geometry: { type: 'FeatureCollection', features: [{ type: 'Feature', properties: {}, geometry: aoi.geometry }] },
          item_ids: [archive.features[0].id],
        },
      ],
    });
    const id = order.order_items[0].id;
    const f = FOLLOWERS.orderItem;
    const first = await f.read(client, [ref('orderItem', id)], new AbortController().signal);
    assert.equal(f.snapshot(first.get(id)).outcome, 'pending');
    sb.clock.advance(24 * 60 * 60_000);
    const later = await f.read(client, [ref('orderItem', id)], new AbortController().signal);
    const snap = f.snapshot(later.get(id));
    assert.notEqual(snap.outcome, 'pending');
    assert.ok((FINAL_STATUSES.orderItem as readonly string[]).includes((later.get(id) as OrderItem).status));
  });

  it('three runs on one AOI are read by one request; a run the list lacks is reported missing', async () => {
    const water = (await client.blocks.insights({ name: 'water-extent' }))[0];
    const mosaic = (await collect(client.aois.iterateAssets(aoi.aoi_id))).find((a) => a.visualization_id === '')!;
    const input = water.spec.inputs.map((d) =>
      d.format === 'raster'
        ? { ...d, stac_url: mosaic.path, asset_source: { id: mosaic.id, type: 'raw_mosaic' as const } }
        : { ...d, value: d.type === 'boolean' ? 'false' : d.format === 'date' ? '2024-01-01' : '0.2' },
    );
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const started = await client.insightRuns.run(aoi.aoi_id, {
        name: `w${i}`,
        project_id: aoi.project_id,
        block: { name: water.spec.name, version: water.spec.version },
        input,
      });
      ids.push(started.id);
    }
    requests = [];
    const refs = [...ids, 'no-such-run'].map((id) => ref('insightRun', id, aoi.aoi_id));
    const f = FOLLOWERS.insightRun;
    assert.equal(new Set(refs.map((r) => f.shareKey(r))).size, 1, 'one share key for one AOI');
    const got = await f.read(client, refs, new AbortController().signal);
    assert.equal(requests.length, 1, requests.join(', '));
    assert.deepEqual([...got.keys()].sort(), [...ids].sort());
    assert.ok(ids.every((id) => f.snapshot(got.get(id)).outcome === 'pending'));
  });
});
