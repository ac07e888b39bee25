import type { ExplorerApi } from '../../explorer/explorer';
import type { ExplorerNode, ViewId } from '../../explorer/tree';

/**
 * Refresh from a view's title bar (no argument) or a row's menu (the row). The rows shown stay
 * until the new ones arrive; if the service does not answer they stay, marked stale.
 */
export function refreshView(explorer: ExplorerApi, view: ViewId): void {
  explorer.refresh(view, true);
}

export function refreshNode(explorer: ExplorerApi, node: ExplorerNode | undefined): void {
  if (node) explorer.refreshNode(node, true);
  else explorer.refresh(undefined, true);
}
