// People read names, not ids (issue 19, "Done when"): every record row of the five views,
// the Download and Deliver pickers of the Command Palette, their titles and toasts, and the
// JSON tab carry no bare UUID-like id where the record has a name; the ids stay in the hovers
// (and Copy ID). Expected names come from the interface's fields: an order item's `name`
// names the order and the catalog entries it bought, an asset's `name` what it is.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ExplorerApi } from '../../../src/explorer';
import type { ExplorerNode } from '../../../src/explorer/tree';
import { COMMANDS } from '../../../src/commandIds';
import { useSandbox } from '../harness/sandbox';
import { ScriptedPrompts } from '../support/scriptedPrompts';
import { client, runScripted, runWhileAdvancing } from './ordersSupport';

type ViewId = 'projects' | 'orders' | 'catalog' | 'stores' | 'archive';
type AnyRecordNode = ExplorerNode & { record: Record<string, unknown>; recordId: string };

/** A UUID, with or without dashes: what a person must not read where a name exists. */
const UUID = /\b[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}\b/i;

interface Row {
  node: ExplorerNode;
  label: string;
  description: string;
  tooltip: string;
}

function text(v: string | vscode.MarkdownString | vscode.TreeItemLabel | undefined | boolean): string {
  if (v === undefined || typeof v === 'boolean') return '';
  if (typeof v === 'string') return v;
  // a hover's markdown escapes punctuation (`\-`): read it as the person does
  if ('value' in v) return v.value.replace(/\\(.)/g, '$1').replace(/&nbsp;/g, ' ');
  return v.label;
}

