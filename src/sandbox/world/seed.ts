/**
 * The seeded, mutable part of the world: projects, AOIs with assets and visualizations,
 * custom indices, orders in every status, stores, deliveries, downloads and finished insight
 * runs per user. Content is fixed by the seed; timestamps are placed relative to `now0` (the clock's
 * start) so that a few orders are still moving when the sandbox starts.
 */
import type { Asset, Block, InputValue, Polygon, Position, StoreType } from '../../api/records';
import { geodesicArea, polygonCentroid } from '../../geo/area';
import { normalizeLon } from '../../geo/bbox';
import { mosaicPath } from '../imagery/paths';
import { runCost as runCostOf } from '../insightRuns';
import { buildOrder, type OrderCtx } from '../orders';
import { Rng } from '../prng';
import type { AoiRec, AssetRec, DeliveryRec, DownloadRec, InsightRec, ProjectRec, State, StoreRec, User, VisRec } from '../state';
import { dateOnly, isoOffset, isoZ, spaceMicro } from '../timefmt';
import { catalogsOf, T } from '../transitions';
import { COLLECTION_DEFS } from './archive';
import { ALICE_PLACES, BOB_PLACES, PROJECT_NAMES, type Place } from './places';
import { satelliteById } from './satellites';
import { seedSeasonal } from './seasonal';
import type { World } from './world';
import { seedWorkflows } from './workflows';

const DAY = 86_400_000;

function placePolygon(p: Place, rng: Rng): Polygon {
  const ring: Position[] = [];
  const n = 8;
  for (let k = 0; k < n; k++) {
    const a = (2 * Math.PI * k) / n + rng.range(-0.15, 0.15);
    const r = p.radiusKm * rng.range(0.75, 1.15);
    const dLat = (r * Math.sin(a)) / 111.32;
    const dLon = (r * Math.cos(a)) / (111.32 * Math.cos((p.lat * Math.PI) / 180));
    ring.push([Math.round(normalizeLon(p.lon + dLon) * 1e5) / 1e5, Math.round((p.lat + dLat) * 1e5) / 1e5]);
  }
  ring.push([ring[0][0], ring[0][1]]);
  return { type: 'Polygon', coordinates: [ring] };
}

function satelliteFor(p: Place, i: number, user: User): string {
  if (p.kind === 'polar') return 'landsat-8-9';
  if (p.kind === 'city' && user.satellites.includes('pleiades-neo')) return 'pleiades-neo';
  if (p.kind === 'reservoir' && i % 2 === 1) return 'enmap';
  return 'sentinel-2';
}

export function seedState(world: World, now0: number): State {
  const state: State = {
    version: 1,
    seed: world.seed,
    scale: world.scale,
    projects: [],
    aois: [],
    assets: [],
    visualizations: [],
    indices: [],
    orders: [],
    stores: [],
    deliveries: [],
    downloads: [],
    insights: [],
    workflows: [],
    jobs: [],
  };
  for (const user of world.users) seedUser(world, state, user, now0);
  return state;
}

