/** Satellite imagery search (cursor paging through `next_token`) and the satellite list. */
import { normalizeArchiveItem, normalizeSatellite } from './normalize';
import { iterateCursor, type IterateOptions } from './paging';
import type { ArchiveItem, ArchiveItemWire, ImagerySearchRequest, ImagerySearchResponse, Satellite } from './records';
import { archiveItem, satellite } from './schemas';
import { anyValue, arr, assertShape, int, mapOf, obj, oneOf, opt, str, ShapeError } from './shape';
import type { CallOptions, Transport } from './transport';
import { readRecords, withUnreadable, type WithUnreadable } from './unreadable';

const skipPagination = obj({ limit: int, skip: int, total: int });
const searchShape = obj({ items: oneOf(mapOf(anyValue), arr(anyValue)), pagination: opt(skipPagination), next_token: opt(str) });

/**
 * The results, in the order sent, each with an `id`: keyed by item id (the OpenAPI) or an array
 * (the first version's reading). Each item is read on its own: one that does not fit is left
 * out with the reason, and the rest of the page is kept.
 */
function parseSearch(body: unknown): ImagerySearchResponse<ArchiveItem> & WithUnreadable {
  const res = assertShape<{ items: unknown[] | Record<string, unknown>; next_token?: string | null }>(body, searchShape, 'search');
  const keyed = !Array.isArray(res.items);
  const entries: [string, unknown][] = Array.isArray(res.items) ? res.items.map((x, i) => [String(i), x]) : Object.entries(res.items);
  const { items, unreadable } = readRecords(
    entries,
    (i) => (keyed ? `items[${JSON.stringify(entries[i][0])}]` : `items[${i}]`),
    ([key, raw], where) => {
      // The key names the item when the record itself does not.
      if (keyed && typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
        const item = raw as { id?: unknown };
        if (typeof item.id !== 'string' || item.id === '') item.id = key;
      }
      return normalizeArchiveItem(assertShape<ArchiveItemWire>(raw, archiveItem, where), where);
    },
    ([key, raw]) => (keyed ? key : typeof (raw as { id?: unknown } | null)?.id === 'string' ? (raw as { id: string }).id : undefined),
  );
  const out = res as unknown as ImagerySearchResponse<ArchiveItem>;
  out.items = items;
  if (out.next_token === undefined || out.next_token === '') out.next_token = null;
  return withUnreadable(out, unreadable);
}

const satellites = arr(satellite);
const satellitesObj = obj({ satellites });
/** The list is "returned whole"; accept a bare array or `{satellites: [...]}`. */
const parseSatellites = (body: unknown): Satellite[] => {
  if (Array.isArray(body)) return assertShape<Satellite[]>(body, satellites, 'satellites').map(normalizeSatellite);
  if (typeof body === 'object' && body !== null && 'satellites' in body) {
    return assertShape<{ satellites: Satellite[] }>(body, satellitesObj, '').satellites.map(normalizeSatellite);
  }
  throw new ShapeError('satellites: expected an array or {satellites: [...]}');
};
export class SearchApi {
  constructor(private readonly t: Transport) {}

  /** One page of results; pass the response's `next_token` in the next request for more. */
  imagery(req: ImagerySearchRequest, o?: CallOptions): Promise<ImagerySearchResponse<ArchiveItem> & WithUnreadable> {
    return this.t.json({ method: 'POST', path: '/v0/search', body: req }, parseSearch, o);
  }

  /**
   * Every result, following `next_token`; stops with a protocol error on a repeated token.
   * A response without a token is the last page (the OpenAPI's `pagination.skip` has no
   * request counterpart to page with).
   */
  iterate(req: ImagerySearchRequest, opts: IterateOptions = {}): AsyncGenerator<ArchiveItem, void, undefined> {
    // The next page must be the same body plus the token (the service may bind its tokens
    // to the query), so the page size stays fixed even when the cap needs fewer items.
    const { next_token: _ignored, ...rest } = req;
    const base = { ...rest, limit: req.limit ?? opts.pageSize ?? 100 };
    return iterateCursor(
      ({ cursor, signal }) =>
        this.imagery(cursor ? { ...base, next_token: cursor } : base, { signal }).then((r) => {
          if (r.unreadable) opts.onUnreadable?.(r.unreadable);
          return { items: r.items, next: r.next_token };
        }),
      { method: 'POST', path: '/v0/search' },
      opts,
    );
  }

  satellites(o?: CallOptions): Promise<Satellite[]> {
    return this.t.json({ method: 'GET', path: '/v0/satellites' }, parseSatellites, o);
  }
}
