/**
 * Tool: the satellite-imagery search (`POST /v0/search`, not the archive's STAC search): the
 * images of some satellites over a place (an AOI's name, a bbox or a GeoJSON polygon), between
 * dates, under a cloud cover. The body is the map's (`imagerySearchBody`), so both search
 * alike. The service pages with a cursor: page N follows `next_token` N − 1 times, with the
 * same body each time (a token is bound to its query).
 */
import { l10n } from 'vscode';
import { searchCollectionOf, type ArchiveItem, type EoClient, type Satellite } from '../api';
import { imagerySearchBody } from '../panels/mapData';
import { readImageryQuery, type ImageryQuery } from './archiveQuery';
import { findSatellites, type Found } from './lookup';
import { searchPlace } from './place';
import { sceneRow } from './searchArchive';
import { answer, dataNotice, pageFooter, quoted, row, ROWS_PER_PAGE } from './text';
import { tool, type ToolServices } from './tool';

export interface ImageryPage {
  place: string;
  satellites: Satellite[];
  items: ArchiveItem[];
  total?: number;
  hasMore: boolean;
}

export async function searchImageryPage(client: EoClient, q: ImageryQuery): Promise<Found<ImageryPage>> {
  const where = await searchPlace(client, q);
  if (!where.ok) return where;
  const listed = await client.search.satellites();
  // Over an AOI with no satellite named, the AOI's own satellite.
  const wanted = q.satellites.length ? q.satellites : where.value.aoi ? [where.value.aoi.satellite_id] : [];
  const sats = findSatellites(listed, wanted);
  if (!sats.ok) return sats;
  const unsearchable = sats.value.filter((s) => !searchCollectionOf(s));
  if (unsearchable.length) {
    return {
      ok: false,
      reason: l10n.t('The service lists no collection for {0}, so its imagery cannot be searched.', unsearchable.map((s) => quoted(s.name)).join(', ')),
    };
  }
  const body = imagerySearchBody(
    {
      kind: 'imagery',
      ring: where.value.ring,
      shape: where.value.shape,
      collections: [],
      satellites: sats.value.map((s) => s.id),
      from: q.from ?? '',
      to: q.to ?? '',
      maxCloud: q.maxCloud,
      sort: 'datetime-desc',
      limit: ROWS_PER_PAGE,
    },
    listed,
  );
  let res = await client.search.imagery(body);
  for (let page = 1; page < q.page; page++) {
    if (!res.next_token)
      return { ok: true, value: { place: where.value.label, satellites: sats.value, items: [], total: res.pagination?.total, hasMore: false } };
    res = await client.search.imagery({ ...body, next_token: res.next_token });
  }
  return {
    ok: true,
    value: { place: where.value.label, satellites: sats.value, items: res.items, total: res.pagination?.total, hasMore: !!res.next_token },
  };
}

export const searchImageryTool = (services: ToolServices) =>
  tool<ImageryQuery>({
    kind: 'reads',
    action: l10n.t('Search satellite imagery'),
    read: readImageryQuery,
    progress: (q) => (q.aoi ? l10n.t('Searching satellite imagery over {0}…', q.aoi) : l10n.t('Searching satellite imagery…')),
    run: async (q) => {
      const client = await services.connection.getClient();
      const found = await searchImageryPage(client, q);
      if (!found.ok) return found.reason;
      const { place, satellites, items, total, hasMore } = found.value;
      const filters = row(
        l10n.t('satellites {0}', satellites.map((s) => quoted(s.name)).join(', ')),
        q.from || q.to ? l10n.t('dates {0} to {1}', q.from ?? '…', q.to ?? '…') : undefined,
        q.maxCloud !== undefined ? l10n.t('cloud at most {0} %', q.maxCloud) : undefined,
      );
      return answer(
        dataNotice(),
        l10n.t('Satellite images over {0} ({1}). Each "ref" is collection/item-id:', place, filters),
        ...items.map(sceneRow),
        pageFooter({ page: q.page, shown: items.length, total, hasMore }, l10n.t('images')),
      );
    },
  });