function seedUser(world: World, state: State, user: User, now0: number): void {
  const rng = new Rng(world.seed).fork(`user:${user.key}`);
  const places = user.key === 'alice' ? ALICE_PLACES : BOB_PLACES;
  const projects: ProjectRec[] = PROJECT_NAMES.map((p, k) => ({
    id: rng.uuid(),
    name: p.name,
    title: p.title,
    org_id: user.org_id,
    members_count: 1 + ((k * 3 + (user.key === 'bob' ? 1 : 0)) % 5),
    created_at: isoZ(now0 - (500 - k * 30) * DAY),
    updated_at: isoZ(now0 - (40 - k * 5) * DAY),
    metadata: { region: places.find((x) => x.project === k)?.name ?? '', cost_centre: `CC-${100 + k}` },
    owner: user.id,
  }));
  state.projects.push(...projects);

  seedIndices(state, user, now0, rng);

  places.forEach((place, i) => {
    const geometry = placePolygon(place, rng);
    const sat = satelliteFor(place, i, user);
    const t0 = now0 - rng.int(20, 300) * DAY;
    const aoi: AoiRec = {
      aoi_id: rng.uuid(),
      name: place.name,
      description: `${place.kind} area of interest`,
      satellite_id: sat,
      project_id: projects[place.project].id,
      images: { mosaics: 4 },
      eo_bands: satelliteById(sat)?.bands.map((b) => b.name) ?? [],
      geometry,
      progress: 100,
      status: 'success',
      is_favourite: i % 5 === 0,
      created_at: isoZ(t0),
      updated_at: isoZ(t0 + T.aoi),
      user_id: user.id,
      area_in_sq_m: Math.round(geodesicArea(geometry) * 100) / 100,
      centroid: polygonCentroid(geometry),
      t0,
    };
    state.aois.push(aoi);
    const mosaics = makeMosaics(aoi, 4, t0, rng);
    state.assets.push(...mosaics);
    const trueColour = world.presets.find((x) => x.satellite_id === sat && x.name === 'True colour');
    const ndvi = world.presets.find((x) => x.satellite_id === sat && x.name === 'NDVI');
    for (const idx of [trueColour, ndvi]) {
      if (!idx) continue;
      state.visualizations.push(makeVisualization(aoi, idx, mosaics, t0 + DAY, rng, state));
    }
  });

  seedStores(state, user, now0, rng);

  seedOrders(world, state, user, now0, rng);
  seedDeliveries(state, user, now0, rng);
  seedInsights(world, state, user, now0, rng);
  seedWorkflows(world, state, user, now0);
  seedSeasonal(state, user, projects, now0, rng.fork('seasonal'));
}

/** Custom indices: one of each expression type the legend rules distinguish. */
function seedIndices(state: State, user: User, now0: number, rng: Rng): void {
  const customs =
    user.key === 'alice'
      ? [
          { name: 'Chlorophyll red-edge', expression: 'B07/B05-1', expression_type: 'index' as const, colormap: 'greens', rescale: [0, 5] },
          { name: 'SWIR composite', expression: 'B12,B8A,B04', expression_type: 'composite' as const, colormap: '', rescale: [0, 4000] },
          { name: 'NIR grayscale', expression: 'B08', expression_type: 'grayscale' as const, colormap: 'gray', rescale: [0, 6000] },
        ]
      : [{ name: 'Moisture index', expression: '(B8A-B11)/(B8A+B11)', expression_type: 'index' as const, colormap: 'rdbu', rescale: [-1, 1] }];
  for (const c of customs) {
    const ts = isoZ(now0 - rng.int(30, 200) * DAY);
    state.indices.push({
      id: rng.uuid(),
      name: c.name,
      description: `${c.name} (custom)`,
      org_id: user.org_id,
      user_id: user.id,
      satellite_id: 'sentinel-2',
      type: 'custom',
      expression: c.expression,
      expression_type: c.expression_type,
      bands: c.expression
        .split(/[^A-Za-z0-9_]+/)
        .filter((b) => /^B/.test(b))
        .filter((b, i, a) => a.indexOf(b) === i),
      colormap: c.colormap,
      rescale: c.rescale,
      created_at: ts,
      updated_at: ts,
    });
  }
}

/** Stores: the secrets' names are kept, never their values. */
function seedStores(state: State, user: User, now0: number, rng: Rng): void {
  const storeDefs: { name: string; type: StoreType; configs: Record<string, string>; secret_keys: string[] }[] =
    user.key === 'alice'
      ? [
          {
            name: 'imagery-eu',
            type: 'S3',
            configs: { bucket: 'alice-imagery-eu', region: 'eu-west-1', path_prefix: 'deliveries/' },
            secret_keys: ['access_key_id', 'secret_access_key'],
          },
          {
            name: 'analysis-gcs',
            type: 'GCS',
            configs: { bucket: 'alice-analysis', region: 'europe-west4', path_prefix: 'eo/' },
            secret_keys: ['project_id', 'service_account_credentials'],
          },
        ]
      : [
          {
            name: 'bob-blob',
            type: 'AZBLOB',
            configs: { bucket: 'imagery', region: 'westeurope', path_prefix: 'in/' },
            secret_keys: ['account_name', 'tenant_id', 'client_id', 'client_secret'],
          },
        ];
  for (const s of storeDefs) {
    const ts = isoZ(now0 - rng.int(50, 300) * DAY);
    state.stores.push({
      id: rng.uuid(),
      ...s,
      labels: { team: user.key === 'alice' ? 'analytics' : 'ops' },
      created_at: ts,
      updated_at: ts,
      created_by: user.id,
      owner: user.id,
    } satisfies StoreRec);
  }
}

