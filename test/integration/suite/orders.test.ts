// Ordering against the sandbox, through the prompt seam: archive and tasking orders are priced
// with a dry run, confirmed once (exactly one stored order per Confirm), revealed, and watched
// to their final status on the sandbox clock; refusals keep the entries; an answer lost after
// Confirm is never sent again: the service is asked, and the person told what was placed; a failed dry run never places an order.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ArchiveItem, OrderRecord } from '../../../src/api';
import { COMMANDS } from '../../../src/commandIds';
import { T } from '../../../src/sandbox/transitions';
import { BACK_ITEM_LABEL } from '../../../src/ui/stepPrompts';
import { connectToSandbox, useSandbox } from '../harness/sandbox';
import { FaultProxy } from '../../support/faultProxy';
import { ScriptedPrompts } from '../support/scriptedPrompts';
import { HookedPrompts, client, firstItem, handle, runScripted, storedOrderCount } from './ordersSupport';

const square = (x: number, y: number): number[][][] => [
  [
    [x, y],
    [x + 0.05, y],
    [x + 0.05, y + 0.05],
    [x, y + 0.05],
    [x, y],
  ],
];

async function archiveItem(conn: Parameters<typeof client>[0]): Promise<ArchiveItem> {
  const fc = await (await client(conn)).archives.search({ limit: 1 });
  assert.ok(fc.features.length > 0, 'the sandbox archive is empty');
  return fc.features[0];
}

/**
 * Writes GeoJSON to a file of its own (untitled documents reuse names once closed), opens it
 * and waits until it is the active editor; resolves with its URI.
 */
async function openGeoJson(value: unknown): Promise<vscode.Uri> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'eo-order-')), 'area.geojson');
  fs.writeFileSync(file, JSON.stringify(value));
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
  await vscode.window.showTextDocument(doc);
  const deadline = Date.now() + 3000;
  while (vscode.window.activeTextEditor?.document !== doc && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  return doc.uri;
}

