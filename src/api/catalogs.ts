/** Catalogs: the fulfilled imagery of the caller's orders. */
import { offsetListing, offsetPageParser, recordParser, type OffsetListing } from './listing';
import type { Catalog, CatalogSearchRequest } from './records';
import { catalog } from './schemas';
import { pathOf, type CallOptions, type Transport } from './transport';

type CatalogFilter = Omit<CatalogSearchRequest, 'offset' | 'limit'>;

const parsePage = offsetPageParser<Catalog>('catalogs', catalog);
const parseOne = recordParser<Catalog>(catalog, 'catalog');

export class CatalogsApi {
  /** One page of a catalog search (offset/limit in the body; default limit 10). */
  readonly searchPage: OffsetListing<Catalog, CatalogFilter>['page'];
  readonly iterate: OffsetListing<Catalog, CatalogFilter>['iterate'];

  constructor(private readonly t: Transport) {
    ({ page: this.searchPage, iterate: this.iterate } = offsetListing<Catalog, CatalogFilter>(t, {
      method: 'POST',
      path: '/v0/catalogs/search',
      parse: parsePage,
      idOf: (c) => c.id,
    }));
  }

  get(id: string, o?: CallOptions): Promise<Catalog> {
    return this.t.json({ method: 'GET', path: pathOf`/v0/catalogs/${id}` }, parseOne, o);
  }
}
