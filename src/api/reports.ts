/** The order report: CSV text, and its rows parsed (csv-parse). */
import { lazy } from '../lazy';
import { ApiError } from './errors';
import type { ReportRow } from './records';
import { buildQuery, type CallOptions, type Transport } from './transport';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const csvParse = lazy(() => (require('csv-parse/sync') as typeof import('csv-parse/sync')).parse);

export interface Report {
  /** The CSV exactly as the service sent it (for "save as"). */
  text: string;
  /** Header row as sent. */
  columns: string[];
  /** One object per data row, keyed by the header's columns, whatever they are. */
  rows: ReportRow[];
}

export class ReportsApi {
  constructor(private readonly t: Transport) {}

  /** `tz` (e.g. `Europe/Paris`) renders `created_at` in that zone; unknown zones are a 400. */
  async get(q: { tz?: string } = {}, o?: CallOptions): Promise<Report> {
    const spec = { method: 'GET' as const, path: '/v0/reports', query: q, accept: 'text/csv, application/json;q=0.5' };
    const res = await this.t.text(spec, o);
    const where = spec.path + buildQuery(q);
    const ct = res.contentType?.toLowerCase() ?? '';
    if (ct.includes('json') || ct.includes('html')) {
      throw new ApiError({ kind: 'protocol', method: 'GET', path: where, detailMessage: `expected CSV, got ${ct.split(';')[0]}` });
    }
    let records: string[][];
    try {
      records = csvParse()(res.text, { bom: true, skip_empty_lines: true, relax_column_count: true }) as string[][];
    } catch (e) {
      throw new ApiError({ kind: 'protocol', method: 'GET', path: where, detailMessage: `the report is not valid CSV (${(e as Error).message})` });
    }
    // The OpenAPI does not describe the columns: whatever header arrives is the report's.
    if (records.length === 0) return { text: res.text, columns: [], rows: [] };
    const [columns, ...data] = records;
    const rows = data.map((r) => Object.fromEntries(columns.map((c, i) => [c, r[i] ?? ''])) as ReportRow);
    return { text: res.text, columns, rows };
  }
}
