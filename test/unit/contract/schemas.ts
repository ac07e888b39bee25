/**
 * JSON Schemas of the service, written from the published OpenAPI document in our words
 * (docs/service-interface.md). Only what a schema can hold the service to is here: required
 * fields the document marks, types, enumerations. Where the interface and the OpenAPI
 * disagree, the schema says which one it follows and why.
 */
type Schema = Record<string, unknown>;

const str = { type: 'string' };
const int = { type: 'integer' };
const num = { type: 'number' };
const bool = { type: 'boolean' };
const strs = { type: 'array', items: str };
const nums = { type: 'array', items: num };
const obj = (properties: Record<string, Schema>, required: string[] = []): Schema => ({ type: 'object', properties, required });
const arr = (items: Schema): Schema => ({ type: 'array', items });

export const pagination = obj({ limit: int, offset: int, total: int }, ['limit', 'offset', 'total']);
const polygon = obj({ type: { const: 'Polygon' }, coordinates: arr(arr(nums)) }, ['type', 'coordinates']);
const geometry = obj(
  { type: { enum: ['Point', 'MultiPoint', 'LineString', 'MultiLineString', 'Polygon', 'MultiPolygon', 'GeometryCollection'] }, coordinates: {} },
  ['type'],
);
const link = obj({ href: str, rel: str, title: str, type: str }, ['href', 'rel']);

// ---------------------------------------------------------------- responses

export const satellites = obj(
  {
    satellites: arr(
      obj(
        {
          id: str,
          name: str,
          bands: arr(obj({ name: str, wavelength: num, scale: num, offset: num, spatial_resolution: num }, ['name'])),
          collections: arr(obj({ id: str, name: str, provider: { enum: ['pixxel', 'planetary'] }, queryables: strs, rescale: arr(int) }, ['id', 'provider'])),
          rgb_composite: obj({ red: str, green: str, blue: str }, ['red', 'green', 'blue']),
        },
        ['id', 'collections'],
      ),
    ),
  },
  ['satellites'],
);

/** The STAC item of the archive: `bbox` values are strings in the document (and the interface). */
export const archiveItem = obj(
  {
    id: str,
    type: str,
    collection: str,
    stac_version: str,
    stac_extensions: strs,
    bbox: arr(str),
    geometry,
    properties: { type: 'object' },
    assets: { type: 'object', additionalProperties: obj({ href: str, type: str, title: str, roles: strs }, ['href']) },
    links: arr(link),
  },
  ['id'],
);

/**
 * `items` keyed by item id with `pagination {limit, skip, total}` (OpenAPI lens.V2Response);
 * plus `next_token`, which the OpenAPI does not list but the interface says the response
 * carries: the interface wins where it speaks.
 */
export const imagerySearch = obj(
  {
    items: { type: 'object', additionalProperties: archiveItem },
    pagination: obj({ limit: int, skip: int, total: int }, ['limit', 'skip', 'total']),
    next_token: { type: ['string', 'null'] },
  },
  ['items', 'pagination', 'next_token'],
);

const aoiStatus = { enum: ['success', 'started', 'running', 'failed', 'updating', 'partial_success'] };
export const aoi = obj(
  {
    aoi_id: str,
    name: str,
    description: str,
    satellite_id: str,
    project_id: str,
    images: { type: 'object' },
    eo_bands: strs,
    geometry: polygon,
    progress: int,
    status: aoiStatus,
    is_favourite: bool,
    created_at: str,
    updated_at: str,
    user_id: str,
    area_in_sq_m: num,
    centroid: nums,
  },
  ['aoi_id', 'name', 'geometry', 'status'],
);
export const aoiList = obj({ aois: arr(aoi), pagination }, ['aois', 'pagination']);

const asset = obj(
  {
    id: str,
    aoi_id: str,
    asset_type: { enum: ['mosaic', 'stac_item', 'visualization'] },
    band_list: strs,
    centroid: nums,
    geometry: polygon,
    date: str,
    path: str,
    progress: int,
    status: { enum: ['success', 'failed', 'started', 'creating'] },
    created_at: str,
    updated_at: str,
    visualization_id: str,
  },
  ['id', 'status'],
);
export const assetList = obj({ assets: arr(asset), pagination }, ['assets', 'pagination']);

