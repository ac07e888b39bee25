/**
 * One definition of every record the service sends or accepts, shared by the API client
 * (`src/api`) and the sandbox (`src/sandbox`). Field names follow docs/service-interface.md
 * exactly; wire quirks (string bboxes, the singular
 * `visualization` key, `paid_at: ""`) are kept here as they travel, and normalised by the
 * client at the edge (`normalize.ts`).
 *
 * Records are open: a real service may add fields, and the client keeps them.
 */

// ---------------------------------------------------------------- GeoJSON (the subset used)

export type Position = [number, number] | [number, number, number];

export interface Polygon {
  type: 'Polygon';
  coordinates: Position[][];
}

export interface MultiPolygon {
  type: 'MultiPolygon';
  coordinates: Position[][][];
}

export interface Point {
  type: 'Point';
  coordinates: Position;
}

export interface LineString {
  type: 'LineString';
  coordinates: Position[];
}

export type Geometry = Polygon | MultiPolygon | Point | LineString;

export interface Feature<G extends Geometry = Geometry> {
  type: 'Feature';
  geometry: G;
  properties: Record<string, unknown> | null;
  id?: string | number;
}

export interface FeatureCollection<G extends Geometry = Geometry> {
  type: 'FeatureCollection';
  features: Feature<G>[];
}

// ---------------------------------------------------------------- common shapes

/** `pagination` of offset/limit listings. */
export interface Pagination {
  limit: number;
  offset: number;
  total: number;
}

/** Error envelope of most endpoints; archive endpoints send an object as `details`. */
export interface ErrorBody {
  error: {
    code: string;
    message: string;
    details: string | Record<string, unknown>;
  };
}

/** Project endpoints declare a free-form object; the sandbox sends `{message}`. */
export interface ProjectErrorBody {
  message: string;
  [key: string]: unknown;
}

export interface Link {
  href: string;
  rel: string;
  title?: string;
  type?: string;
  /** STAC API POST paging links carry the body to send for the next page. */
  method?: 'GET' | 'POST';
  body?: Record<string, unknown>;
}

export interface Band {
  name: string;
  wavelength: number;
}

// ---------------------------------------------------------------- projects

export interface Project {
  id: string;
  name: string;
  title: string;
  org_id: string;
  /** Only in the list response. */
  members_count?: number;
  created_at: string;
  updated_at: string;
  metadata: Record<string, unknown>;
}

export interface ProjectList {
  count: number;
  projects: Project[];
}

export interface ProjectResponse {
  project: Project;
}

// ---------------------------------------------------------------- bandsets

export interface Bandset {
  id: string;
  name: string;
  description: string;
  captures: number;
  bands: Band[];
}

export interface BandsetList {
  bandsets: Bandset[];
}

/** The bandset as it appears inside an order item. */
export interface OrderItemBandset {
  bandset_id: string;
  bands: Band[];
  custom: number[][];
}

// ---------------------------------------------------------------- AOIs, assets, visualizations

export type ProcessingStatus = 'processing' | 'success' | 'failed' | (string & {});

export interface Aoi {
  aoi_id: string;
  name: string;
  description: string;
  satellite_id: string;
  project_id: string;
  images: Record<string, unknown>;
  eo_bands: string[];
  geometry: Polygon;
  progress: number;
  status: ProcessingStatus;
  is_favourite: boolean;
  /** ISO 8601 with `T`. */
  created_at: string;
  updated_at: string;
  user_id: string;
  area_in_sq_m: number;
  /** [longitude, latitude] */
  centroid: [number, number];
}

export interface AoiList {
  aois: Aoi[];
  pagination: Pagination;
}

/** Every field is required by the service (OpenAPI `AOICreateModelV2`). */
export interface CreateAoiRequest {
  name: string;
  description: string;
  project_id: string;
  satellite_id: string;
  geometry: Polygon;
  /** The provider of the chosen satellite's collection: `pixxel` or `planetary`. */
  provider: string;
  /** Images found by the imagery search over `geometry`. */
  item_ids: string[];
}

