/** Satellite imagery search (cursor paging through `next_token`) and the satellite list. */
import { normalizeImagerySearch, normalizeSatellite } from './normalize';
import { iterateCursor, type IterateOptions } from './paging';
import type { ArchiveItem, ArchiveItemWire, ImagerySearchRequest, ImagerySearchResponse, ImagerySearchWire, Satellite } from './records';
import { archiveItem, satellite } from './schemas';
import { arr, assertShape, int, mapOf, obj, oneOf, opt, str, ShapeError } from './shape';
import type { CallOptions, Transport } from './transport';

const skipPagination = obj({ limit: int, skip: int, total: int });
const searchShape = obj({ items: oneOf(mapOf(archiveItem), arr(archiveItem)), pagination: opt(skipPagination), next_token: opt(str) });
/** Items keyed by id (the OpenAPI) or an array (the first version's reading): both read. */
const parseSearch = (body: unknown): ImagerySearchResponse<ArchiveItem> =>
  normalizeImagerySearch(assertShape<ImagerySearchWire<ArchiveItemWire>>(body, searchShape, 'search'));

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
  imagery(req: ImagerySearchRequest, o?: CallOptions): Promise<ImagerySearchResponse<ArchiveItem>> {
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
        this.imagery(cursor ? { ...base, next_token: cursor } : base, { signal }).then((r) => ({
          items: r.items,
          next: r.next_token,
        })),
      { method: 'POST', path: '/v0/search' },
      opts,
    );
  }

  satellites(o?: CallOptions): Promise<Satellite[]> {
    return this.t.json({ method: 'GET', path: '/v0/satellites' }, parseSatellites, o);
  }
}
