/** Archive (STAC) search, collections and items. Item `bbox` strings arrive here as numbers. */
import { ApiError } from './errors';
import { normalizeArchiveItem, normalizeCollection } from './normalize';
import { iterateLinks, type IterateOptions } from './paging';
import type { ArchiveCollection, ArchiveItem, ArchiveItemWire, ArchiveSearchRequest, ItemCollection, Link } from './records';
import { archiveCollection, archiveItem, collectionsEnvelope, itemCollectionEnvelope } from './schemas';
import { assertShape } from './shape';
import { pathOf, type CallOptions, type RequestSpec, type Transport } from './transport';
import { readRecords, withUnreadable, type WithUnreadable } from './unreadable';

/** A page of items: the records that read, and the ones that do not fit left out with the reason. */
function parseItems(body: unknown): ItemCollection<ArchiveItem> & WithUnreadable {
  const fc = assertShape<ItemCollection<unknown>>(body, itemCollectionEnvelope, '');
  const { items, unreadable } = readRecords(
    fc.features,
    (i) => `features[${i}]`,
    (raw, where) => normalizeArchiveItem(assertShape<ArchiveItemWire>(raw, archiveItem, where), where),
  );
  const out = fc as unknown as ItemCollection<ArchiveItem>;
  out.features = items;
  if (!Array.isArray(out.links)) out.links = [];
  return withUnreadable(out, unreadable);
}
const parseItem = (body: unknown): ArchiveItem => normalizeArchiveItem(assertShape<ArchiveItemWire>(body, archiveItem, 'item'));
/** The collections that read, and the ones that do not fit left out with the reason. */
function parseCollections(body: unknown): ArchiveCollection[] & WithUnreadable {
  const list = assertShape<{ collections: unknown[] }>(body, collectionsEnvelope, '').collections;
  const { items, unreadable } = readRecords(
    list,
    (i) => `collections[${i}]`,
    (raw, where) => normalizeCollection(assertShape<ArchiveCollection>(raw, archiveCollection, where)),
  );
  return withUnreadable(items, unreadable);
}
const parseCollection = (body: unknown): ArchiveCollection => normalizeCollection(assertShape<ArchiveCollection>(body, archiveCollection, 'collection'));

export function nextLink(fc: { links?: Link[] }): Link | undefined {
  return fc.links?.find((l) => l.rel === 'next');
}

export class ArchivesApi {
  constructor(private readonly t: Transport) {}

  /** One page of a STAC item search (limit 1..1000, default 10). */
  search(req: ArchiveSearchRequest = {}, o?: CallOptions): Promise<ItemCollection<ArchiveItem> & WithUnreadable> {
    return this.t.json({ method: 'POST', path: '/v0/archives/search', body: req }, parseItems, o);
  }

  /** Every matching item, following the `next` links. */
  iterateSearch(req: ArchiveSearchRequest = {}, opts: IterateOptions = {}): AsyncGenerator<ArchiveItem, void, undefined> {
    const first = { ...req, limit: req.limit ?? opts.pageSize ?? 100 };
    return this.followLinks({ method: 'POST', path: '/v0/archives/search', body: first }, opts);
  }

  collections(o?: CallOptions): Promise<ArchiveCollection[] & WithUnreadable> {
    return this.t.json({ method: 'GET', path: '/v0/archives/collections' }, parseCollections, o);
  }

  collection(cid: string, o?: CallOptions): Promise<ArchiveCollection> {
    return this.t.json({ method: 'GET', path: pathOf`/v0/archives/collections/${cid}` }, parseCollection, o);
  }

  /** One page of a collection's items; use the `next` link (or `iterateItems`) for more. */
  itemsPage(cid: string, q: { limit?: number; offset?: number } = {}, o?: CallOptions): Promise<ItemCollection<ArchiveItem> & WithUnreadable> {
    return this.t.json({ method: 'GET', path: pathOf`/v0/archives/collections/${cid}/items`, query: q }, parseItems, o);
  }

  iterateItems(cid: string, opts: IterateOptions = {}): AsyncGenerator<ArchiveItem, void, undefined> {
    return this.followLinks({ method: 'GET', path: pathOf`/v0/archives/collections/${cid}/items`, query: { limit: opts.pageSize ?? 100 } }, opts);
  }

