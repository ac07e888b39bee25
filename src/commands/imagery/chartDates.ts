/**
 * The dates of "Chart Index Over Time…": an AOI's mosaics, or the archive's items over the
 * area in a date range. An archive item whose cloud cover is above the chosen limit stays in
 * the series and is drawn greyed out (`SeriesRequest.maxCloud`), never dropped silently; the
 * collection is asked only when the items over the area come from more than one.
 */
import vscode = require('vscode');
import { l10n } from 'vscode';
import { collect, type Aoi, type ArchiveItem, type EoClient, type Geometry } from '../../api';
import { day } from '../../format';
import { geometriesIntersect } from '../../geo/intersects';
import { isoDay, parseIsoDay } from '../../geo/temporalExtent';
import type { TimeFrame } from '../../panels/imagery/protocol';
import type { CommandServices } from '../services';
import { aoiFrames, itemFrames } from './dated';
import type { SeriesDate } from '../../panels/imagery/seriesMessages';
import { withProgress } from '../../ui/progress';

/** The place a series is taken over: a polygon, or a point (a single-pixel series). */
export interface ChartArea {
  /** Names the series in the legend and the CSV. */
  name: string;
  geometry: Geometry;
  /** AOIs whose mosaics may give the dates (the AOI itself, or those the area lies in). */
  aois: Aoi[];
}

export interface ChosenDates {
  dates: SeriesDate[];
  /** Whose indices to offer: the AOI's satellite, or the archive items' constellation. */
  satelliteId?: string;
  /** Cloud limit, percent, for archive items. */
  maxCloud?: number;
}

const MAX_AOIS_OFFERED = 8;
const MAX_ARCHIVE_ITEMS = 500;
const DEFAULT_CLOUD_LIMIT = 30;

function seriesDate(f: TimeFrame): SeriesDate {
  return {
    date: f.date,
    spec: f.spec,
    source: f.spec.source.kind === 'asset' || f.spec.source.kind === 'archiveItem' ? f.spec.source.id : f.spec.url,
    ...(f.cloudCover !== undefined ? { cloudCover: f.cloudCover } : {}),
  };
}

/** AOIs whose outline meets the area (their mosaics may cover it), at most a few. */
export async function aoisOver(client: EoClient, geometry: Geometry): Promise<Aoi[]> {
  const all = await collect(client.aois.iterate({}, { pageSize: 100, cap: 1000 }));
  return all.filter((a) => a.geometry && geometriesIntersect(a.geometry as Geometry, geometry)).slice(0, MAX_AOIS_OFFERED);
}

/** "2024-01-01 to 2025-12-31" → the two days, or a sentence saying what is wrong. */
export function readRange(text: string): { from: string; to: string } | string {
  const m = /^\s*(\S+)\s*(?:to|\/|–|—|\.\.)\s*(\S+)\s*$/i.exec(text);
  const from = m ? parseIsoDay(m[1]) : undefined;
  const to = m ? parseIsoDay(m[2]) : undefined;
  if (!from || !to) return l10n.t('Two dates in the form YYYY-MM-DD, e.g. {0}', '2024-01-01 to 2025-12-31');
  if (from > to) return l10n.t('{0} is after {1}.', from, to);
  return { from, to };
}

async function askArchiveQuery(services: CommandServices, title: string): Promise<{ from: string; to: string; maxCloud: number } | undefined> {
  const today = new Date();
  const start = new Date(Date.UTC(today.getUTCFullYear() - 3, 0, 1));
  const range = await services.ui.input({
    title,
    prompt: l10n.t('The archive items over the area between two dates (YYYY-MM-DD to YYYY-MM-DD)'),
    value: `${isoDay(start)} to ${isoDay(today)}`,
    ignoreFocusOut: true,
    validateInput: (v) => {
      const r = readRange(v);
      return typeof r === 'string' ? r : undefined;
    },
  });
  const r = range === undefined ? undefined : readRange(range);
  if (!r || typeof r === 'string') return undefined;
  const cloud = await services.ui.input({
    title,
    prompt: l10n.t('Cloud limit, percent: items above it stay on the chart, greyed out'),
    value: String(DEFAULT_CLOUD_LIMIT),
    ignoreFocusOut: true,
    validateInput: (v) => {
      const n = Number(v.trim());
      return v.trim() !== '' && Number.isFinite(n) && n >= 0 && n <= 100 ? undefined : l10n.t('A percentage from 0 to 100.');
    },
  });
  if (cloud === undefined) return undefined;
  return { ...r, maxCloud: Number(cloud.trim()) };
}

/** A point is searched as a tiny box: every service takes a bbox. */
function searchArea(g: Geometry): { intersects: Geometry } | { bbox: [number, number, number, number] } {
  if (g.type !== 'Point') return { intersects: g };
  const [lon, lat] = g.coordinates as number[];
  const e = 1e-6;
  return { bbox: [lon - e, lat - e, lon + e, lat + e] };
}

