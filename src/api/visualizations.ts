/** Visualizations of an AOI (the listing's wire key is the singular `visualization`). */
import { checkLimit, recordParser } from './listing';
import { normalizeVisualizationList } from './normalize';
import { iterateOffset, type IterateOptions, type OffsetQuery, type Page } from './paging';
import type { CreateVisualizationRequest, ExpressionType, Visualization, VisualizationListWire } from './records';
import { pagination, visualization } from './schemas';
import { arr, assertShape, obj, oneOf } from './shape';
import { pathOf, type CallOptions, type Transport } from './transport';

export interface VisualizationFilter {
  type?: string;
  user_id?: string;
  expression_type?: ExpressionType;
  index_id?: string;
  visualization_id?: string;
}

const listShape = oneOf(
  obj({ visualization: arr(visualization), pagination }),
  obj({ visualizations: arr(visualization), pagination }),
);
function parsePage(body: unknown): Page<Visualization> {
  const list = normalizeVisualizationList(assertShape<VisualizationListWire>(body, listShape, ''));
  return { items: list.visualizations, total: list.pagination.total, offset: list.pagination.offset, limit: list.pagination.limit };
}
const parseOne = recordParser<Visualization>(visualization, 'visualization');

export class VisualizationsApi {
  constructor(private readonly t: Transport) {}

  listPage(aoiId: string, q: VisualizationFilter & OffsetQuery = {}, o?: CallOptions): Promise<Page<Visualization>> {
    const { offset, limit, ...filter } = q;
    checkLimit('offset', offset, 0);
    checkLimit('limit', limit, 1);
    return this.t.json(
      { method: 'GET', path: pathOf`/v0/aois/${aoiId}/visualizations`, query: { ...filter, offset: offset ?? 0, limit: limit ?? 10 } },
      parsePage,
      o,
    );
  }

  iterate(aoiId: string, filter: VisualizationFilter = {}, opts: IterateOptions = {}): AsyncGenerator<Visualization, void, undefined> {
    return iterateOffset(
      ({ offset, limit, signal }) => this.listPage(aoiId, { ...filter, offset, limit }, { signal }),
      (v) => v.id,
      { method: 'GET', path: pathOf`/v0/aois/${aoiId}/visualizations` },
      opts,
    );
  }

  /** 201 with `legend` per the legend rules. Sent once. */
  create(aoiId: string, req: CreateVisualizationRequest, o?: CallOptions): Promise<Visualization> {
    return this.t.json({ method: 'POST', path: pathOf`/v0/aois/${aoiId}/visualizations`, body: req }, parseOne, o);
  }
}
