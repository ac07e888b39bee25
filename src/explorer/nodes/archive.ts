import vscode = require('vscode');
import { nextLink } from '../../api';
import type { ArchiveCollection, ArchiveItem } from '../../api/records';
import type { ExplorerContext } from '../context';
import { dateTime, day } from '../../format';
import { nodeList, type NodeList } from '../nodeList';
import { recordTooltip } from '../tooltip';
import { RecordNode } from '../tree';

export function archiveRoot(ctx: ExplorerContext): NodeList<ArchiveCollection> {
  return nodeList<ArchiveCollection>(ctx, 'archive', undefined, {
    what: 'collections',
    empty: 'No archive collections',
    async fetch(client, q) {
      const all = await client.archives.collections({ signal: q.signal });
      return { items: all, total: all.length, done: true, unreadable: all.unreadable };
    },
    idOf: (c) => c.id,
    toNode: (c) => new CollectionNode(ctx, c),
  });
}

export class CollectionNode extends RecordNode<ArchiveCollection> {
  readonly kind = 'collection' as const;
  readonly items: NodeList<ArchiveItem>;

  constructor(ctx: ExplorerContext, record: ArchiveCollection) {
    super('archive', undefined, `collection:${record.id}`, record);
    this.items = nodeList<ArchiveItem>(ctx, 'archive', this, {
      what: 'items',
      empty: 'No items in this collection',
      fetch: async (client, q) => {
        const fc = await client.archives.itemsPage(this.record.id, { offset: q.offset, limit: q.limit }, { signal: q.signal });
        const total = fc.numberMatched ?? fc.context?.matched;
        // The next page starts after every record the server sent, read or not.
        const scanned = fc.features.length + (fc.unreadable?.length ?? 0);
        return { items: fc.features, total, done: nextLink(fc) === undefined, scanned, unreadable: fc.unreadable };
      },
      idOf: (i) => i.id,
      toNode: (i) => new ArchiveItemNode(this, i),
    });
  }

  get recordId(): string {
    return this.record.id;
  }

  getTreeItem(): vscode.TreeItem {
    const c = this.record;
    const item = new vscode.TreeItem(c.title || c.id, vscode.TreeItemCollapsibleState.Collapsed);
    const interval = c.extent?.temporal?.interval?.[0];
    item.description = [c.id !== c.title ? c.id : '', interval ? `${day(interval[0] ?? '') || '…'} → ${day(interval[1] ?? '') || 'now'}` : '']
      .filter(Boolean)
      .join(' · ');
    item.iconPath = new vscode.ThemeIcon('folder-library');
    item.contextValue = 'collection';
    item.tooltip = recordTooltip(c.title || c.id, [
      ['ID', c.id],
      ['Description', c.description],
      ['Providers', c.providers?.map((p) => p.name).join(', ')],
      ['License', c.license],
    ]);
    return item;
  }

  protected override childList(): NodeList<unknown> {
    return this.items;
  }
}

export class ArchiveItemNode extends RecordNode<ArchiveItem> {
  readonly kind = 'archiveItem' as const;

  constructor(parent: CollectionNode, record: ArchiveItem) {
    super('archive', parent, `item:${record.id}`, record);
  }

  get recordId(): string {
    return this.record.id;
  }

  getTreeItem(): vscode.TreeItem {
    const p = this.record.properties ?? { datetime: null };
    const item = new vscode.TreeItem(this.record.id);
    const cloud = p['eo:cloud_cover'];
    item.description = [
      day(p.datetime ?? p.startdatetime ?? ''),
      p.platform ?? p.constellation,
      typeof cloud === 'number' ? `☁ ${Math.round(cloud)}%` : '',
      typeof p.gsd === 'number' ? `${p.gsd} m` : '',
    ]
      .filter(Boolean)
      .join(' · ');
    item.iconPath = new vscode.ThemeIcon('device-camera');
    item.contextValue = 'archiveItem';
    item.tooltip = recordTooltip(p.title ?? this.record.id, [
      ['Acquired', dateTime(p.datetime)],
      ['Platform', p.platform],
      ['Constellation', p.constellation],
      ['Cloud cover', typeof cloud === 'number' ? `${cloud.toFixed(1)} %` : undefined],
      ['GSD', typeof p.gsd === 'number' ? `${p.gsd} m` : undefined],
      ['Off-nadir', p['view:off_nadir']],
      ['Collection', this.record.collection],
    ]);
    return item;
  }
}
