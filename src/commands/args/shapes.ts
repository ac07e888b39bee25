/**
 * The records a command can be handed, read from what VS Code or a caller passes: a sidebar
 * row (`{kind, record}`), the bare record, a reference, or a multi-selection (VS Code calls
 * `(clickedRow, selectedRows[])`). Each reader returns the typed record or undefined (then the
 * handler asks, or says what to pick). Pure: no `vscode`; `./index.ts` adds URIs and tree
 * nodes and ties each command to its reader.
 */
import type { Aoi, ArchiveItem, Asset, Geometry, Insight, Store, Visualization, WorkflowListItem } from '../../api/records';
import { isObj } from '../../api/shape';
import type { ChartAreaFromMap, ColourRangeFromMap } from '../../panels/imagery/protocol';
import { readChartArea } from '../../panels/mapMessages';
import { isSearchParams, type SearchParams } from '../../panels/protocol';

export type { ColourRangeFromMap };

/** A row of the sidebar as a command sees it (a tree node has both fields), or a bare record. */
export interface Row {
  kind?: string;
  record: Record<string, unknown>;
}

/** `{kind, record}` as it is, a bare record as `{record}`; anything else undefined. */
export function rowOf(arg: unknown): Row | undefined {
  if (isObj(arg) && isObj(arg.record)) return { kind: typeof arg.kind === 'string' ? arg.kind : undefined, record: arg.record };
  return isObj(arg) ? { record: arg } : undefined;
}

/**
 * The record of a row of `kind`, or a bare record that `fits`; a row of another kind is not
 * taken for one (an asset row is not its AOI).
 */
function recordOf<T>(arg: unknown, kind: string, fits: (r: Record<string, unknown>) => boolean): T | undefined {
  const r = isObj(arg) && isObj(arg.record) ? (arg.kind === kind ? arg.record : undefined) : arg;
  return isObj(r) && fits(r) ? (r as unknown as T) : undefined;
}

/** An AOI row or an `Aoi` (its id and outline are what commands use). */
export function aoiArg(arg: unknown): Aoi | undefined {
  return recordOf<Aoi>(arg, 'aoi', (r) => typeof r.aoi_id === 'string' && isObj(r.geometry));
}

/**
 * "Chart Index Over Time…": an AOI row or record (menus, the palette's pick), or what the map
 * hands it (an AOI by id, the drawn ring, the inspected pixel).
 */
export function chartAreaArg(arg: unknown): { kind: 'aoiRecord'; aoi: Aoi } | ChartAreaFromMap | undefined {
  const aoi = aoiArg(arg);
  return aoi ? { kind: 'aoiRecord', aoi } : readChartArea(arg);
}

/** A Cloud Stores row or a `Store`. */
export function storeArg(arg: unknown): Store | undefined {
  return recordOf<Store>(arg, 'store', (r) => typeof r.id === 'string' && typeof r.name === 'string');
}

/** A visualization row or a `Visualization`. */
export function visualizationArg(arg: unknown): Visualization | undefined {
  return recordOf<Visualization>(arg, 'visualization', (r) => typeof r.id === 'string' && typeof r.aoi_id === 'string' && typeof r.index_id === 'string');
}

/** A workflow row or a workflow record (`WorkflowListItem`: its id and project are what Run Workflow needs). */
export function workflowArg(arg: unknown): WorkflowListItem | undefined {
  return recordOf<WorkflowListItem>(arg, 'workflow', (r) => typeof r.id === 'string' && typeof r.project_id === 'string' && typeof r.name === 'string');
}

/** The map's "Save Colour Range to Service" from a layer's histogram. */
export function colourRangeArg(arg: unknown): ColourRangeFromMap | undefined {
  if (!isObj(arg) || !isObj(arg.visualization) || !Array.isArray(arg.rescale)) return undefined;
  const v = arg.visualization;
  const [lo, hi] = arg.rescale as unknown[];
  if (typeof v.aoiId !== 'string' || typeof v.id !== 'string' || typeof lo !== 'number' || typeof hi !== 'number') return undefined;
  return {
    visualization: { aoiId: v.aoiId, id: v.id },
    date: typeof arg.date === 'string' ? arg.date.slice(0, 10) : undefined,
    rescale: [lo, hi],
    colormap: typeof arg.colormap === 'string' ? arg.colormap : 'viridis',
  };
}

/** An AOI asset row or an `Asset`. */
export function assetArg(arg: unknown): Asset | undefined {
  return recordOf<Asset>(arg, 'asset', (r) => typeof r.id === 'string' && typeof r.aoi_id === 'string' && 'asset_type' in r);
}

/**
 * The AOI a row belongs to: the row itself (an AOI), or the nearest AOI row above it (the
 * "Visualizations" group, an asset). Tree nodes know their parent.
 */
export function aoiAbove(arg: unknown): Aoi | undefined {
  for (let n: unknown = arg; isObj(n); n = n.parent) {
    const aoi = isObj(n.record) && (n.kind === 'aoi' || n.kind === undefined) ? aoiArg(n.record) : undefined;
    if (aoi) return aoi;
  }
  return undefined;
}

/** An archive item, whole or by reference; `item` when the whole STAC Feature was given. */
export interface ArchiveRef {
  collection: string;
  id: string;
  item?: ArchiveItem;
}

