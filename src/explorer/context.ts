import type { ExtensionServices } from '../services';
import type { FilterState } from './filters';
import type { ExplorerNode, ViewId } from './tree';

/** What nodes and lists need from the explorer around them. */
export interface ExplorerContext {
  readonly services: ExtensionServices;
  readonly filters: FilterState;
  /** Re-render `node` (its row and, when expanded, its children), or the whole view. */
  changed(view: ViewId, node?: ExplorerNode): void;
}
