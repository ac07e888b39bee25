/**
 * The searches' input, read and checked: exactly one place (an AOI name, a bbox or a GeoJSON
 * polygon), dates in order, cloud cover in percent, page; the archive search adds collections
 * and sort. Pure; shared by the archive and imagery search tools and Show on Map.
 */
import * as l10n from '@vscode/l10n';
import { aoiPolygonFromGeoJson } from '../geo/aoiGeometry';
import { Fields, type Read } from './input';

export const SORTS = ['newest', 'oldest', 'least-cloudy'] as const;
export type Sort = (typeof SORTS)[number];

/** Where and when a search looks: what both searches read. */
export interface SearchWhere {
  aoi?: string;
  bbox?: [number, number, number, number];
  geometry?: { type: 'Polygon'; coordinates: [number, number][][] };
  from?: string;
  to?: string;
  maxCloud?: number;
  page: number;
}

export interface ArchiveQuery extends SearchWhere {
  collections: string[];
  sort: Sort;
}

/** Exactly one place, dates in order, cloud cover, page; problems go to `f`. */
export function readSearchWhere(f: Fields): SearchWhere {
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
  return { aoi, bbox, geometry, from, to, maxCloud: f.number('maxCloud', 0, 100), page: f.page() };
}

/** The archive search's input. Pure; shared with Show on Map. */
export function readArchiveQuery(input: unknown): Read<ArchiveQuery> {
  const f = new Fields(input);
  const where = readSearchWhere(f);
  return f.done({ ...where, collections: f.strings('collections', false), sort: f.oneOf('sort', SORTS) ?? 'newest' });
}

/** The imagery search's input: the satellites by name or id (the AOI's when none is given). */
export interface ImageryQuery extends SearchWhere {
  satellites: string[];
}

export function readImageryQuery(input: unknown): Read<ImageryQuery> {
  const f = new Fields(input);
  const where = readSearchWhere(f);
  const satellites = f.strings('satellites', false, 20);
  if (satellites.length === 0 && where.aoi === undefined) {
    f.problems.push(l10n.t('Missing field "satellites": name the satellites to search (only a search over an AOI takes its satellite).'));
  }
  return f.done({ ...where, satellites });
}