/** `{collection, id}` of an archive item, a sidebar row holding one, or a reference. */
export function archiveRefArg(arg: unknown): ArchiveRef | undefined {
  const r = isObj(arg) && isObj(arg.record) ? arg.record : arg;
  if (!isObj(r) || typeof r.collection !== 'string' || typeof r.id !== 'string') return undefined;
  const full = r.type === 'Feature' && isObj(r.properties) ? (r as unknown as ArchiveItem) : undefined;
  return { collection: r.collection, id: r.id, item: full };
}

/** An archive item as callers may hand it over; only these fields are needed to order it. */
export interface ArchiveItemLike {
  id: string;
  collection: string;
  geometry?: Geometry | null;
  properties?: { title?: string; datetime?: string | null; [k: string]: unknown };
}

/**
 * The archive items of `eoImagery.orderArchiveItems` (map, STAC item panel, Archive view,
 * palette), in any mix: `ArchiveItem`s, `{collection, id}` references, rows
 * `{kind: 'archiveItem', record}`, one or an array; from a multi-selection the selection
 * wins. Each item once; empty from the palette.
 */
export function archiveItemsArg(...args: unknown[]): ArchiveItemLike[] {
  const [first, second] = args;
  const source = Array.isArray(second) && second.length > 0 ? second : first;
  const list: unknown[] = Array.isArray(source) ? source : source === undefined || source === null ? [] : [source];
  const out: ArchiveItemLike[] = [];
  const seen = new Set<string>();
  for (const raw of list) {
    const v = isObj(raw) && raw.kind === 'archiveItem' && isObj(raw.record) ? raw.record : raw;
    if (!isObj(v) || typeof v.id !== 'string' || typeof v.collection !== 'string') continue;
    const key = `${v.collection}/${v.id}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(v as unknown as ArchiveItemLike);
  }
  return out;
}

/** The rows a command was run on: the selection when VS Code passes one, else the clicked row. */
export function selectedRows(...args: unknown[]): unknown[] {
  const [first, second] = args;
  if (Array.isArray(second) && second.length > 0) return second;
  return first === undefined || first === null ? [] : [first];
}

/** What an Orders row presets in Search Catalog: its order, or its order item. */
export interface CatalogPreset {
  orderId?: string;
  orderItemId?: string;
}

export function catalogPresetArg(arg: unknown): CatalogPreset {
  const row = rowOf(arg);
  const id = typeof row?.record.id === 'string' ? row.record.id : undefined;
  if (row?.kind === 'order' && id) return { orderId: id };
  if (row?.kind === 'orderItem' && id) return { orderItemId: id };
  return {};
}

/** A run named by its AOI and id (a click on its output's feature on the map). */
export interface RunRef {
  aoiId: string;
  id: string;
}

export function runRefArg(arg: unknown): RunRef | undefined {
  return isObj(arg) && typeof arg.aoiId === 'string' && typeof arg.id === 'string' ? { aoiId: arg.aoiId, id: arg.id } : undefined;
}

/** Where New Insight Input starts from: an insight's output ("Use Output as Input…"), or what the STAC page sent. */
export interface InsightSource {
  output?: { run: Insight; outputName: string };
  /** `{stacItem, stacUrl}` from the STAC page, checked by the builder (`parseStacItemInput`). */
  stacItem?: unknown;
}

export function insightSourceArg(arg: unknown): InsightSource {
  const o = isObj(arg) && isObj(arg.insightOutput) ? arg.insightOutput : undefined;
  const run = o && isObj(o.run) ? o.run : undefined;
  if (o && run && typeof run.id === 'string' && Array.isArray(run.output) && typeof o.outputName === 'string') {
    return { output: { run: run as unknown as Insight, outputName: o.outputName } };
  }
  return arg === undefined ? {} : { stacItem: arg };
}

/** A search the map sent ("Save Search…" on its panel). */
export function searchParamsArg(arg: unknown): SearchParams | undefined {
  return isSearchParams(arg) ? arg : undefined;
}

/** A non-empty string (a time zone name given by a test or a link). */
export function textArg(arg: unknown): string | undefined {
  return typeof arg === 'string' && arg !== '' ? arg : undefined;
}

/** `saveReadyDownload`: a download named by id, and what it is of (the watcher's Download…). */
export function readyDownloadArg(arg: unknown): { downloadId: string; what: string } | undefined {
  if (!isObj(arg) || typeof arg.downloadId !== 'string' || arg.downloadId === '') return undefined;
  return { downloadId: arg.downloadId, what: typeof arg.what === 'string' ? arg.what : '' };
}

const ID = /^[A-Za-z0-9._:-]{1,200}$/;

/** A job named outside the tree (the watcher's Show Job Graph): ids that are ids, a name that is text. */
export function jobGraphRefArg(arg: unknown): { workflowId: string; jobId: string; workflowName: string } | undefined {
  if (!isObj(arg) || typeof arg.workflowId !== 'string' || typeof arg.jobId !== 'string' || typeof arg.workflowName !== 'string') return undefined;
  if (!ID.test(arg.workflowId) || !ID.test(arg.jobId)) return undefined;
  return { workflowId: arg.workflowId, jobId: arg.jobId, workflowName: arg.workflowName.slice(0, 200) };
}
