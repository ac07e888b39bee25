/** Areas of interest and their assets. */
import { checkLimit, offsetPageParser, recordParser } from './listing';
import { iterateOffset, type IterateOptions, type OffsetQuery, type Page } from './paging';
import type { Aoi, Asset, CreateAoiRequest } from './records';
import { aoi, asset } from './schemas';
import { pathOf, type CallOptions, type Transport } from './transport';

export interface AoiFilter {
  created_at?: string;
  updated_at?: string;
  aoi_id?: string;
  aoi_name?: string;
  /** Sent comma-separated. */
  project_ids?: readonly string[];
}

const parsePage = offsetPageParser<Aoi>('aois', aoi);
const parseAssets = offsetPageParser<Asset>('assets', asset);
const parseAoi = recordParser<Aoi>(aoi, 'aoi');

export class AoisApi {
  constructor(private readonly t: Transport) {}

  async listPage(q: AoiFilter & OffsetQuery = {}, o?: CallOptions): Promise<Page<Aoi>> {
    const { offset, limit, ...filter } = q;
    checkLimit('offset', offset, 0);
    checkLimit('limit', limit, 1);
    return this.t.json({ method: 'GET', path: '/v0/aois', query: { ...filter, offset: offset ?? 0, limit: limit ?? 10 } }, parsePage, o);
  }

  iterate(filter: AoiFilter = {}, opts: IterateOptions = {}): AsyncGenerator<Aoi, void, undefined> {
    return iterateOffset(
      ({ offset, limit, signal }) => this.listPage({ ...filter, offset, limit }, { signal }),
      (a) => a.aoi_id,
      { method: 'GET', path: '/v0/aois' },
      opts,
    );
  }

  /** Note the singular `aoi` in the path (docs/service-interface.md). */
  get(aoiId: string, o?: CallOptions): Promise<Aoi> {
    return this.t.json({ method: 'GET', path: pathOf`/v0/aoi/${aoiId}` }, parseAoi, o);
  }

  /** 400 bad geometry, 403 project not yours, 409 name taken in the project. Sent once. */
  create(req: CreateAoiRequest, o?: CallOptions): Promise<Aoi> {
    return this.t.json({ method: 'POST', path: '/v0/aois', body: req }, parseAoi, o);
  }

  assetsPage(aoiId: string, q: OffsetQuery = {}, o?: CallOptions): Promise<Page<Asset>> {
    checkLimit('offset', q.offset, 0);
    checkLimit('limit', q.limit, 1);
    return this.t.json(
      { method: 'GET', path: pathOf`/v0/aois/${aoiId}/assets`, query: { offset: q.offset ?? 0, limit: q.limit ?? 10 } },
      parseAssets,
      o,
    );
  }

  iterateAssets(aoiId: string, opts: IterateOptions = {}): AsyncGenerator<Asset, void, undefined> {
    return iterateOffset(
      ({ offset, limit, signal }) => this.assetsPage(aoiId, { offset, limit }, { signal }),
      (a) => a.id,
      { method: 'GET', path: pathOf`/v0/aois/${aoiId}/assets` },
      opts,
    );
  }
}
