/**
 * Pagination as async iterators, one per scheme the service uses. Every iterator takes a
 * page size and a cap on items, fetches lazily (one page ahead of what was consumed), and
 * stops with an `ApiError` of kind `protocol` instead of looping forever when the server
 * repeats a page or a cursor, or contradicts the total it sent.
 */
import { ApiError } from './errors';
import type { UnreadableRecord } from './unreadable';

/** One page of an offset/limit (or page_num) listing. */
export interface Page<T> {
  items: T[];
  /** Total number of items the server says the listing holds (when it says). */
  total?: number;
  offset: number;
  limit: number;
  /**
   * How many of the server's items this page covered, when the client dropped some (a
   * filter the server ignored): the next page starts that far on. Default `items.length`.
   */
  scanned?: number;
}

export interface IterateOptions {
  /** Items requested per page. Default 100 (the service's maximum limit). */
  pageSize?: number;
  /** Stop after this many items. Default: no cap. */
  cap?: number;
  signal?: AbortSignal;
  /** Told of the records each page left out because they do not fit (listings that read each record on its own). */
  onUnreadable?: (records: UnreadableRecord[]) => void;
}

/** Query of one offset/limit page. */
export interface OffsetQuery {
  /** Default 0. */
  offset?: number;
  /** 1..100; the service's default is 10. */
  limit?: number;
}

export interface PageRequest {
  offset: number;
  limit: number;
  signal?: AbortSignal;
}

/** Where the listing comes from, for error messages. */
export interface ListingLabel {
  method: string;
  path: string;
}

export const DEFAULT_PAGE_SIZE = 100;

function protocolError(label: ListingLabel, message: string): ApiError {
  return new ApiError({ kind: 'protocol', method: label.method, path: label.path, detailMessage: message });
}

function checkOptions(opts: IterateOptions): { pageSize: number; cap: number } {
  const pageSize = opts.pageSize ?? DEFAULT_PAGE_SIZE;
  const cap = opts.cap ?? Number.POSITIVE_INFINITY;
  if (!Number.isInteger(pageSize) || pageSize < 1) throw new RangeError(`pageSize must be a positive integer, got ${pageSize}`);
  if (!(cap >= 0)) throw new RangeError(`cap must be ≥ 0, got ${cap}`);
  return { pageSize, cap };
}

/** A page's identity: its first and last ids and its length. */
function fingerprint<T>(items: readonly T[], idOf: (t: T) => string): string {
  return items.length === 0 ? '' : `${items.length}\u0000${idOf(items[0])}\u0000${idOf(items[items.length - 1])}`;
}

/**
 * The checks both numbered schemes make of every page: no more items than asked for, the
 * count against the total the server sent, and no page twice. `name` says where a page
 * stands in messages ("the page at offset 20", "page 3"), `asked` what was asked for
 * ("offset 20", "page 3").
 */
class PageChecks<T> {
  private readonly seen = new Map<string, string>();

  constructor(
    private readonly label: ListingLabel,
    private readonly idOf: (t: T) => string,
  ) {}

  check(page: { items: readonly T[]; total?: number }, at: { before: number; max: number; tooMany: string; name: string; asked: string }): void {
    const n = page.items.length;
    if (n > at.max) throw protocolError(this.label, `${at.tooMany}, the server sent ${n}`);
    if (page.total !== undefined) {
      if (n > 0 && at.before + n > page.total) {
        throw protocolError(this.label, `the server says there are ${page.total} items but sent items ${at.before + 1}–${at.before + n}`);
      }
      if (n === 0 && at.before < page.total) {
        throw protocolError(this.label, `the server says there are ${page.total} items but ${at.name} is empty`);
      }
    }
    const fp = fingerprint(page.items, this.idOf);
    if (fp === '') return;
    const earlier = this.seen.get(fp);
    if (earlier !== undefined) throw protocolError(this.label, `the server repeated ${earlier} when asked for ${at.asked}`);
    this.seen.set(fp, at.name);
  }
}

/**
 * offset/limit listings (AOIs, indices, visualizations, assets, orders, order items,
 * catalogs, insights). Tolerates a server that caps `limit` below what we asked for.
 */
export async function* iterateOffset<T>(
  fetchPage: (req: PageRequest) => Promise<Page<T>>,
  idOf: (t: T) => string,
  label: ListingLabel,
  opts: IterateOptions = {},
): AsyncGenerator<T, void, undefined> {
  const { pageSize, cap } = checkOptions(opts);
  const checks = new PageChecks(label, idOf);
  let offset = 0;
  let yielded = 0;
  while (yielded < cap) {
    const limit = Math.min(pageSize, cap - yielded);
    const page = await fetchPage({ offset, limit, signal: opts.signal });
    const n = page.items.length;
    if (page.offset !== offset) {
      throw protocolError(label, `asked for offset ${offset}, the server answered offset ${page.offset}`);
    }
    checks.check(page, {
      before: offset,
      max: limit,
      tooMany: `asked for at most ${limit} items`,
      name: `the page at offset ${offset}`,
      asked: `offset ${offset}`,
    });
    for (const item of page.items) {
      yield item;
      yielded++;
    }
    const scanned = page.scanned ?? n;
    if (scanned === 0) return;
    offset += scanned;
    if (page.total !== undefined ? offset >= page.total : scanned < limit) return;
  }
}

