/** Indices: preset (read-only) and custom (creatable). */
import { offsetListing, offsetPageParser, recordParser, type OffsetListing } from './listing';
import type { IterateOptions, OffsetQuery, Page } from './paging';
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
  private readonly indices: OffsetListing<Index, IndexFilter>;

  constructor(private readonly t: Transport) {
    this.indices = offsetListing<Index, IndexFilter>(t, { method: 'GET', path: '/v0/indices', parse: parsePage, idOf: (i) => i.id });
  }

  listPage(q: IndexFilter & OffsetQuery = {}, o?: CallOptions): Promise<Page<Index>> {
    return this.indices.page(q, o);
  }

  iterate(filter: IndexFilter = {}, opts: IterateOptions = {}): AsyncGenerator<Index, void, undefined> {
    return this.indices.iterate(filter, opts);
  }

  /** Custom indices only. 400 unknown band / bad expression / rescale, 409 name taken. */
  create(req: CreateIndexRequest, o?: CallOptions): Promise<Index> {
    return this.t.json({ method: 'POST', path: '/v0/indices', body: req }, parseIndex, o);
  }
}
