import type { ExplorerApi } from '../../explorer/explorer';
import type { ErrorNode, LoadMoreNode } from '../../explorer/rows';

/** The "Load more…" row: fetch the next page of its list; a second click joins the first. */
export async function loadMore(explorer: ExplorerApi, node: LoadMoreNode | undefined): Promise<void> {
  if (!node) return;
  const provider = explorer.providers[node.view];
  const loading = node.list.loadMore();
  provider.changed(node.parent); // show "Loading…"
  await loading;
  provider.changed(node.parent);
}

/** The error row: try the failed load again. */
export async function retryLoad(explorer: ExplorerApi, node: ErrorNode | undefined): Promise<void> {
  if (!node) return;
  const provider = explorer.providers[node.view];
  const loading = node.list.loadMore();
  provider.changed(node.parent);
  await loading;
  provider.changed(node.parent);
}
