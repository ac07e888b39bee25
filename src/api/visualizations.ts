/** Visualizations of an AOI (the listing's wire key is the singular `visualization`). */
import { offsetListing, recordParser, type OffsetListing } from './listing';
import { normalizeVisualizationList } from './normalize';
import { ApiError } from './errors';
import type { IndicesApi } from './indices';
import { iterateOffset, type IterateOptions, type OffsetQuery, type Page } from './paging';
import type { CreateVisualizationRequest, ExpressionType, Index, Visualization, VisualizationListWire } from './records';
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

const listShape = oneOf(obj({ visualization: arr(visualization), pagination }), obj({ visualizations: arr(visualization), pagination }));
function parsePage(body: unknown): Page<Visualization> {
  const list = normalizeVisualizationList(assertShape<VisualizationListWire>(body, listShape, ''));
  return { items: list.visualizations, total: list.pagination.total, offset: list.pagination.offset, limit: list.pagination.limit };
}
const parseOne = recordParser<Visualization>(visualization, 'visualization');

export class VisualizationsApi {
  constructor(
    private readonly t: Transport,
    private readonly indices: IndicesApi,
  ) {}

  /**
   * One page; items without `index_name` (the OpenAPI's list items carry only `index_id`) get
   * the index's name, type, expression and rescale joined from the indices, one read per index
   * per session (docs/service-interface.md, "Visualizations").
   */
  async listPage(aoiId: string, q: VisualizationFilter & OffsetQuery = {}, o?: CallOptions): Promise<Page<Visualization>> {
    const page = await this.listing(aoiId).page(q, o);
    await this.joinIndexNames(page.items, o);
    return page;
  }

  iterate(aoiId: string, filter: VisualizationFilter = {}, opts: IterateOptions = {}): AsyncGenerator<Visualization, void, undefined> {
    return iterateOffset(
      ({ offset, limit, signal }) => this.listPage(aoiId, { ...filter, offset, limit }, { signal }),
      (v) => v.id,
      { method: 'GET', path: pathOf`/v0/aois/${aoiId}/visualizations` },
      opts,
    );
  }

  private async joinIndexNames(items: Visualization[], o?: CallOptions): Promise<void> {
    const ids = [...new Set(items.filter((v) => !v.index_name && v.index_id).map((v) => v.index_id))];
    const found = new Map<string, Index>();
    await Promise.all(
      ids.map(async (id) => {
        try {
          const idx = await this.indices.byId(id, o);
          if (idx) found.set(id, idx);
        } catch (err) {
          // A name is a nicety: the page stands without it (the row falls back), unless cancelled.
          if (err instanceof ApiError && err.kind === 'aborted') throw err;
        }
      }),
    );
    for (const v of items) {
      const idx = v.index_name ? undefined : found.get(v.index_id);
      if (!idx) continue;
      v.index_name = idx.name;
      v.type ??= idx.type;
      v.expression ??= idx.expression;
      v.expression_type ??= idx.expression_type;
      v.rescale ??= idx.rescale;
    }
  }

  private listing(aoiId: string): OffsetListing<Visualization, VisualizationFilter> {
    return offsetListing(this.t, { method: 'GET', path: pathOf`/v0/aois/${aoiId}/visualizations`, parse: parsePage, idOf: (v) => v.id });
  }

  /** 201 with `legend` per the legend rules. Sent once. */
  create(aoiId: string, req: CreateVisualizationRequest, o?: CallOptions): Promise<Visualization> {
    return this.t.json({ method: 'POST', path: pathOf`/v0/aois/${aoiId}/visualizations`, body: req }, parseOne, o);
  }
}
