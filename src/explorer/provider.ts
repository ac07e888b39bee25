import vscode = require('vscode');
import { l10n } from 'vscode';
import { shownOf } from '../format';
import { spokenRow } from './spoken';
import type { NodeList } from './nodeList';
import type { Poller, PollHost } from './poller';
import { ExplorerNode, RecordNode, type ViewId } from './tree';

export interface ProviderOptions {
  /** Say "Showing 50 of 10,000 …" in the view's message (paged roots). */
  countInMessage: boolean;
  /** The active filter, in words, for the view's message. */
  filterText?: () => string | undefined;
}

/**
 * One view's TreeDataProvider. The root is a paged list; every other node builds its own
 * children. Nothing is fetched until VS Code asks for children, which it does only for a
 * visible view and expanded nodes.
 */
export class ExplorerProvider implements vscode.TreeDataProvider<ExplorerNode>, PollHost, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<ExplorerNode | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  readonly root: NodeList<unknown>;
  view?: vscode.TreeView<ExplorerNode>;
  private lastEmpty?: boolean;

  constructor(
    readonly viewId: ViewId,
    root: NodeList<never>,
    private readonly poller: Poller,
    private readonly options: ProviderOptions,
  ) {
    this.root = root as NodeList<unknown>;
  }

  get visible(): boolean {
    return this.view?.visible ?? false;
  }

  attach(view: vscode.TreeView<ExplorerNode>): vscode.Disposable[] {
    this.view = view;
    return [view.onDidExpandElement((e) => (e.element.expanded = true)), view.onDidCollapseElement((e) => (e.element.expanded = false))];
  }

  getTreeItem(node: ExplorerNode): vscode.TreeItem {
    const item = node.getTreeItem();
    item.id = node.id;
    // Read as words (dates, units, separators) unless the node says it better itself.
    if (!item.accessibilityInformation) {
      const label = typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
      item.accessibilityInformation = { label: spokenRow(label, item.description) };
    }
    if (node instanceof RecordNode) this.poller.consider(this, node);
    return item;
  }

  async getChildren(node?: ExplorerNode): Promise<ExplorerNode[]> {
    if (node) {
      node.expanded = true;
      const children = await node.getChildren();
      return children;
    }
    const rows = await this.root.children();
    this.updateMessage();
    return rows;
  }

  getParent(node: ExplorerNode): ExplorerNode | undefined {
    return node.parent;
  }

  /**
   * Reloads `node`'s children, or the whole view. `keep` (the person's Refresh): the rows shown
   * stay until new ones arrive, and stay, marked stale, if the service does not answer.
   */
  refresh(node?: ExplorerNode, keep = false): void {
    if (node) {
      node.reset(keep);
      this.changed(node);
    } else {
      this.root.reset(keep);
      this.emitter.fire(undefined);
    }
  }

  /** Re-renders without reloading. */
  changed(node?: ExplorerNode): void {
    if (node && !node.attached) return;
    if (!node) this.updateMessage();
    this.emitter.fire(node);
  }

  updateMessage(): void {
    const parts: string[] = [];
    const root = this.root;
    if (this.options.countInMessage && root.shown > 0 && root.lastError === undefined) {
      parts.push(shownOf(root.shown, root.total, root.what));
    }
    const filter = this.options.filterText?.();
    if (filter) parts.push(l10n.t('Filter: {0}', filter));
    const message = parts.length ? parts.join(' · ') : undefined;
    if (this.view && this.view.message !== message) this.view.message = message;
    const empty = root.isComplete && root.shown === 0 && root.lastError === undefined;
    if (empty !== this.lastEmpty) {
      this.lastEmpty = empty;
      void vscode.commands.executeCommand('setContext', `eoImagery.${this.viewId}.empty`, empty);
    }
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
