/**
 * What each command's handler receives. VS Code hands a command whatever its caller had: a
 * tree node (`{kind, record}` and its parent), the selected rows as a second argument, a
 * file's URI (Explorer menu, CodeLens), a record or reference (the map, the STAC page, a
 * test, `runCommand` with the arguments `commandIds.ts` lists in `CommandArgs`), or nothing
 * (the Command Palette). `READERS` turns those into the one typed value each handler takes;
 * `InputOf<K>` is that type, and the command wrapper (`../register.ts`) applies the reader
 * before the handler runs. A handler whose input is undefined asks the person, or says what
 * to pick.
 */
import vscode = require('vscode');
import type { CommandName } from '../../commandIds';
import type { OrderItemRequest, OrderRecord } from '../../api';
import { isObj } from '../../api/shape';
import type { RequestLabels } from '../orders/orderSummary';
import { InsightOutputNode, InsightRunNode } from '../../explorer/nodes/insightRuns';
import { JobNode, WorkflowNode } from '../../explorer/nodes/workflows';
import { taskRefOf } from '../workflows/jobs';
import { ErrorNode, LoadMoreNode } from '../../explorer/rows';
import { ExplorerNode, RecordNode } from '../../explorer/tree';
import { targetsOf } from '../catalog/targets';
import {
  aoiAbove,
  aoiArg,
  archiveItemsArg,
  archiveRefArg,
  catalogPresetArg,
  chartAreaArg,
  colourRangeArg,
  insightSourceArg,
  jobGraphRefArg,
  readyDownloadArg,
  rowOf,
  runRefArg,
  searchParamsArg,
  selectedRows,
  storeArg,
  textArg,
  visualizationArg,
  workflowArg,
} from './shapes';

/** A file's URI (Explorer or editor menus, CodeLens); undefined means the active editor's. */
const uri = (arg?: unknown): vscode.Uri | undefined => (arg instanceof vscode.Uri ? arg : undefined);
const none = (): undefined => undefined;
const node =
  <T>(type: abstract new (...a: never[]) => T) =>
  (arg?: unknown): T | undefined =>
    arg instanceof type ? arg : undefined;
const recordNode = node(RecordNode);

/** The record rows a command was run on (the selection, else the clicked row). */
const recordNodes = (...args: unknown[]): RecordNode[] => selectedRows(...args).filter((n): n is RecordNode => n instanceof RecordNode);

/** `orderTasking`: an AOI (row or record), or a GeoJSON file; undefined for the active editor's. */
const aoiOrFile = (arg?: unknown): { aoi: NonNullable<ReturnType<typeof aoiArg>> } | { file: vscode.Uri } | undefined => {
  const aoi = aoiArg(arg);
  if (aoi) return { aoi };
  return arg instanceof vscode.Uri ? { file: arg } : undefined;
};

/** `openOrderAsPlan`: an order row of the Orders view. */
const orderRow = (arg?: unknown): OrderRecord | undefined => (arg instanceof RecordNode && arg.kind === 'order' ? (arg.record as OrderRecord) : undefined);

/** `saveOrderPlan`: order item requests and their names, as the chat's button passes them. */
const planDraft = (arg?: unknown): { items: OrderItemRequest[]; labels: RequestLabels } | undefined =>
  isObj(arg) && Array.isArray(arg.items) && arg.items.every(isObj) && isObj(arg.labels)
    ? { items: arg.items as unknown as OrderItemRequest[], labels: arg.labels as RequestLabels }
    : undefined;

/** `showInsightOutputs`: a run row, or a run named by AOI and id. */
const runOrRef = (arg?: unknown): { node: InsightRunNode } | { ref: NonNullable<ReturnType<typeof runRefArg>> } | undefined => {
  if (arg instanceof InsightRunNode) return { node: arg };
  const ref = runRefArg(arg);
  return ref ? { ref } : undefined;
};

/** `addInsightAssetSource` (a quick fix of the diagnostics): the file and the input's index. */
const fileAndIndex = (file?: unknown, index?: unknown): { uri: vscode.Uri; index: number } | undefined =>
  file instanceof vscode.Uri && typeof index === 'number' && Number.isInteger(index) && index >= 0 ? { uri: file, index } : undefined;

/** `downloadAssets`: asset rows (the selection), or an AOI row whose assets are then picked. */
const assetRows = (...args: unknown[]) => ({ rows: selectedRows(...args), aoi: aoiAbove(args[0]) });