export function makeMosaics(aoi: AoiRec, n: number, t0: number, rng: Rng, dates?: number[]): AssetRec[] {
  return Array.from({ length: n }, (_, k) => {
    const date = dates?.[k] ?? t0 - (n - k) * 30 * DAY;
    const created = t0 + 1000 * (k + 1);
    const id = rng.uuid();
    return {
      id,
      aoi_id: aoi.aoi_id,
      visualization_id: '',
      name: `Mosaic ${dateOnly(date)}`,
      description: `Cloud-free mosaic of ${aoi.name}`,
      asset_type: 'mosaic',
      band_list: aoi.eo_bands,
      centroid: aoi.centroid,
      geometry: aoi.geometry,
      area_in_sq_m: aoi.area_in_sq_m,
      date: dateOnly(date),
      path: mosaicPath(aoi, dateOnly(date)),
      progress: 100,
      status: 'success',
      created_at: spaceMicro(created),
      updated_at: spaceMicro(created),
      t0: created,
    } satisfies AssetRec;
  });
}

export function makeVisualization(
  aoi: AoiRec,
  idx: {
    id: string;
    name: string;
    type: string;
    expression: string;
    expression_type: 'composite' | 'grayscale' | 'index';
    rescale: number[];
    user_id: string;
    org_id: string;
  },
  sources: Asset[],
  t0: number,
  rng: Rng,
  state: State,
): VisRec {
  const id = rng.uuid();
  const derived: AssetRec[] = sources.map((src) => ({
    ...src,
    id: rng.uuid(),
    visualization_id: id,
    name: `${idx.name} ${src.date}`,
    description: `${idx.name} of ${src.name}`,
    band_list: [idx.name],
    path: `s3://eo-sandbox/aois/${aoi.aoi_id}/visualizations/${id}/${src.date}.tif`,
    created_at: spaceMicro(t0),
    updated_at: spaceMicro(t0),
    t0,
  }));
  state.assets.push(...derived);
  return {
    id,
    aoi_id: aoi.aoi_id,
    user_id: aoi.user_id,
    tenant_id: `tenant-${aoi.user_id.slice(0, 8)}`,
    index_id: idx.id,
    index_name: idx.name,
    type: idx.type,
    expression: idx.expression,
    expression_type: idx.expression_type,
    rescale: idx.rescale,
    progress: 100,
    status: 'success',
    created_at: spaceMicro(t0),
    updated_at: spaceMicro(t0),
    t0,
    asset_ids: derived.map((d) => d.id),
    source_ids: sources.map((x) => x.id),
  };
}

/** Order timelines that between them reach every order, item and payment status. */
const PATTERNS = [
  { kind: 'archive', ageMs: 90 * DAY },
  { kind: 'tasking', ageMs: 60 * DAY },
  { kind: 'weak', ageMs: 45 * DAY },
  { kind: 'infeasible', ageMs: 30 * DAY },
  { kind: 'recurring', ageMs: 20 * DAY },
  { kind: 'archive', ageMs: 10 * DAY, frozen: 'unpaid' as const },
  { kind: 'tasking', ageMs: 15 * DAY, frozen: 'cancelled' as const },
  { kind: 'archive', ageMs: 5_000 },
  { kind: 'archive', ageMs: 15_000 },
  { kind: 'tasking', ageMs: 40_000 },
];

