import type { ExplorerApi } from '../../explorer/explorer';
import type { ExplorerNode, ViewId } from '../../explorer/tree';

/** Refresh from a view's title bar (no argument) or a row's menu (the row). */
export function refreshView(explorer: ExplorerApi, view: ViewId): void {
  explorer.refresh(view);
}

export function refreshNode(explorer: ExplorerApi, node: ExplorerNode | undefined): void {
  if (node) explorer.refreshNode(node);
  else explorer.refresh();
}