export interface Asset {
  id: string;
  aoi_id: string;
  visualization_id: string;
  name: string;
  description: string;
  /** A value `mosaic` occurs. */
  asset_type: string;
  band_list: string[];
  centroid: [number, number];
  geometry: Polygon;
  area_in_sq_m: number;
  /** `YYYY-MM-DD` */
  date: string;
  path: string;
  progress: number;
  status: ProcessingStatus;
  /** `YYYY-MM-DD HH:MM:SS.ffffff+00:00` */
  created_at: string;
  updated_at: string;
}

export interface AssetList {
  assets: Asset[];
  pagination: Pagination;
}

export type ExpressionType = 'composite' | 'grayscale' | 'index';

/** One class of a legend: a value range with its colour, label and share of the area. */
export interface LegendItem {
  min: number;
  max: number;
  color: string;
  label: string;
  /** Area of the class (the service does not state the unit). */
  area?: number;
  /** Percent of the visualized area, 0..100. */
  area_percentage?: number;
}

/** The legends of one date, per mode (OpenAPI `VisualizationLegends`). */
export interface VisualizationLegends {
  dynamic?: LegendItem[];
  theoretical?: LegendItem[];
}

/**
 * A visualization's `metadata` (OpenAPI `VisualizationMetadata`): legends keyed by date
 * (`YYYY_MM_DD`). Our first reading of it had no date level; the client accepts both.
 */
export interface VisualizationMetadata {
  legend?: Record<string, VisualizationLegends> | VisualizationLegends;
}

/** The first version's legend summary (a top-level `legend`), still read. */
export interface Legend {
  dynamic?: { min: number; max: number; mean: number; stddev: number; histogram: number[] };
  theoretical?: { min: number; max: number };
}

export interface Visualization {
  id: string;
  aoi_id: string;
  user_id: string;
  tenant_id: string;
  index_id: string;
  index_name: string;
  type: 'custom' | 'preset' | (string & {});
  expression: string;
  expression_type: ExpressionType;
  rescale: number[];
  progress: number;
  status: ProcessingStatus;
  assets: Asset[];
  /** `YYYY-MM-DD HH:MM:SS.ffffff+00:00` */
  created_at: string;
  updated_at: string;
  /** On the creation response, per the legend rules: legends per date and mode. */
  metadata?: VisualizationMetadata;
  /** The first version's summary form, read when a service sends it. */
  legend?: Legend;
}

/** The wire shape: the array key is `visualization`, singular. */
export interface VisualizationListWire {
  visualization: Visualization[];
  pagination: Pagination;
}

export interface CreateVisualizationRequest {
  index_id: string;
  src_asset_ids: string[];
  resolution?: number;
}

/** Which legend the service's PNG is coloured by (OpenAPI `PngRequest.visualization_mode`). */
export type VisualizationMode = 'dynamic' | 'theoretical';

/** `POST /v0/aois/{aoi_id}/visualizations/{id}/png`; `date` is `YYYY_MM_DD`. */
export interface VisualizationPngRequest {
  index_id: string;
  date: string;
  visualization_mode: VisualizationMode;
}

// ---------------------------------------------------------------- satellites, search

/** A band of a satellite: scale and offset turn stored integers into reflectance. */
export interface SatelliteBand {
  name: string;
  wavelength: number;
  scale?: number;
  offset?: number;
  spatial_resolution?: number;
}

/** A collection a satellite's imagery lives in; `provider` is what AOI creation needs. */
export interface SatelliteCollection {
  id: string;
  name: string;
  /** `pixxel` (the service's own satellites) or `planetary` (open data). */
  provider: 'pixxel' | 'planetary' | (string & {});
  queryables?: string[];
  rescale?: number[];
}

/**
 * A satellite as the OpenAPI document describes it (docs/service-interface.md, "Satellites").
 * `collection_id`, `provider` and `gsd` are filled in by the client from `collections` and
 * `bands` when the service does not send them (the first version's reading).
 */
export interface Satellite {
  id: string;
  name: string;
  bands: SatelliteBand[];
  collections: SatelliteCollection[];
  /** The bands that make a true-colour picture. */
  rgb_composite?: { red: string; green: string; blue: string };
  collection_id?: string;
  provider?: string;
  gsd?: number;
}

export interface ImagerySearchFilter {
  id: 'eo:cloud_cover' | (string & {});
  /** Integers, both required by the service. */
  min: number;
  max: number;
}

