/**
 * Wire quirks smoothed at the edge, so nothing past the client has to know them:
 * STAC `bbox` strings, the singular `visualization` key, `paid_at: ""`. Timestamps stay raw
 * strings (three formats exist); `parseTimestamp` reads any of them on demand.
 * Normalisation edits the freshly parsed JSON in place and keeps unknown fields.
 */
import type {
  ArchiveCollection,
  ArchiveItem,
  ArchiveItemWire,
  Block,
  BlockSpec,
  Order,
  OrderItem,
  Pagination,
  Satellite,
  Visualization,
  VisualizationListWire,
} from './records';
import { ShapeError } from './shape';

/** An order as the client returns it: `paid_at: ""` (not paid) becomes an absent `paid_at`. */
export type OrderRecord = Omit<Order, 'paid_at' | 'order_items'> & { paid_at?: string; order_items: OrderItem[] };

/** The visualization listing with the plural key the rest of the code expects. */
export interface VisualizationList {
  visualizations: Visualization[];
  pagination: Pagination;
}

export function normalizeOrder(order: Order): OrderRecord {
  const rec = order as Omit<Order, 'paid_at'> & { paid_at?: string };
  if (rec.paid_at === '' || rec.paid_at === null) delete rec.paid_at;
  if (!Array.isArray(rec.order_items)) rec.order_items = [];
  return rec;
}

export function normalizeVisualizationList(wire: VisualizationListWire & { visualizations?: Visualization[] }): VisualizationList {
  // Accept the plural too, in case the service ever fixes the key.
  const visualizations = wire.visualization ?? wire.visualizations ?? [];
  const out = wire as unknown as VisualizationList & { visualization?: unknown };
  delete out.visualization;
  out.visualizations = visualizations;
  return out;
}

/**
 * `["77.1", "28.4", ...]` → numbers; a 3-D bbox (6 values) is reduced to its 2-D corners.
 * Absent, `null` and `[]` are no bbox (an item whose geometry is `null` has none).
 */
export function normalizeBbox(bbox: readonly (string | number)[] | null | undefined, where: string): [number, number, number, number] | undefined {
  if (bbox === undefined || bbox === null || bbox.length === 0) return undefined;
  if (bbox.length !== 4 && bbox.length !== 6) {
    throw new ShapeError(`${where}.bbox: expected 4 or 6 values, got ${bbox.length}`);
  }
  const n = bbox.map((v, i) => {
    const x = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
    if (!Number.isFinite(x)) throw new ShapeError(`${where}.bbox[${i}]: expected a number, got ${JSON.stringify(v)}`);
    return x;
  });
  return bbox.length === 4 ? [n[0], n[1], n[2], n[3]] : [n[0], n[1], n[3], n[4]];
}

export function normalizeArchiveItem(item: ArchiveItemWire, where = 'item'): ArchiveItem {
  const out = item as unknown as ArchiveItem;
  const bbox = normalizeBbox(item.bbox, where);
  if (bbox) out.bbox = bbox;
  else delete out.bbox;
  return out;
}

/**
 * A satellite with the fields the first version read filled in from the OpenAPI's ones:
 * `collection_id` and `provider` from the first collection, `gsd` from the finest band.
 */
export function normalizeSatellite(s: Satellite): Satellite {
  if (!Array.isArray(s.bands)) s.bands = [];
  if (!Array.isArray(s.collections)) {
    // the first version's record: one collection named on the satellite itself
    s.collections = s.collection_id ? [{ id: s.collection_id, name: s.collection_id, provider: s.provider ?? '' }] : [];
  }
  const first = s.collections[0];
  s.collection_id ??= first?.id;
  if (first?.provider) s.provider = first.provider;
  if (s.gsd === undefined) {
    const res = s.bands.map((b) => b.spatial_resolution).filter((x): x is number => typeof x === 'number' && x > 0);
    if (res.length > 0) s.gsd = Math.min(...res);
  }
  return s;
}

/** The collection to search a satellite's imagery in (required beside `satellite_id`). */
export function searchCollectionOf(s: Satellite): string | undefined {
  return s.collections[0]?.id ?? s.collection_id;
}

/**
 * A collection with its extent's boxes as numbers. A box that does not read (a wrong number of
 * values, a value that is not a number) is left out of the extent rather than failing the
 * collection: nothing in the extension draws or filters by a collection's extent, and the
 * collection's items carry their own footprints. A single flat box is read as the one box.
 */
