/**
 * The archive search's input, read and checked: exactly one place (an AOI name, a bbox or a
 * GeoJSON polygon), dates in order, cloud cover in percent, collections, sort, page. Pure;
 * shared by the search tool and Show on Map.
 */
import * as l10n from '@vscode/l10n';
import { aoiPolygonFromGeoJson } from '../geo/aoiGeometry';
import { Fields, type Read } from './input';

export const SORTS = ['newest', 'oldest', 'least-cloudy'] as const;
export type Sort = (typeof SORTS)[number];

export interface ArchiveQuery {
  aoi?: string;
  bbox?: [number, number, number, number];
  geometry?: { type: 'Polygon'; coordinates: [number, number][][] };
  from?: string;
  to?: string;
  maxCloud?: number;
  collections: string[];
  sort: Sort;
  page: number;
}

/** The search's input: exactly one place, dates in order. Pure; shared with Show on Map. */
export function readArchiveQuery(input: unknown): Read<ArchiveQuery> {
  const f = new Fields(input);
  const aoi = f.string('aoi', false, 200);
  const bbox = f.bbox('bbox');
  const rawGeometry = f.raw('geometry');
  let geometry: ArchiveQuery['geometry'];
  if (rawGeometry !== undefined) {
    const g = aoiPolygonFromGeoJson(rawGeometry);
    if (g.ok) geometry = g.polygon as ArchiveQuery['geometry'];
    else f.problems.push(l10n.t('Field "geometry": {0}', g.reason));
  }
  const places = [aoi, bbox, rawGeometry].filter((p) => p !== undefined).length;
  if (places === 0) f.problems.push(l10n.t('Missing the place: give one of "aoi" (an AOI name), "bbox" or "geometry".'));
  if (places > 1) f.problems.push(l10n.t('Give only one of "aoi", "bbox" and "geometry".'));
  const from = f.date('from');
  const to = f.date('to');
  if (from && to && from > to) f.problems.push(l10n.t('"from" ({0}) is after "to" ({1}).', from, to));
  return f.done({
    aoi,
    bbox,
    geometry,
    from,
    to,
    maxCloud: f.number('maxCloud', 0, 100),
    collections: f.strings('collections', false),
    sort: f.oneOf('sort', SORTS) ?? 'newest',
    page: f.page(),
  });
}