export interface ImagerySearchRequest {
  start_date: string;
  end_date: string;
  /** Both ids required: `collection_id` comes from the satellite's `collections`. */
  satellites: { satellite_id: string; collection_id: string }[];
  geometry: Polygon | MultiPolygon;
  filters?: ImagerySearchFilter[];
  /** 1..10000 */
  limit?: number;
  /** The interface's cursor, sent back in the body. */
  next_token?: string;
}

/** `pagination` of the imagery search: `skip`, not `offset`. */
export interface SkipPagination {
  limit: number;
  skip: number;
  total: number;
}

/** As the service sends it: items keyed by item id (the first version read an array). */
export interface ImagerySearchWire<I = ArchiveItemWire> {
  items: Record<string, I> | I[];
  pagination?: SkipPagination;
  next_token?: string | null;
}

/** After the client's normalisation: items in the order the service sent them. */
export interface ImagerySearchResponse<I = ArchiveItemWire> {
  items: I[];
  next_token: string | null;
  pagination?: SkipPagination;
}

// ---------------------------------------------------------------- indices

export interface Index {
  id: string;
  name: string;
  description: string;
  org_id: string;
  user_id: string;
  satellite_id: string;
  type: 'custom' | 'preset';
  expression: string;
  expression_type: ExpressionType;
  bands: string[];
  colormap: string;
  rescale: [number, number] | number[];
  created_at: string;
  updated_at: string;
}

export interface IndexList {
  indices: Index[];
  pagination: Pagination;
}

export interface CreateIndexRequest {
  name: string;
  description: string;
  expression: string;
  expression_type: ExpressionType;
  satellite_id: string;
  colormap: string;
  rescale: [number, number];
}

// ---------------------------------------------------------------- blocks and insights

export type InputFormat = 'raster' | 'vector' | 'date' | 'number' | 'string' | 'boolean';
export type InputValueType = 'url' | 'string' | 'number' | 'boolean';

export interface InputProperties {
  bands?: string[];
  dtype?: string;
  source?: string;
  date?: string;
  visualisation?: { type: string; discrete?: Record<string, string> };
  discretization?: { type: string; classes: { name: string; value: number | string; color: string }[] };
  [key: string]: unknown;
}

export interface InputDefinition {
  format: InputFormat | (string & {});
  name: string;
  type: InputValueType | (string & {});
  description: string;
  required?: boolean;
  properties?: InputProperties;
}

export type AssetSourceType = 'raw_mosaic' | 'model_output';

export interface InputValue extends InputDefinition {
  value?: string;
  stac_url?: string;
  asset_source?: { id: string; type: AssetSourceType | (string & {}) };
}

export interface BlockSpec {
  name: string;
  version: string;
  inputs: InputDefinition[];
  outputs?: InputDefinition[];
  /** The OpenAPI's further spec fields. */
  title?: string;
  description?: string;
  kind?: string;
  type?: string;
  id?: string;
  version_id?: string;
  status?: number;
  catalog_content_url?: string;
  supported_collections_id?: string[];
}

/** A block as the OpenAPI document describes it (`dexter.BlockSpecItem`). */
export interface BlockRecord {
  id?: string;
  block_status?: string;
  spec: BlockSpec;
  created_at?: string;
  err?: string;
}

/**
 * A block as the client returns it: the record plus the top-level fields the first version
 * read, filled in from `spec` when the service does not send them.
 */
export interface Block extends BlockRecord {
  id: string;
  name: string;
  display_name?: string;
  description?: string;
  mode?: 'insight' | 'workflow' | (string & {});
  version: string;
  [key: string]: unknown;
}

export interface BlockList {
  blocks: BlockRecord[];
}

/** The body that runs an insight; `*.insight.json` files hold `{name, block, input}`. */
export interface InsightRunRequest {
  name: string;
  project_id: string;
  block: { name: string; version: string };
  input: InputValue[];
  /** String map the service keeps with the run; the extension records the block here. */
  metadata?: Record<string, string>;
  estimate?: boolean;
}

/** One result of a run: shaped like an input value; `value` is its storage URL. */
export interface InsightOutput {
  name: string;
  format: InputFormat | (string & {});
  type: InputValueType | (string & {});
  value: string;
  description?: string;
  properties: InputProperties;
}

