import vscode = require('vscode');
import { needsSignIn } from '../api';
import type { EoClient } from '../api';
import type { Aoi, OrderItem } from '../api/records';
import type { ExtensionServices } from '../services';
import { AMOUNT_UNIT_SETTING } from '../ui/amounts';
import type { ExplorerContext } from './context';
import { fetchRecord } from './fetchRecord';
import { FilterState } from './filters';
import { archiveRoot } from './nodes/archive';
import { catalogRoot } from './nodes/catalog';
import { OrderNode, ordersRoot } from './nodes/orders';
import { ProjectNode, projectsRoot } from './nodes/projects';
import { storesRoot } from './nodes/stores';
import type { NodeList } from './nodeList';
import { Poller, type PollerOptions } from './poller';
import { ExplorerProvider } from './provider';
import type { Watcher } from '../watch/watcher';
import { ExplorerNode, RecordNode, type RecordKind } from './tree';
import { showsCollapseAll, VIEW_IDS, type ViewId } from './viewIds';

/** What commands and tests reach through `services.explorer`. */
export interface ExplorerApi {
  readonly providers: Readonly<Record<ViewId, ExplorerProvider>>;
  readonly filters: FilterState;
  readonly poller: Poller;
  /** Reloads one view, or all of them; `keep`: the rows shown stay (stale if the reload fails). */
  refresh(view?: ViewId, keep?: boolean): void;
  /** Reloads one node's children; `keep` as for `refresh`. */
  refreshNode(node: ExplorerNode, keep?: boolean): void;
  /**
   * Finds a record in its view (loading what is needed; a record newer than the loaded pages
   * is put first) and reveals it. Resolves to the node, or undefined when it is not there.
   */
  reveal(kind: RecordKind, id: string, options?: { focus?: boolean; expand?: boolean }): Promise<ExplorerNode | undefined>;
  /** The record rows selected in a view (the focused view when none is named). */
  selected(view?: ViewId): RecordNode[];
  /** Fires after a record node got a fresher record (live progress, reveal). */
  readonly onDidUpdateRecord: vscode.Event<RecordNode>;
}

/**
 * Makes a view's TreeView for its provider. Activation creates the five views before the
 * sidebar's code is loaded (src/deferred.ts) and connects each to its provider here; the
 * default creates them.
 */
export type TreeViewFactory = <T>(id: string, provider: vscode.TreeDataProvider<T>, options: { showCollapseAll: boolean }) => vscode.TreeView<T>;

const createTreeViews: TreeViewFactory = (id, provider, options) => vscode.window.createTreeView(id, { treeDataProvider: provider, ...options });

/** The five views, their providers, filters, live progress and reveal. */
export class Explorer implements ExplorerApi, ExplorerContext, vscode.Disposable {
  readonly filters = new FilterState();
  readonly poller: Poller;
  readonly providers: Record<ViewId, ExplorerProvider>;
  private readonly updated = new vscode.EventEmitter<RecordNode>();
  readonly onDidUpdateRecord = this.updated.event;
  private readonly disposables: vscode.Disposable[] = [];
  private lastClient?: EoClient | null;
  private focusedView?: ViewId;
  /** The connection's `session` the views were last reset for. */
  private session: number;