suite('names, not ids: rows, pickers, titles and messages', function () {
  this.timeout(120_000);
  const sb = useSandbox();
  let explorer: ExplorerApi;

  suiteSetup(() => {
    const e = sb.current.api.services.explorer;
    assert.ok(e, 'services.explorer is not set after activation');
    explorer = e;
  });

  async function rows(view: ViewId, node?: ExplorerNode): Promise<Row[]> {
    const provider = explorer.providers[view];
    const children = await provider.getChildren(node);
    return children.map((n) => {
      const item = provider.getTreeItem(n);
      return { node: n, label: text(item.label), description: text(item.description), tooltip: text(item.tooltip) };
    });
  }

  const isRecord = (r: Row): boolean => 'record' in r.node && 'recordId' in r.node;

  /** Every record row: no id in its label or description; its id in its hover. */
  function check(list: Row[], where: string): void {
    for (const r of list.filter(isRecord)) {
      const node = r.node as AnyRecordNode;
      assert.doesNotMatch(`${r.label} ${r.description}`, UUID, `${where}: the ${node.kind} row "${r.label} — ${r.description}" shows an id`);
      // archive items are named by their STAC id, which is no UUID
      if (node.kind !== 'archiveItem') assert.ok(r.tooltip.includes(node.recordId), `${where}: the ${node.kind} row's hover lacks its id`);
    }
  }

  test('the rows of every view name their records; the ids are in the hovers', async () => {
    const c = await client(sb.current);
    // Projects → AOIs → assets, visualizations, insight runs
    const projects = await rows('projects');
    check(projects, 'Projects');
    let assetsSeen = 0;
    for (const p of projects.filter(isRecord).slice(0, 2)) {
      const aois = await rows('projects', p.node);
      check(aois, 'AOIs');
      for (const a of aois.filter(isRecord).slice(0, 2)) {
        for (const group of await rows('projects', a.node)) {
          const children = await rows('projects', group.node);
          check(children, `${a.label} / ${group.label}`);
          if (group.node.kind !== 'assetGroup') continue;
          for (const r of children.filter(isRecord)) {
            const asset = (r.node as AnyRecordNode).record as { name: string; date: string };
            assetsSeen++;
            // named by what it is (its name), then date and bands
            assert.ok(asset.name.startsWith(r.label), `asset row "${r.label}" is not its name "${asset.name}"`);
            assert.ok(r.description.startsWith(asset.date), `asset row "${r.description}" does not start with its date ${asset.date}`);
            assert.match(r.description, /\bbands?\b/);
          }
          // two assets of one AOI on one day are told apart by their names
          const labels = children.filter(isRecord).map((r) => `${r.label} ${r.description}`);
          assert.equal(new Set(labels).size, labels.length, `identical asset rows: ${labels.join(' | ')}`);
        }
      }
    }
    assert.ok(assetsSeen > 0, 'no asset rows were walked');

    // Orders → items → tasks
    const orders = await rows('orders');
    check(orders, 'Orders');
    for (const o of orders.filter(isRecord).slice(0, 3)) {
      const items = ((o.node as AnyRecordNode).record.order_items ?? []) as { name: string }[];
      if (items.length) {
        assert.ok(o.label.startsWith(items[0].name), `order row "${o.label}" does not name its first item "${items[0].name}"`);
        if (items.length > 1) assert.ok(o.label.endsWith(`+${items.length - 1} more`), `order row "${o.label}" does not count its other items`);
      }
      assert.match(o.description, /total amount/);
      const itemRows = await rows('orders', o.node);
      check(itemRows, `order ${o.label}`);
      for (const i of itemRows.filter(isRecord).slice(0, 2)) check(await rows('orders', i.node), `item ${i.label}`);
    }

    // Catalog → deliveries; an entry names the order item (place) it was bought for
    const catalog = await rows('catalog');
    check(catalog, 'Catalog');
    const entries = catalog.filter(isRecord);
    assert.ok(entries.length > 0, 'no catalog rows');
    for (const e of entries.slice(0, 5)) {
      const itemId = (e.node as AnyRecordNode).record.order_item_id;
      if (typeof itemId !== 'string') continue;
      const item = await c.orderItems.get(itemId);
      assert.ok(e.label.startsWith(item.name), `catalog row "${e.label}" does not name its order item "${item.name}"`);
      assert.ok(e.tooltip.includes(item.name), `the catalog hover does not say where the entry comes from (${item.name}): ${e.tooltip}`);
      check(await rows('catalog', e.node), `deliveries of ${e.label}`);
    }

    check(await rows('stores'), 'Cloud Stores');
    const collections = await rows('archive');
    check(collections, 'Archive');
    if (collections[0]) check(await rows('archive', collections[0].node), 'archive items');
  });

  test('Open as JSON names the tab after the record', async () => {
    const entry = (await rows('catalog')).find(isRecord);
    assert.ok(entry);
    const editor = (await vscode.commands.executeCommand('eoImagery.openJson', entry.node)) as vscode.TextEditor | undefined;
    assert.ok(editor);
    const name = path.posix.basename(editor.document.uri.path);
    assert.doesNotMatch(name, UUID, `the JSON tab is "${name}"`);
    assert.ok(
      name.startsWith(entry.label.split(' · ')[0].replace(/[#%]/g, ' ').replace(/\s+/g, ' ').trim()),
      `the JSON tab "${name}" is not named after "${entry.label}"`,
    );
    assert.equal((JSON.parse(editor.document.getText()) as { id: string }).id, (entry.node as AnyRecordNode).recordId);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  test('Download… from the palette offers recent catalog entries by name; title and toast name the entry', async () => {
    const conn = sb.current;
    let picked: vscode.QuickPickItem | undefined;
    const prompts = new ScriptedPrompts([
      { kind: 'pick', match: /What to send/, choose: 'Catalog entries' },
      {
        kind: 'pickMany',
        match: /Catalog entries to send/,
        choose: (items) => {
          assert.ok(items.length > 0, 'the picker offers no catalog entries');
          for (const i of items) assert.doesNotMatch(`${i.label} ${i.description ?? ''} ${i.detail ?? ''}`, UUID, `picker item "${i.label}"`);
          picked = items[0];
          return [items[0]];
        },
      },
      { kind: 'message', match: /is ready/, answer: undefined },
    ]);
    await runWhileAdvancing(conn, prompts, COMMANDS.download, [], 2_000);
    prompts.assertDone();
    assert.ok(picked);
    const ready = prompts.messages.find((m) => /is ready/.test(m.text));
    assert.ok(ready, 'no "ready" message');
    assert.ok(ready.text.includes(picked.label), `the toast "${ready.text}" does not name "${picked.label}"`);
    assert.match(ready.text, /link is valid/);
    for (const m of prompts.messages) assert.doesNotMatch(m.text, UUID, `message "${m.text}"`);
    for (const s of prompts.seen) assert.doesNotMatch(s.label, UUID, `title "${s.label}"`);
  });

  test('Deliver… from the palette offers order items and stores by name; the wizard title names the item', async () => {
    const conn = sb.current;
    let itemName = '';
    const prompts = new ScriptedPrompts([
      { kind: 'pick', match: /What to send/, choose: 'Order items' },
      {
        kind: 'pickMany',
        match: /Order items to send/,
        choose: (items) => {
          assert.ok(items.length > 0, 'the picker offers no order items');
          for (const i of items) assert.doesNotMatch(`${i.label} ${i.description ?? ''} ${i.detail ?? ''}`, UUID, `picker item "${i.label}"`);
          itemName = items[0].label;
          return [items[0]];
        },
      },
      {
        kind: 'pick',
        match: /Cloud store to deliver to/,
        choose: (items) => {
          for (const i of items) assert.doesNotMatch(`${i.label} ${i.description ?? ''} ${i.detail ?? ''}`, UUID, `store item "${i.label}"`);
          return items[0];
        },
      },
      { kind: 'input', match: /Path inside the store/, answer: undefined },
    ]);
    const out = await runScripted(conn, prompts, COMMANDS.deliver);
    prompts.assertDone();
    assert.equal(out, undefined, 'nothing is delivered when the path is cancelled');
    const titled = prompts.seen.filter((s) => s.label.startsWith('Deliver order item'));
    assert.ok(titled.length > 0 && titled.every((s) => s.label.includes(itemName)), `wizard titles: ${prompts.seen.map((s) => s.label).join(' / ')}`);
    for (const s of prompts.seen) assert.doesNotMatch(s.label, UUID, `title "${s.label}"`);
  });

  test('Delete Cloud Store lists stores by name', async () => {
    const conn = sb.current;
    const prompts = new ScriptedPrompts([{ kind: 'cancel', match: /Store to delete/ }]);
    await runScripted(conn, prompts, COMMANDS.deleteStore);
    prompts.assertDone();
    const shown = prompts.seen.find((s) => /Store to delete/.test(s.label));
    assert.ok(shown?.items?.length, 'no stores offered');
    for (const l of shown.items) assert.doesNotMatch(l, UUID);
  });
});
