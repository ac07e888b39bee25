// The sidebar in a real extension host against the in-process sandbox: every view's rows match
// what the service answers, lists page to the end through "Load more…", filters go to the
// server, failed loads become error rows in place (403/404/500; 401 → "Sign in again"),
// reveal finds records beyond the loaded pages, and live progress updates a visible node.
// The providers are reached through `services.explorer`; nodes are checked by their `kind`,
// `record` and TreeItem (the extension is a separate bundle, so no `instanceof` here).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { EoClient } from '../../../src/api';
import type { ExplorerApi } from '../../../src/explorer';
import type { ExplorerNode } from '../../../src/explorer/tree';
import type { Prompts } from '../../../src/ui/prompts';
import { useSandbox } from '../harness/sandbox';

type ViewId = 'projects' | 'orders' | 'catalog' | 'stores' | 'archive';

interface SandboxExtras {
  clock: { advance(ms: number): void };
  faults: {
    add(rule: { method?: string; path: string | RegExp; status: number; count?: number; body?: unknown }): void;
    clear(): void;
  };
}

interface Row {
  node: ExplorerNode;
  item: vscode.TreeItem;
  label: string;
  description: string;
}

/** A node with the fields record rows have (the test sees the bundle's objects). */
type AnyRecordNode = ExplorerNode & { record: Record<string, unknown>; recordId: string };

/** The words the filters show for the interface's enum values ("States"). */
const ENUM_WORDS: Record<string, string> = {
  PAID: 'Paid',
  UNPAID: 'Unpaid',
  PAYMENT_IN_PROGRESS: 'Payment in progress',
  REFUND: 'Refunded',
  TASKING: 'Tasking',
  ARCHIVE: 'Archive',
  RECURRING: 'Recurring tasking',
  DRAFT: 'Draft',
  ACTIVE: 'Active',
  FULFILLED: 'Fulfilled',
  PARTIALLY_FULFILLED: 'Partially fulfilled',
  FAILED: 'Failed',
  CANCELLED: 'Cancelled',
};

function label(item: vscode.TreeItem): string {
  return typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
}

/** Answers prompts from a script; any prompt beyond it fails the test. */
function scripted(answers: Array<(kind: string, arg: unknown) => unknown>): Prompts {
  const next = (kind: string, arg: unknown): Thenable<never> => {
    const answer = answers.shift();
    if (!answer) throw new Error(`unexpected ${kind} prompt: ${JSON.stringify(arg)}`);
    return Promise.resolve(answer(kind, arg) as never);
  };
  return {
    pick: (items, options) => Promise.resolve(items).then((list) => next('pick', { items: list, options })),
    pickMany: (items, options) => Promise.resolve(items).then((list) => next('pickMany', { items: list, options })),
    input: (options) => next('input', options),
    message: (severity, text) => next('message', { severity, text }),
    openDialog: (options) => next('openDialog', options),
    saveDialog: (options) => next('saveDialog', options),
  };
}

/** Picks the quick-pick item with this label. */
function pickLabel(wanted: string): (kind: string, arg: unknown) => unknown {
  return (_kind, arg) => {
    const items = (arg as { items: vscode.QuickPickItem[] }).items;
    const found = items.find((i) => i.label === wanted);
    if (!found) throw new Error(`no "${wanted}" among ${items.map((i) => i.label).join(', ')}`);
    return found;
  };
}

