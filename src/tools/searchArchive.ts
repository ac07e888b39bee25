/**
 * Tool: search the STAC archive over a place (an AOI's name, a bbox or a GeoJSON geometry),
 * between dates, under a cloud cover, in some collections, sorted; one page of scenes, each
 * named by its title and date with its `collection/id` reference for ordering or describing.
 * The request body is the map's (`archiveSearchBody`), so both search alike.
 */
import { l10n } from 'vscode';
import { nextLink, type ArchiveItem, type EoClient } from '../api';
import { archiveSearchBody } from '../panels/mapData';
import type { SearchParams } from '../panels/protocol';
import { readArchiveQuery, type ArchiveQuery } from './archiveQuery';
import type { Found } from './lookup';
import { searchPlace } from './place';
import { answer, dataNotice, dayOf, measure, pageFooter, quoted, row, ROWS_PER_PAGE } from './text';
import { tool, type ToolServices } from './tool';

/** One page of the search, and what the place was. */
export interface ArchivePage {
  place: string;
  items: ArchiveItem[];
  total?: number;
  hasMore: boolean;
}

export async function searchArchivePage(client: EoClient, q: ArchiveQuery): Promise<Found<ArchivePage>> {
  const where = await searchPlace(client, q);
  if (!where.ok) return where;
  const { ring, shape, label: place } = where.value;
  const sort: SearchParams['sort'] = q.sort === 'least-cloudy' ? 'cloud-asc' : q.sort === 'oldest' ? 'datetime-asc' : 'datetime-desc';
  const body = archiveSearchBody({
    kind: 'archive',
    ring,
    shape,
    collections: q.collections,
    satellites: [],
    from: q.from ?? '',
    to: q.to ?? '',
    maxCloud: q.maxCloud,
    sort,
    limit: ROWS_PER_PAGE,
  });
  body.offset = (q.page - 1) * ROWS_PER_PAGE;
  const fc = await client.archives.search(body);
  const total = fc.numberMatched ?? fc.context?.matched;
  return { ok: true, value: { place, items: fc.features, total, hasMore: !!nextLink(fc) || fc.features.length === ROWS_PER_PAGE } };
}

/** One scene as a row: title first, then date, cloud, resolution, and the reference to use. */
export function sceneRow(item: ArchiveItem): string {
  const p = item.properties ?? { datetime: null };
  return row(
    `- ${quoted(p.title || item.id)}`,
    dayOf(p.datetime),
    p['eo:cloud_cover'] !== undefined ? l10n.t('cloud {0}', measure(p['eo:cloud_cover'], ' %') ?? quoted(p['eo:cloud_cover'])) : undefined,
    measure(p.gsd, ' m GSD'),
    l10n.t('ref {0}', quoted(`${item.collection}/${item.id}`)),
  );
}

export const searchArchiveTool = (services: ToolServices) =>
  tool<ArchiveQuery>({
    kind: 'reads',
    action: l10n.t('Search the archive'),
    read: readArchiveQuery,
    progress: (q) => (q.aoi ? l10n.t('Searching the imagery archive over {0}…', q.aoi) : l10n.t('Searching the imagery archive…')),
    run: async (q) => {
      const client = await services.connection.getClient();
      const found = await searchArchivePage(client, q);
      if (!found.ok) return found.reason;
      const { place, items, total, hasMore } = found.value;
      const filters = row(
        q.from || q.to ? l10n.t('dates {0} to {1}', q.from ?? '…', q.to ?? '…') : undefined,
        q.maxCloud !== undefined ? l10n.t('cloud at most {0} %', q.maxCloud) : undefined,
        q.collections.length ? l10n.t('collections {0}', q.collections.map((c) => quoted(c)).join(', ')) : undefined,
        l10n.t('sorted {0}', q.sort),
      );
      return answer(
        dataNotice(),
        l10n.t('Archive scenes over {0} ({1}). Use a "ref" with the describe, price and order tools:', place, filters),
        ...items.map(sceneRow),
        pageFooter({ page: q.page, shown: items.length, total, hasMore }, l10n.t('scenes')),
      );
    },
  });