  constructor(
    readonly services: ExtensionServices,
    readonly watcher?: Watcher,
    polling?: PollerOptions,
    views: TreeViewFactory = createTreeViews,
  ) {
    this.session = services.connection.session;
    this.poller = new Poller(services.connection, services.log, polling, watcher);
    const ctx = this as ExplorerContext;
    const poller = this.poller;
    this.providers = {
      projects: new ExplorerProvider('projects', projectsRoot(ctx) as NodeList<never>, poller, {
        countInMessage: true,
        filterText: () => this.filters.projectsText(),
      }),
      orders: new ExplorerProvider('orders', ordersRoot(ctx) as NodeList<never>, poller, {
        countInMessage: true,
        filterText: () => this.filters.ordersText(),
      }),
      catalog: new ExplorerProvider('catalog', catalogRoot(ctx) as NodeList<never>, poller, { countInMessage: true }),
      stores: new ExplorerProvider('stores', storesRoot(ctx) as NodeList<never>, poller, { countInMessage: false }),
      archive: new ExplorerProvider('archive', archiveRoot(ctx) as NodeList<never>, poller, { countInMessage: false }),
    };
    for (const id of VIEW_IDS) {
      const provider = this.providers[id];
      const view = views(`eoImagery.${id}`, provider, { showCollapseAll: showsCollapseAll(id) });
      this.disposables.push(
        view,
        provider,
        ...provider.attach(view),
        view.onDidChangeSelection(() => (this.focusedView = id)),
        view.onDidChangeVisibility((e) => {
          if (e.visible) provider.updateMessage();
        }),
      );
    }
    this.disposables.push(
      this.poller,
      this.filters,
      this.updated,
      this.filters.onDidChange((view) => this.refresh(view)),
      services.connection.onDidChange(() => {
        // Only another sign-in: a list's own 401 moves the state too (see Connection.session).
        if (services.connection.session !== this.session) {
          this.session = services.connection.session;
          this.resetSignInErrors();
        }
        void this.connectionChanged();
      }),
      this.poller.onDidUpdate((node) => this.updated.fire(node)),
      // Amounts carry the billing unit: re-draw the rows that show amounts when it changes.
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(AMOUNT_UNIT_SETTING)) this.providers.orders.changed();
      }),
    );
    void services.connection.getClient().then(
      (c) => (this.lastClient ??= c),
      () => (this.lastClient ??= null),
    );
  }

  changed(view: ViewId, node?: ExplorerNode): void {
    this.providers[view].changed(node);
    if (node instanceof RecordNode) this.updated.fire(node);
  }

  refresh(view?: ViewId, keep = false): void {
    for (const id of view ? [view] : VIEW_IDS) this.providers[id].refresh(undefined, keep);
  }

  refreshNode(node: ExplorerNode, keep = false): void {
    this.providers[node.view].refresh(node, keep);
  }

  selected(view?: ViewId): RecordNode[] {
    const id = view ?? this.focusedView;
    const selection = id ? (this.providers[id].view?.selection ?? []) : [];
    return selection.filter((n): n is RecordNode => n instanceof RecordNode);
  }

  async reveal(kind: RecordKind, id: string, options: { focus?: boolean; expand?: boolean } = {}): Promise<ExplorerNode | undefined> {
    const node = await this.locate(kind, id);
    if (!node) return undefined;
    const view = this.providers[node.view].view;
    if (!view) return node;
    // A refresh of the view that lands after the reveal (a command refreshes, then reveals;
    // VS Code re-renders asynchronously) drops the selection: check, and reveal again.
    for (let attempt = 1; ; attempt++) {
      await view.reveal(node, { select: true, focus: options.focus ?? false, expand: options.expand ?? false });
      await new Promise((r) => setTimeout(r, 100 * attempt));
      if (view.selection.some((n) => n.id === node.id) || attempt === 8) return node;
    }
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }

  /**
   * A view that failed for want of a sign-in is stale the moment the sign-in changes: reset it
   * now, not after the client comparison below resolves, so that nothing reads the old failure
   * in between.
   */
  private resetSignInErrors(): void {
    for (const id of VIEW_IDS) {
      if (needsSignIn(this.providers[id].root.lastError)) this.providers[id].refresh();
    }
  }

  /** Refresh every view when the client changes (sign-in, sign-out, other URL or token). */
  private async connectionChanged(): Promise<void> {
    const client = await this.services.connection.getClient().catch(() => null);
    if (client === this.lastClient) return;
    this.lastClient = client;
    this.refresh();
  }

  private async locate(kind: RecordKind, id: string): Promise<ExplorerNode | undefined> {
    const client = await this.services.connection.getClient();
    switch (kind) {
      case 'project':
        return this.findOrPin(this.providers.projects.root, id, () => fetchRecord(client, 'project', id));
      case 'aoi': {
        const aoi = (await fetchRecord(client, 'aoi', id)) as Aoi;
        const project = await this.locate('project', aoi.project_id);
        if (!(project instanceof ProjectNode)) return undefined;
        return this.findOrPin(project.aois, id, () => Promise.resolve(aoi));
      }
      case 'order':
        return this.findOrPin(this.providers.orders.root, id, () => fetchRecord(client, 'order', id));
      case 'orderItem': {
        const item = (await fetchRecord(client, 'orderItem', id)) as OrderItem;
        const order = await this.locate('order', item.order_id);
        if (!(order instanceof OrderNode)) return undefined;
        return this.findOrPin(order.items, id, () => Promise.resolve(item));
      }
      case 'store': {
        // Stores come in one listing: reload it so a store created a moment ago is in it.
        const provider = this.providers.stores;
        provider.refresh();
        await provider.root.children();
        provider.changed();
        return provider.root.find(id);
      }
      case 'catalog':
        return this.findOrPin(this.providers.catalog.root, id, () => fetchRecord(client, 'catalog', id));
      case 'collection':
        return this.findOrPin(this.providers.archive.root, id, () => fetchRecord(client, 'collection', id));
      default:
        return undefined;
    }
  }

  private async findOrPin(list: NodeList<unknown>, id: string, read: () => Promise<object | undefined>): Promise<ExplorerNode | undefined> {
    await list.children();
    let node = list.find(id);
    if (!node) {
      const record = await read();
      if (!record) return undefined;
      node = list.pin(record);
    }
    const owner = node.parent;
    this.changed(node.view, owner);
    return node;
  }
}
