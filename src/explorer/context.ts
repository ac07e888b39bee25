import type { ExtensionServices } from '../services';
import type { Watcher } from '../watch/watcher';
import type { FilterState } from './filters';
import type { ExplorerNode, ViewId } from './tree';

/** What nodes and lists need from the explorer around them. */
export interface ExplorerContext {
  readonly services: ExtensionServices;
  readonly filters: FilterState;
  /** Follows what is pending in the background (absent in tests that build a bare explorer). */
  readonly watcher?: Watcher;
  /** Re-render `node` (its row and, when expanded, its children), or the whole view. */
  changed(view: ViewId, node?: ExplorerNode): void;
}
