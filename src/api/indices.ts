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
    ({ page: this.listPage, iterate: this.iterate } = offsetListing<Index, IndexFilter>(t, { method: 'GET', path: '/v0/indices', parse: parsePage, idOf: (i) => i.id }));
  }

  /** Custom indices only. 400 unknown band / bad expression / rescale, 409 name taken. */
  create(req: CreateIndexRequest, o?: CallOptions): Promise<Index> {
    return this.t.json({ method: 'POST', path: '/v0/indices', body: req }, parseIndex, o);
  }
}
