/**
 * Response shapes checked at the edge. Identity fields are required; every other field of
 * docs/service-interface.md must have its declared type when present (a real service may omit some, or
 * send null). Anything not named here passes through untouched.
 */
import { anyValue, arr, bool, type Check, int, mapOf, num, obj, object, oneOf, opt, str } from './shape';

const o = opt;
const strs = arr(str);
const nums = arr(num);
const position = arr(num);
const geometry = obj({ type: str, coordinates: arr(anyValue) });
const polygon = obj({ type: str, coordinates: arr(arr(position)) });
const band = obj({ name: str, wavelength: o(num) });
const link = obj({ href: str, rel: str, title: o(str), type: o(str) });

export const pagination = obj({ limit: int, offset: int, total: int });

export const project = obj({
  id: str,
  name: o(str),
  title: o(str),
  org_id: o(str),
  members_count: o(int),
  created_at: o(str),
  updated_at: o(str),
  metadata: o(object),
});

export const bandset = obj({ id: str, name: o(str), description: o(str), captures: o(int), bands: o(arr(band)) });

export const aoi = obj({
  aoi_id: str,
  name: str,
  description: o(str),
  satellite_id: o(str),
  project_id: o(str),
  images: o(object),
  eo_bands: o(strs),
  geometry: o(polygon),
  progress: o(num),
  status: o(str),
  is_favourite: o(bool),
  created_at: o(str),
  updated_at: o(str),
  user_id: o(str),
  area_in_sq_m: o(num),
  centroid: o(nums),
});

export const asset = obj({
  id: str,
  aoi_id: o(str),
  visualization_id: o(str),
  name: o(str),
  description: o(str),
  asset_type: o(str),
  band_list: o(strs),
  centroid: o(nums),
  geometry: o(polygon),
  area_in_sq_m: o(num),
  date: o(str),
  path: o(str),
  progress: o(num),
  status: o(str),
  created_at: o(str),
  updated_at: o(str),
});

export const visualization = obj({
  id: str,
  aoi_id: o(str),
  user_id: o(str),
  tenant_id: o(str),
  index_id: o(str),
  index_name: o(str),
  type: o(str),
  expression: o(str),
  expression_type: o(str),
  rescale: o(nums),
  progress: o(num),
  status: o(str),
  assets: o(arr(asset)),
  created_at: o(str),
  updated_at: o(str),
  legend: o(object),
  metadata: o(obj({ legend: o(object) })),
});

/** The OpenAPI's record (`collections`, scaled `bands`, `rgb_composite`) or the first version's. */
export const satellite = obj({
  id: str,
  name: o(str),
  bands: o(arr(obj({ name: str, wavelength: o(num), scale: o(num), offset: o(num), spatial_resolution: o(num) }))),
  collections: o(arr(obj({ id: str, name: o(str), provider: o(str), queryables: o(strs), rescale: o(nums) }))),
  rgb_composite: o(obj({ red: str, green: str, blue: str })),
  provider: o(str),
  collection_id: o(str),
  gsd: o(num),
});

export const index = obj({
  id: str,
  name: str,
  description: o(str),
  org_id: o(str),
  user_id: o(str),
  satellite_id: o(str),
  type: o(str),
  expression: o(str),
  expression_type: o(str),
  bands: o(strs),
  colormap: o(str),
  rescale: o(nums),
  created_at: o(str),
  updated_at: o(str),
});

const inputDef = obj({ format: o(str), name: str, type: o(str), description: o(str), properties: o(object) });
/** `inputs`/`outputs` may come as a JSON text ("raw JSON" in the OpenAPI); normalizeBlock parses it. */
const rawList = oneOf(arr(inputDef), str);
export const block = obj({
  spec: obj({ name: str, version: str, inputs: rawList, outputs: o(rawList), title: o(str), description: o(str), kind: o(str) }),
  id: o(str),
  block_status: o(str),
  name: o(str),
  version: o(str),
});

const task = obj({
  id: str,
  order_item_id: o(str),
  type: o(str),
  status: o(str),
  delivery_status: o(str),
  start_date: o(str),
  end_date: o(str),
  number_of_strips: o(int),
  tokens_used: o(num),
  transaction_id: o(str),
  created_at: o(str),
  updated_at: o(str),
});

const cloudDelivery = obj({ config: str, path: o(str) });

