/**
 * A list fetched a page at a time, with the rows it adds around its records ("Load more…", an
 * error with Retry, Sign in, "nothing here"). No vscode: the rows are made by a `RowFactory`
 * (the sidebar's, src/explorer/nodeList.ts, builds tree rows), the pages are read through a
 * `PageSource` (the connection), so the paging itself is unit-tested.
 */
import { isTransient, needsSignIn, NotSignedInError, type EoClient, type UnreadableRecord } from '../api';

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

export interface PagedSpec<T, Row> {
  /** Plural noun: "Could not load AOIs", "Showing 50 of 312 AOIs". */
  what: string;
  /** Row shown under a parent with nothing in this list ("No AOIs in this project yet"). */
  empty: string;
  pageSize?: number;
  fetch(client: EoClient, q: PageQuery): Promise<PageResult<T>>;
  idOf(item: T): string;
  /** A record's row (made once per id while the list holds it). */
  toNode(item: T): Row;
}

/** Where a list reads its pages, and says how that went. */
export interface PageSource {
  getClient(): Promise<EoClient>;
  reportSuccess(): void;
  reportFailure(err: unknown): void;
  warn(text: string): void;
  /** The list's rows changed by themselves (a stale list that reloaded on its own). */
  changed(): void;
}

/**
 * A stale list (a refresh that failed, its last good rows kept) is loaded again by itself after
 * these delays, the last repeated: a service back after a bad minute is seen within about
 * 6 s plus one read, without a person clicking. After STALE_TRIES it waits for Retry.
 */
const STALE_RETRY_MS = [2_000, 4_000, 6_000];
const STALE_TRIES = 30;

/** What a list can do for the rows it adds below its records. */
export interface LoadableList {
  readonly what: string;
  readonly shown: number;
  readonly total: number | undefined;
  readonly isLoading: boolean;
  loadMore(): Promise<void>;
}

/** The rows a list adds around its records. */
export interface RowFactory<Row> {
  /** "Load more…" (or "Loading…" while a page is in flight); made once per list. */
  loadMore(list: LoadableList): Row;
  /** A failed load, with a way to retry it; `readAt` (ms since epoch) when the rows above it are kept from then. */
  error(list: LoadableList, err: unknown, readAt?: number): Row;
  /** A 401 or no token: sign in again. */
  signIn(what: string, err: unknown): Row;
  /** Records the service sent that could not be read: how many, and why (they are left out). */
  unreadable(what: string, records: readonly UnreadableRecord[]): Row;
  /** A line of information, e.g. "No AOIs in this project yet". */
  message(key: string, text: string): Row;
  /** The list was reset: this record's row is no longer in the tree. */
  detach(row: Row): void;
  /** A record's row keeps its identity and shows this fresher read of the record. */
  update(row: Row, item: unknown): void;
}

/**
 * The children of one node (or a view's root, `atRoot`) fetched a page at a time. Holds what
 * was loaded, turns a failed load into an error row, and lets at most one load run at a time:
 * a second "Load more…" click while a page is in flight joins that load.
 */
export class PagedChildren<T, Row> implements LoadableList {
  private items: T[] = [];
  private readonly nodes = new Map<string, Row>();
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
  private loadMoreRow?: Row;
  /** A refresh in progress keeps the rows shown until its first page replaces them. */
  private replacing = false;
  /** When the first page of the rows shown was read (ms since epoch). */
  private readAt = 0;
  private staleTries = 0;
  private staleTimer?: ReturnType<typeof setTimeout>;
  /** Counts page fetches, for tests and the benchmark. */
  fetches = 0;

  constructor(
    private readonly source: PageSource,
    private readonly rowFactory: RowFactory<Row>,
    private readonly spec: PagedSpec<T, Row>,
    /** The list is a view's top level (signed out, the view's welcome says what to do). */
    private readonly atRoot: boolean,
  ) {}

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
  async children(): Promise<Row[]> {
    // A load already in flight (VS Code rendering the view while a test or command asks too)
    // is joined, not answered with the rows it has not delivered yet. A reset while it was in
    // flight (sign-in, filter, refresh) dropped its result: wait for the load of the list as it
    // is now, however many resets that takes. Giving up after a few answered the rows of a list
    // that had not loaded (a lone "Load more…" where the answer was "Sign in again"); each
    // round follows a reset, and nothing the list reports itself resets it (Explorer).
    for (;;) {
      const generation = this.generation;
      if (!this.started) await this.loadMore();
      else if (this.loading) await this.loading;
      if (generation === this.generation) return this.rows();
    }
  }

