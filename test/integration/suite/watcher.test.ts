// The watcher in a real VS Code against the sandbox: an order placed through the wizard is
// followed with its view closed; when the sandbox clock has moved on, exactly one notification
// says the item is fulfilled, and its Show on Map draws the item. What is followed survives a
// simulated window reload (a new watcher over the same global state resumes it, holding only
// kinds and ids), and the finish is still announced once across the two. Two windows' watchers
// on one shared state and budget, with more than 20 things pending and a 503 storm, make the
// README's 20 requests a minute between them, counted at the HTTP level.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { EoClient, type ArchiveItem, type OrderRecord } from '../../../src/api';
import { COMMANDS } from '../../../src/commandIds';
import { FOLLOWED_KEY } from '../../../src/watch/followed';
import { SharedBudget } from '../../../src/watch/sharedBudget';
import { Watcher } from '../../../src/watch/watcher';
import { FaultProxy } from '../../support/faultProxy';
import { startSandbox, useSandbox } from '../harness/sandbox';
import { ScriptedPrompts } from '../support/scriptedPrompts';
import { client, firstItem, handle } from './ordersSupport';
import { until } from '../support/until';
import { MemoryState } from '../support/memoryState';

const DAY_MS = 24 * 60 * 60_000;

suite('watcher: orders followed in the background, announced once, resumed after a reload', function () {
  this.timeout(90_000);
  const sb = useSandbox();

  async function archiveItem(): Promise<ArchiveItem> {
    const fc = await (await client(sb.current)).archives.search({ limit: 1 });
    assert.ok(fc.features.length > 0, 'the sandbox archive is empty');
    return fc.features[0];
  }

  /** Places an archive order of one item over the first AOI, directly (not through the wizard); its item's id. */
  async function placeOrder(name: string): Promise<string> {
    const c = await client(sb.current);
    const aoi = (await c.aois.listPage({ limit: 1 })).items[0];
    const placed = await c.orders.create({
      dry_run: false,
      order_items: [
        {
          project_id: aoi.project_id,
          name,
          usecase: 'general',
          geometry: { type: 'FeatureCollection', features: [{ type: 'Feature', properties: {}, geometry: aoi.geometry }] },
          item_ids: [(await archiveItem()).id],
        },
      ],
    });
    return placed.order_items[0].id;
  }

  teardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('an order placed, its view closed, the clock advanced: one notification, and Show on Map draws the item', async () => {
    const conn = sb.current;
    const { watcher, panels } = conn.api.services;
    const name = 'Watched archive order';
    const prompts = new ScriptedPrompts([
      { kind: 'pick', match: /Project/, choose: firstItem },
      { kind: 'input', match: /Name/, answer: name },
      { kind: 'input', match: /Use case/, answer: 'flood mapping' },
      { kind: 'pick', match: /cloud store/, choose: 'No cloud delivery' },
      { kind: 'pick', match: /^Place this order\?/, choose: 'Place Order' },
    ]);
    const restore = conn.api.testing.usePrompts(prompts);
    try {
      const order = (await vscode.commands.executeCommand(COMMANDS.orderArchiveItems, await archiveItem())) as OrderRecord | undefined;
      prompts.assertDone();
      const itemId = order?.order_items[0]?.id;
      assert.ok(itemId, 'no order item');
      assert.ok(watcher.isFollowing('orderItem', itemId), 'the placed item is followed');
      const stored = JSON.stringify(conn.api.services.context.globalState.get(FOLLOWED_KEY));
      assert.ok(stored.includes(itemId), 'kept in the global state');
      assert.ok(!stored.includes(conn.sandbox.tokens.alice), 'no token in what is kept');
      // The only URLs kept are services' base URLs (what each thing belongs to): no signed URL.
      assert.ok(stored.includes(`"service":"${conn.sandbox.url}"`), 'kept with the service it lives on');
      for (const url of stored.match(/https?:\/\/[^"]*/g) ?? []) assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/, 'no URL but a service’s in what is kept');

      // The person goes back to code: the sidebar and every editor closed.
      await vscode.commands.executeCommand('workbench.action.closeSidebar');
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      assert.equal(panels.currentMap(), undefined);

      prompts.push({ kind: 'message', match: /^Order item Watched archive order is fulfilled/, answer: 'Show on Map' });
      handle(conn).clock.advance(DAY_MS);
      const said = (): ScriptedPrompts['messages'] => prompts.messages.filter((m) => m.text.startsWith(`Order item ${name} `));
      await until('the finish notification', () => said().length > 0);
      const [note] = said();
      assert.equal(note.severity, 'info');
      assert.equal(note.text, `Order item ${name} is fulfilled: its imagery is ready.`);
      assert.deepEqual(note.buttons, ['Show on Map', 'Deliver…', 'Download…']);

      const map = await until('the map after Show on Map', () => panels.currentMap());
      const drawn = await until('the item drawn on the map', () => {
        const f = map.shown('orderItems');
        return f.length > 0 ? f : undefined;
      });
      assert.ok(drawn.every((f) => f.ref.kind === 'orderItem' && f.ref.id === itemId));
      assert.ok(!watcher.isFollowing('orderItem', itemId), 'no longer followed once final');

      // Exactly once: more reads of everything left change nothing.
      watcher.checkNow();
      await new Promise((r) => setTimeout(r, 2000));
      assert.equal(said().length, 1, 'announced once');
      prompts.assertDone();
    } finally {
      restore();
      await vscode.commands.executeCommand('workbench.action.toggleSidebarVisibility');
    }
  });

  test('following survives a simulated reload: a new watcher resumes from the global state; the finish is said once', async () => {
    const conn = sb.current;
    const { services } = conn.api;
    const itemId = await placeOrder('Reloaded order');
    services.watcher.follow('orderItem', itemId);

    // What a reloaded window builds in activate(): a watcher over the same global state.
    const prompts = new ScriptedPrompts();
    const restore = conn.api.testing.usePrompts(prompts);
    // The extension's own Watcher class (dist/), as activate() builds it: the requests it counts
    // are those of the extension's client, which a second copy of the module (out/) cannot see.
    const BundledWatcher = services.watcher.constructor as typeof Watcher;
    const reloaded = new BundledWatcher({ state: services.context.globalState, connection: services.connection, log: services.log, ui: services.ui });
    try {
      const resumed = reloaded.pending().find((p) => p.ref.id === itemId);
      assert.ok(resumed, 'the reloaded watcher follows the item');
      assert.equal(resumed.ref.kind, 'orderItem');
      assert.equal(resumed.snapshot, undefined, 'nothing read during construction (activation makes no request)');
      assert.equal(reloaded.requests, 0);

      handle(conn).clock.advance(DAY_MS);
      reloaded.checkNow();
      const said = (): number => prompts.messages.filter((m) => m.text.startsWith('Order item Reloaded order ')).length;
      await until('the finish notification', () => said() > 0);
      assert.ok(reloaded.requests >= 1);
      services.watcher.checkNow();
      await new Promise((r) => setTimeout(r, 2000));
      assert.equal(said(), 1, 'one notification across the two watchers');
      assert.ok(!reloaded.isFollowing('orderItem', itemId) && !services.watcher.isFollowing('orderItem', itemId));
    } finally {
      reloaded.dispose();
      restore();
    }
  });

  test('Show Pending lists what is followed in words, with no id; Stop Following… stops it', async () => {
    const conn = sb.current;
    const { services } = conn.api;
    const itemId = await placeOrder('Listed order');
    services.watcher.follow('orderItem', itemId);
    services.watcher.checkNow();
    await until('the first read', () => services.watcher.pending().find((p) => p.ref.id === itemId)?.snapshot);
    const prompts = new ScriptedPrompts([
      { kind: 'pick', match: /pending/, choose: 'Stop Following' },
      { kind: 'pickMany', match: /Stop Following/, choose: (items) => items.filter((i) => i.label.includes('Listed order')) },
    ]);
    const restore = conn.api.testing.usePrompts(prompts);
    try {
      await vscode.commands.executeCommand(COMMANDS.showPending);
      prompts.assertDone();
      const listed = prompts.seen[0].rows ?? [];
      const row = listed.find((i) => i.label.includes('Listed order'));
      assert.ok(row, listed.map((i) => i.label).join(' / '));
      assert.match(row.description ?? '', /^(Draft|Active)/);
      assert.match(row.detail ?? '', /^Order item · followed since /);
      assert.ok(!`${row.label}${row.description}${row.detail}`.includes(itemId), 'no id in the row');
      assert.ok(!services.watcher.isFollowing('orderItem', itemId), 'Stop Following stops it');
    } finally {
      restore();
    }
  });

  test('two windows: what one starts following survives the other stopping something it read before', async () => {
    const conn = sb.current;
    const [a, b] = [await placeOrder('Window A order'), await placeOrder('Window B order')];
    const state = new MemoryState();
    const prompts = new ScriptedPrompts();
    const connection = {
      baseUrl: conn.sandbox.url,
      getClient: () => conn.api.services.connection.getClient(),
      onDidChange: new vscode.EventEmitter<void>().event,
    };
    const window = (): Watcher => new Watcher({ state, connection, log: conn.api.services.log, ui: prompts });
    const first = window();
    first.follow('orderItem', a);
    // the second window read the list with only A in it; then the first starts following B
    const second = window();
    first.follow('orderItem', b);
    second.unfollow('orderItem', a);
    try {
      const stored = JSON.stringify(state.get(FOLLOWED_KEY));
      assert.ok(stored.includes(b), `B, followed by the first window, was dropped by the second: ${stored}`);
      assert.ok(!stored.includes(a), 'A, stopped, is still stored');
    } finally {
      first.dispose();
      second.dispose();
    }
  });

  test('two windows, 25 order items pending, a 503 + Retry-After: 0 storm: 20 requests a minute between them, counted at the HTTP level', async () => {
    const conn = sb.current;
    // The README's figure, written out: the test does not read the watcher's own constant.
    const PER_MINUTE = 20;
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) ids.push(await placeOrder(`Budget order ${i + 1}`));
    const proxy = await FaultProxy.start({ upstream: conn.sandbox.url });
    const viaProxy = new EoClient({ baseUrl: proxy.url, token: conn.sandbox.tokens.alice, authScheme: 'bearer', timeoutMs: 10_000, userAgent: 'test' });
    const connection = { baseUrl: proxy.url, getClient: () => Promise.resolve(viaProxy), onDidChange: new vscode.EventEmitter<void>().event };
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-watch-budget-'));
    // The budget's minute is the watchers' clock: the second minute is reached by moving it on.
    let offset = 0;
    const now = (): number => Date.now() + offset;
    const state = new MemoryState();
    const prompts = new ScriptedPrompts();
    // Two windows of one profile: one global state, one storage folder, a watcher each.
    const window = (): Watcher =>
      new Watcher({
        state,
        connection,
        log: sb.current.api.services.log,
        ui: prompts,
        backoff: { baseMs: 100, maxMs: 400 },
        budget: new SharedBudget(dir),
        now,
      });
    const first = window();
    for (const id of ids) first.follow('orderItem', id);
    const second = window();
    const reads = (): number => proxy.log.filter((r) => r.method === 'GET' && r.path.startsWith('/v0/order-items/')).length;
    try {
      assert.equal(second.size, 25, 'the second window follows the same 25');
      // Every read answered 503 with Retry-After: 0, for the first 4 s.
      proxy.add({ method: 'GET', path: '/v0/order-items/', forMs: 4_000, toxic: { kind: 'status', status: 503, retryAfter: '0' } });
      first.checkNow();
      second.checkNow();
      await until(`${PER_MINUTE} requests`, () => reads() >= PER_MINUTE || undefined);
      // The storm, its retries and every read due every 100–400 ms: nothing more this minute.
      await new Promise((r) => setTimeout(r, 6_000));
      assert.equal(reads(), PER_MINUTE, 'requests in the first minute, retries included, both windows together');
      assert.ok(proxy.log.filter((r) => r.toxic === 'status').length > 0, 'the storm was met');
      assert.equal(first.requests + second.requests, PER_MINUTE);

      // The next minute: the storm is over, the budget is the same 20 again, shared.
      offset += 61_000;
      first.checkNow();
      second.checkNow();
      await until(`${2 * PER_MINUTE} requests`, () => reads() >= 2 * PER_MINUTE || undefined);
      await new Promise((r) => setTimeout(r, 3_000));
      assert.equal(reads(), 2 * PER_MINUTE, 'requests after the second minute');
      assert.ok(first.pending().some((p) => p.snapshot) || second.pending().some((p) => p.snapshot), 'things were read once the storm was over');
      assert.deepEqual(prompts.messages, [], 'nothing said: a busy service is not a finished order');
    } finally {
      first.dispose();
      second.dispose();
      await viaProxy.close();
      await proxy.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('switching to another service: what was followed on the first is neither read nor said to be gone there, and is read again back on it', async () => {
    const conn = sb.current;
    const { services } = conn.api;
    const itemId = await placeOrder('Order on the first service');
    const other = await startSandbox();
    const otherClient = new EoClient({ baseUrl: other.url, token: other.tokens.alice, authScheme: 'bearer', timeoutMs: 10_000, userAgent: 'test' });
    const otherRequests = (): number => other.requests.filter((r) => /order/i.test(r)).length;
    // A connection that is signed in to one service, then to the other, as the Accounts menu switches it.
    const changed = new vscode.EventEmitter<void>();
    let on: 'first' | 'other' = 'first';
    const connection = {
      get baseUrl() {
        return on === 'first' ? conn.sandbox.url : other.url;
      },
      getClient: () => (on === 'first' ? client(conn) : Promise.resolve(otherClient)),
      onDidChange: changed.event,
    };
    const prompts = new ScriptedPrompts();
    const watcher = new Watcher({ state: new MemoryState(), connection, log: services.log, ui: prompts });
    try {
      watcher.follow('orderItem', itemId);
      watcher.checkNow();
      await until('the first read', () => watcher.pending().find((p) => p.ref.id === itemId)?.snapshot);
      assert.equal(watcher.pending()[0].ref.service, conn.sandbox.url, 'followed with the service it lives on');

      on = 'other';
      changed.fire();
      assert.deepEqual(watcher.pending(), [], 'the other service has nothing pending');
      assert.equal(watcher.size, 0);
      const before = watcher.requests;
      watcher.checkNow();
      await new Promise((r) => setTimeout(r, 1500));
      assert.equal(watcher.requests, before, 'nothing read on the other service');
      assert.equal(otherRequests(), 0, 'the other service was never asked for the item');
      assert.deepEqual(prompts.messages, [], 'nothing said: the item is not gone, it is elsewhere');
      assert.ok(watcher.isFollowing('orderItem', itemId), 'still followed, waiting for its service');

      on = 'first';
      changed.fire();
      assert.equal(watcher.pending()[0]?.ref.id, itemId, 'back on its service, it is pending again');
      handle(conn).clock.advance(DAY_MS);
      watcher.checkNow();
      await until('the finish notification', () => prompts.messages.some((m) => m.text.startsWith('Order item Order on the first service ')));
      assert.ok(!watcher.isFollowing('orderItem', itemId));
    } finally {
      watcher.dispose();
      changed.dispose();
      await other.close();
    }
  });
});