/** Archive items over the area in a chosen range; the collection asked when there are several. */
async function archiveDates(
  services: CommandServices,
  client: EoClient,
  area: ChartArea,
  title: string,
  collection?: string,
): Promise<ChosenDates | undefined> {
  const q = await askArchiveQuery(services, title);
  if (!q) return undefined;
  const items = await withProgress({ location: vscode.ProgressLocation.Window, title: l10n.t('Searching the archive…') }, () =>
    collect(
      client.archives.iterateSearch(
        { ...searchArea(area.geometry), datetime: `${q.from}T00:00:00Z/${q.to}T23:59:59Z`, ...(collection ? { collections: [collection] } : {}) },
        { pageSize: 100, cap: MAX_ARCHIVE_ITEMS },
      ),
    ),
  );
  const byCollection = new Map<string, ArchiveItem[]>();
  for (const i of items) byCollection.set(i.collection, [...(byCollection.get(i.collection) ?? []), i]);
  if (!byCollection.size) {
    void services.ui.message(
      'warning',
      l10n.t('The archive has no item over {0} between {1} and {2}: widen the dates, or chart an AOI’s mosaics.', area.name, q.from, q.to),
      {},
    );
    return undefined;
  }
  let chosen = [...byCollection.values()][0];
  if (byCollection.size > 1) {
    const rows = [...byCollection.entries()]
      .sort((a, b) => b[1].length - a[1].length)
      .map(([id, list]) => {
        const days = list.map((i) => day(i.properties?.datetime ?? '')).sort();
        return { label: id, description: l10n.t('{0} items, {1} to {2}', list.length, days[0], days[days.length - 1]), list };
      });
    const pick = await services.ui.pick(rows, {
      title,
      placeHolder: l10n.t('The collection to chart (an index reads one kind of file)'),
      ignoreFocusOut: true,
    });
    if (!pick) return undefined;
    chosen = pick.list;
  }
  const dated = itemFrames(chosen);
  if (!dated.frames.length) {
    void services.ui.message('warning', l10n.t('No archive item over {0} can be read here. {1}', area.name, dated.skipped ?? ''), {});
    return undefined;
  }
  const constellation = chosen[0]?.properties?.constellation;
  return { dates: dated.frames.map(seriesDate), maxCloud: q.maxCloud, satelliteId: typeof constellation === 'string' ? constellation : undefined };
}

async function mosaicDates(services: CommandServices, client: EoClient, aoi: Aoi): Promise<ChosenDates | undefined> {
  const dated = await withProgress({ location: vscode.ProgressLocation.Window, title: l10n.t('Listing the dates…') }, () => aoiFrames(client, aoi.aoi_id));
  if (!dated.frames.length) {
    const why = l10n.t('{0} has no mosaic that can be read here.', aoi.name || aoi.aoi_id);
    void services.ui.message('warning', dated.skipped ? `${why} ${dated.skipped}` : why, {});
    return undefined;
  }
  return { dates: dated.frames.map(seriesDate), satelliteId: aoi.satellite_id };
}

/**
 * Where the dates come from (asked only when there is a choice: an AOI's mosaics, or the
 * archive), then which dates: all are picked, those above the cloud limit say so.
 */
export async function pickDates(
  services: CommandServices,
  client: EoClient,
  area: ChartArea,
  title: string,
  hint: { collection?: string } = {},
): Promise<ChosenDates | undefined> {
  type Source = vscode.QuickPickItem & { aoi?: Aoi };
  const sources: Source[] = [
    ...area.aois.map((aoi) => ({ label: l10n.t('Mosaics of {0}', aoi.name || aoi.aoi_id), description: aoi.satellite_id, aoi })),
    { label: l10n.t('Archive items over the area…'), description: l10n.t('a date range, with a cloud limit') },
  ];
  const source =
    sources.length > 1 ? await services.ui.pick(sources, { title, placeHolder: l10n.t('Where the dates come from'), ignoreFocusOut: true }) : sources[0];
  if (!source) return undefined;
  const chosen = source.aoi ? await mosaicDates(services, client, source.aoi) : await archiveDates(services, client, area, title, hint.collection);
  if (!chosen) return undefined;
  const over = (d: SeriesDate) => chosen.maxCloud !== undefined && d.cloudCover !== undefined && d.cloudCover > chosen.maxCloud;
  const items = chosen.dates.map((d) => ({
    label: d.date,
    description: [
      d.spec.title,
      d.cloudCover === undefined ? '' : l10n.t('{0} % cloud', Math.round(d.cloudCover)),
      over(d) ? l10n.t('above the limit: greyed out') : '',
    ]
      .filter(Boolean)
      .join(' · '),
    picked: true,
    d,
  }));
  const picked = await services.ui.pickMany(items, { title, placeHolder: l10n.t('The dates to chart (all are picked)'), ignoreFocusOut: true });
  if (!picked?.length) return undefined;
  return { ...chosen, dates: picked.map((p) => p.d) };
}