  /** Fetches the next page; joins the load in flight instead of starting a second one. */
  loadMore(): Promise<void> {
    if (this.loading) return this.loading;
    if (this.started && this.done && !this.replacing) return Promise.resolve();
    this.started = true;
    this.error = undefined;
    const generation = this.generation;
    const abort = new AbortController();
    this.abort = abort;
    const run = async (): Promise<void> => {
      const source = this.source;
      try {
        const client = await source.getClient();
        const limit = this.spec.pageSize ?? PAGE_SIZE;
        const first = this.replacing || this.offset === 0;
        const q = this.replacing ? { offset: 0, cursor: undefined } : { offset: this.offset, cursor: this.cursor };
        const page = await this.spec.fetch(client, { ...q, limit, signal: abort.signal });
        if (generation !== this.generation) return;
        this.fetches++;
        if (this.replacing) this.clear();
        this.replacing = false;
        this.staleTries = 0;
        if (first) this.readAt = Date.now();
        this.append(page, limit);
        source.reportSuccess();
      } catch (err) {
        if (generation !== this.generation) return;
        this.error = err;
        if (!(err instanceof NotSignedInError)) {
          source.reportFailure(err);
          source.warn(`Could not load ${this.spec.what}: ${err instanceof Error ? err.message : String(err)}`);
        }
        if (this.replacing && isTransient(err)) this.retryStale(generation);
      } finally {
        if (generation === this.generation) this.loading = undefined;
      }
    };
    this.loading = run();
    return this.loading;
  }

  /**
   * Forgets everything; the next `children()` starts from the first page. `keep` (a refresh of
   * the same listing): the rows shown stay until the first page replaces them, and a refresh
   * that fails shows them as stale, with the time they were read and Retry.
   */
  reset(keep = false): void {
    this.generation++;
    this.abort?.abort();
    clearTimeout(this.staleTimer);
    this.loading = undefined;
    this.started = false;
    this.error = undefined;
    const good = this.replacing || this.readAt > 0;
    if (keep && good) {
      this.replacing = true;
      return;
    }
    this.replacing = false;
    this.staleTries = 0;
    this.clear();
  }

  /** When the rows shown were read; undefined while they are not stale. */
  get staleSince(): number | undefined {
    return this.replacing && this.error !== undefined ? this.readAt : undefined;
  }

  private clear(): void {
    for (const n of this.nodes.values()) this.rowFactory.detach(n);
    this.nodes.clear();
    this.items = [];
    this.offset = 0;
    this.cursor = undefined;
    this.done = false;
    this._total = undefined;
    this.unreadable = [];
    this.readAt = 0;
  }

  /** A stale list loads again by itself (STALE_RETRY_MS), until it passes, is reset, or STALE_TRIES. */
  private retryStale(generation: number): void {
    if (this.staleTries >= STALE_TRIES) return;
    const delay = STALE_RETRY_MS[Math.min(this.staleTries, STALE_RETRY_MS.length - 1)];
    this.staleTries++;
    clearTimeout(this.staleTimer);
    this.staleTimer = setTimeout(() => {
      if (generation !== this.generation || this.loading) return;
      void this.loadMore().then(() => this.source.changed());
    }, delay);
  }

  /** The node of a loaded record, by the record's id. */
  find(id: string): Row | undefined {
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
  pin(item: T): Row {
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

  private nodeFor(item: T): Row {
    const id = this.spec.idOf(item);
    let node = this.nodes.get(id);
    if (node === undefined) {
      node = this.spec.toNode(item);
      this.nodes.set(id, node);
    } else {
      this.rowFactory.update(node, item);
    }
    return node;
  }

  private rows(): Row[] {
    const rows: Row[] = this.items.map((i) => this.nodeFor(i));
    if (this.unreadable.length > 0) rows.push(this.rowFactory.unreadable(this.spec.what, this.unreadable));
    const err = this.error;
    if (err !== undefined) {
      // Signed out at the top of a view: the welcome view says what to do.
      if (err instanceof NotSignedInError && this.atRoot) return [];
      if (needsSignIn(err)) rows.push(this.rowFactory.signIn(this.spec.what, err));
      else rows.push(this.rowFactory.error(this, err, this.staleSince));
      return rows;
    }
    if (this.loading || !this.done) rows.push((this.loadMoreRow ??= this.rowFactory.loadMore(this)));
    else if (rows.length === 0 && !this.atRoot) rows.push(this.rowFactory.message('empty', this.spec.empty));
    return rows;
  }
}
