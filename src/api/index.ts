/** Public surface of the API layer. Nothing here imports `vscode`. */
export { EoClient } from './client';
export type { ClientOptions, CallOptions, OtherHosts, RequestEvent, UnreadableEvent, AuthScheme, TokenSource, Query, QueryValue } from './transport';
export { guardedAgent } from './guardedConnect';
export { unreadableOf, type UnreadableRecord, type WithUnreadable } from './unreadable';
export { pathOf, encodeSegment, redactBody, describeRequest, REDACTED } from './transport';
export {
  ApiError,
  Cancelled,
  NotSignedInError,
  classifyFailure,
  decodeErrorBody,
  needsSignIn,
  isCancellation,
  isConnectionFailure,
  isNotSupported,
  isRequestError,
  isTransient,
  mayHaveActed,
  wasUnanswered,
  statusTitle,
  type ApiErrorKind,
  type DecodedErrorBody,
  type FailureKind,
} from './errors';
export { DEFAULT_RETRY, isRetryable, parseRetryAfter, retryDelayMs, type RetryOptions } from './retry';
export {
  collect,
  iterateCursor,
  iterateLinks,
  iterateOffset,
  iteratePageNum,
  DEFAULT_PAGE_SIZE,
  type IterateOptions,
  type OffsetQuery,
  type Page,
} from './paging';
export {
  normalizeArchiveItem,
  normalizeSatellite,
  searchCollectionOf,
  normalizeBbox,
  normalizeOrder,
  orderPaidAt,
  parseTimestamp,
  type OrderRecord,
  type Timestamp,
  type TimestampFormat,
  type VisualizationList,
} from './normalize';
export { poll, FINAL_STATUSES, isFinalStatus, progressOf, type PollOptions, type PolledKind } from './poll';
export type { ProjectPage } from './projects';
export type { AoiFilter } from './aois';
export type { IndexFilter } from './indices';
export type { VisualizationFilter } from './visualizations';
export type { OrderItemFilter } from './orderItems';
export type { Report } from './reports';
export { archiveItemPath, nextLink } from './archives';
export type { AoisApi } from './aois';
export { AoiDownloadsApi, aoiDownloadPhase, parseAoiDownload, type AoiDownloadPhase } from './aoiDownloads';
export type { ArchivesApi } from './archives';
export type { BandsetsApi } from './bandsets';
export type { BlocksApi } from './blocks';
export type { CatalogsApi } from './catalogs';
export type { DeliveriesApi } from './deliveries';
export type { DownloadsApi } from './downloads';
export type { IndicesApi } from './indices';
export type { InsightRunsApi, InsightRunFilter } from './insightRuns';
export { readInsightList, readInsightRun, RUN_METADATA } from './insightRuns';
export type { OrderItemsApi } from './orderItems';
export type { OrdersApi } from './orders';
export type { ProjectsApi } from './projects';
export type { ReportsApi } from './reports';
export type { SearchApi } from './search';
export type { StoresApi } from './stores';
export type { VisualizationsApi } from './visualizations';
export { pngSize, type VisualizationPng, type VisualizationPngApi } from './visualizationPng';
export type { VisualizationStylesApi } from './visualizationStyles';
export { legendFromRange, looksLikeSld, sldFor, LEGEND_CLASSES } from './visualizationStyles';
export type { WorkflowsApi, WorkflowFilter, JobFilter } from './workflows';
export { readJob, readJobList, readTask, readValErrors, readWorkflow, readWorkflowSpec, valErrorsOf } from './workflows';
export { orderTasks, graphProblemText, graphProblemsText, type GraphProblem, type GraphOrder, type GraphTask } from './taskGraph';
export { workState, isWorkPending, percentOf, durationSeconds, failureTypeText, type WorkState } from './workflowState';
export * from './records';
