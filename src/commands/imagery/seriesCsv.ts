/**
 * A chart's series as CSV: one row per date (ISO `YYYY-MM-DD`, oldest first) and series (an
 * overlaid chart has several, told apart by the area's name and the index's), the index's
 * name, the statistics unit-less with the statistic in the header, the valid share, the pixel
 * counts, a single-pixel series' value at the pixel (valid or not), the level read, and the asset or item the row came from. Text cells a spreadsheet
 * would run as a formula get a leading apostrophe (src/csvCells.ts). Pure: unit-tested.
 */
import type { SeriesPoint, SeriesRequest } from '../../panels/imagery/seriesMessages';
import { csvText } from '../../csvCells';

export const SERIES_CSV_HEADER = [
  'date',
  'series',
  'index',
  'mean',
  'median',
  'p10',
  'p90',
  'valid_share',
  'valid_pixels',
  'pixels',
  'cloudy_pixels',
  'pixel_value',
  'level',
  'pixel_size',
  'source',
  'note',
] as const;

function n(v: number | undefined, digits = 6): string {
  return v === undefined || !Number.isFinite(v) ? '' : String(Number(v.toFixed(digits)));
}

/** The note of a row: why it has no values, or why it is greyed out. */
function noteOf(p: SeriesPoint | undefined, minValidShare: number): string {
  if (!p) return 'not read';
  if (p.error) return p.error;
  if (p.overCloudLimit) return 'cloud cover above the limit';
  if (p.value !== undefined && p.valid === 0) return p.cloudyPixels ? 'not valid: cloud' : 'not valid';
  if (p.median === undefined) return 'no valid pixels';
  if (p.validShare < minValidShare) return 'too few valid pixels';
  return '';
}

export interface CsvSeries {
  request: SeriesRequest;
  points: readonly (SeriesPoint | undefined)[];
}

export function seriesCsv(chart: readonly CsvSeries[]): string {
  const rows = chart
    .flatMap(({ request, points }, k) => request.dates.map((d, i) => ({ request, k, d, p: points[i] })))
    .sort((a, b) => a.d.date.localeCompare(b.d.date) || a.k - b.k);
  const lines = [SERIES_CSV_HEADER.join(',')];
  for (const { request, d, p } of rows) {
    const min = request.minValidShare ?? 0.5;
    lines.push(
      [
        csvText(d.date),
        csvText(request.title),
        csvText(request.index.name),
        n(p?.mean),
        n(p?.median),
        n(p?.p10),
        n(p?.p90),
        p ? n(p.validShare) : '',
        p ? String(p.valid) : '',
        p ? String(p.pixels) : '',
        p?.cloudyPixels === undefined ? '' : String(p.cloudyPixels),
        n(p?.value),
        p?.level === undefined ? '' : String(p.level),
        n(p?.pixelSize, 3),
        csvText(d.source),
        csvText(noteOf(p, min)),
      ].join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}
