/**
 * Every command of the extension, in one table at the bottom layer: any layer may name a
 * command (a tree row, the status bar, a panel button) without importing the module that
 * registers it. `test/unit/manifest/commands.test.ts` checks the table against package.json.
 */
import type { ArchiveItem, Insight } from './api/records';

export const COMMANDS = {
  // Connection (src/commands/connection)
  signIn: 'eoImagery.signIn',
  signOut: 'eoImagery.signOut',
  switchBaseUrl: 'eoImagery.switchBaseUrl',
  trySandbox: 'eoImagery.trySandbox',
  stopSandbox: 'eoImagery.stopSandbox',
  openSettings: 'eoImagery.openSettings',
  connectionActions: 'eoImagery.connectionActions',
  showLog: 'eoImagery.showLog',
  // Sidebar (src/commands/explorer)
  refreshProjects: 'eoImagery.refreshProjects',
  refreshOrders: 'eoImagery.refreshOrders',
  refreshCatalog: 'eoImagery.refreshCatalog',
  refreshStores: 'eoImagery.refreshStores',
  refreshArchive: 'eoImagery.refreshArchive',
  refreshNode: 'eoImagery.refreshNode',
  copyId: 'eoImagery.copyId',
  openJson: 'eoImagery.openJson',
  refreshJson: 'eoImagery.refreshJson',
  filterAois: 'eoImagery.filterAois',
  filterOrders: 'eoImagery.filterOrders',
  filterOrderItems: 'eoImagery.filterOrderItems',
  clearProjectsFilter: 'eoImagery.clearProjectsFilter',
  clearOrdersFilter: 'eoImagery.clearOrdersFilter',
  loadMore: 'eoImagery.loadMore',
  retryLoad: 'eoImagery.retryLoad',
  // Ordering, delivery, downloads, stores, reports (src/commands/orders, catalog, stores, reports)
  orderArchiveItems: 'eoImagery.orderArchiveItems',
  orderTasking: 'eoImagery.orderTasking',
  // Order plans (src/commands/orderPlans)
  pricePlan: 'eoImagery.pricePlan',
  placePlan: 'eoImagery.placePlan',
  openOrderAsPlan: 'eoImagery.openOrderAsPlan',
  saveOrderPlan: 'eoImagery.saveOrderPlan',
  searchCatalog: 'eoImagery.searchCatalog',
  deliver: 'eoImagery.deliver',
  download: 'eoImagery.download',
  registerStore: 'eoImagery.registerStore',
  deleteStore: 'eoImagery.deleteStore',
  downloadReport: 'eoImagery.downloadReport',
  // Insight inputs and indices (src/commands/insights, src/commands/indices)
  newInsightInput: 'eoImagery.newInsightInput',
  validateInsight: 'eoImagery.validateInsight',
  estimateInsight: 'eoImagery.estimateInsight',
  runInsight: 'eoImagery.runInsight',
  addAssetSource: 'eoImagery.addInsightAssetSource',
  // Insight runs (src/commands/insights/runs.ts, outputs.ts)
  showInsightOutputs: 'eoImagery.showInsightOutputs',
  openInsightInput: 'eoImagery.openInsightInput',
  openInsightInputAsNewFile: 'eoImagery.openInsightInputAsNewFile',
  deleteInsightRun: 'eoImagery.deleteInsightRun',
  downloadInsightRun: 'eoImagery.downloadInsightRun',
  openInsightOutput: 'eoImagery.openInsightOutput',
  showInsightOutputOnMap: 'eoImagery.showInsightOutputOnMap',
  useInsightOutputAsInput: 'eoImagery.useInsightOutputAsInput',
  // Workflows and jobs (src/commands/workflows)
  runWorkflow: 'eoImagery.runWorkflow',
  showJobGraph: 'eoImagery.showJobGraph',
  openTaskLog: 'eoImagery.openTaskLog',
  downloadJob: 'eoImagery.downloadJob',
  downloadTask: 'eoImagery.downloadTask',
  // A visualization's legend and SLD on the service (src/commands/visualizations)
  saveColourRange: 'eoImagery.saveColourRange',
  revertColourRange: 'eoImagery.revertColourRange',
  exportSld: 'eoImagery.exportSld',
  listIndices: 'eoImagery.listIndices',
  createIndex: 'eoImagery.createIndex',
  createVisualization: 'eoImagery.createVisualization',
  showVisualizationLegend: 'eoImagery.showVisualizationLegend',
  // Map and STAC item (src/commands/map)
  showOnMap: 'eoImagery.showOnMap',
  searchArchiveHere: 'eoImagery.searchArchiveHere',
  createAoiFromDrawing: 'eoImagery.createAoiFromDrawing',
  createAoiFromGeoJson: 'eoImagery.createAoiFromGeoJson',
  openStacItem: 'eoImagery.openStacItem',
  copyStacUrl: 'eoImagery.copyStacUrl',
  // At home in VS Code (src/walkthrough, src/commands/copyAs, src/commands/searchFiles)
  getStarted: 'eoImagery.getStarted',
  copyAsCurl: 'eoImagery.copyAsCurl',
  copyAsPython: 'eoImagery.copyAsPython',
  copyLoggedRequestAsCurl: 'eoImagery.copyLoggedRequestAsCurl',
  copyLoggedRequestAsPython: 'eoImagery.copyLoggedRequestAsPython',
  saveSearch: 'eoImagery.saveSearch',
  runSearchFile: 'eoImagery.runSearchFile',
  searchFileWhatsNew: 'eoImagery.searchFileWhatsNew',
  // Imagery on the map (src/commands/imagery)
  showImagery: 'eoImagery.showImagery',
  compareImagery: 'eoImagery.compareImagery',
  stepThroughTime: 'eoImagery.stepThroughTime',
  chartIndexOverTime: 'eoImagery.chartIndexOverTime',
  exportIndexSeriesCsv: 'eoImagery.exportIndexSeriesCsv',
  saveIndexChartPng: 'eoImagery.saveIndexChartPng',
  exportTimelapse: 'eoImagery.exportTimelapse',
  // The service's rendering of a visualization; AOI asset downloads (src/commands/visualizations, assets)
  showServiceRendering: 'eoImagery.showServiceRendering',
  downloadAssets: 'eoImagery.downloadAssets',
  saveViewGeoTiff: 'eoImagery.saveViewGeoTiff',
  saveViewPng: 'eoImagery.saveViewPng',
  // What is pending (src/watch, src/commands/watch)
  showPending: 'eoImagery.showPending',
  saveReadyDownload: 'eoImagery.saveReadyDownload',
  // Share a view (src/commands/shareView)
  copyViewLink: 'eoImagery.copyViewLink',
  saveViewAs: 'eoImagery.saveViewAs',
  openViewFile: 'eoImagery.openViewFile',
  openViewLink: 'eoImagery.openViewLink',
} as const;

