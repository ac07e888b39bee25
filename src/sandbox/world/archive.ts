/**
 * Archive collections and their items. Items are kept as compact rows (numbers and a
 * footprint) and turned into full STAC features only when sent, so `--scale 80` (100,000 items)
 * stays small and quick to build.
 */
import type { ArchiveCollection, ArchiveItemWire, Geometry, Position } from '../../api/records';
import { geometryBbox } from '../../geo/bbox';
import { itemImagery } from '../imagery/scenes';
import { Rng } from '../prng';
import { isoZ } from '../timefmt';
import { COLLECTION_DEFS, type ArchiveRow } from './collections';
import { ALICE_PLACES, BOB_PLACES } from './places';

// Where most of the sandbox reads them; defined in collections.ts so that imagery/scenes.ts can
// use them without importing this module (which imports the scenes).
export { COLLECTION_DEFS, type ArchiveRow };

export const STAC_VERSION = '1.1.0-beta.1';

const TIME_FROM = Date.UTC(2018, 0, 1);
const TIME_TO = Date.UTC(2025, 5, 30);
const PLACES = [...ALICE_PLACES, ...BOB_PLACES];

function footprint(lon: number, lat: number, km: number, rotDeg: number): Geometry {
  const hy = km / 2 / 111.32;
  const hx = hy / Math.max(0.08, Math.cos((lat * Math.PI) / 180));
  // Near the antimeridian footprints stay axis-aligned, so that splitting them is exact.
  const near = lon - hx * 1.5 < -180 || lon + hx * 1.5 > 180;
  const crosses = lon - hx < -180 || lon + hx > 180;
  const r = near ? 0 : (rotDeg * Math.PI) / 180;
  const corners: Position[] = [
    [-hx, -hy],
    [hx, -hy],
    [hx, hy],
    [-hx, hy],
  ].map(([x, y]) => [round5(lon + x * Math.cos(r) - y * Math.sin(r) * (hx / hy)), round5(lat + x * Math.sin(r) * (hy / hx) + y * Math.cos(r))]);
  if (!crosses) return { type: 'Polygon', coordinates: [[...corners, corners[0]]] };
  // An axis-aligned box over the antimeridian, split into two parts (RFC 7946 section 3.1.9).
  const s = lat - hy;
  const n = lat + hy;
  const w = lon - hx < -180 ? lon - hx + 360 : lon - hx;
  const e = lon + hx > 180 ? lon + hx - 360 : lon + hx;
  return {
    type: 'MultiPolygon',
    coordinates: [
      [
        [
          [round5(w), round5(s)],
          [180, round5(s)],
          [180, round5(n)],
          [round5(w), round5(n)],
          [round5(w), round5(s)],
        ],
      ],
      [
        [
          [-180, round5(s)],
          [round5(e), round5(s)],
          [round5(e), round5(n)],
          [-180, round5(n)],
          [-180, round5(s)],
        ],
      ],
    ],
  };
}

function round5(x: number): number {
  return Math.round(x * 1e5) / 1e5;
}

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

