/** Indices: preset (read-only) and custom (creatable). */
import { checkLimit, offsetPageParser, recordParser } from './listing';
import { iterateOffset, type IterateOptions, type OffsetQuery, type Page } from './paging';
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
  constructor(private readonly t: Transport) {}

  listPage(q: IndexFilter & OffsetQuery = {}, o?: CallOptions): Promise<Page<Index>> {
    const { offset, limit, ...filter } = q;
    checkLimit('offset', offset, 0);
    checkLimit('limit', limit, 1);
    return this.t.json({ method: 'GET', path: '/v0/indices', query: { ...filter, offset: offset ?? 0, limit: limit ?? 10 } }, parsePage, o);
  }

  iterate(filter: IndexFilter = {}, opts: IterateOptions = {}): AsyncGenerator<Index, void, undefined> {
    return iterateOffset(
      ({ offset, limit, signal }) => this.listPage({ ...filter, offset, limit }, { signal }),
      (i) => i.id,
      { method: 'GET', path: '/v0/indices' },
      opts,
    );
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