/** OpenAPI `rescale: [integer]`; the interface only says "array of numbers", which integers are. */
export const index = obj(
  {
    id: str,
    name: str,
    description: str,
    satellite_id: str,
    type: { enum: ['custom', 'preset'] },
    expression: str,
    expression_type: { enum: ['composite', 'index', 'grayscale'] },
    bands: strs,
    colormap: str,
    rescale: arr(int),
    created_at: str,
    updated_at: str,
  },
  ['id', 'name', 'type', 'expression_type'],
);
export const indexList = obj({ indices: arr(index), pagination }, ['indices', 'pagination']);

const visStatus = { enum: ['creating', 'success', 'failed', 'partial_success'] };
/** The list's array key is `visualization`, singular (interface and OpenAPI agree). */
export const visualizationList = obj(
  {
    visualization: arr(
      obj({ id: str, aoi_id: str, index_id: str, user_id: str, tenant_id: str, progress: int, status: visStatus, created_at: str, updated_at: str }, [
        'id',
        'index_id',
        'status',
      ]),
    ),
    pagination,
  },
  ['visualization', 'pagination'],
);
const legendItem = obj({ min: num, max: num, color: str, label: str, area: num, area_percentage: num }, ['min', 'max', 'color', 'label']);
export const visualizationDetail = obj(
  {
    id: str,
    aoi_id: str,
    index_id: str,
    index_name: str,
    expression_type: { enum: ['composite', 'index', 'grayscale'] },
    status: visStatus,
    progress: int,
    assets: arr(asset),
    metadata: obj({
      legend: {
        type: 'object',
        propertyNames: { pattern: '^\\d{4}_\\d{2}_\\d{2}$' },
        additionalProperties: obj({ dynamic: arr(legendItem), theoretical: arr(legendItem) }),
      },
    }),
  },
  ['id', 'index_id', 'status'],
);

/** OpenAPI dexter.BlockSpecItem: the block's name, title and kind live in `spec`. */
const blockRecord = obj(
  {
    id: str,
    block_status: str,
    created_at: str,
    err: str,
    spec: obj(
      {
        name: str,
        title: str,
        version: str,
        version_id: str,
        kind: str,
        type: str,
        description: str,
        inputs: arr({ type: 'object' }),
        outputs: arr({ type: 'object' }),
      },
      ['name', 'version', 'inputs'],
    ),
  },
  ['spec'],
);
export const blockList = obj({ blocks: arr(blockRecord) }, ['blocks']);
export const block = blockRecord;

// Insight runs. The OpenAPI types a run's `input` and `output` as byte arrays (raw JSON in the
// service's code); what they carry is a JSON list of values shaped like input values, which
// is what the sandbox serves and the schema holds it to. The list has no pagination.
const runValue = obj({ name: str, format: str, type: str, value: str, properties: { type: 'object' } }, ['name']);
export const insightRun = obj(
  {
    id: str,
    name: str,
    status: str,
    err_msg: str,
    estimated_time_in_min: int,
    cost: int,
    progress: num,
    input: arr(runValue),
    output: arr(runValue),
    metadata: { type: 'object', additionalProperties: str },
    aoi_id: str,
    created_at: str,
    created_by: str,
    deleted_at: str,
  },
  ['id'],
);
export const insightRunList = { ...obj({ insights: arr(insightRun) }, ['insights']), not: { required: ['pagination'] } };
export const insightEstimate = obj({ estimate: int }, ['estimate']);
export const insightCreated = obj({ id: str, message: str }, ['id']);
export const insightDownload = obj({ id: str, status: str, signed_url: str }, ['signed_url']);