/** Statuses the sandbox moves through; a real service may send others (shown in words). */
export type InsightStatus = 'queued' | 'running' | 'success' | 'failed' | (string & {});

/**
 * An insight run as `GET /v0/aoi/{aoi_id}/insights` lists it (the OpenAPI's list item). The
 * OpenAPI types `input` and `output` as raw JSON; they hold lists of values shaped like input
 * values, and the client's reader (`api/insightRuns.ts`) always fills both as lists.
 */
export interface Insight {
  id: string;
  name: string;
  status: InsightStatus;
  /** Why a failed run failed. */
  err_msg?: string;
  estimated_time_in_min?: number;
  /** Tokens spent. */
  cost?: number;
  /** 0..100. */
  progress?: number;
  input: InputValue[];
  output: InsightOutput[];
  metadata?: Record<string, string>;
  aoi_id: string;
  created_at: string;
  created_by?: string;
  deleted_at?: string | null;
  /**
   * Not in the OpenAPI's list item: taken from a `block` field when a service sends one, else
   * from the `metadata` the extension sends with each run (`block_name`, `block_version`).
   */
  block?: { name: string; version: string };
}

/** The list body: no pagination (the OpenAPI declares none). */
export interface InsightList {
  insights: Insight[];
}

/** `PUT /v0/aoi/{aoi_id}/insights/{id}/download` picks inputs and outputs by name. */
export interface InsightDownloadRequest {
  inputs?: string[];
  outputs?: string[];
}

export interface InsightDownload {
  id?: string;
  status?: string;
  signed_url?: string;
}

// ---------------------------------------------------------------- workflows and jobs

/**
 * One validation problem of a workflow or a job (OpenAPI `dexter.ValError`): which component
 * raised it, between which two components, and why.
 */
export interface ValError {
  component_name?: string;
  from?: string;
  to?: string;
  err?: string;
  reason?: string;
}

/**
 * One block of a workflow's `spec` (our decision; docs/service-interface.md, "Workflows"):
 * `name` is the task's name in a job, `depends_on` the names of the blocks it waits for,
 * `inputs` values shaped like insight input values.
 */
export interface WorkflowBlock {
  name: string;
  block: { name: string; version: string };
  depends_on: string[];
  inputs: InputValue[];
}

/** What a workflow's (and a job's) `spec` holds, decoded from the raw JSON the service sends. */
export interface WorkflowSpec {
  blocks: WorkflowBlock[];
}

/** A workflow as the list sends it (OpenAPI `dexter.ListWorkflowItem`). */
export interface WorkflowListItem {
  id: string;
  project_id: string;
  legacy_project_id?: string;
  name: string;
  description?: string;
  created_by?: string;
  created_at: string;
  updated_at?: string;
}

/**
 * A workflow as read by id (OpenAPI `dexter.GetWorkflowsByIdTransformerResponse`). On the wire
 * `spec` is raw JSON (the OpenAPI types it as bytes); the client decodes it.
 */
export interface WorkflowWire extends WorkflowListItem {
  spec?: unknown;
  val_errors?: ValError[] | null;
  /** Tokens, as the service estimates them for one run. */
  estimated_cost?: number;
}

/** A workflow after the client's reading: `spec` decoded (or undefined when it could not be). */
export interface Workflow extends WorkflowListItem {
  spec?: WorkflowSpec;
  /** Why `spec` could not be read, when it could not. */
  spec_error?: string;
  val_errors: ValError[];
  estimated_cost?: number;
}

export interface WorkflowList {
  workflows: WorkflowListItem[];
  pagination: Pagination;
}

/** `GET /v0/workflows/{id}/estimate` (OpenAPI `dexter.GetWorkflowCostEstimateTransformerResponse`). */
export interface WorkflowEstimate {
  estimated_cost: number;
}

/** Statuses the sandbox moves jobs and tasks through; a real service may send others (shown in words). */
export type JobStatus = 'queued' | 'running' | 'success' | 'failed' | (string & {});
export type TaskStatus = 'pending' | 'queued' | 'running' | 'success' | 'failed' | 'skipped' | (string & {});

