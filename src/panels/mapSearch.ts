/**
 * The map's searches (archive or imagery), asked by its webview: the form's options, a
 * search's pages (one item read ahead, so "Load more" is offered only when there is more), and
 * the items read, so that "Order…", "Show imagery", Compare and the time slider hand over whole
 * items (the page's Order… and Show imagery buttons run their commands from here). A new
 * search ends the previous ones.
 */
import { l10n } from 'vscode';
import type { EoClient } from '../api/client';
import type { ArchiveItem, Satellite } from '../api/records';
import type { UnreadableRecord } from '../api/unreadable';
import { isObj } from '../api/shape';
import { describeError } from '../ui/showError';
import { runCommand } from '../ui/runCommand';
import { filterProblem } from '../searchFilters';
import { archiveItemFeature, archiveSearchBody, imagerySearchBody, offeredQueryables, queryablesOf, searchNotes, withoutFootprint } from './mapData';
import type { DetailRef, SearchOptions, SearchPage, SearchParams } from './protocol';

interface SearchSession {
  id: number;
  items: AsyncGenerator<ArchiveItem, void, undefined>;
  /** One item read ahead, so "Load more" is offered only when there is more. */
  ahead?: ArchiveItem;
  done: boolean;
  loaded: number;
  limit: number;
  abort: AbortController;
  /** Results the service sent that could not be read (left out; the list says so). */
  unreadable: UnreadableRecord[];
  /** Results without a footprint so far (listed, not drawn). */
  noFootprint: number;
}

export class MapSearches {
  private readonly sessions = new Map<number, SearchSession>();
  private nextId = 1;
  private satellites: Satellite[] = [];
  /** The current search's items by `collection/id`. */
  private readonly items = new Map<string, ArchiveItem>();
  /** The last search the webview ran. */
  last?: SearchParams;

  constructor(private readonly client: () => Promise<EoClient>) {}

  /** The items of the current search, in the order they came. */
  get results(): ArchiveItem[] {
    return [...this.items.values()];
  }

  /** A result row's whole item (footprint included), when this search read it. */
  item(collection: string, id: string): ArchiveItem | undefined {
    return this.items.get(`${collection}/${id}`);
  }

  /**
   * "Order…" under the results list: the page names the rows; the items are the ones this
   * search read (a reloaded window has none, and the order flow reads such references from
   * the archive itself).
   */
  async order(refs: unknown[]): Promise<void> {
    const items = refs
      .filter((r): r is { collection: string; id: string } => isObj(r) && typeof r.collection === 'string' && typeof r.id === 'string')
      .map((r) => this.item(r.collection, r.id) ?? { collection: r.collection, id: r.id });
    if (items.length) await runCommand('orderArchiveItems', items);
  }

  /** "Show imagery" in a footprint's popup: the whole item when this search read it. */
  async showImagery(ref: DetailRef): Promise<void> {
    if (ref.kind !== 'archiveItem') return;
    await runCommand('showImagery', this.item(ref.collection, ref.id) ?? { collection: ref.collection, id: ref.id });
  }

  /** The collections, satellites and projects of the form; a list that fails says why beside its control. */
  async options(): Promise<SearchOptions> {
    const client = await this.client();
    const [collections, satellites, projects] = await Promise.allSettled([
      client.archives.collections(),
      client.search.satellites(),
      client.projects.listPage({ pageNum: 1, pageSize: 100 }),
    ]);
    const errors: SearchOptions['errors'] = {};
    const val = <T>(p: PromiseSettledResult<T>, key: keyof SearchOptions['errors']): T | undefined => {
      if (p.status === 'fulfilled') return p.value;
      errors[key] = describeError(p.reason);
      return undefined;
    };
    const sats = val(satellites, 'satellites') ?? [];
    this.satellites = sats;
    return {
      collections: (val(collections, 'collections') ?? []).map((c) => ({ id: c.id, title: c.title, interval: overallInterval(c.extent?.temporal?.interval) })),
      satellites: sats.map((s) => ({ id: s.id, name: s.name, collection_id: s.collection_id ?? '', queryables: queryablesOf(s) })),
      projects: (val(projects, 'projects')?.items ?? []).map((p) => ({ id: p.id, name: p.title || p.name })),
      errors,
    };
  }

  /** A new search: the previous ones end (their pages would only confuse the list); its first page. */
  async start(p: SearchParams): Promise<SearchPage> {
    this.last = p;
    this.endAll();
    this.items.clear();
    const client = await this.client();
    const abort = new AbortController();
    if (p.kind === 'imagery' && this.satellites.length === 0) this.satellites = await client.search.satellites({ signal: abort.signal });
    // A saved search may name a filter the satellite does not list: said before anything is sent.
    const problem = filterProblem(p.filters ?? [], offeredQueryables(p, this.satellites), p.kind === 'imagery');
    if (problem) throw new Error(problem);
    const unreadable: UnreadableRecord[] = [];
    const opts = { pageSize: p.limit, signal: abort.signal, onUnreadable: (r: UnreadableRecord[]) => unreadable.push(...r) };
    let items: AsyncGenerator<ArchiveItem, void, undefined>;
    if (p.kind === 'imagery') {
      items = client.search.iterate(imagerySearchBody(p, this.satellites), opts);
    } else {
      items = client.archives.iterateSearch(archiveSearchBody(p), opts);
    }
    const s: SearchSession = { id: this.nextId++, items, done: false, loaded: 0, limit: p.limit, abort, unreadable, noFootprint: 0 };
    this.sessions.set(s.id, s);
    return this.page(s);
  }

  /** "Load more" of a search still going. */
  async more(searchId: number): Promise<SearchPage> {
    const s = this.sessions.get(searchId);
    if (!s) throw new Error(l10n.t('That search has ended; search again.'));
    return this.page(s);
  }

  /** The map closed, or a new search began. */
  endAll(): void {
    for (const s of this.sessions.values()) s.abort.abort();
    this.sessions.clear();
  }

  private async page(s: SearchSession): Promise<SearchPage> {
    const out: ArchiveItem[] = [];
    if (s.ahead) {
      out.push(s.ahead);
      s.ahead = undefined;
    }
    while (!s.done && out.length < s.limit + 1) {
      const n = await s.items.next();
      if (n.done) s.done = true;
      else out.push(n.value);
    }
    if (out.length > s.limit) s.ahead = out.pop();
    s.loaded += out.length;
    for (const item of out) this.items.set(`${item.collection}/${item.id}`, item);
    const features = out.map(archiveItemFeature);
    s.noFootprint += withoutFootprint(features);
    const hasMore = s.ahead !== undefined;
    if (!hasMore) this.sessions.delete(s.id);
    return { searchId: s.id, features, loaded: s.loaded, hasMore, ...searchNotes(s.noFootprint, s.unreadable) };
  }
}

/** A collection's overall temporal extent: the first interval, when it is a pair of strings or nulls. */
function overallInterval(intervals: unknown): (string | null)[] | undefined {
  const first: unknown = Array.isArray(intervals) ? intervals[0] : undefined;
  if (!Array.isArray(first) || first.length !== 2) return undefined;
  return first.every((t) => t === null || typeof t === 'string') ? (first as (string | null)[]) : undefined;
}
