/** Areas of interest and their assets. */
import { offsetListing, offsetPageParser, recordParser, type OffsetListing } from './listing';
import type { IterateOptions, OffsetQuery, Page } from './paging';
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
  /** One page (offset/limit, the service's default limit 10), and every item lazily. */
  readonly listPage: OffsetListing<Aoi, AoiFilter>['page'];
  readonly iterate: OffsetListing<Aoi, AoiFilter>['iterate'];

  constructor(private readonly t: Transport) {
    ({ page: this.listPage, iterate: this.iterate } = offsetListing<Aoi, AoiFilter>(t, {
      method: 'GET',
      path: '/v0/aois',
      parse: parsePage,
      idOf: (a) => a.aoi_id,
    }));
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
    return this.assets(aoiId).page(q, o);
  }

  iterateAssets(aoiId: string, opts: IterateOptions = {}): AsyncGenerator<Asset, void, undefined> {
    return this.assets(aoiId).iterate({}, opts);
  }

  private assets(aoiId: string): OffsetListing<Asset, object> {
    return offsetListing(this.t, { method: 'GET', path: pathOf`/v0/aois/${aoiId}/assets`, parse: parseAssets, idOf: (a) => a.id });
  }
}