/** A job as the list sends it (OpenAPI `dexter.ListJobsItem`). */
export interface JobListItem {
  id: string;
  workflow_id: string;
  status: JobStatus;
  /** Percent; the OpenAPI types it as a string. */
  progress?: string | number;
  /** Tokens. */
  cost?: number;
  /** Seconds. */
  estimated_duration?: number;
  /** A duration as text (the sandbox: Go's form, `1m30s`). */
  time_taken?: string;
  created_by?: string;
  created_at: string;
  updated_at?: string;
  finished_at?: string;
}

/**
 * A task of a job (OpenAPI `dexter.PostWorkflowTaskGet`). `inputs`, `result` and `info_logs`
 * are raw bytes on the wire (JSON, JSON text, base64 or a list of byte values); the client
 * decodes them.
 */
export interface TaskWire {
  id: string;
  name: string;
  depends_on?: string[] | null;
  status: TaskStatus;
  /** 0..100. */
  progress?: number;
  block_info?: { id?: string; name?: string; version?: string };
  err_msg?: string;
  failure_type?: string;
  state_msg?: string;
  disclaimer?: string[] | null;
  info_logs?: unknown;
  inputs?: unknown;
  result?: unknown;
  time_taken?: string;
  /** Seconds. */
  estimated_time_duration?: number;
  created_at?: string;
  updated_at?: string;
  finished_at?: string;
  recv_time?: string;
  send_time?: string;
  block_inf_start_time?: string;
  block_inf_end_time?: string;
}

/** A job read by id or just created (OpenAPI `GetJobByIdTransformerResponse`, `PostWorkflowRunTransformerResponse`). */
export interface JobWire extends JobListItem {
  tasks?: TaskWire[] | null;
  val_errors?: ValError[] | null;
  spec?: unknown;
  exec_created_at?: string;
  exec_updated_at?: string;
}

export interface JobList {
  jobs: JobListItem[];
}

/**
 * A task after the client's reading (`api/workflows.ts`): the raw-bytes fields decoded
 * (`inputs` and `result` as the JSON they hold, or their text when they are not JSON;
 * `info_logs` as text), `depends_on` and `disclaimer` always lists.
 */
export interface JobTask extends Omit<TaskWire, 'inputs' | 'result' | 'info_logs' | 'depends_on' | 'disclaimer'> {
  depends_on: string[];
  disclaimer: string[];
  inputs?: unknown;
  result?: unknown;
  info_logs?: string;
}

/**
 * A job after the client's reading: `progress` a number (0..100), `val_errors` a list,
 * `spec` decoded; `tasks` only when the job was read by id or created (the list has none).
 */
export interface Job extends Omit<JobWire, 'progress' | 'tasks' | 'val_errors' | 'spec'> {
  progress?: number;
  tasks?: JobTask[];
  val_errors: ValError[];
  spec?: WorkflowSpec;
}

/** `PUT …/jobs/{job_id}/download` (OpenAPI `dexter.PutJobUpstreamResponseBody`). */
export interface JobDownload {
  id?: string;
  status?: string;
  signed_url?: string;
  workflowId?: string;
}

/** `PUT …/tasks/{task_id}/download` (OpenAPI `dexter.PutTaskUpstreamResponseBody`). */
export interface TaskDownload {
  id?: string;
  job_id?: string;
  workflow_id?: string;
  status?: string;
  signed_url?: string;
}

// ---------------------------------------------------------------- visualization styles

/** One class of a legend as `PUT …/metadata` takes it; a dynamic legend's bounds may be null (computed). */
export interface LegendItemUpdate {
  min: number | null;
  max: number | null;
  color: string;
  label: string;
}

/** `PUT /v0/aois/{aoi_id}/visualizations/{id}/metadata` (OpenAPI `atlas.VisualizationMetadataUpdateRequest`). */
export interface VisualizationMetadataUpdate {
  visualization_mode: VisualizationMode;
  /** Classes per date (`YYYY_MM_DD`). */
  legend: Record<string, LegendItemUpdate[]>;
  /** 1..15, required for the dynamic mode. */
  dynamic_bins?: number;
}

/** `PATCH …/metadata` (OpenAPI `atlas.VisualizationMetadataRollbackRequest`): the service's own legend again. */
export interface VisualizationMetadataRollback {
  index_id: string;
  /** `YYYY_MM_DD` */
  dates: string[];
  visualization_mode: VisualizationMode;
}

