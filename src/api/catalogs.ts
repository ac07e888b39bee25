/** Catalogs: the fulfilled imagery of the caller's orders. */
import { checkLimit, offsetPageParser, recordParser } from './listing';
import { iterateOffset, type IterateOptions, type Page } from './paging';
import type { Catalog, CatalogSearchRequest } from './records';
import { catalog } from './schemas';
import { pathOf, type CallOptions, type Transport } from './transport';

const parsePage = offsetPageParser<Catalog>('catalogs', catalog);
const parseOne = recordParser<Catalog>(catalog, 'catalog');

export class CatalogsApi {
  constructor(private readonly t: Transport) {}

  /** One page of a catalog search (offset/limit in the body; default limit 10). */
  searchPage(req: CatalogSearchRequest = {}, o?: CallOptions): Promise<Page<Catalog>> {
    checkLimit('offset', req.offset, 0);
    checkLimit('limit', req.limit, 1);
    const body = { ...req, offset: req.offset ?? 0, limit: req.limit ?? 10 };
    return this.t.json({ method: 'POST', path: '/v0/catalogs/search', body }, parsePage, o);
  }

  iterate(req: Omit<CatalogSearchRequest, 'offset' | 'limit'> = {}, opts: IterateOptions = {}): AsyncGenerator<Catalog, void, undefined> {
    return iterateOffset(
      ({ offset, limit, signal }) => this.searchPage({ ...req, offset, limit }, { signal }),
      (c) => c.id,
      { method: 'POST', path: '/v0/catalogs/search' },
      opts,
    );
  }

  get(id: string, o?: CallOptions): Promise<Catalog> {
    return this.t.json({ method: 'GET', path: pathOf`/v0/catalogs/${id}` }, parseOne, o);
  }
}