function compactTime(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}T${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`;
}

/** Rows of every collection, sorted newest first (the default search order). */
export function generateArchive(seed: number, scale: number): ArchiveRow[] {
  const rows: ArchiveRow[] = [];
  COLLECTION_DEFS.forEach((def, c) => {
    const rng = new Rng(seed).fork(`archive:${def.id}`);
    const n = Math.round(def.perScale * scale);
    for (let i = 0; i < n; i++) {
      let lon: number;
      let lat: number;
      if (rng.chance(0.6)) {
        const p = PLACES[i % PLACES.length];
        const spread = Math.min(1.2, def.footprintKm / 111);
        lon = p.lon + rng.range(-spread, spread);
        lat = p.lat + rng.range(-spread, spread) * 0.6;
      } else {
        lon = rng.range(-180, 180);
        lat = rng.range(-56, 72);
      }
      lon = lon > 180 ? lon - 360 : lon < -180 ? lon + 360 : lon;
      lat = Math.max(-80, Math.min(80, lat));
      const t = Math.floor(rng.range(TIME_FROM, TIME_TO) / 1000) * 1000;
      const geometry = footprint(lon, lat, def.footprintKm, def.rotateDeg);
      const platform = rng.int(0, def.platforms.length - 1);
      rows.push({
        id: `${def.idPrefix}_${def.productLevel}_${compactTime(t)}_${(i + 1).toString(36).toUpperCase().padStart(5, '0')}`,
        c,
        t,
        lon: round5(lon),
        lat: round5(lat),
        geometry,
        bbox: geometryBbox(geometry),
        platform,
        cloud: Math.round(Math.min(100, Math.max(0, rng.next() ** 1.6 * 100)) * 100) / 100,
        offNadir: Math.round(rng.range(0, def.gsd < 5 ? 30 : 10) * 100) / 100,
        sunAz: Math.round(rng.range(90, 270) * 100) / 100,
        sunEl: Math.round(rng.range(15, 70) * 100) / 100,
        anomalous: Math.round(rng.range(0, 2) * 1000) / 1000,
      });
    }
  });
  rows.sort((a, b) => b.t - a.t || (a.id < b.id ? -1 : 1));
  return rows;
}

function earthSunDistance(ms: number): number {
  const doy = (ms - Date.UTC(new Date(ms).getUTCFullYear(), 0, 1)) / 86_400_000;
  return Math.round((1 - 0.01672 * Math.cos((2 * Math.PI * (doy - 4)) / 365.256)) * 1e6) / 1e6;
}

/** Property values the search reads without building the whole feature. */
export function fastProperty(r: ArchiveRow, name: string): unknown {
  switch (name) {
    case 'datetime':
      return isoZ(r.t);
    case 'eo:cloud_cover':
      return r.cloud;
    case 'view:off_nadir':
      return r.offNadir;
    case 'view:sun_azimuth':
      return r.sunAz;
    case 'view:sun_elevation':
      return r.sunEl;
    case 'gsd':
      return COLLECTION_DEFS[r.c].gsd;
    case 'platform':
      return COLLECTION_DEFS[r.c].platforms[r.platform];
    case 'constellation':
      return COLLECTION_DEFS[r.c].constellation;
    case 'collection':
      return COLLECTION_DEFS[r.c].id;
    case 'id':
      return r.id;
    default:
      return undefined;
  }
}

export function itemProperties(r: ArchiveRow): ArchiveItemWire['properties'] {
  const def = COLLECTION_DEFS[r.c];
  const zone = Math.min(60, Math.floor((r.lon + 180) / 6) + 1);
  const created = r.t + 6 * 3600_000;
  return {
    title: `${def.title} ${compactTime(r.t)}`,
    description: `${def.title} scene over ${r.lat.toFixed(2)}, ${r.lon.toFixed(2)}`,
    datetime: isoZ(r.t),
    startdatetime: isoZ(r.t - 5000),
    created: isoZ(created),
    updated: isoZ(created),
    license: def.license,
    platform: def.platforms[r.platform],
    constellation: def.constellation,
    instruments: def.instruments,
    altitude: def.altitude,
    gsd: def.gsd,
    'eo:cloud_cover': r.cloud,
    'proj:code': `EPSG:${r.lat >= 0 ? 326 : 327}${pad(zone)}`,
    'rd:anomalous_pixels': r.anomalous,
    'rd:earth_sun_distance': earthSunDistance(r.t),
    'rd:product_level': def.productLevel,
    'rd:sat_id': def.platforms[r.platform],
    'rd:type': def.gsd < 5 ? 'VHR' : def.id === 'enmap-l2a' ? 'HYPERSPECTRAL' : 'MULTISPECTRAL',
    'sci:doi': def.doi,
    'view:off_nadir': r.offNadir,
    'view:scene_center_lat': r.lat,
    'view:scene_center_lon': r.lon,
    'view:sun_azimuth': r.sunAz,
    'view:sun_elevation': r.sunEl,
  };
}

const EXTENSIONS = [
  'https://stac-extensions.github.io/eo/v1.1.0/schema.json',
  'https://stac-extensions.github.io/projection/v2.0.0/schema.json',
  'https://stac-extensions.github.io/view/v1.0.0/schema.json',
  'https://stac-extensions.github.io/scientific/v1.0.0/schema.json',
  'https://stac-extensions.github.io/raster/v1.1.0/schema.json',
];

/** The feature as the service sends it: `bbox` values rendered as strings. */
export function toFeature(r: ArchiveRow, base: string): ArchiveItemWire {
  const def = COLLECTION_DEFS[r.c];
  const self = `${base}/v0/archives/collections/${def.id}/items/${r.id}`;
  const col = `${base}/v0/archives/collections/${def.id}`;
  const files = `${base}/assets/${def.id}/${r.id}`;
  // The imagery (data and visual COGs) and the grid's proj:* fields come from the scene model.
  const imagery = itemImagery(r, base);
  return {
    type: 'Feature',
    stac_version: STAC_VERSION,
    stac_extensions: EXTENSIONS,
    id: r.id,
    collection: def.id,
    bbox: r.bbox.map((v) => String(v)),
    geometry: r.geometry,
    properties: { ...itemProperties(r), ...imagery.proj },
    assets: {
      thumbnail: { href: `${files}/thumbnail.png`, type: 'image/png', title: 'Thumbnail', roles: ['thumbnail'] },
      ...imagery.assets,
      metadata: { href: `${files}/metadata.xml`, type: 'application/xml', title: 'Product metadata', roles: ['metadata'] },
    },
    links: [
      { href: self, rel: 'self', title: r.id, type: 'application/geo+json' },
      { href: col, rel: 'collection', title: def.title, type: 'application/json' },
      { href: col, rel: 'parent', title: def.title, type: 'application/json' },
      { href: `${base}/v0/archives/collections`, rel: 'root', title: 'Archive collections', type: 'application/json' },
    ],
  };
}

export function toCollection(c: number, rows: readonly ArchiveRow[], base: string, created: number): ArchiveCollection {
  const def = COLLECTION_DEFS[c];
  let t0 = Infinity;
  let t1 = -Infinity;
  for (const r of rows) {
    if (r.c !== c) continue;
    if (r.t < t0) t0 = r.t;
    if (r.t > t1) t1 = r.t;
  }
  const href = `${base}/v0/archives/collections/${def.id}`;
  return {
    id: def.id,
    type: 'Collection',
    stac_version: STAC_VERSION,
    stac_extensions: [],
    title: def.title,
    description: def.description,
    license: def.license,
    keywords: [def.constellation, def.productLevel, 'earth observation'],
    created_at: isoZ(created),
    updated_at: isoZ(created),
    extent: {
      spatial: { bbox: [[-180, -80, 180, 80]] },
      temporal: { interval: [[Number.isFinite(t0) ? isoZ(t0) : null, Number.isFinite(t1) ? isoZ(t1) : null]] },
    },
    providers: [def.provider],
    summaries: { platform: def.platforms, instruments: def.instruments, constellation: [def.constellation], gsd: [def.gsd] },
    links: [
      { href, rel: 'self', title: def.title, type: 'application/json' },
      { href: `${href}/items`, rel: 'items', title: `${def.title} items`, type: 'application/geo+json' },
      { href: `${base}/v0/archives/collections`, rel: 'root', title: 'Archive collections', type: 'application/json' },
      { href: `${base}/v0/archives/collections`, rel: 'parent', title: 'Archive collections', type: 'application/json' },
    ],
  };
}