// Workflows and jobs (OpenAPI `dexter.*`). `spec`, a task's `inputs` and `result` are typed as
// byte arrays (Go's raw JSON); what they carry is JSON, which the sandbox sends inline (our
// decision, docs/service-interface.md "Workflows"): a workflow spec `{blocks: [...]}`, inputs
// and results as lists of values. `info_logs` is Go's []byte, which travels as base64 text.
// A job's `progress` is text (the OpenAPI types it string), a task's a number.
const valError = obj({ from: str, to: str, err: str, reason: str, component_name: str });
const specBlock = obj({ name: str, block: obj({ name: str, version: str }, ['name', 'version']), depends_on: strs, inputs: arr({ type: 'object' }) }, [
  'name',
  'block',
  'depends_on',
]);
export const workflowSpec = obj({ blocks: arr(specBlock) }, ['blocks']);
const workflowItem = obj({ id: str, project_id: str, legacy_project_id: str, name: str, created_by: str, description: str, created_at: str, updated_at: str }, [
  'id',
  'name',
]);
export const workflowList = obj({ workflows: arr(workflowItem), pagination }, ['workflows', 'pagination']);
export const workflow = obj(
  {
    id: str,
    estimated_cost: int,
    name: str,
    created_by: str,
    description: str,
    spec: workflowSpec,
    created_at: str,
    updated_at: str,
    val_errors: arr(valError),
    project_id: str,
  },
  ['id', 'spec'],
);
export const workflowEstimate = obj({ estimated_cost: int }, ['estimated_cost']);
const jobItemFields = {
  created_by: str,
  id: str,
  cost: int,
  workflow_id: str,
  created_at: str,
  updated_at: str,
  finished_at: str,
  estimated_duration: int,
  progress: str,
  status: str,
  time_taken: str,
};
export const jobList = { ...obj({ jobs: arr(obj(jobItemFields, ['id', 'status'])) }, ['jobs']), not: { required: ['pagination'] } };
export const jobTask = obj(
  {
    id: str,
    info_logs: str,
    created_at: str,
    updated_at: str,
    finished_at: str,
    estimated_time_duration: int,
    time_taken: str,
    status: str,
    state_msg: str,
    inputs: arr({ type: 'object' }),
    result: arr(obj({ name: str, format: str, type: str, value: str }, ['name', 'value'])),
    depends_on: strs,
    name: str,
    progress: num,
    disclaimer: strs,
    recv_time: str,
    send_time: str,
    block_inf_start_time: str,
    block_inf_end_time: str,
    block_info: obj({ id: str, name: str, version: str }),
    err_msg: str,
    failure_type: str,
  },
  ['id', 'name', 'status', 'depends_on'],
);
export const job = obj({ ...jobItemFields, tasks: arr(jobTask), val_errors: arr(valError), spec: workflowSpec, exec_created_at: str, exec_updated_at: str }, [
  'id',
  'status',
  'tasks',
]);
export const jobDownload = obj({ id: str, status: str, signed_url: str, workflowId: str }, ['signed_url']);
export const taskDownload = obj({ id: str, job_id: str, workflow_id: str, status: str, signed_url: str }, ['signed_url']);
/** A refused job: the common error body, its `details` carrying the validation errors (our decision). */
export const jobRefused = obj(
  { error: obj({ code: str, message: str, details: obj({ val_errors: arr(valError) }, ['val_errors']) }, ['message', 'details']) },
  ['error'],
);

// Visualization styling (OpenAPI `atlas.*`).
export const visualizationMetadata = obj(
  { legend: { type: 'object', additionalProperties: obj({ dynamic: arr(legendItem), theoretical: arr(legendItem) }) } },
  ['legend'],
);
export const sldResponse = obj({ sld: { type: 'object', additionalProperties: { type: 'object', additionalProperties: str } } }, ['sld']);

export const bandsets = obj(
  { bandsets: arr(obj({ id: str, name: str, description: str, captures: int, bands: arr(obj({ name: str, wavelength: num })) }, ['id'])) },
  ['bandsets'],
);

const task = obj(
  {
    id: str,
    order_item_id: str,
    type: { enum: ['ARCHIVE', 'TASKING'] },
    status: { enum: ['DRAFT', 'SUBMITTED', 'IN_PROGRESS', 'FULFILLED', 'PARTIALLY_FULFILLED', 'FAILED', 'CANCELLED', 'EXPIRED'] },
    start_date: str,
    end_date: str,
  },
  ['id'],
);
/** OpenAPI clerk.OrderItem: `validation_errors` is a list of maps of field to messages. */
const orderItem = obj(
  {
    id: str,
    order_id: str,
    project_id: str,
    name: str,
    type: { enum: ['TASKING', 'ARCHIVE', 'RECURRING'] },
    status: { enum: ['DRAFT', 'ACTIVE', 'FULFILLED', 'CANCELLED', 'FAILED', 'PARTIALLY_FULFILLED'] },
    payment_status: { enum: ['PAID', 'PARTIAL-REFUND', 'REFUND', 'UNPAID', 'PARTIAL-MONTHLY'] },
    feasibility_status: { enum: ['NOT_APPLICABLE', 'FAILED', 'WEAK_SUCCESS', 'SUCCESS', 'UNSPECIFIED'] },
    usecase: str,
    area: num,
    base_amount: num,
    final_amount: num,
    recurrence: { enum: ['ONCE', 'MONTHLY', 'BIMONTHLY', 'QUARTERLY', 'NOT_APPLICABLE'] },
    tasks: arr(task),
    validation_errors: arr({ type: 'object', additionalProperties: strs }),
  },
  ['usecase'],
);
const order = obj(
  {
    id: str,
    status: { enum: ['PAID', 'REFUND', 'UNPAID', 'PAYMENT_IN_PROGRESS'] },
    total_amount: num,
    paid_at: str,
    order_items: arr(orderItem),
  },
  ['status', 'order_items'],
);
export const orderCreated = { ...order, required: ['id', 'status', 'order_items'] };
export const orderList = obj({ orders: arr(order), pagination }, ['orders', 'pagination']);
export const orderItemList = obj({ order_items: arr(orderItem), pagination }, ['order_items', 'pagination']);

