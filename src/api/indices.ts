/** Indices: preset (read-only) and custom (creatable). */
import { offsetListing, offsetPageParser, recordParser, type OffsetListing } from './listing';
import type { CreateIndexRequest, ExpressionType, Index } from './records';
import { index } from './schemas';
import type { CallOptions, Transport } from './transport';

export interface IndexFilter {
  satellite_id?: string;
  type?: 'custom' | 'preset';
  expression_type?: ExpressionType;
  index_id?: string;
}

const parsePage = offsetPageParser<Index>('indices', index);
const parseIndex = recordParser<Index>(index, 'index');

export class IndicesApi {
  /** One page (offset/limit, the service's default limit 10), and every item lazily. */
  readonly listPage: OffsetListing<Index, IndexFilter>['page'];
  readonly iterate: OffsetListing<Index, IndexFilter>['iterate'];

  constructor(private readonly t: Transport) {
    ({ page: this.listPage, iterate: this.iterate } = offsetListing<Index, IndexFilter>(t, {
      method: 'GET',
      path: '/v0/indices',
      parse: parsePage,
      idOf: (i) => i.id,
    }));
  }

  /**
   * One index by id (`index_id` filter), remembered for the session: visualization list items
   * carry only `index_id`, and their rows need its name. Undefined when the service knows none.
   * A failed read is not remembered.
   */
  byId(id: string, o?: CallOptions): Promise<Index | undefined> {
    let found = this.known.get(id);
    if (!found) {
      found = this.listPage({ index_id: id, limit: 1 }, o).then((p) => p.items.find((i) => i.id === id));
      this.known.set(id, found);
      found.catch(() => this.known.delete(id));
    }
    return found;
  }

  private readonly known = new Map<string, Promise<Index | undefined>>();

  /** Custom indices only. 400 unknown band / bad expression / rescale, 409 name taken. */
  create(req: CreateIndexRequest, o?: CallOptions): Promise<Index> {
    return this.t.json({ method: 'POST', path: '/v0/indices', body: req }, parseIndex, o);
  }
}
