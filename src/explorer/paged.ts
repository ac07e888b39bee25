import { needsSignIn, NotSignedInError, type EoClient, type UnreadableRecord } from '../api';
import type { ExplorerContext } from './context';
import { ErrorNode, LoadMoreNode, MessageNode, SignInNode, UnreadableNode } from './rows';
import { ExplorerNode, RecordNode, type ViewId } from './tree';

/** Rows per "Load more…" click. */
export const PAGE_SIZE = 50;

export interface PageQuery {
  offset: number;
  limit: number;
  /** The cursor a previous page returned (link and cursor listings). */
  cursor?: unknown;
  signal: AbortSignal;
}

export interface PageResult<T> {
  items: T[];
  /** What the server says the whole listing holds, when it says. */
  total?: number;
  /** Where the next page starts, for cursor listings. */
  cursor?: unknown;
  /** Set when the listing knows it has no more pages (cursor listings, whole lists). */
  done?: boolean;
  /** Server items the page covered when the client filtered some out (api `Page.scanned`). */
  scanned?: number;
  /** Records of the page that could not be read (left out; the list says how many). */
  unreadable?: UnreadableRecord[];
}

export interface PagedSpec<T> {
  /** Plural noun: "Could not load AOIs", "Showing 50 of 312 AOIs". */
  what: string;
  /** Row shown under a parent with nothing in this list ("No AOIs in this project yet"). */
  empty: string;
  pageSize?: number;
  fetch(client: EoClient, q: PageQuery): Promise<PageResult<T>>;
  idOf(item: T): string;
  toNode(item: T): ExplorerNode;
}

/**
 * The children of one node (or a view's root) fetched a page at a time. Holds what was
 * loaded, turns a failed load into an error row, and lets at most one load run at a time:
 * a second "Load more…" click while a page is in flight joins that load.
 */
export class PagedChildren<T> {
  private items: T[] = [];
  private readonly nodes = new Map<string, ExplorerNode>();
  private offset = 0;
  private cursor: unknown;
  private generation = 0;
  private abort?: AbortController;
  private loading?: Promise<void>;
  private started = false;
  private done = false;
  private error: unknown;
  private _total?: number;
  private unreadable: UnreadableRecord[] = [];
  private readonly loadMoreRow: LoadMoreNode;
  /** Counts page fetches, for tests and the benchmark. */
  fetches = 0;

  constructor(
    private readonly ctx: ExplorerContext,
    private readonly view: ViewId,
    private readonly owner: ExplorerNode | undefined,
    private readonly spec: PagedSpec<T>,
  ) {
    this.loadMoreRow = new LoadMoreNode(view, owner, this);
  }

  get what(): string {
    return this.spec.what;
  }

  get shown(): number {
    return this.items.length;
  }

  get total(): number | undefined {
    return this._total ?? (this.done ? this.items.length : undefined);
  }

  get isLoading(): boolean {
    return this.loading !== undefined;
  }

  get isComplete(): boolean {
    return this.started && this.done;
  }

  get lastError(): unknown {
    return this.error;
  }

  get loadedItems(): readonly T[] {
    return this.items;
  }

  /** The rows to show; the first call loads the first page. */
  async children(): Promise<ExplorerNode[]> {
    // A reset while the page was in flight (sign-in, filter, refresh) dropped its result:
    // load again rather than answer with a list that no longer exists.
    // A load already in flight (VS Code rendering the view while a test or command asks too)
    // is joined, not answered with the rows it has not delivered yet.
    for (let attempt = 0; attempt < 3; attempt++) {
      const generation = this.generation;
      if (!this.started) await this.loadMore();
      else if (this.loading) await this.loading;
      if (generation === this.generation) break;
    }
    return this.rows();
  }