export const archiveCollections = obj({ collections: arr(obj({ id: str, type: str, title: str, extent: { type: 'object' }, links: arr(link) }, ['id'])) }, [
  'collections',
]);
export const featureCollection = obj({ type: { const: 'FeatureCollection' }, features: arr(archiveItem), links: arr(link) }, ['type', 'features']);

/** OpenAPI clerk.Catalog: the footprint is `details`, a STAC item with a numeric bbox. */
export const catalogList = obj(
  {
    catalogs: arr(
      obj({ id: str, task_id: str, area: num, delivery_status: str, details: obj({ id: str, geometry: obj({ type: str, coordinates: {} }), bbox: nums }) }, [
        'id',
      ]),
    ),
    pagination,
  },
  ['catalogs', 'pagination'],
);

/** OpenAPI domain.StoreConfigs: bucket and region are required (the interface's S3 form). */
export const storeList = obj(
  {
    stores: arr(
      obj(
        {
          id: str,
          name: str,
          type: { enum: ['S3', 'GCS', 'AZBLOB'] },
          configs: obj({ bucket: str, region: str, path_prefix: str }, ['bucket', 'region']),
          labels: { type: 'object', additionalProperties: str },
        },
        ['id', 'name', 'type'],
      ),
    ),
  },
  ['stores'],
);

export const deliveryList = obj(
  {
    deliveries: arr(
      obj(
        {
          delivery_id: str,
          catalog_id: str,
          status: { enum: ['UNSPECIFIED', 'CREATED', 'FAILED', 'IN_PROGRESS', 'SUCCESS'] },
          target_path: str,
          cloud_delivery: obj({ config: str, path: str }, ['config']),
        },
        ['delivery_id', 'status'],
      ),
    ),
  },
  ['deliveries'],
);
export const download = obj({ id: str, status: { enum: ['success', 'created', 'failed', 'in_progress'] }, signed_url: str }, ['id', 'status']);
/**
 * OpenAPI atlas.DownloadReadModel (AOI asset downloads): keyed `download_id`, not `id`; the
 * status has no enumeration, its example is upper case (`SUCCESS`), which the sandbox follows.
 */
export const aoiDownload = obj({ download_id: str, status: { enum: ['CREATED', 'IN_PROGRESS', 'SUCCESS', 'FAILED'] }, signed_url: str }, [
  'download_id',
  'status',
]);
/** The OpenAPI labels the PNG endpoint's errors `image/png` with the ErrorResponse schema: the body is that JSON. */
export const errorResponse = obj({ error: obj({ code: str, message: str, details: {} }, ['message']) }, ['error']);

export const projectList = obj({ count: int, projects: arr(obj({ id: str, name: str, title: str, org_id: str, members_count: int }, ['id'])) }, [
  'count',
  'projects',
]);

// ---------------------------------------------------------------- requests

/** OpenAPI lens.V2Query: satellite and collection ids both required; filters {id, min, max} integers. */
export const imagerySearchRequest = obj(
  {
    start_date: str,
    end_date: str,
    geometry: obj({ type: { enum: ['Polygon', 'MultiPolygon'] }, coordinates: {} }, ['type', 'coordinates']),
    satellites: { ...arr(obj({ satellite_id: str, collection_id: str }, ['satellite_id', 'collection_id'])), minItems: 1 },
    filters: arr(obj({ id: str, min: int, max: int }, ['id', 'min', 'max'])),
    limit: { type: 'integer', minimum: 1, maximum: 10_000 },
    next_token: str,
  },
  ['start_date', 'end_date', 'geometry', 'satellites'],
);