suite('explorer: the sidebar against the sandbox', () => {
  // Scale 4: 100 orders per user, so the Orders view has a second page and a "Load more…" row.
  const sb = useSandbox({ scale: 4 });
  let explorer: ExplorerApi;
  let extras: SandboxExtras;

  async function service<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
    const res = await fetch(`${sb.current.sandbox.url}${path}`, {
      method: init.method ?? 'GET',
      headers: { Authorization: `Bearer ${sb.current.sandbox.tokens.alice}`, 'content-type': 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    assert.ok(res.ok, `${init.method ?? 'GET'} ${path} answered ${res.status}`);
    return (await res.json()) as T;
  }

  async function rows(view: ViewId, node?: ExplorerNode): Promise<Row[]> {
    const provider = explorer.providers[view];
    const children = await provider.getChildren(node);
    return children.map((n) => {
      const item = provider.getTreeItem(n);
      return { node: n, item, label: label(item), description: String(item.description ?? '') };
    });
  }

  function records(list: Row[]): AnyRecordNode[] {
    return list.filter((r) => 'record' in r.node).map((r) => r.node as AnyRecordNode);
  }

  /** Clicks "Load more…" until the list has no more pages; returns the record rows. */
  async function loadAll(view: ViewId, node?: ExplorerNode): Promise<Row[]> {
    for (let guard = 0; guard < 500; guard++) {
      const list = await rows(view, node);
      const more = list.find((r) => r.node.kind === 'loadMore');
      if (!more) return list;
      await vscode.commands.executeCommand('eoImagery.loadMore', more.node);
    }
    throw new Error('still more pages after 500 clicks');
  }

  suiteSetup(() => {
    const e = sb.current.api.services.explorer;
    assert.ok(e, 'services.explorer is not set after activation');
    explorer = e;
    extras = sb.current.sandbox as unknown as SandboxExtras;
  });

  setup(() => {
    extras.faults.clear();
    explorer.filters.update({ aoiName: undefined, orderStatus: undefined, orderItemType: undefined, orderItemStatus: undefined });
    explorer.refresh();
  });

  teardown(() => extras.faults.clear());

  test('Projects: projects, their AOIs, the Assets and Visualizations groups and their records', async () => {
    const expected = await service<{ count: number; projects: Array<{ id: string; name: string }> }>('/v0/projects?page_num=1&page_size=50');
    const top = await rows('projects');
    assert.deepEqual(
      records(top).map((n) => n.recordId),
      expected.projects.map((p) => p.id),
    );
    assert.deepEqual(
      top.filter((r) => r.node.kind === 'project').map((r) => r.label),
      expected.projects.map((p) => p.name),
    );
    assert.equal(explorer.providers.projects.view?.message, `Showing ${expected.projects.length} of ${expected.count} projects`);

    // The first project that has AOIs, as the service says.
    let project: Row | undefined;
    let aois: { aois: Array<{ aoi_id: string; name: string; status: string }>; pagination: { total: number } } | undefined;
    for (const r of top) {
      const a = await service<typeof aois & object>(`/v0/aois?project_ids=${(r.node as AnyRecordNode).recordId}&limit=50`);
      if (a.aois.length > 0) {
        project = r;
        aois = a;
        break;
      }
    }
    assert.ok(project && aois, 'no sandbox project of alice has AOIs');
    const aoiRows = (await rows('projects', project.node)).filter((r) => r.node.kind === 'aoi');
    assert.deepEqual(
      aoiRows.map((r) => r.label),
      aois.aois.map((a) => a.name),
    );
    for (const r of aoiRows) assert.match(r.description, /km² · \w/, `AOI row description "${r.description}"`);
    assert.equal(aoiRows[0].item.contextValue, 'aoi');
    assert.ok(aoiRows[0].item.tooltip instanceof vscode.MarkdownString, 'AOI rows have a markdown tooltip');
    assert.equal(explorer.providers.projects.getParent(aoiRows[0].node), project.node);

    // Find an AOI with assets, then check both groups.
    let checked = false;
    for (const aoiRow of aoiRows) {
      const aoiId = (aoiRow.node as AnyRecordNode).recordId;
      const groups = await rows('projects', aoiRow.node);
      assert.deepEqual(
        groups.map((g) => g.label),
        ['Assets', 'Visualizations', 'Insight runs'],
      );
      const assets = await service<{ assets: Array<{ id: string; band_list: string[] }> }>(`/v0/aois/${aoiId}/assets?limit=50`);
      if (assets.assets.length === 0) continue;
      const assetRows = (await rows('projects', groups[0].node)).filter((r) => r.node.kind === 'asset');
      assert.deepEqual(
        assetRows.map((r) => (r.node as AnyRecordNode).recordId),
        assets.assets.map((a) => a.id),
      );
      assert.match(assetRows[0].description, new RegExp(`${assets.assets[0].band_list.length} bands?`));
      // OpenAPI list items carry only index_id: each row reads as its index's name.
      const vis = await service<{ visualization: Array<{ id: string; index_id: string }> }>(`/v0/aois/${aoiId}/visualizations?limit=50`);
      const indexNames = new Map<string, string>();
      for (const v of vis.visualization) {
        const found = await service<{ indices: Array<{ id: string; name: string }> }>(`/v0/indices?index_id=${encodeURIComponent(v.index_id)}&limit=1`);
        indexNames.set(v.index_id, found.indices[0].name);
      }
      const visRows = (await rows('projects', groups[1].node)).filter((r) => r.node.kind === 'visualization');
      assert.deepEqual(
        visRows.map((r) => r.label),
        vis.visualization.map((v) => indexNames.get(v.index_id)),
      );
      checked = true;
      break;
    }
    assert.ok(checked, 'no AOI of the project has assets');
  });

  test('Orders: orders page to the end with Load more, then order items and their tasks', async function () {
    this.timeout(120_000);
    const first = await service<{ orders: Array<{ id: string }>; pagination: { total: number } }>('/v0/orders?offset=0&limit=50');
    const total = first.pagination.total;
    const top = await rows('orders');
    assert.deepEqual(
      records(top).map((n) => n.recordId),
      first.orders.map((o) => o.id),
    );
    const message = explorer.providers.orders.view?.message ?? '';
    assert.equal(message, `Showing ${first.orders.length} of ${total.toLocaleString('en-US')} orders`);
    if (total > 50) {
      const more = top[top.length - 1];
      assert.equal(more.node.kind, 'loadMore');
      assert.equal(more.label, 'Load more…');
      assert.equal(more.description, `50 of ${total.toLocaleString('en-US')} orders`);

      // Two clicks while the page is in flight fetch it once.
      const root = explorer.providers.orders.root;
      const before = root.fetches;
      await Promise.all([vscode.commands.executeCommand('eoImagery.loadMore', more.node), vscode.commands.executeCommand('eoImagery.loadMore', more.node)]);
      assert.equal(root.fetches, before + 1, 'a double click fetched two pages');
      assert.equal(root.shown, Math.min(100, total));
    }
    const all = await loadAll('orders');
    const ids = records(all).map((n) => n.recordId);
    assert.equal(ids.length, total, 'paging to the end shows every order');
    assert.equal(new Set(ids).size, total, 'an order appears twice');
    assert.ok(!all.some((r) => r.node.kind === 'loadMore' || r.node.kind === 'error'));

    // An order with items: its rows, then the tasks of an item.
    const withItems = await service<{ order_items: Array<{ id: string; order_id: string; name: string; tasks?: Array<{ id: string }> }> }>(
      '/v0/order-items?limit=100',
    );
    const target = withItems.order_items.find((i) => (i.tasks?.length ?? 0) > 0) ?? withItems.order_items[0];
    assert.ok(target, 'the sandbox has no order items');
    const orderRow = all.find((r) => (r.node as AnyRecordNode).recordId === target.order_id);
    assert.ok(orderRow, `order ${target.order_id} not in the tree`);
    const expectedItems = await service<{ order_items: Array<{ id: string; name: string }> }>(`/v0/order-items?order_ids=${target.order_id}&limit=50`);
    const itemRows = (await rows('orders', orderRow.node)).filter((r) => r.node.kind === 'orderItem');
    assert.deepEqual(
      itemRows.map((r) => r.label),
      expectedItems.order_items.map((i) => i.name || i.id),
    );
    const itemRow = itemRows.find((r) => (r.node as AnyRecordNode).recordId === target.id);
    assert.ok(itemRow);
    assert.match(String(itemRow.item.contextValue), /^orderItem\.(tasking|archive|recurring)$/);
    assert.match(itemRow.description, /^(Tasking|Archive|Recurring tasking) · /);
    const taskRows = await rows('orders', itemRow.node);
    if ((target.tasks?.length ?? 0) > 0) {
      assert.deepEqual(
        taskRows.map((r) => (r.node as AnyRecordNode).recordId),
        (target.tasks ?? []).map((t) => t.id),
      );
      assert.match(taskRows[0].description, /delivery/);
    } else {
      assert.equal(taskRows[0].label, 'No tasks yet');
    }
  });

  test('Filters: AOI name (aoi_name), order status and order-item type/status go to the service; Clear Filter', async () => {
    // AOI name: pick a word of an existing AOI's name.
    const someAoi = (await service<{ aois: Array<{ name: string; project_id: string }> }>('/v0/aois?limit=1')).aois[0];
    assert.ok(someAoi, 'the sandbox has no AOIs');
    const word = someAoi.name.split(/\s+/)[0];
    const restore = sb.current.api.testing.usePrompts(scripted([() => word]));
    try {
      await vscode.commands.executeCommand('eoImagery.filterAois');
    } finally {
      restore();
    }
    assert.equal(explorer.filters.current.aoiName, word);
    const top = await rows('projects');
    assert.match(explorer.providers.projects.view?.message ?? '', new RegExp(`Filter: AOI name contains "${word}"`));
    const projectRow = top.find((r) => (r.node as AnyRecordNode).recordId === someAoi.project_id);
    assert.ok(projectRow);
    const filtered = (await rows('projects', projectRow.node)).filter((r) => r.node.kind === 'aoi');
    const expected = await service<{ aois: Array<{ name: string }> }>(
      `/v0/aois?project_ids=${someAoi.project_id}&aoi_name=${encodeURIComponent(word)}&limit=50`,
    );
    assert.deepEqual(
      filtered.map((r) => r.label),
      expected.aois.map((a) => a.name),
    );
    assert.ok(filtered.some((r) => r.label === someAoi.name));
    await vscode.commands.executeCommand('eoImagery.clearProjectsFilter');
    assert.equal(explorer.filters.current.aoiName, undefined);
    await rows('projects');
    assert.ok(!(explorer.providers.projects.view?.message ?? '').includes('Filter'));

    // Order status.
    const statuses = ['PAID', 'UNPAID', 'PAYMENT_IN_PROGRESS', 'REFUND'];
    let status = '';
    let expectedOrders: { orders: Array<{ id: string; status: string }>; pagination: { total: number } } | undefined;
    for (const s of statuses) {
      const r = await service<NonNullable<typeof expectedOrders>>(`/v0/orders?status=${s}&limit=50`);
      if (r.orders.length > 0) {
        status = s;
        expectedOrders = r;
        break;
      }
    }
    assert.ok(expectedOrders, 'the sandbox has no orders');
    const restore2 = sb.current.api.testing.usePrompts(scripted([pickLabel(ENUM_WORDS[status])]));
    try {
      await vscode.commands.executeCommand('eoImagery.filterOrders');
    } finally {
      restore2();
    }
    const orderRows = records(await rows('orders'));
    assert.deepEqual(
      orderRows.map((n) => n.recordId),
      expectedOrders.orders.map((o) => o.id),
    );
    assert.ok(orderRows.every((n) => n.record.status === status));
    assert.match(explorer.providers.orders.view?.message ?? '', new RegExp(`Filter: order status ${ENUM_WORDS[status]}`));

    // Order-item type and status under an order.
    const anyItem = (await service<{ order_items: Array<{ order_id: string; type: string; status: string }> }>('/v0/order-items?limit=1')).order_items[0];
    assert.ok(anyItem);
    const restore3 = sb.current.api.testing.usePrompts(
      scripted([pickLabel('Any status'), pickLabel(ENUM_WORDS[anyItem.type]), pickLabel(ENUM_WORDS[anyItem.status])]),
    );
    try {
      await vscode.commands.executeCommand('eoImagery.filterOrders');
      await vscode.commands.executeCommand('eoImagery.filterOrderItems');
    } finally {
      restore3();
    }
    assert.deepEqual(explorer.filters.current, { orderItemType: anyItem.type, orderItemStatus: anyItem.status });
    await rows('orders');
    const order = await explorer.reveal('order', anyItem.order_id);
    assert.ok(order);
    const itemRows = records(await rows('orders', order));
    const expectedItems = await service<{ order_items: Array<{ id: string }> }>(
      `/v0/order-items?order_ids=${anyItem.order_id}&type=${anyItem.type}&status=${anyItem.status}&limit=50`,
    );
    assert.deepEqual(
      itemRows.map((n) => n.recordId),
      expectedItems.order_items.map((i) => i.id),
    );
    assert.ok(itemRows.every((n) => n.record.type === anyItem.type && n.record.status === anyItem.status));
    await vscode.commands.executeCommand('eoImagery.clearOrdersFilter');
    assert.deepEqual(explorer.filters.current, {});
  });

  test('Catalog: fulfilled imagery with its deliveries; Cloud Stores: type, bucket, labels; Archive: collections → items', async () => {
    const catalogs = await service<{ catalogs: Array<{ id: string }>; pagination: { total: number } }>('/v0/catalogs/search', {
      method: 'POST',
      body: { limit: 50, offset: 0 },
    });
    const catalogRows = await rows('catalog');
    assert.deepEqual(
      records(catalogRows).map((n) => n.recordId),
      catalogs.catalogs.map((c) => c.id),
    );
    if (catalogs.catalogs.length > 0) {
      const deliveries = await service<{ deliveries: Array<{ delivery_id: string }> }>(`/v0/catalogs/deliveries?catalog_id=${catalogs.catalogs[0].id}`);
      const children = await rows('catalog', catalogRows[0].node);
      if (deliveries.deliveries.length > 0) {
        assert.deepEqual(
          records(children).map((n) => n.recordId),
          deliveries.deliveries.map((d) => d.delivery_id),
        );
      } else {
        assert.equal(children[0].label, 'Not delivered to a cloud store yet');
      }
    }

    const stores = await service<{ stores: Array<{ id: string; name: string; type: string; configs: Record<string, string> }> }>('/v0/stores');
    const storeRows = await rows('stores');
    assert.deepEqual(
      storeRows.map((r) => r.label),
      stores.stores.map((s) => s.name),
    );
    for (const [i, s] of stores.stores.entries()) {
      assert.ok(storeRows[i].description.startsWith(s.type), storeRows[i].description);
      const where = s.configs.bucket ?? s.configs.container;
      if (where) assert.ok(storeRows[i].description.includes(where), storeRows[i].description);
    }

    const collections = await service<{ collections: Array<{ id: string }> }>('/v0/archives/collections');
    const collectionRows = await rows('archive');
    assert.deepEqual(
      records(collectionRows).map((n) => n.recordId),
      collections.collections.map((c) => c.id),
    );
    assert.ok(collectionRows.length > 0, 'the sandbox archive has no collections');
    const items = await service<{ features: Array<{ id: string }> }>(`/v0/archives/collections/${collections.collections[0].id}/items?limit=50&offset=0`);
    const itemRows = await rows('archive', collectionRows[0].node);
    assert.deepEqual(
      records(itemRows).map((n) => n.recordId),
      items.features.map((f) => f.id),
    );
    assert.equal(itemRows[0].item.contextValue, 'archiveItem');
  });

  for (const [status, text] of [
    [403, 'Forbidden (403)'],
    [404, 'Not found (404)'],
    [500, 'Server error (500)'],
  ] as const) {
    test(`a ${status} while loading AOIs becomes an error row with Retry`, async () => {
      const project = (await rows('projects'))[0];
      assert.equal(project.node.kind, 'project');
      extras.faults.add({ method: 'GET', path: /^\/v0\/aois/, status, count: 50 });
      // Beside the AOIs, a project lists its workflows (another endpoint, not failed here).
      const failed = (await rows('projects', project.node)).filter((r) => r.node.kind !== 'workflowGroup');
      assert.equal(failed.length, 1);
      assert.equal(failed[0].node.kind, 'error');
      assert.equal(failed[0].label, `Could not load AOIs: ${text}`);
      assert.equal(failed[0].item.contextValue, 'error');
      assert.equal(failed[0].item.command?.command, 'eoImagery.retryLoad');

      extras.faults.clear();
      await vscode.commands.executeCommand('eoImagery.retryLoad', failed[0].node);
      const recovered = await rows('projects', project.node);
      assert.ok(!recovered.some((r) => r.node.kind === 'error'), 'the error row stayed after a successful retry');
    });
  }

  test("an error row's tooltip shows the server's message as text, never as markdown", async () => {
    const project = (await rows('projects'))[0];
    const message = 'Denied [click here](https://evil.example/x) ![img](https://evil.example/p.png)';
    extras.faults.add({ method: 'GET', path: /^\/v0\/aois/, status: 403, count: 50, body: { error: { code: 'forbidden', message, details: '' } } });
    // A project's children: its AOIs (failed here) beside its workflows group.
    const failed = (await rows('projects', project.node)).find((r) => r.node.kind === 'error');
    assert.ok(failed, 'no error row for the AOIs that failed');
    const tooltip = failed.item.tooltip;
    assert.ok(tooltip instanceof vscode.MarkdownString, 'the error row has no markdown tooltip');
    // read as the person does: the renderer drops the escapes' backslashes
    const read = tooltip.value.replace(/\\(.)/g, '$1');
    assert.ok(/denied/i.test(read) && read.includes('evil.example/x'), `the server's message is missing: ${tooltip.value}`);
    assert.ok(!tooltip.value.includes('[click here](https://evil.example/x)'), `the message's link is live markdown: ${tooltip.value}`);
    assert.ok(!tooltip.value.includes('![img]('), `the message's image is live markdown: ${tooltip.value}`);
    assert.notEqual(tooltip.isTrusted, true);
  });

  test('a 401 shows a "Sign in again" row that runs Sign In', async () => {
    extras.faults.add({ method: 'GET', path: /^\/v0\/orders/, status: 401, count: 50 });
    const top = await rows('orders');
    assert.equal(top.length, 1);
    assert.equal(top[0].node.kind, 'signIn');
    assert.equal(top[0].label, 'Sign in again');
    assert.equal(top[0].item.command?.command, 'eoImagery.signIn');
    extras.faults.clear();
    explorer.refresh('orders');
    const again = await rows('orders');
    assert.ok(again.length > 0 && again[0].node.kind === 'order');
  });

  test("a 401 view keeps its Sign in row while other views' calls succeed, with no request of its own", async () => {
    // The 401 moves the connection to failing, another view's page moves it back to connected:
    // neither is another sign-in, so the Orders view is not loaded again (and fails again, and
    // moves the state again) on each move.
    extras.faults.add({ method: 'GET', path: /^\/v0\/orders/, status: 401, count: 50 });
    const connection = sb.current.api.services.connection;
    let ordersRequests = 0;
    const sub = connection.onDidRequest((e) => {
      if (e.path.startsWith('/v0/orders')) ordersRequests++;
    });
    try {
      assert.deepEqual(
        (await rows('orders')).map((r) => r.node.kind),
        ['signIn'],
      );
      assert.equal(connection.state, 'failing');
      const before = ordersRequests;
      explorer.refresh('projects');
      assert.ok((await rows('projects')).length > 0, 'the Projects view is empty');
      assert.equal(connection.state, 'connected', "the Projects view's page did not move the state back");
      assert.deepEqual(
        (await rows('orders')).map((r) => r.node.kind),
        ['signIn'],
      );
      assert.equal(ordersRequests, before, 'the Orders view was loaded again on a move of the state');
    } finally {
      sub.dispose();
    }
  });

  test('reveal finds an order beyond the loaded page and an AOI under its project', async () => {
    const total = (await service<{ pagination: { total: number } }>('/v0/orders?limit=1')).pagination.total;
    const last = (await service<{ orders: Array<{ id: string }> }>(`/v0/orders?offset=${total - 1}&limit=1`)).orders[0];
    await rows('orders'); // the first page only
    const node = (await explorer.reveal('order', last.id)) as AnyRecordNode | undefined;
    assert.ok(node, 'reveal found nothing');
    assert.equal(node.recordId, last.id);
    assert.ok(
      records(await rows('orders')).some((n) => n.recordId === last.id),
      'the revealed order is not among the rows',
    );

    const aoi = (await service<{ aois: Array<{ aoi_id: string; project_id: string }> }>('/v0/aois?limit=1')).aois[0];
    const aoiNode = (await explorer.reveal('aoi', aoi.aoi_id)) as AnyRecordNode | undefined;
    assert.ok(aoiNode);
    assert.equal(aoiNode.kind, 'aoi');
    const parent = explorer.providers.projects.getParent(aoiNode) as AnyRecordNode | undefined;
    assert.equal(parent?.recordId, aoi.project_id);
    assert.deepEqual(
      explorer.selected('projects').map((n) => n.recordId),
      [aoi.aoi_id],
    );
  });

  test('Copy ID and Open as JSON (pretty-printed, refreshed on demand)', async () => {
    const order = records(await rows('orders'))[0];
    await vscode.commands.executeCommand('eoImagery.copyId', order);
    assert.equal(await vscode.env.clipboard.readText(), order.recordId);

    const editor = (await vscode.commands.executeCommand('eoImagery.openJson', order)) as vscode.TextEditor | undefined;
    assert.ok(editor);
    const doc = editor.document;
    assert.equal(doc.uri.scheme, 'eo-imagery');
    assert.equal(doc.languageId, 'json');
    assert.equal((JSON.parse(doc.getText()) as { id: string }).id, order.recordId);
    assert.ok(doc.getText().includes('\n  "'), 'the JSON is not pretty-printed');
    await vscode.commands.executeCommand('eoImagery.refreshJson', doc.uri);
    assert.equal((JSON.parse(doc.getText()) as { id: string }).id, order.recordId);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  test('live progress: a new AOI in a visible view is polled until its status is final', async function () {
    this.timeout(60_000);
    const client = (await sb.current.api.services.connection.getClient()) as EoClient;
    const satellites = await client.search.satellites();
    // over a seeded AOI, where the sandbox's archive has imagery at any world scale
    const seeded = (await client.aois.listPage({ limit: 1 })).items[0];
    const sat = satellites.find((s) => s.id === seeded.satellite_id)!;
    const geometry = seeded.geometry;
    // an AOI is made of images found over it (OpenAPI AOICreateModelV2: provider, item_ids)
    const found = await client.search.imagery({
      start_date: '2015-01-01T00:00:00Z',
      end_date: '2030-01-01T00:00:00Z',
      satellites: [{ satellite_id: sat.id, collection_id: sat.collections[0].id }],
      geometry,
      limit: 2,
    });
    assert.ok(found.items.length > 0, 'imagery over the seeded AOI');
    const created = await client.aois.create({
      name: `Live progress ${Date.now()}`,
      description: '',
      project_id: seeded.project_id,
      satellite_id: sat.id,
      provider: sat.collections[0].provider,
      geometry,
      item_ids: found.items.map((i) => i.id),
    });
    assert.notEqual(created.status, 'success', 'a new AOI is already final; nothing to poll');
    const node = (await explorer.reveal('aoi', created.aoi_id, { focus: true })) as AnyRecordNode | undefined;
    assert.ok(node);
    // Render it as the tree does, so the poller knows it is on screen.
    explorer.providers.projects.getTreeItem(node);
    assert.ok(explorer.poller.isWatching(node as never), 'a processing AOI is not watched');
    const done = new Promise<void>((resolve) => {
      const sub = explorer.onDidUpdateRecord((n) => {
        if (n === (node as unknown) && (n.record as { status?: string }).status === 'success') {
          sub.dispose();
          resolve();
        }
      });
    });
    extras.clock.advance(24 * 3600_000);
    await Promise.race([done, new Promise((_, reject) => setTimeout(() => reject(new Error('no live update within 30 s')), 30_000))]);
    assert.equal(node.record.status, 'success');
    assert.ok(!explorer.poller.isWatching(node as never), 'a final AOI is still polled');
  });
});
