import vscode = require('vscode');
import type { Store } from '../../api/records';
import type { ExplorerContext } from '../context';
import { dateTime, storeTarget } from '../../format';
import { nodeList, type NodeList } from '../nodeList';
import { recordTooltip } from '../tooltip';
import { RecordNode } from '../tree';

export function storesRoot(ctx: ExplorerContext): NodeList<Store> {
  return nodeList<Store>(ctx, 'stores', undefined, {
    what: 'cloud stores',
    empty: 'No cloud stores yet',
    async fetch(client, q) {
      const all = await client.stores.list({ signal: q.signal });
      return { items: all, total: all.length, done: true };
    },
    idOf: (s) => s.id,
    toNode: (s) => new StoreNode(s),
  });
}

export class StoreNode extends RecordNode<Store> {
  readonly kind = 'store' as const;

  constructor(record: Store) {
    super('stores', undefined, `store:${record.id}`, record);
  }

  get recordId(): string {
    return this.record.id;
  }

  getTreeItem(): vscode.TreeItem {
    const s = this.record;
    const item = new vscode.TreeItem(s.name);
    const labels = Object.entries(s.labels ?? {}).map(([k, v]) => `${k}=${v}`);
    item.description = [s.type, storeTarget(s), ...labels].filter(Boolean).join(' · ');
    item.iconPath = new vscode.ThemeIcon(s.type === 'AZBLOB' ? 'azure' : 'database');
    item.contextValue = 'store';
    item.tooltip = recordTooltip(s.name, [
      ['Type', s.type],
      ...Object.entries(s.configs ?? {}).map(([k, v]) => [k, v] as const),
      ['Labels', labels.join(', ')],
      ['ID', s.id],
      ['Created', dateTime(s.created_at)],
    ]);
    return item;
  }
}