export function normalizeCollection(c: ArchiveCollection): ArchiveCollection {
  const spatial = c.extent?.spatial as { bbox?: unknown } | undefined;
  if (!spatial || spatial.bbox === undefined || spatial.bbox === null) return c;
  const raw = Array.isArray(spatial.bbox) ? (spatial.bbox as unknown[]) : [];
  const boxes = raw.length > 0 && raw.every((v) => !Array.isArray(v)) ? [raw] : raw;
  c.extent.spatial.bbox = boxes.flatMap((b) => {
    if (!Array.isArray(b)) return [];
    try {
      const box = normalizeBbox(b as (string | number)[], '');
      return box ? [box] : [];
    } catch (e) {
      if (e instanceof ShapeError) return [];
      throw e;
    }
  });
  return c;
}

// ---------------------------------------------------------------- timestamps

export type TimestampFormat = 'iso' | 'python' | 'date' | 'dmy';

export interface Timestamp {
  /** Exactly what the service sent. */
  raw: string;
  date: Date;
  format: TimestampFormat;
  /** True for day-only values (`YYYY-MM-DD`, `DD-MM-YYYY`): show without a time. */
  dateOnly: boolean;
}

const PYTHON_RE = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}(?::\d{2})?)(\.\d+)?(Z|[+-]\d{2}:?\d{2})?$/;
const DMY_RE = /^(\d{2})-(\d{2})-(\d{4})$/;
const YMD_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/**
 * Parse any of the service's timestamp formats: ISO 8601 with `T`,
 * `YYYY-MM-DD HH:MM:SS.ffffff+00:00`, `YYYY-MM-DD`, `DD-MM-YYYY`. Empty or unreadable → undefined
 * (an empty `paid_at` means "not paid", not "1970"). Values without an offset are UTC.
 */
export function parseTimestamp(raw: string | null | undefined): Timestamp | undefined {
  if (typeof raw !== 'string') return undefined;
  const s = raw.trim();
  if (s === '') return undefined;
  let m: RegExpExecArray | null;
  if ((m = DMY_RE.exec(s))) return dayOnly(raw, 'dmy', +m[3], +m[2], +m[1]);
  if ((m = YMD_RE.exec(s))) return dayOnly(raw, 'date', +m[1], +m[2], +m[3]);
  if ((m = PYTHON_RE.exec(s))) {
    const frac = m[3] ? m[3].slice(0, 4) : '';
    const zone = m[4] ? (m[4] === 'Z' ? 'Z' : m[4].replace(/^([+-]\d{2})(\d{2})$/, '$1:$2')) : 'Z';
    const t = Date.parse(`${m[1]}T${m[2]}${frac}${zone}`);
    return Number.isNaN(t) ? undefined : { raw, date: new Date(t), format: 'python', dateOnly: false };
  }
  if (ISO_RE.test(s)) {
    // Trim sub-millisecond digits, which some engines refuse; add Z when no zone is given.
    let iso = s.replace(/(\.\d{3})\d+/, '$1');
    if (!/(Z|[+-]\d{2}:?\d{2})$/i.test(iso)) iso += 'Z';
    const t = Date.parse(iso);
    return Number.isNaN(t) ? undefined : { raw, date: new Date(t), format: 'iso', dateOnly: false };
  }
  return undefined;
}

function dayOnly(raw: string, format: TimestampFormat, y: number, mo: number, d: number): Timestamp | undefined {
  const date = new Date(Date.UTC(y, mo - 1, d));
  // Reject 31-02-2024 and friends instead of rolling over into March.
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return undefined;
  return { raw, date, format, dateOnly: true };
}

/** When an order was paid, or undefined when it was not (empty or absent `paid_at`). */
export function orderPaidAt(order: { paid_at?: string }): Timestamp | undefined {
  return parseTimestamp(order.paid_at);
}

// ---------------------------------------------------------------- blocks

/** `spec.inputs`/`outputs` are "raw JSON" in the OpenAPI: a JSON text is parsed too. */
function rawJsonList(v: unknown, where: string): unknown {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    throw new ShapeError(`${where}: expected a list of input definitions, got text that is not JSON`);
  }
}

/**
 * A block record of the OpenAPI (`{id, block_status, spec: {name, title, version, kind, …}}`)
 * with the top-level fields the first version read (`name`, `version`, `display_name`,
 * `description`, `mode`) filled in from its spec.
 */
export function normalizeBlock(b: Block, where = 'block'): Block {
  const spec = b.spec;
  spec.inputs = rawJsonList(spec.inputs, `${where}.spec.inputs`) as BlockSpec['inputs'];
  if (spec.outputs !== undefined) spec.outputs = rawJsonList(spec.outputs, `${where}.spec.outputs`) as BlockSpec['outputs'];
  if (typeof b.name !== 'string' || b.name === '') b.name = spec.name;
  if (typeof b.version !== 'string' || b.version === '') b.version = spec.version;
  if (typeof b.id !== 'string' || b.id === '') b.id = spec.id ?? spec.version_id ?? `${spec.name}@${spec.version}`;
  b.display_name ??= spec.title;
  b.description ??= spec.description;
  b.mode ??= spec.kind;
  return b;
}