/** `POST …/sld` (OpenAPI `atlas.SLDRequest`). */
export interface SldRequest {
  /** `YYYY_MM_DD` */
  dates: string[];
  visualization_modes: VisualizationMode[];
}

/** The answer: SLD XML text by mode, then by date (OpenAPI `atlas.SLDResponse`). */
export interface SldResponse {
  sld: Partial<Record<VisualizationMode, Record<string, string>>>;
}

// ---------------------------------------------------------------- orders

export type OrderStatus = 'PAID' | 'REFUND' | 'UNPAID' | 'PAYMENT_IN_PROGRESS';
export type OrderItemStatus = 'DRAFT' | 'ACTIVE' | 'FULFILLED' | 'CANCELLED' | 'FAILED' | 'PARTIALLY_FULFILLED';
export type PaymentStatus = 'PAID' | 'PARTIAL-REFUND' | 'REFUND' | 'UNPAID' | 'PARTIAL-MONTHLY';
export type FeasibilityStatus = 'FAILED' | 'WEAK_SUCCESS' | 'SUCCESS';
export type OrderItemType = 'TASKING' | 'ARCHIVE' | 'RECURRING';

export interface CloudDelivery {
  /** Store id. */
  config: string;
  path: string;
}

export interface Uplift {
  amount: number;
  item_id: string;
  percentage: number;
  subtitle: string;
  title: string;
}

export interface Task {
  id: string;
  order_item_id: string;
  type: string;
  status: string;
  delivery_status: string;
  /** `DD-MM-YYYY` */
  start_date: string;
  end_date: string;
  number_of_strips: number;
  tokens_used: number;
  transaction_id: string;
  created_at: string;
  updated_at: string;
  created_by: string;
  updated_by: string;
}

/**
 * One entry of an order item's `validation_errors`: the OpenAPI's map from field name to
 * its messages (`{"geometry": ["area exceeds …"]}`). The first version read
 * `{field, message, severity?}`; the client still reads that (orderSummary.ts).
 */
export type ValidationError = Record<string, string[]>;

/** The first version's entry, still read when a service sends it. */
export interface LegacyValidationError {
  field?: string;
  message: string;
  severity?: string;
}

export interface OrderItem {
  id: string;
  order_id: string;
  org_id: string;
  user_id: string;
  project_id: string;
  name: string;
  type: OrderItemType;
  status: OrderItemStatus;
  payment_status: PaymentStatus;
  feasibility_status: FeasibilityStatus;
  last_feasibility_check: string;
  usecase: string;
  area: number;
  base_amount: number;
  final_amount: number;
  tokens_used: number;
  cloud_cover: number;
  off_nadir: number;
  number_of_bands: number;
  image_type: string;
  delivery_speed: string;
  recurrence: string;
  no_of_occurrences: number;
  start_date: string;
  end_date: string;
  occurrences: { start: string; end: string }[];
  bandset: OrderItemBandset | null;
  images: { geometry: Polygon; item_id: string }[];
  uplifts: Uplift[];
  cloud_delivery: CloudDelivery | null;
  /** In order-item listings. */
  tasks?: Task[];
  validation_errors?: (ValidationError | LegacyValidationError)[];
  transaction_id: string;
  created_at: string;
  updated_at: string;
  created_by: string;
  updated_by: string;
}

export interface Order {
  /** Absent on a dry run (nothing stored). */
  id?: string;
  org_id: string;
  user_id: string;
  status: OrderStatus;
  total_amount: number;
  transaction_id: string;
  /** May be an empty string. */
  paid_at: string;
  created_at: string;
  updated_at: string;
  created_by: string;
  updated_by: string;
  order_items: OrderItem[];
}

export interface OrderList {
  orders: Order[];
  pagination: Pagination;
}

export interface OrderItemList {
  order_items: OrderItem[];
  pagination: Pagination;
}

export interface OrderItemRequest {
  project_id?: string;
  name?: string;
  geometry: FeatureCollection<Polygon>;
  recurrence?: string;
  start_date?: string;
  end_date?: string;
  no_of_occurrences?: number;
  bandset?: { bandset_id: string };
  item_ids?: string[];
  cloud_cover?: number;
  off_nadir?: number;
  delivery_speed?: string;
  /** Required by the service for every item (OpenAPI `docOriginalOrderItem`). */
  usecase: string;
  cloud_delivery?: CloudDelivery;
}