suite('orders: archive and tasking orders against the sandbox', function () {
  this.timeout(60_000);
  const sb = useSandbox();

  teardown(async () => {
    handle(sb.current).faults.clear();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('archive order: dry run, priced summary, one POST on Confirm, then PAID and FULFILLED on the sandbox clock', async () => {
    const conn = sb.current;
    const item = await archiveItem(conn);
    const before = storedOrderCount(conn);
    const prompts = new ScriptedPrompts([
      { kind: 'pick', match: /Project/, choose: firstItem },
      { kind: 'input', match: /Name/, answer: 'Integration archive order' },
      { kind: 'input', match: /Use case/, answer: 'flood mapping' },
      { kind: 'pick', match: /cloud store/, choose: 'No cloud delivery' },
      { kind: 'pick', match: /^Place this order\? 1 item · total/, choose: 'Place Order' },
    ]);
    const order = await runScripted<OrderRecord | undefined>(conn, prompts, COMMANDS.orderArchiveItems, item);
    prompts.assertDone();
    assert.ok(order?.id, 'no order returned');
    assert.equal(storedOrderCount(conn) - before, 1, 'exactly one stored order per Confirm');
    const summary = prompts.seen.find((m) => m.kind === 'pick' && m.label.startsWith('Place this order?'));
    assert.ok(summary, 'the priced summary was not shown');
    // Enter on the confirmation picks its first row: Cancel, never Place Order
    assert.match(summary.items?.[0] ?? '', /Cancel/);
    assert.ok(
      summary.items?.some((i) => /Total amount/.test(i)),
      `the summary lists the total: ${summary.items?.join(' / ')}`,
    );
    assert.deepEqual(
      order.order_items[0].images.map((i) => i.item_id),
      [item.id],
    );

    const c = await client(conn);
    handle(conn).clock.advance(T.orderPaid + T.archiveRun + 1000);
    const settled = await c.orders.get(order.id);
    assert.equal(settled.status, 'PAID');
    const fulfilled = await c.orderItems.get(order.order_items[0].id);
    assert.equal(fulfilled.status, 'FULFILLED');
    assert.equal(fulfilled.name, 'Integration archive order');
    assert.equal(fulfilled.usecase, 'flood mapping');
  });

  test('a refused dry run keeps the entries: fix one field and the order goes through once', async () => {
    const conn = sb.current;
    const item = await archiveItem(conn);
    const before = storedOrderCount(conn);
    handle(conn).faults.add({
      method: 'POST',
      path: '/v0/orders',
      status: 400,
      count: 1,
      body: { error: { code: 'bad_request', message: 'order_items[0].name: this name is reserved', details: 'order_items[0].name' } },
    });
    let chosenProject = '';
    const prompts = new ScriptedPrompts([
      {
        kind: 'pick',
        match: /Project/,
        choose: (items) => {
          chosenProject = items[items.length - 1].label;
          return items[items.length - 1];
        },
      },
      { kind: 'input', match: /Name/, answer: 'reserved' },
      { kind: 'input', match: /Use case/, answer: '' },
      { kind: 'pick', match: /cloud store/, choose: 'No cloud delivery' },
      { kind: 'message', match: /refused the order: .*this name is reserved/, answer: 'Edit Entries…' },
      { kind: 'pick', match: /Which entry/, choose: 'Name' },
      { kind: 'input', match: /Name/, answer: 'Fixed name' },
      { kind: 'pick', match: /^Place this order\?/, choose: 'Place Order' },
    ]);
    const order = await runScripted<OrderRecord | undefined>(conn, prompts, COMMANDS.orderArchiveItems, item);
    prompts.assertDone();
    assert.equal(storedOrderCount(conn) - before, 1);
    assert.equal(order?.order_items[0].name, 'Fixed name');
    // the use case left empty is sent as the default, never omitted (the service requires it)
    assert.equal(order.order_items[0].usecase, 'general');
    const project = await (await client(conn)).projects.get(order.order_items[0].project_id);
    assert.equal(project.title || project.name, chosenProject, 'the project entry was not kept');
  });

  test('an answer lost after the order POST (proxy lostAnswer): one POST, and the message names the order placed', async () => {
    const conn = sb.current;
    const item = await archiveItem(conn);
    const before = storedOrderCount(conn);
    const proxy = await FaultProxy.start({ upstream: conn.sandbox.url });
    // The extension talks to the sandbox through the proxy, which logs every request.
    await connectToSandbox({ ...conn.sandbox, url: proxy.url });
    try {
      const prompts = new HookedPrompts([
        { kind: 'pick', match: /Project/, choose: firstItem },
        { kind: 'input', match: /Name/, answer: 'Lost answer order' },
        { kind: 'input', match: /Use case/, answer: '' },
        { kind: 'pick', match: /cloud store/, choose: 'No cloud delivery' },
        { kind: 'pick', match: /^Place this order\?/, choose: 'Place Order' },
      ]);
      // The sandbox stores the order; the connection is reset before a byte of its answer returns.
      prompts.onMessage = (text) => {
        if (text.startsWith('Place this order?')) proxy.add({ method: 'POST', path: '/v0/orders', times: 1, toxic: { kind: 'lostAnswer' } });
      };
      const order = await runScripted<OrderRecord | undefined>(conn, prompts, COMMANDS.orderArchiveItems, item);
      prompts.assertDone();
      const posts = proxy.log.filter((r) => r.method === 'POST' && r.path === '/v0/orders');
      // The dry run, then the one real POST: never a second one.
      assert.deepEqual(
        posts.map((r) => r.toxic),
        [undefined, 'lostAnswer'],
      );
      assert.equal(storedOrderCount(conn) - before, 1, 'exactly one order stored');
      const stored = handle(conn).state.orders.at(-1);
      assert.ok(order?.id, `the command returns the order the service placed; shown: ${JSON.stringify(prompts.messages.map((m) => m.text))}`);
      assert.equal(order.id, stored?.id);
      const told = prompts.messages.find((m) => /answer was lost.*placed as/.test(m.text));
      assert.ok(told, `no "placed as" message: ${JSON.stringify(prompts.messages.map((m) => m.text))}`);
      assert.ok(told.text.includes(order.id) && told.text.includes('Lost answer order'), told.text);
      assert.ok(!prompts.messages.some((m) => m.buttons.includes('Retry')), 'Retry offered after a spending POST');
      assert.ok(conn.api.services.watcher.isFollowing('orderItem', order.order_items[0].id), 'followed in What is pending');
    } finally {
      await connectToSandbox(conn.sandbox);
      await proxy.close();
    }
  });

  test('a drop before the service acted: "nothing was placed", and Place Again prices and asks again, Cancel first', async () => {
    const conn = sb.current;
    const item = await archiveItem(conn);
    const before = storedOrderCount(conn);
    let confirmations = 0;
    const prompts = new HookedPrompts([
      { kind: 'pick', match: /Project/, choose: firstItem },
      { kind: 'input', match: /Name/, answer: 'Unlucky order' },
      { kind: 'input', match: /Use case/, answer: '' },
      { kind: 'pick', match: /cloud store/, choose: 'No cloud delivery' },
      { kind: 'pick', match: /^Place this order\?/, choose: 'Place Order' },
      { kind: 'message', match: /did not answer.*nothing was placed\. Place it again\?/, answer: 'Place Again…' },
      // The priced confirmation again; its first (default) row is Cancel.
      { kind: 'pick', match: /^Place this order\?/, choose: firstItem },
    ]);
    // The sandbox resets the connection on the real POST without storing anything.
    prompts.onMessage = (text) => {
      if (text.startsWith('Place this order?') && ++confirmations === 1)
        handle(conn).faults.add({ method: 'POST', path: '/v0/orders', status: 500, reset: true, count: 1 });
    };
    const order = await runScripted<OrderRecord | undefined>(conn, prompts, COMMANDS.orderArchiveItems, item);
    prompts.assertDone();
    assert.equal(order, undefined);
    assert.equal(confirmations, 2, 'the priced confirmation was not shown again');
    assert.equal(storedOrderCount(conn) - before, 0, 'the POST was retried or stored');
  });

  test('a dry run that fails on the network never places an order', async () => {
    const conn = sb.current;
    const item = await archiveItem(conn);
    const before = storedOrderCount(conn);
    handle(conn).faults.add({ method: 'POST', path: '/v0/orders', status: 503, count: 1 });
    const prompts = new ScriptedPrompts([
      { kind: 'pick', match: /Project/, choose: firstItem },
      { kind: 'input', match: /Name/, answer: 'Never placed' },
      { kind: 'input', match: /Use case/, answer: '' },
      { kind: 'pick', match: /cloud store/, choose: 'No cloud delivery' },
    ]);
    await runScripted(conn, prompts, COMMANDS.orderArchiveItems, item);
    prompts.assertDone();
    assert.equal(storedOrderCount(conn) - before, 0);
    assert.ok(
      prompts.messages.some((m) => m.severity === 'error' && /Pricing the order failed/.test(m.text)),
      'no error shown',
    );
  });

  test('tasking from a GeoJSON editor: Back keeps entries, the request carries the dates, one order, then ACTIVE', async () => {
    const conn = sb.current;
    await openGeoJson({
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: square(77.1, 28.5) } },
        { type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: square(77.3, 28.6) } },
      ],
    });
    const before = storedOrderCount(conn);
    const day = 86_400_000;
    const iso = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
    const start = iso(Date.now() + day);
    const firstEnd = iso(Date.now() + 5 * day);
    const end = iso(Date.now() + 20 * day);
    const prompts = new ScriptedPrompts([
      { kind: 'pick', match: /Project/, choose: firstItem },
      { kind: 'input', match: /Name/, answer: 'Tasking from file' },
      { kind: 'input', match: /Use case/, answer: 'crop monitoring' },
      { kind: 'input', match: /First day/, answer: start },
      { kind: 'input', match: /Last day/, answer: firstEnd },
      // Back from the recurrence to the end date: the change replaces the earlier end.
      { kind: 'pick', match: /How often/, choose: BACK_ITEM_LABEL },
      { kind: 'input', match: /Last day/, answer: end },
      { kind: 'pick', match: /How often/, choose: 'Once' },
      { kind: 'pick', match: /Bands/, choose: firstItem },
      { kind: 'input', match: /cloud cover/, answer: '30' },
      { kind: 'input', match: /off-nadir/, answer: '25' },
      { kind: 'pick', match: /Delivery speed/, choose: 'Standard' },
      { kind: 'pick', match: /cloud store/, choose: 'No cloud delivery' },
      { kind: 'pick', match: /^Place this order\?/, choose: 'Place Order' },
    ]);
    const order = await runScripted<OrderRecord | undefined>(conn, prompts, COMMANDS.orderTasking);
    prompts.assertDone();
    assert.ok(order?.id);
    assert.equal(storedOrderCount(conn) - before, 1);
    const item = order.order_items[0];
    assert.equal(item.type, 'TASKING');
    assert.equal(item.start_date.slice(0, 10), start);
    assert.equal(item.end_date.slice(0, 10), end);
    assert.equal(item.cloud_cover, 30);
    handle(conn).clock.advance(T.orderPaid + 1000);
    const c = await client(conn);
    assert.equal((await c.orders.get(order.id)).status, 'PAID');
    assert.equal((await c.orderItems.get(item.id)).status, 'ACTIVE');
  });

  test('tasking refuses a FeatureCollection with a non-Polygon feature, naming its index, without a prompt', async () => {
    const conn = sb.current;
    // From the editor or file explorer context menu VS Code passes the file's URI.
    const uri = await openGeoJson({
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: square(10, 10) } },
        {
          type: 'Feature',
          properties: {},
          geometry: {
            type: 'LineString',
            coordinates: [
              [0, 0],
              [1, 1],
            ],
          },
        },
      ],
    });
    const prompts = new ScriptedPrompts([]);
    const order = await runScripted(conn, prompts, COMMANDS.orderTasking, uri);
    prompts.assertDone();
    assert.equal(order, undefined);
    const shown = prompts.messages.find((m) => m.severity === 'error');
    assert.ok(shown, 'no error shown');
    assert.match(shown.text, /features\[1\]/);
    assert.match(shown.text, /LineString/);
  });

  test('an infeasible tasking order shows why and is not placed', async () => {
    const conn = sb.current;
    // ~1.2 million km²: beyond the tasking area limit, so the dry run prices it as FAILED.
    const uri = await openGeoJson({
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          properties: {},
          geometry: {
            type: 'Polygon',
            coordinates: [
              [
                [0, 0],
                [10, 0],
                [10, 10],
                [0, 10],
                [0, 0],
              ],
            ],
          },
        },
      ],
    });
    const before = storedOrderCount(conn);
    const prompts = new ScriptedPrompts([
      { kind: 'pick', match: /Project/, choose: firstItem },
      { kind: 'input', match: /Name/, answer: 'Too big' },
      { kind: 'input', match: /Use case/, answer: '' },
      { kind: 'input', match: /First day/, answer: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10) },
      { kind: 'input', match: /Last day/, answer: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10) },
      { kind: 'pick', match: /How often/, choose: 'Once' },
      { kind: 'pick', match: /Bands/, choose: firstItem },
      { kind: 'input', match: /cloud cover/, answer: '20' },
      { kind: 'input', match: /off-nadir/, answer: '30' },
      { kind: 'pick', match: /Delivery speed/, choose: 'Standard' },
      { kind: 'pick', match: /cloud store/, choose: 'No cloud delivery' },
      { kind: 'message', match: /cannot be placed: .*tasking limit/, answer: undefined },
    ]);
    const order = await runScripted(conn, prompts, COMMANDS.orderTasking, uri);
    prompts.assertDone();
    assert.equal(order, undefined);
    assert.equal(storedOrderCount(conn) - before, 0);
  });

  test('tasking from an AOI orders its polygon in its project, with cloud delivery to a store', async () => {
    const conn = sb.current;
    const c = await client(conn);
    // An AOI whose satellite has bandsets of its own (the service lists bandsets of several satellites).
    const sats = await c.search.satellites();
    const allBandsets = await c.bandsets.list();
    const fitsOn = (satId: string) => {
      const sat = sats.find((x) => x.id === satId);
      return allBandsets.filter((b) => sat && b.bands.every((x) => sat.bands.some((y) => y.name === x.name && y.wavelength === x.wavelength)));
    };
    const aoi = (await c.aois.listPage({ limit: 100 })).items.find((a) => fitsOn(a.satellite_id).length > 0);
    assert.ok(aoi, 'no seeded AOI with a bandset of its satellite');
    const fitting = fitsOn(aoi.satellite_id);
    assert.ok(fitting.length < allBandsets.length, 'the sandbox lists bandsets of other satellites too');
    const store = (await c.stores.list())[0];
    assert.ok(store, 'no seeded store');
    const prompts = new ScriptedPrompts([
      { kind: 'input', match: /Name/, answer: 'AOI tasking' },
      { kind: 'input', match: /Use case/, answer: '' },
      { kind: 'input', match: /First day/, answer: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10) },
      { kind: 'input', match: /Last day/, answer: new Date(Date.now() + 60 * 86_400_000).toISOString().slice(0, 10) },
      { kind: 'pick', match: /How often/, choose: 'Monthly' },
      { kind: 'input', match: /Number of captures/, answer: '2' },
      { kind: 'pick', match: /Bands/, choose: firstItem },
      { kind: 'input', match: /cloud cover/, answer: '20' },
      { kind: 'input', match: /off-nadir/, answer: '30' },
      { kind: 'pick', match: /Delivery speed/, choose: 'Priority' },
      { kind: 'pick', match: /cloud store/, choose: store.name },
      { kind: 'input', match: /Folder inside the store/, answer: 'tasking/aoi' },
      { kind: 'pick', match: /^Place this order\?/, choose: 'Place Order' },
    ]);
    const order = await runScripted<OrderRecord | undefined>(conn, prompts, COMMANDS.orderTasking, { kind: 'aoi', record: aoi });
    prompts.assertDone();
    const item = order?.order_items[0];
    assert.ok(item);
    assert.equal(item.project_id, aoi.project_id);
    assert.equal(item.type, 'RECURRING');
    assert.equal(item.no_of_occurrences, 2);
    assert.deepEqual(item.cloud_delivery, { config: store.id, path: 'tasking/aoi' });
    assert.ok(
      item.uplifts.some((u) => /speed/i.test(u.title)),
      'the PRIORITY uplift is missing',
    );
    // Only the bandsets of the AOI's satellite, which is named.
    const bands = prompts.seen.find((p) => /Bands to capture/.test(p.label));
    assert.ok(bands?.items);
    assert.deepEqual(bands.items.filter((l) => l !== BACK_ITEM_LABEL).sort(), fitting.map((b) => b.name).sort());
    assert.match(bands.label, new RegExp(`with ${sats.find((x) => x.id === aoi.satellite_id)!.name}`));
    // Counted as met, never skipping (the AOI's project is preset): 10 steps apply at first,
    // "Weekly" brings in the number of captures, the store its folder.
    // (the priced confirmation after them is no step of the wizard)
    const positions = prompts.seen
      .filter((p) => p.kind !== 'message' && !/Place this order\?/.test(p.label))
      .map((p) => /\((\d+)\/(\d+)\)/.exec(p.label)?.slice(1).join('/'));
    assert.deepEqual(positions, ['1/10', '2/10', '3/10', '4/10', '5/10', '6/11', '7/11', '8/11', '9/11', '10/11', '11/11', '12/12']);
    // The folder starts filled in with a real default, not a placeholder refused on Enter.
    const folder = prompts.seen.find((p) => /Folder inside the store/.test(p.label));
    assert.match(folder?.value ?? '', /^deliveries\/\d{4}-\d{2}-\d{2}$/);
  });

  test('tasking numbers the steps a person meets: those that do not apply (once, no delivery) take no number', async () => {
    const conn = sb.current;
    const c = await client(conn);
    const aoi = (await c.aois.listPage({ limit: 1 })).items[0];
    assert.ok(aoi);
    const prompts = new ScriptedPrompts([
      { kind: 'input', match: /Name/, answer: 'Counted' },
      { kind: 'input', match: /Use case/, answer: '' },
      { kind: 'input', match: /First day/, answer: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10) },
      { kind: 'input', match: /Last day/, answer: new Date(Date.now() + 9 * 86_400_000).toISOString().slice(0, 10) },
      { kind: 'pick', match: /How often/, choose: 'Once' },
      { kind: 'pick', match: /Bands/, choose: firstItem },
      { kind: 'input', match: /cloud cover/, answer: '20' },
      { kind: 'input', match: /off-nadir/, answer: '30' },
      { kind: 'pick', match: /Delivery speed/, choose: 'Standard' },
      { kind: 'cancel', match: /cloud store/ },
    ]);
    assert.equal(await runScripted(conn, prompts, COMMANDS.orderTasking, { kind: 'aoi', record: aoi }), undefined);
    prompts.assertDone();
    const positions = prompts.seen.map((p) => /\((\d+)\/(\d+)\)/.exec(p.label)?.slice(1).join('/'));
    assert.deepEqual(positions, ['1/10', '2/10', '3/10', '4/10', '5/10', '6/10', '7/10', '8/10', '9/10', '10/10']);
  });
});