/** OpenAPI atlas.AOICreateModelV2: every field required. */
/** `block.version` and `input` are required; `metadata` is a map of strings. */
export const createInsightRequest = obj(
  {
    name: str,
    project_id: str,
    estimate: bool,
    block: obj({ name: str, version: str }, ['version']),
    input: arr({ type: 'object' }),
    metadata: { type: 'object', additionalProperties: str },
  },
  ['block', 'input'],
);

/** `PUT …/metadata` (OpenAPI `atlas.VisualizationMetadataUpdateRequest`). */
export const metadataUpdateRequest = obj(
  {
    visualization_mode: { enum: ['dynamic', 'theoretical'] },
    legend: {
      type: 'object',
      additionalProperties: arr(obj({ color: str, label: str, max: { type: ['number', 'null'] }, min: { type: ['number', 'null'] } })),
    },
    dynamic_bins: { type: 'integer', minimum: 1, maximum: 15 },
  },
  ['legend', 'visualization_mode'],
);
/** `PATCH …/metadata` (OpenAPI `atlas.VisualizationMetadataRollbackRequest`). */
export const metadataRollbackRequest = obj({ index_id: str, dates: strs, visualization_mode: { enum: ['dynamic', 'theoretical'] } }, [
  'dates',
  'index_id',
  'visualization_mode',
]);
/** `POST …/sld` (OpenAPI `atlas.SLDRequest`). */
export const sldRequest = obj({ dates: strs, visualization_modes: arr({ enum: ['dynamic', 'theoretical'] }) }, ['dates', 'visualization_modes']);

export const createAoiRequest = obj(
  {
    name: str,
    description: str,
    satellite_id: str,
    provider: { enum: ['pixxel', 'planetary'] },
    project_id: str,
    geometry: polygon,
    item_ids: { ...strs, minItems: 1 },
  },
  ['name', 'description', 'satellite_id', 'provider', 'project_id', 'geometry', 'item_ids'],
);

/** OpenAPI clerk.docOriginalOrderItem: project_id, usecase and geometry on every item. */
export const createOrderRequest = obj(
  {
    dry_run: bool,
    order_items: {
      ...arr(
        obj(
          {
            project_id: str,
            name: str,
            usecase: { type: 'string', minLength: 1 },
            item_ids: strs,
            geometry: obj(
              {
                type: { const: 'FeatureCollection' },
                features: arr(
                  obj({ type: { const: 'Feature' }, geometry: obj({ type: { enum: ['Polygon', 'MultiPolygon'] } }, ['type']) }, ['type', 'geometry']),
                ),
              },
              ['type', 'features'],
            ),
            recurrence: { enum: ['ONCE', 'MONTHLY', 'BIMONTHLY', 'QUARTERLY', 'NOT_APPLICABLE'] },
            cloud_cover: int,
            off_nadir: int,
          },
          ['project_id', 'usecase', 'geometry'],
        ),
      ),
      minItems: 1,
    },
  },
  ['order_items'],
);

/** OpenAPI atlas.PngRequest: all three required; the date is `YYYY_MM_DD` (its description and example). */
export const pngRequest = {
  ...obj(
    {
      index_id: { type: 'string', minLength: 1 },
      date: { type: 'string', pattern: '^\\d{4}_\\d{2}_\\d{2}$' },
      visualization_mode: { enum: ['dynamic', 'theoretical'] },
    },
    ['index_id', 'date', 'visualization_mode'],
  ),
  additionalProperties: false,
};
/** OpenAPI atlas.DownloadCreateModel. */
export const aoiDownloadRequest = obj({ asset_ids: { ...strs, minItems: 1 } }, ['asset_ids']);

/** OpenAPI atlas.IndexCreateRequest: rescale two integers. */
export const createIndexRequest = obj(
  {
    name: str,
    description: str,
    expression: str,
    colormap: str,
    satellite_id: str,
    expression_type: { enum: ['composite', 'index', 'grayscale'] },
    rescale: { ...arr(int), minItems: 2, maxItems: 2 },
  },
  ['name', 'description', 'rescale', 'expression', 'colormap', 'satellite_id', 'expression_type'],
);
