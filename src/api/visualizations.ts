/** Visualizations of an AOI (the listing's wire key is the singular `visualization`). */
import { offsetListing, recordParser, type OffsetListing } from './listing';
import { normalizeVisualizationList } from './normalize';
import type { IterateOptions, OffsetQuery, Page } from './paging';
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
    return this.listing(aoiId).page(q, o);
  }

  iterate(aoiId: string, filter: VisualizationFilter = {}, opts: IterateOptions = {}): AsyncGenerator<Visualization, void, undefined> {
    return this.listing(aoiId).iterate(filter, opts);
  }

  private listing(aoiId: string): OffsetListing<Visualization, VisualizationFilter> {
    return offsetListing(this.t, { method: 'GET', path: pathOf`/v0/aois/${aoiId}/visualizations`, parse: parsePage, idOf: (v) => v.id });
  }

  /** 201 with `legend` per the legend rules. Sent once. */
  create(aoiId: string, req: CreateVisualizationRequest, o?: CallOptions): Promise<Visualization> {
    return this.t.json({ method: 'POST', path: pathOf`/v0/aois/${aoiId}/visualizations`, body: req }, parseOne, o);
  }
}
