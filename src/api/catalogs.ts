/** Catalogs: the fulfilled imagery of the caller's orders. */
import { offsetListing, offsetPageParser, recordParser, type OffsetListing } from './listing';
import type { IterateOptions, Page } from './paging';
import type { Catalog, CatalogSearchRequest } from './records';
import { catalog } from './schemas';
import { pathOf, type CallOptions, type Transport } from './transport';

type CatalogFilter = Omit<CatalogSearchRequest, 'offset' | 'limit'>;

const parsePage = offsetPageParser<Catalog>('catalogs', catalog);
const parseOne = recordParser<Catalog>(catalog, 'catalog');

export class CatalogsApi {
  private readonly search: OffsetListing<Catalog, CatalogFilter>;

  constructor(private readonly t: Transport) {
    this.search = offsetListing<Catalog, CatalogFilter>(t, { method: 'POST', path: '/v0/catalogs/search', parse: parsePage, idOf: (c) => c.id });
  }

  /** One page of a catalog search (offset/limit in the body; default limit 10). */
  searchPage(req: CatalogSearchRequest = {}, o?: CallOptions): Promise<Page<Catalog>> {
    return this.search.page(req, o);
  }

  iterate(req: CatalogFilter = {}, opts: IterateOptions = {}): AsyncGenerator<Catalog, void, undefined> {
    return this.search.iterate(req, opts);
  }

  get(id: string, o?: CallOptions): Promise<Catalog> {
    return this.t.json({ method: 'GET', path: pathOf`/v0/catalogs/${id}` }, parseOne, o);
  }
}