export interface CreateOrderRequest {
  dry_run: boolean;
  order_items: OrderItemRequest[];
}

// ---------------------------------------------------------------- archives (STAC)

export interface StacProvider {
  name: string;
  description?: string;
  roles: string[];
  url?: string;
}

export interface ArchiveCollection {
  id: string;
  type: 'Collection';
  title: string;
  description: string;
  license: string;
  stac_version: string;
  stac_extensions?: string[];
  created_at: string;
  updated_at: string;
  extent: { spatial: { bbox: number[][] }; temporal: { interval: (string | null)[][] } };
  links: Link[];
  providers: StacProvider[];
  summaries?: Record<string, unknown>;
  keywords?: string[];
}

export interface ArchiveCollectionList {
  collections: ArchiveCollection[];
  links?: Link[];
}

export interface StacAsset {
  href: string;
  type?: string;
  title?: string;
  roles?: string[];
  [key: string]: unknown;
}

export interface ArchiveItemProperties {
  datetime: string | null;
  altitude?: number;
  constellation?: string;
  created?: string;
  startdatetime?: string;
  updated?: string;
  description?: string;
  title?: string;
  license?: string;
  platform?: string;
  instruments?: string[];
  gsd?: number;
  'eo:cloud_cover'?: number;
  'proj:code'?: string;
  'proj:shape'?: [number, number];
  'proj:transform'?: number[];
  'rd:anomalous_pixels'?: number;
  'rd:earth_sun_distance'?: number;
  'rd:product_level'?: string;
  'rd:sat_id'?: string;
  'rd:type'?: string;
  'sci:doi'?: string;
  'view:off_nadir'?: number;
  'view:scene_center_lat'?: number;
  'view:scene_center_lon'?: number;
  'view:sun_azimuth'?: number;
  'view:sun_elevation'?: number;
  [key: string]: unknown;
}

interface ArchiveItemBase {
  id: string;
  type: 'Feature';
  collection: string;
  stac_version: string;
  stac_extensions: string[];
  /** `null` is valid GeoJSON and STAC: an item without a footprint (listed, not drawn). */
  geometry: Geometry | null;
  properties: ArchiveItemProperties;
  assets: Record<string, StacAsset>;
  links: Link[];
}

/** As the service sends it: `bbox` values rendered as strings. */
export interface ArchiveItemWire extends ArchiveItemBase {
  bbox: (string | number)[];
}

/** After the client's normalisation: `bbox` as numbers, absent when the item has none (no footprint). */
export interface ArchiveItem extends ArchiveItemBase {
  bbox?: [number, number, number, number];
}

export interface ItemCollection<I = ArchiveItemWire> {
  type: 'FeatureCollection';
  features: I[];
  links: Link[];
  numberMatched?: number;
  numberReturned?: number;
  context?: { returned: number; limit: number; matched?: number };
}

export type QueryOperator = 'eq' | 'neq' | 'lt' | 'lte' | 'gt' | 'gte' | 'in';

export interface ArchiveSearchRequest {
  bbox?: [number, number, number, number];
  collections?: string[];
  datetime?: string;
  ids?: string[];
  intersects?: Geometry;
  limit?: number;
  offset?: number;
  query?: Record<string, Partial<Record<QueryOperator, unknown>>>;
  sortby?: { field: string; direction: 'asc' | 'desc' }[];
}

// ---------------------------------------------------------------- catalogs, deliveries, downloads

export interface Catalog {
  id: string;
  org_id: string;
  task_id: string;
  bandset_id: string;
  area: number;
  delivery_status: string;
  created_at: string;
  updated_at: string;
  created_by: string;
  updated_by: string;
  /** Extra lineage the sandbox sends so the extension can show a footprint. */
  order_id?: string;
  order_item_id?: string;
  item_id?: string;
  geometry?: Polygon;
  /** The imagery's STAC item (OpenAPI `clerk.STACItem`): its footprint is `details.geometry`. */
  details?: { id?: string; type?: string; collection?: string; geometry?: Geometry; bbox?: number[]; properties?: Record<string, unknown> };
  [key: string]: unknown;
}

