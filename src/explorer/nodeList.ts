/**
 * The sidebar's paged lists: `PagedChildren` (pure) with tree rows ("Load more…", error,
 * Sign in, message, unreadable records; src/explorer/rows.ts) and pages read through the connection.
 */
import type { ExplorerContext } from './context';
import { PagedChildren, type PagedSpec, type RowFactory } from './paged';
import { ErrorNode, LoadMoreNode, MessageNode, SignInNode, UnreadableNode } from './rows';
import { RecordNode, type ExplorerNode, type ViewId } from './tree';

/** The records of one node (or of a view's top level) as tree rows, a page at a time. */
export type NodeList<T> = PagedChildren<T, ExplorerNode>;

/** The rows a list adds below `owner` (undefined: the view's top level). */
function treeRows(view: ViewId, owner: ExplorerNode | undefined): RowFactory<ExplorerNode> {
  return {
    loadMore: (list) => new LoadMoreNode(view, owner, list),
    error: (list, err, readAt) => new ErrorNode(view, owner, list, err, readAt),
    signIn: (what, err) => new SignInNode(view, owner, what, err),
    message: (key, text) => new MessageNode(view, owner, key, text),
    unreadable: (what, records) => new UnreadableNode(view, owner, what, records),
    detach: (row) => void (row.detached = true),
    update: (row, item) => {
      if (row instanceof RecordNode) row.record = item as object;
    },
  };
}

export function nodeList<T>(ctx: ExplorerContext, view: ViewId, owner: ExplorerNode | undefined, spec: PagedSpec<T, ExplorerNode>): NodeList<T> {
  const source = {
    getClient: () => ctx.services.connection.getClient(),
    reportSuccess: () => ctx.services.connection.reportSuccess(),
    reportFailure: (err: unknown) => ctx.services.connection.reportFailure(err),
    warn: (text: string) => ctx.services.log.warn(text),
    changed: () => ctx.changed(view, owner),
  };
  return new PagedChildren<T, ExplorerNode>(source, treeRows(view, owner), spec, owner === undefined);
}