  /** Fetches the next page; joins the load in flight instead of starting a second one. */
  loadMore(): Promise<void> {
    if (this.loading) return this.loading;
    if (this.started && this.done) return Promise.resolve();
    this.started = true;
    this.error = undefined;
    const generation = this.generation;
    const abort = new AbortController();
    this.abort = abort;
    const run = async (): Promise<void> => {
      const connection = this.ctx.services.connection;
      try {
        const client = await connection.getClient();
        const limit = this.spec.pageSize ?? PAGE_SIZE;
        const page = await this.spec.fetch(client, { offset: this.offset, limit, cursor: this.cursor, signal: abort.signal });
        if (generation !== this.generation) return;
        this.fetches++;
        this.append(page, limit);
        connection.reportSuccess();
      } catch (err) {
        if (generation !== this.generation) return;
        this.error = err;
        if (!(err instanceof NotSignedInError)) {
          connection.reportFailure(err);
          this.ctx.services.log.warn(`Could not load ${this.spec.what}: ${err instanceof Error ? err.message : String(err)}`);
        }
      } finally {
        if (generation === this.generation) this.loading = undefined;
      }
    };
    this.loading = run();
    return this.loading;
  }

  /** Forgets everything; the next `children()` starts from the first page. */
  reset(): void {
    this.generation++;
    this.abort?.abort();
    for (const n of this.nodes.values()) n.detached = true;
    this.nodes.clear();
    this.items = [];
    this.offset = 0;
    this.cursor = undefined;
    this.loading = undefined;
    this.started = false;
    this.done = false;
    this.error = undefined;
    this._total = undefined;
    this.unreadable = [];
  }

  /** The node of a loaded record, by the record's id. */
  find(id: string): ExplorerNode | undefined {
    if (!this.items.some((i) => this.spec.idOf(i) === id)) return undefined;
    return this.nodeFor(this.items.find((i) => this.spec.idOf(i) === id) as T);
  }

  /**
   * Keeps a fresher read of a loaded record (live progress), so that the next rendering of
   * the list does not put the older one back on its row.
   */
  replace(item: T): void {
    const id = this.spec.idOf(item);
    const i = this.items.findIndex((x) => this.spec.idOf(x) === id);
    if (i >= 0) this.items[i] = item;
  }

  /**
   * Puts a record that is not among the loaded pages first (a record created a moment ago
   * that the server lists further down), so that it can be revealed.
   */
  pin(item: T): ExplorerNode {
    const id = this.spec.idOf(item);
    const existing = this.find(id);
    if (existing) return existing;
    this.items.unshift(item);
    this.started = true;
    if (this._total !== undefined) this._total++;
    return this.nodeFor(item);
  }

  private append(page: PageResult<T>, limit: number): void {
    const known = new Set(this.items.map((i) => this.spec.idOf(i)));
    // A record created while paging shifts later pages by one: skip what we already show.
    for (const item of page.items) if (!known.has(this.spec.idOf(item))) this.items.push(item);
    if (page.unreadable) this.unreadable.push(...page.unreadable);
    const scanned = page.scanned ?? page.items.length;
    this.offset += scanned;
    this.cursor = page.cursor;
    if (page.total !== undefined) this._total = page.total;
    if (page.done !== undefined) this.done = page.done;
    else if (page.total !== undefined) this.done = this.offset >= page.total;
    else this.done = scanned < limit;
    if (scanned === 0) this.done = true;
  }

  private nodeFor(item: T): ExplorerNode {
    const id = this.spec.idOf(item);
    let node = this.nodes.get(id);
    if (!node) {
      node = this.spec.toNode(item);
      this.nodes.set(id, node);
    } else if (node instanceof RecordNode) {
      node.record = item as object;
    }
    return node;
  }

  private rows(): ExplorerNode[] {
    const rows: ExplorerNode[] = this.items.map((i) => this.nodeFor(i));
    if (this.unreadable.length > 0) rows.push(new UnreadableNode(this.view, this.owner, this.spec.what, this.unreadable));
    const err = this.error;
    if (err !== undefined) {
      // Signed out at the top of a view: the welcome view says what to do.
      if (err instanceof NotSignedInError && !this.owner) return [];
      if (needsSignIn(err)) rows.push(new SignInNode(this.view, this.owner, this.spec.what, err));
      else rows.push(new ErrorNode(this.view, this.owner, this, err));
      return rows;
    }
    if (this.loading || !this.done) rows.push(this.loadMoreRow);
    else if (rows.length === 0 && this.owner) rows.push(new MessageNode(this.view, this.owner, 'empty', this.spec.empty));
    return rows;
  }
}