export const READERS = {
  // Connection
  signIn: none,
  signOut: none,
  switchBaseUrl: none,
  trySandbox: none,
  stopSandbox: none,
  openSettings: none,
  connectionActions: none,
  showLog: none,
  // Sidebar
  refreshProjects: none,
  refreshOrders: none,
  refreshCatalog: none,
  refreshStores: none,
  refreshArchive: none,
  refreshNode: node(ExplorerNode),
  copyId: recordNodes,
  openJson: recordNode,
  refreshJson: uri,
  filterAois: none,
  filterOrders: none,
  filterOrderItems: none,
  clearProjectsFilter: none,
  clearOrdersFilter: none,
  loadMore: node(LoadMoreNode),
  retryLoad: node(ErrorNode),
  // Ordering, delivery, downloads, stores, reports
  orderArchiveItems: archiveItemsArg,
  orderTasking: aoiOrFile,
  pricePlan: uri,
  placePlan: uri,
  openOrderAsPlan: orderRow,
  saveOrderPlan: planDraft,
  searchCatalog: catalogPresetArg,
  deliver: targetsOf,
  download: targetsOf,
  registerStore: none,
  deleteStore: storeArg,
  downloadReport: textArg,
  // Insight inputs and runs, indices
  newInsightInput: insightSourceArg,
  validateInsight: uri,
  estimateInsight: uri,
  runInsight: uri,
  addAssetSource: fileAndIndex,
  showInsightOutputs: runOrRef,
  openInsightInput: node(InsightRunNode),
  openInsightInputAsNewFile: node(InsightRunNode),
  deleteInsightRun: node(InsightRunNode),
  downloadInsightRun: node(InsightRunNode),
  openInsightOutput: node(InsightOutputNode),
  showInsightOutputOnMap: node(InsightOutputNode),
  useInsightOutputAsInput: node(InsightOutputNode),
  listIndices: none,
  createIndex: none,
  createVisualization: aoiAbove,
  showVisualizationLegend: visualizationArg,
  // Map and STAC item
  showOnMap: rowOf,
  searchArchiveHere: aoiArg,
  createAoiFromDrawing: none,
  createAoiFromGeoJson: uri,
  openStacItem: archiveRefArg,
  copyStacUrl: archiveRefArg,
  // At home in VS Code
  getStarted: none,
  copyAsCurl: recordNode,
  copyAsPython: recordNode,
  copyLoggedRequestAsCurl: none,
  copyLoggedRequestAsPython: none,
  saveSearch: searchParamsArg,
  runSearchFile: uri,
  searchFileWhatsNew: uri,
  // Imagery on the map, the service's rendering, asset downloads, saving the view
  showImagery: rowOf,
  compareImagery: rowOf,
  stepThroughTime: rowOf,
  chartIndexOverTime: chartAreaArg,
  exportIndexSeriesCsv: none,
  saveIndexChartPng: none,
  exportTimelapse: aoiArg,
  showServiceRendering: visualizationArg,
  downloadAssets: assetRows,
  saveViewGeoTiff: none,
  saveViewPng: none,
  // Workflows and jobs; a visualization's styling on the service
  runWorkflow: (arg?: unknown) => (arg instanceof WorkflowNode ? arg.record : workflowArg(arg)),
  showJobGraph: (arg?: unknown) => node(JobNode)(arg) ?? jobGraphRefArg(arg),
  openTaskLog: taskRefOf,
  downloadJob: node(JobNode),
  downloadTask: taskRefOf,
  saveColourRange: (arg?: unknown) => visualizationArg(arg) ?? colourRangeArg(arg),
  revertColourRange: visualizationArg,
  exportSld: visualizationArg,
  // What is pending
  showPending: none,
  saveReadyDownload: readyDownloadArg,
  // Share a view
  copyViewLink: none,
  saveViewAs: none,
  openViewFile: uri,
  openViewLink: textArg,
} satisfies { readonly [K in CommandName]: (...args: unknown[]) => unknown };

/** The typed value the handler of command `K` receives. */
export type InputOf<K extends CommandName> = ReturnType<(typeof READERS)[K]>;

export type { ArchiveItemLike, ArchiveRef, CatalogPreset, InsightSource, Row, RunRef } from './shapes';