  item(cid: string, id: string, o?: CallOptions): Promise<ArchiveItem> {
    return this.t.json({ method: 'GET', path: archiveItemPath(cid, id) }, parseItem, o);
  }

  private followLinks(first: RequestSpec, opts: IterateOptions): AsyncGenerator<ArchiveItem, void, undefined> {
    const label = { method: first.method, path: first.path };
    return iterateLinks<ArchiveItem, Link>(
      async ({ link, signal }) => {
        const spec = link ? this.specForLink(first, link) : first;
        const fc = await this.t.json(spec, parseItems, { signal });
        if (fc.unreadable) opts.onUnreadable?.(fc.unreadable);
        // The offset moves by what the server sent, read or not.
        return { items: fc.features, next: nextLink(fc) ?? this.offsetLink(spec, fc.features.length + (fc.unreadable?.length ?? 0)) };
      },
      (l) => `${l.method ?? ''} ${l.href} ${l.body ? JSON.stringify(l.body) : ''}`,
      (i) => i.id,
      label,
      opts,
    );
  }

  /**
   * The OpenAPI pages archive search and collection items by `offset`/`limit` and does not
   * promise `next` links: after a full page without one, the next page is asked for by
   * offset (docs/service-interface.md, "Limits and pagination"). A short page is the last.
   */
  private offsetLink(spec: RequestSpec, got: number): Link | undefined {
    const source =
      spec.method === 'POST'
        ? ((spec.body as { offset?: unknown; limit?: unknown } | undefined) ?? {})
        : Object.fromEntries(new URLSearchParams(spec.path.split('?')[1] ?? ''));
    const limit = Number((source as { limit?: unknown }).limit ?? (spec.query as { limit?: unknown } | undefined)?.limit ?? 10);
    const offset = Number((source as { offset?: unknown }).offset ?? (spec.query as { offset?: unknown } | undefined)?.offset ?? 0);
    if (!Number.isInteger(limit) || limit < 1 || got < limit) return undefined;
    const path = spec.path.split('?')[0];
    return { rel: 'next', href: `${this.t.baseUrl}${path}?offset=${offset + got}&limit=${limit}`, method: spec.method === 'POST' ? 'POST' : 'GET' };
  }

  /**
   * The request a `next` link asks for. Links are only followed below our base URL (our
   * token must not go elsewhere). A POST search link may carry the next body (STAC API);
   * if it carries only an href, its `offset`/`limit` query is applied to the original body.
   */
  private specForLink(first: RequestSpec, link: Link): RequestSpec {
    if (!this.t.isOwnUrl(link.href)) {
      throw new ApiError({
        kind: 'protocol',
        method: first.method,
        path: first.path,
        detailMessage: `the next link points outside the service (${safeOrigin(link.href)}); not following it`,
      });
    }
    const rel = this.t.relativePath(link.href);
    const [path, search = ''] = splitOnce(rel, '?');
    const method = link.method ?? (first.method === 'POST' ? 'POST' : 'GET');
    if (method === 'GET') return { method: 'GET', path: rel.includes('?') ? path + '?' + search : path };
    let body: Record<string, unknown>;
    if (link.body) {
      body = (link as Link & { merge?: boolean }).merge ? { ...(first.body as object), ...link.body } : link.body;
    } else {
      body = { ...(first.body as object) };
      const qs = new URLSearchParams(search);
      for (const k of ['offset', 'limit']) {
        const v = qs.get(k);
        if (v !== null && /^\d+$/.test(v)) body[k] = Number(v);
      }
    }
    return { method: 'POST', path, body };
  }
}

function splitOnce(s: string, sep: string): [string, string?] {
  const i = s.indexOf(sep);
  return i < 0 ? [s] : [s.slice(0, i), s.slice(i + 1)];
}

function safeOrigin(href: string): string {
  try {
    return new URL(href).origin;
  } catch {
    return 'an invalid URL';
  }
}

/** Where one archive item is read, below the base URL (also its STAC URL when it has no `self` link). */
export function archiveItemPath(cid: string, id: string): string {
  return pathOf`/v0/archives/collections/${cid}/items/${id}`;
}