export interface CatalogList {
  catalogs: Catalog[];
  pagination: Pagination;
}

export interface CatalogSearchRequest {
  bbox?: [number, number, number, number];
  datetime?: string;
  ids?: string[];
  item_ids?: string[];
  order_ids?: string[];
  order_item_ids?: string[];
  limit?: number;
  offset?: number;
}

export type DeliveryStatus = 'CREATED' | 'IN_PROGRESS' | 'SUCCESS' | 'FAILED';

export interface Delivery {
  delivery_id: string;
  catalog_id: string;
  task_id: string;
  status: DeliveryStatus | (string & {});
  target_path: string;
  cloud_delivery: CloudDelivery;
  created_at: string;
  updated_at: string;
  created_by: string;
  updated_by: string;
}

export interface DeliveryRequest {
  catalog_ids?: string[];
  order_item_ids?: string[];
  cloud_info: CloudDelivery;
}

export interface CreateDeliveriesRequest {
  deliveries: DeliveryRequest[];
}

export interface DeliveryList {
  deliveries: Delivery[];
}

export interface DeliveryFilter {
  delivery_id?: string;
  catalog_id?: string;
  task_id?: string;
  order_item_id?: string;
}

export type DownloadStatus = 'success' | 'created' | 'failed' | 'in_progress';

export interface Download {
  id: string;
  status: DownloadStatus;
  /** Only on `success`; expires. */
  signed_url?: string;
}

export interface CreateDownloadRequest {
  catalog_ids?: string[];
  order_item_ids?: string[];
}

/**
 * A download of AOI assets (OpenAPI `DownloadReadModel`): keyed `download_id`, and its status
 * has no enumeration (the example is `SUCCESS`), so it is read without regard to case.
 */
export interface AoiDownload {
  download_id: string;
  status: string;
  /** When ready; expires. */
  signed_url?: string;
}

export interface CreateAoiDownloadRequest {
  asset_ids: string[];
}

// ---------------------------------------------------------------- stores

export type StoreType = 'S3' | 'GCS' | 'AZBLOB';

export interface Store {
  id: string;
  name: string;
  type: StoreType;
  configs: Record<string, string>;
  labels: Record<string, string>;
  created_at: string;
  updated_at: string;
  created_by: string;
}

export interface StoreList {
  stores: Store[];
}

export interface CreateStoreRequest {
  name: string;
  type: StoreType;
  configs: Record<string, string>;
  /** Write-only: never returned, logged or stored by the extension. */
  secrets: Record<string, string>;
  labels?: Record<string, string>;
}

/** Config keys every store type takes (docs/service-interface.md, "Cloud stores"): the OpenAPI's one form. */
export const STORE_CONFIGS = ['bucket', 'region'] as const;
export const STORE_OPTIONAL_CONFIGS = ['path_prefix'] as const;

/**
 * The store rules of docs/service-interface.md, shared by the sandbox's validation and the
 * extension's: `configs` required, `optionalConfigs` sent when given, `secrets` required.
 */
export const STORE_RULES: Record<StoreType, { configs: readonly string[]; optionalConfigs: readonly string[]; secrets: readonly string[] }> = {
  S3: { configs: STORE_CONFIGS, optionalConfigs: STORE_OPTIONAL_CONFIGS, secrets: ['access_key_id', 'secret_access_key'] },
  GCS: { configs: STORE_CONFIGS, optionalConfigs: STORE_OPTIONAL_CONFIGS, secrets: ['project_id', 'service_account_credentials'] },
  AZBLOB: {
    configs: STORE_CONFIGS,
    optionalConfigs: STORE_OPTIONAL_CONFIGS,
    secrets: ['account_name', 'tenant_id', 'client_id', 'client_secret'],
  },
};

// ---------------------------------------------------------------- reports

export const REPORT_COLUMNS = ['order_id', 'order_item_id', 'name', 'type', 'status', 'payment_status', 'area', 'final_amount', 'created_at'] as const;

/**
 * A report row keyed by column. The sandbox writes REPORT_COLUMNS; a real service's columns
 * are not documented, so readers must not assume any of them.
 */
export type ReportRow = Record<string, string>;