/**
 * page_num/page_size listings (projects; `page_num` starts at 1). The count the service
 * sends is taken as the total number of items.
 */
export async function* iteratePageNum<T>(
  fetchPage: (req: { pageNum: number; pageSize: number; signal?: AbortSignal }) => Promise<{ items: T[]; total?: number }>,
  idOf: (t: T) => string,
  label: ListingLabel,
  opts: IterateOptions = {},
): AsyncGenerator<T, void, undefined> {
  const { pageSize, cap } = checkOptions(opts);
  const checks = new PageChecks(label, idOf);
  let yielded = 0;
  for (let pageNum = 1; yielded < cap; pageNum++) {
    const page = await fetchPage({ pageNum, pageSize, signal: opts.signal });
    const n = page.items.length;
    const before = (pageNum - 1) * pageSize;
    checks.check(page, { before, max: pageSize, tooMany: `asked for ${pageSize} items per page`, name: `page ${pageNum}`, asked: `page ${pageNum}` });
    for (const item of page.items) {
      if (yielded >= cap) return;
      yield item;
      yielded++;
    }
    if (n < pageSize) return;
    if (page.total !== undefined && before + n >= page.total) return;
  }
}

/** How many empty pages with a fresh cursor we accept in a row before calling it a loop. */
const MAX_EMPTY_CURSOR_PAGES = 3;

/** Cursor listings (imagery search's `next_token`). */
export async function* iterateCursor<T>(
  fetchPage: (req: { cursor: string | undefined; limit: number; signal?: AbortSignal }) => Promise<{ items: T[]; next: string | null | undefined }>,
  label: ListingLabel,
  opts: IterateOptions = {},
): AsyncGenerator<T, void, undefined> {
  const { pageSize, cap } = checkOptions(opts);
  const seen = new Set<string>();
  let cursor: string | undefined;
  let yielded = 0;
  let emptyRun = 0;
  while (yielded < cap) {
    const page = await fetchPage({ cursor, limit: Math.min(pageSize, cap - yielded), signal: opts.signal });
    for (const item of page.items) {
      if (yielded >= cap) return;
      yield item;
      yielded++;
    }
    const next = page.next;
    if (next === null || next === undefined || next === '') return;
    if (next === cursor || seen.has(next)) {
      throw protocolError(label, `the server sent a next_token it had already sent (${clipToken(next)}): stopping instead of looping`);
    }
    seen.add(next);
    emptyRun = page.items.length === 0 ? emptyRun + 1 : 0;
    if (emptyRun >= MAX_EMPTY_CURSOR_PAGES) {
      throw protocolError(label, `the server sent ${emptyRun} empty pages in a row, each with a new next_token`);
    }
    cursor = next;
  }
}

function clipToken(t: string): string {
  return t.length > 16 ? `${t.slice(0, 16)}…` : t;
}

/**
 * STAC listings that point at the next page with a `next` link (archive search and
 * collection items). `follow` fetches one page given the previous page's `next` link
 * (undefined for the first page); `key` identifies a link so a repeated one is caught.
 */
export async function* iterateLinks<T, L>(
  fetchPage: (req: { link: L | undefined; limit: number; signal?: AbortSignal }) => Promise<{ items: T[]; next: L | undefined }>,
  keyOf: (link: L) => string,
  idOf: (t: T) => string,
  label: ListingLabel,
  opts: IterateOptions = {},
): AsyncGenerator<T, void, undefined> {
  const { pageSize, cap } = checkOptions(opts);
  const seenLinks = new Set<string>();
  const seenPages = new Set<string>();
  let link: L | undefined;
  let yielded = 0;
  while (yielded < cap) {
    const page = await fetchPage({ link, limit: Math.min(pageSize, cap - yielded), signal: opts.signal });
    const fp = fingerprint(page.items, idOf);
    if (fp !== '') {
      if (seenPages.has(fp)) throw protocolError(label, 'the server sent the same page twice by following its next link');
      seenPages.add(fp);
    }
    for (const item of page.items) {
      if (yielded >= cap) return;
      yield item;
      yielded++;
    }
    if (page.next === undefined || page.items.length === 0) return;
    const key = keyOf(page.next);
    if (seenLinks.has(key)) throw protocolError(label, `the server's next link repeats an earlier one (${key})`);
    seenLinks.add(key);
    link = page.next;
  }
}

/** Drain an async iterable into an array (respecting whatever cap the iterator has). */
export async function collect<T>(iter: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of iter) out.push(x);
  return out;
}
