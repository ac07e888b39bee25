/**
 * What each message from the map webview must carry before its handler sees it (the handlers
 * are in mapPanel.ts; `MessageRouter` refuses the rest). Pure: unit-tested.
 */
import { isObj } from '../api/shape';
import type { ChartAreaFromMap, FromMapTestMessage } from './imagery/protocol';
import type { FieldChecks } from './messageRouter';
import { isSearchParams, type FromMapMessage } from './protocol';

/** The longest text "Copy as CSV" may put on the clipboard (a pixel's bands and five pins need a few KiB). */
export const COPY_TEXT_MAX = 64 * 1024;

const isId = (v: unknown): boolean => Number.isSafeInteger(v);
const isCount = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/** The map's colour range of a visualization layer: ids, two finite numbers low before high, a colour map. */
export function isColourRange(v: unknown): boolean {
  if (!isObj(v) || !isObj(v.visualization) || !Array.isArray(v.rescale) || v.rescale.length !== 2) return false;
  const [lo, hi] = v.rescale as unknown[];
  return (
    typeof v.visualization.aoiId === 'string' &&
    typeof v.visualization.id === 'string' &&
    typeof lo === 'number' &&
    typeof hi === 'number' &&
    Number.isFinite(lo) &&
    Number.isFinite(hi) &&
    lo < hi &&
    typeof v.colormap === 'string' &&
    (v.date === undefined || typeof v.date === 'string')
  );
}

const isLon = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && Math.abs(v) <= 540;
const isLat = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && Math.abs(v) <= 90;
const optStr = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 && v.length <= 200 ? v : undefined);

/**
 * "Chart index over time…" from the map, read into its typed form: an AOI id, a drawn ring
 * (4 to 10,000 points, closed, in map longitudes) or a pixel's place; undefined for anything else.
 */
export function readChartArea(v: unknown): ChartAreaFromMap | undefined {
  if (!isObj(v)) return undefined;
  if (v.kind === 'aoi') return optStr(v.aoiId) ? { kind: 'aoi', aoiId: v.aoiId as string } : undefined;
  if (v.kind === 'pixel') {
    if (!isLon(v.lon) || !isLat(v.lat)) return undefined;
    const aoiId = optStr(v.aoiId);
    const collection = optStr(v.collection);
    return { kind: 'pixel', lon: v.lon, lat: v.lat, ...(aoiId ? { aoiId } : {}), ...(collection ? { collection } : {}) };
  }
  if (v.kind === 'polygon' && Array.isArray(v.ring) && v.ring.length >= 4 && v.ring.length <= 10_000) {
    const ring = v.ring as unknown[];
    if (!ring.every((p) => Array.isArray(p) && p.length === 2 && isLon(p[0]) && isLat(p[1]))) return undefined;
    const pts = ring as [number, number][];
    const [a, z] = [pts[0], pts[pts.length - 1]];
    if (a[0] !== z[0] || a[1] !== z[1]) return undefined;
    return { kind: 'polygon', ring: pts.map(([x, y]) => [x, y]) };
  }
  return undefined;
}

/** A footprint's detail reference, with the fields its kind needs. */
function isDetailRef(v: unknown): boolean {
  if (!isObj(v)) return false;
  const str = (k: string) => typeof v[k] === 'string';
  switch (v.kind) {
    case 'aoi':
    case 'orderItem':
    case 'catalog':
      return str('id');
    case 'asset':
    case 'insightRun':
      return str('aoiId') && str('id');
    case 'archiveItem':
      return str('collection') && str('id');
    default:
      return false;
  }
}

export const MAP_MESSAGE_CHECKS: FieldChecks<FromMapMessage> = {
  ready: () => true,
  // the method itself is checked by the request table, which answers an unknown one
  request: (m) => isId(m.id) && isObj(m.request) && typeof m.request.method === 'string',
  cancelRequest: (m) => isId(m.id),
  open: (m) => isDetailRef(m.ref) && (m.preview === undefined || typeof m.preview === 'boolean'),
  openExternal: (m) => typeof m.url === 'string',
  showImagery: (m) => isDetailRef(m.ref),
  imageryStatus: (m) => typeof m.id === 'string' && isObj(m.report) && (m.report.state === 'ready' || m.report.state === 'error'),
  clipReply: (m) => isId(m.requestId) && (m.ok === true ? isObj(m.result) : m.ok === false && typeof m.error === 'string'),
  clipProgress: (m) => isId(m.requestId) && isCount(m.done) && isCount(m.total),
  copyText: (m) => typeof m.text === 'string' && m.text.length <= COPY_TEXT_MAX,
  saveColourRange: (m) => isColourRange(m.range),
  seriesPoint: (m) => isId(m.requestId) && isId(m.index) && isObj(m.point) && typeof m.point.date === 'string',
  seriesDone: (m) => isId(m.requestId) && (m.ok === true || (m.ok === false && typeof m.error === 'string')),
  seriesPngReply: (m) =>
    isId(m.requestId) && (m.ok === true ? m.bytes instanceof ArrayBuffer || m.bytes instanceof Uint8Array : m.ok === false && typeof m.error === 'string'),
  seriesExport: (m) => m.format === 'csv' || m.format === 'png',
  seriesClosed: () => true,
  chartIndex: (m) => readChartArea(m.area) !== undefined,
  timelapseReply: (m) => isId(m.requestId) && (m.ok === true ? isObj(m.result) : m.ok === false && typeof m.error === 'string'),
  timelapseProgress: (m) => isId(m.requestId) && isCount(m.done) && isCount(m.total) && typeof m.date === 'string',
  exportTimelapse: () => true,
  viewState: (m) => isObj(m.view) && Array.isArray(m.view.center) && typeof m.view.zoom === 'number' && Array.isArray(m.view.imagery),
  orderResults: (m) => Array.isArray(m.items),
  saveSearch: (m) => isSearchParams(m.params),
  connect: (m) => m.how === 'signIn' || m.how === 'trySandbox',
};

/** Test mode only (mapTesting.ts): a production map has no handler for these and refuses them. */
export const MAP_TEST_MESSAGE_CHECKS: FieldChecks<FromMapTestMessage> = {
  imageryPixels: (m) => isId(m.requestId) && Array.isArray(m.pixels),
};