export type CommandName = keyof typeof COMMANDS;
export type CommandId = (typeof COMMANDS)[CommandName];

/** Commands that only the extension invokes (a tree row's click), so the manifest omits them. */
export const INTERNAL_COMMANDS: readonly CommandName[] = ['loadMore', 'saveReadyDownload', 'openViewLink'];

/** An archive item, whole or by reference. */
export type ArchiveItemRef = ArchiveItem | { collection: string; id: string };

/** A file's URI, as far as this layer (no `vscode`) can name it: a `vscode.Uri` is one. */
export interface FileUri {
  readonly scheme: string;
  readonly path: string;
}

/**
 * What the extension itself passes to each command (`runCommand` checks it). Menus and tree
 * rows pass their own arguments (a row, the selected rows, a file's URI): `READERS` in
 * src/commands/args reads all of them, these included, into the one typed input each
 * handler takes, and the integration suite "command wrapper" checks that every entry here
 * reads into a value.
 */
export interface CommandArgs {
  orderArchiveItems: [items: ArchiveItemRef | readonly ArchiveItemRef[]];
  copyStacUrl: [item: ArchiveItemRef];
  showImagery: [item: ArchiveItemRef];
  newInsightInput: [from?: { stacItem: ArchiveItem; stacUrl: string } | { insightOutput: { run: Insight; outputName: string } }];
  /** A run row (menus), or a run named by AOI and id (a click on its output on the map). */
  showInsightOutputs: [run: object | { aoiId: string; id: string }];
  /** A row (the watcher's Show on Map passes an order item as its row would). */
  showOnMap: [row: { kind: string; record: object }];
  /** Order items by id, with their names (the watcher's Deliver… and Download…). */
  deliver: [targets: { orderItemIds: string[]; names?: string[] }];
  download: [targets: { orderItemIds: string[]; names?: string[] }];
  /** A download the watcher saw ready: its link is read again, never kept. */
  saveReadyDownload: [ready: { downloadId: string; what: string }];
  /** The watcher's Show Job Graph names the job (its row may be gone). */
  showJobGraph: [job: { workflowId: string; jobId: string; workflowName: string }];
  /** A view link (the URI handler hands it on, so the wrapper shows any failure once). */
  openViewLink: [link: string];
  downloadReport: [timeZone?: string];
  runSearchFile: [file: FileUri];
  pricePlan: [file: FileUri];
  placePlan: [file: FileUri];
  /** An order request and the names its confirmation showed (the chat's Save as Order Plan… button). */
  saveOrderPlan: [draft: { items: object[]; labels: object }];
  searchFileWhatsNew: [file: FileUri];
  /** `{workflowId, workflowName, job, task}`: a click on a task in the job graph. */
  /** The histogram's range of a visualization layer on the map. */
  saveColourRange: [range: { visualization: { aoiId: string; id: string }; date?: string; rescale: [number, number]; colormap: string }];
  openTaskLog: [task: { workflowId: string; workflowName: string; job: object; task: object }];
  /** "Chart index over time…" on the map: an AOI shown there, the drawn ring, or the inspected pixel. */
  chartIndexOverTime: [
    area:
      | { kind: 'aoi'; aoiId: string }
      | { kind: 'polygon'; ring: [number, number][] }
      | { kind: 'pixel'; lon: number; lat: number; aoiId?: string; collection?: string },
  ];
}

/** The arguments of `name`: none, unless the table above says otherwise. */
export type ArgsOf<K extends CommandName> = K extends keyof CommandArgs ? CommandArgs[K] : [];