function seedOrders(world: World, state: State, user: User, now0: number, rng: Rng): void {
  const aois = state.aois.filter((a) => a.user_id === user.id);
  const nearby = new Map<string, string[]>();
  const imagesNear = (aoi: AoiRec): string[] => {
    let ids = nearby.get(aoi.aoi_id);
    if (!ids) {
      const cols = COLLECTION_DEFS.filter((d) => d.id !== 'pleiades-neo' || user.satellites.includes('pleiades-neo')).map((d) => d.id);
      ids = world.archive.search({ intersects: aoi.geometry, collections: cols, limit: 12, offset: 0 }).rows.map((r) => r.id);
      nearby.set(aoi.aoi_id, ids);
    }
    return ids;
  };
  const nOrders = Math.round(25 * world.scale);
  for (let k = 0; k < nOrders; k++) {
    const pat = PATTERNS[k % PATTERNS.length];
    const t0 = pat.ageMs < DAY ? now0 - pat.ageMs : now0 - pat.ageMs - rng.int(0, 20) * DAY - (k % 97) * 3600_000;
    const items: unknown[] = [];
    for (let j = 0; j < 5; j++) {
      const aoi = aois[(k * 5 + j) % aois.length];
      const fc = { type: 'FeatureCollection', features: [{ type: 'Feature', properties: {}, geometry: aoi.geometry }] };
      const common = {
        project_id: aoi.project_id,
        name: `${aoi.name} #${k + 1}.${j + 1}`,
        geometry: fc,
        usecase: pat.kind === 'archive' ? 'baseline' : 'monitoring',
      };
      const near = imagesNear(aoi);
      if (pat.kind === 'archive' && near.length > 0) {
        items.push({ ...common, item_ids: near.slice(j % 3, (j % 3) + 1 + (j % 2)), delivery_speed: j === 4 ? 'PRIORITY' : 'STANDARD' });
      } else {
        const start = t0 + 2 * DAY;
        const occ = pat.kind === 'recurring' ? 3 : pat.kind === 'weak' ? 2 : 1;
        items.push({
          ...common,
          recurrence: pat.kind === 'recurring' ? 'MONTHLY' : occ > 1 ? 'WEEKLY' : 'ONCE',
          start_date: isoZ(start),
          end_date: isoZ(start + (pat.kind === 'infeasible' ? DAY / 2 : 40 * DAY)),
          no_of_occurrences: occ,
          bandset: { bandset_id: world.bandsets[(k + j) % world.bandsets.length].id },
          cloud_cover: pat.kind === 'weak' ? 5 : 20,
          off_nadir: 25,
          delivery_speed: j === 0 ? 'RUSH' : 'STANDARD',
        });
      }
    }
    const ctx: OrderCtx = { user, now: t0, world, state, newId: () => rng.uuid() };
    const { order } = buildOrder({ dry_run: false, order_items: items }, ctx);
    if (pat.frozen) order.frozen = pat.frozen;
    state.orders.push(order);
  }
}

function seedDeliveries(state: State, user: User, now0: number, rng: Rng): void {
  const store = state.stores.find((s) => s.owner === user.id);
  if (!store) return;
  const catalogs = state.orders
    .filter((o) => o.user_id === user.id)
    .flatMap((o) => o.items.flatMap((it) => catalogsOf(o, it, now0 - 2 * DAY)))
    .slice(0, 4);
  const ages = [30 * DAY, 3 * DAY, 7_000, 2 * DAY];
  catalogs.forEach((c, k) => {
    const t0 = now0 - ages[k];
    const d: DeliveryRec = {
      delivery_id: rng.uuid(),
      catalog_id: c.id,
      task_id: c.task_id,
      status: 'CREATED',
      target_path: `${store.configs.path_prefix ?? ''}${c.order_item_id}/${c.id}/`,
      cloud_delivery: { config: store.id, path: store.configs.path_prefix ?? '' },
      created_at: isoOffset(t0),
      updated_at: isoOffset(t0),
      created_by: user.id,
      updated_by: user.id,
      owner: user.id,
      order_item_id: c.order_item_id ?? '',
      t0,
      ...(k === 3 ? { frozen: 'FAILED' as const } : {}),
    };
    state.deliveries.push(d);
  });
  const dl = (ids: string[], age: number, frozen?: 'failed'): DownloadRec => ({
    id: rng.uuid(),
    owner: user.id,
    catalog_ids: ids,
    t0: now0 - age,
    ...(frozen ? { frozen } : {}),
  });
  if (catalogs.length > 0) {
    state.downloads.push(dl([catalogs[0].id], DAY));
    state.downloads.push(
      dl(
        catalogs.slice(1, 3).map((c) => c.id),
        2 * DAY,
        'failed',
      ),
    );
  }
}

