import type * as vscode from 'vscode';
import type { EoClient } from '../api';
import type { ViewId } from './viewIds';

export { VIEW_IDS, type ViewId } from './viewIds';

/** Record kinds that `reveal` and the JSON document know; also the start of `contextValue`. */
export type RecordKind =
  | 'project'
  | 'aoi'
  | 'asset'
  | 'visualization'
  | 'order'
  | 'orderItem'
  | 'task'
  | 'catalog'
  | 'delivery'
  | 'store'
  | 'collection'
  | 'archiveItem'
  | 'insightRun'
  | 'workflow'
  | 'job'
  | 'jobTask';

export type NodeKind =
  | RecordKind
  | 'assetGroup'
  | 'visualizationGroup'
  | 'insightRunGroup'
  | 'insightOutput'
  | 'workflowGroup'
  | 'loadMore'
  | 'error'
  | 'signIn'
  | 'message'
  | 'unreadable';

/**
 * One row of a sidebar tree. A node knows its parent (so commands can reveal it) and builds
 * its own TreeItem; the provider adds the id. `key` is unique among its siblings.
 */
export abstract class ExplorerNode {
  abstract readonly kind: NodeKind;
  /** Set by expand/collapse events and when VS Code asks for the children. */
  expanded = false;
  /** Set when the list holding this node was reset: it is no longer in the tree. */
  detached = false;

  constructor(
    readonly view: ViewId,
    readonly parent: ExplorerNode | undefined,
    readonly key: string,
  ) {}

  get id(): string {
    return this.parent ? `${this.parent.id}/${this.key}` : `${this.view}/${this.key}`;
  }

  /** True while the node and all its ancestors are still part of the tree. */
  get attached(): boolean {
    if (this.detached) return false;
    for (let n = this.parent; n; n = n.parent) if (n.detached) return false;
    return true;
  }

  /** True when every ancestor is expanded: the row is on screen if the view is. */
  get shown(): boolean {
    for (let n = this.parent; n; n = n.parent) if (!n.expanded) return false;
    return true;
  }

  abstract getTreeItem(): vscode.TreeItem;

  /** The paged list of this row's children, when one list holds them all. */
  protected childList(): ChildList | undefined {
    return undefined;
  }

  getChildren(): Promise<ExplorerNode[]> {
    return this.childList()?.children() ?? Promise.resolve([]);
  }

  /** Forget loaded children so the next expansion fetches again; `keep`: show them until then, stale if that fails. */
  reset(keep = false): void {
    this.childList()?.reset(keep);
  }
}

/** What a row needs of the list below it (a `PagedChildren`). */
export interface ChildList {
  children(): Promise<ExplorerNode[]>;
  reset(keep?: boolean): void;
}

/** A row that stands for one service record. */
export abstract class RecordNode<T extends object = object> extends ExplorerNode {
  abstract override readonly kind: RecordKind;

  constructor(
    view: ViewId,
    parent: ExplorerNode | undefined,
    key: string,
    public record: T,
  ) {
    super(view, parent, key);
  }

  /** The service's id of the record (what Copy ID copies). */
  abstract get recordId(): string;

  /** The status polled by the live-progress poller; undefined when the record has none. */
  status(): string | undefined {
    return undefined;
  }

  /**
   * Reads the record again (live progress). Undefined for kinds that cannot be read one by
   * one; those follow their parent's refresh.
   */
  refetch?(client: EoClient, signal: AbortSignal): Promise<T>;

  /** Called after `record` was replaced by a fresher read. */
  recordChanged(): void {}
}