/** On a dry run nothing is stored, so an order item has no id yet. */
function orderItemShape(idRequired: boolean): Check {
  return obj({
    id: idRequired ? str : o(str),
    order_id: o(str),
    org_id: o(str),
    user_id: o(str),
    project_id: o(str),
    name: o(str),
    type: o(str),
    status: o(str),
    payment_status: o(str),
    feasibility_status: o(str),
    last_feasibility_check: o(str),
    usecase: o(str),
    area: o(num),
    base_amount: o(num),
    final_amount: o(num),
    tokens_used: o(num),
    cloud_cover: o(num),
    off_nadir: o(num),
    number_of_bands: o(int),
    image_type: o(str),
    delivery_speed: o(str),
    recurrence: o(str),
    no_of_occurrences: o(int),
    start_date: o(str),
    end_date: o(str),
    occurrences: o(arr(obj({ start: o(str), end: o(str) }))),
    bandset: o(obj({ bandset_id: str, bands: o(arr(band)), custom: o(arr(nums)) })),
    images: o(arr(obj({ item_id: o(str) }))),
    uplifts: o(arr(obj({ amount: o(num), item_id: o(str), percentage: o(num), title: o(str) }))),
    cloud_delivery: o(cloudDelivery),
    tasks: o(arr(task)),
    validation_errors: o(arr(object)),
    transaction_id: o(str),
    created_at: o(str),
    updated_at: o(str),
  });
}

export const orderItem = orderItemShape(true);

function orderShape(idRequired: boolean): Check {
  return obj({
    id: idRequired ? str : o(str),
    org_id: o(str),
    user_id: o(str),
    status: o(str),
    total_amount: o(num),
    transaction_id: o(str),
    paid_at: o(str),
    created_at: o(str),
    updated_at: o(str),
    order_items: o(arr(orderItemShape(idRequired))),
  });
}

export const order = orderShape(true);
export const dryRunOrder = orderShape(false);

export const archiveCollection = obj({
  id: str,
  type: o(str),
  title: o(str),
  description: o(str),
  license: o(str),
  stac_version: o(str),
  // the boxes are read by normalizeCollection, which leaves out the ones that do not read
  extent: o(obj({ spatial: o(obj({})), temporal: o(obj({ interval: arr(arr(o(str))) })) })),
  links: o(arr(link)),
  providers: o(arr(obj({ name: str, roles: o(strs) }))),
});

/** bbox may arrive as strings; normalisation turns them into numbers after this check. */
export const archiveItem = obj({
  id: str,
  type: o(str),
  collection: o(str),
  bbox: o(arr(oneOf(num, str))),
  geometry: o(geometry),
  properties: obj({}),
  assets: o(mapOf(obj({ href: str, type: o(str), title: o(str), roles: o(strs) }))),
  links: o(arr(link)),
});

/** The collection around its items: each item is read on its own (one odd record must not fail the page). */
export const itemCollectionEnvelope = obj({ type: o(str), features: arr(anyValue), links: o(arr(link)) });
/** The collections listing around its records, each read on its own. */
export const collectionsEnvelope = obj({ collections: arr(anyValue) });

export const catalog = obj({
  id: str,
  org_id: o(str),
  task_id: o(str),
  bandset_id: o(str),
  area: o(num),
  delivery_status: o(str),
  created_at: o(str),
  updated_at: o(str),
});

export const store = obj({
  id: str,
  name: str,
  type: str,
  configs: o(mapOf(anyValue)),
  labels: o(mapOf(str)),
  created_at: o(str),
  updated_at: o(str),
  created_by: o(str),
});

export const delivery = obj({
  delivery_id: str,
  catalog_id: o(str),
  task_id: o(str),
  status: str,
  target_path: o(str),
  cloud_delivery: o(cloudDelivery),
  created_at: o(str),
  updated_at: o(str),
});

export const download = obj({ id: str, status: str, signed_url: o(str) });
/** AOI asset downloads: the OpenAPI keys them `download_id`; `id` (as catalog downloads) is read too. */
export const aoiDownload = oneOf(obj({ download_id: str, status: str, signed_url: o(str) }), obj({ id: str, status: str, signed_url: o(str) }));

/** `{<key>: [record], pagination}` */
export function pageOf(key: string, item: Check): Check {
  return obj({ [key]: arr(item), pagination });
}