/**
 * Finished runs a new user sees at once: successful ones (with outputs) on several AOIs, a
 * land-cover run to chain from, and one that failed because its mosaic lacks the block's bands.
 */
function seedInsights(world: World, state: State, user: User, now0: number, rng: Rng): void {
  const water = world.blocks.find((b) => b.name === 'water-extent');
  const land = world.blocks.find((b) => b.name === 'land-cover-classification');
  if (!water || !land) return;
  const mosaicsOf = (aoi: AoiRec): AssetRec[] => state.assets.filter((a) => a.aoi_id === aoi.aoi_id && a.visualization_id === '');
  const fits = (block: Block, a: AssetRec): boolean => (block.spec.inputs[0].properties?.bands ?? []).every((b) => a.band_list.includes(b));
  const image = (block: Block, a: AssetRec): InputValue => ({ ...block.spec.inputs[0], stac_url: a.path, asset_source: { id: a.id, type: 'raw_mosaic' } });
  const run = (aoi: AoiRec, block: Block, name: string, input: InputValue[], age: number, failure?: string): void => {
    state.insights.push({
      id: rng.uuid(),
      owner: user.id,
      aoi_id: aoi.aoi_id,
      project_id: aoi.project_id,
      name,
      block: { name: block.spec.name, version: block.spec.version },
      input,
      metadata: { block_name: block.spec.name, block_version: block.spec.version },
      cost: runCostOf(aoi, block.spec.name),
      ...(failure ? { failure } : {}),
      created_by: user.id,
      t0: now0 - age,
    } satisfies InsightRec);
  };
  const mine = state.aois.filter((a) => a.user_id === user.id);
  let ok = 0;
  for (const aoi of mine) {
    const m = mosaicsOf(aoi).find((a) => fits(water, a));
    if (!m || ok >= (user.key === 'alice' ? 3 : 1)) continue;
    run(
      aoi,
      water,
      `Water extent of ${aoi.name}`,
      [image(water, m), { ...water.spec.inputs[1], value: '0.2' }, { ...water.spec.inputs[2], value: 'false' }],
      (3 + ok) * DAY,
    );
    const lm = ok === 0 ? mosaicsOf(aoi).find((a) => fits(land, a)) : undefined;
    if (lm) {
      run(
        aoi,
        land,
        `Land cover of ${aoi.name}`,
        [image(land, lm), { ...land.spec.inputs[2], value: dateOnly(now0 - 120 * DAY) }, { ...land.spec.inputs[3], value: '0.5' }],
        2 * DAY,
      );
    }
    ok++;
  }
  const other = mine.map((aoi) => ({ aoi, m: mosaicsOf(aoi).find((a) => !fits(water, a)) })).find((x) => x.m);
  if (other?.m) {
    const need = water.spec.inputs[0].properties?.bands ?? [];
    const missing = need.filter((b) => !other.m!.band_list.includes(b));
    run(
      other.aoi,
      water,
      `Water extent of ${other.aoi.name}`,
      [image(water, other.m), { ...water.spec.inputs[1], value: '0.2' }, { ...water.spec.inputs[2], value: 'true' }],
      DAY,
      `input image: asset ${other.m.name} has no band ${missing.join(', ')} (it has ${other.m.band_list.join(', ')}); the block needs ${need.join(', ')}`,
    );
  }
}
