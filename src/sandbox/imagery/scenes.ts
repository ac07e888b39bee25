/**
 * Which scene stands behind which asset: archive items (one per item, cut from the synthetic
 * landscape over the item's footprint) and AOI mosaics (clipped to the AOI polygon), with the
 * STAC fields a renderer reads (`eo:bands`, `raster:bands`, `proj:*`).
 *
 * URL scheme on the sandbox host (all need the Authorization header except thumbnails):
 *   /assets/{collection}/{item}/data.tif      multi-band uint16 COG, the satellite's bands
 *   /assets/{collection}/{item}/visual.tif    3-band 8-bit true-colour COG, same grid
 *   /assets/{collection}/{item}/thumbnail.png 128 × 128 true-colour quick-look (public)
 *   /assets/aois/{aoi_id}/mosaics/{date}.tif  an AOI mosaic, every band of the AOI's satellite
 */
import type { Geometry, StacAsset } from '../../api/records';
import { COLLECTION_DEFS, type ArchiveRow } from '../world/collections';
import { collectionOf, gsdOf, satelliteById, satelliteByCollection } from '../world/satellites';
import { hashString } from './landscape';
import { type PixelTruth, type Scene, type SceneBand, buildScene, pixelOf, pixelTruth } from './scene';
import { zoneOf } from './utm';
import type { SeasonalStyle } from '../state';
import { reservoirLevel } from '../world/seasonal';

/** Sentinel-2's 10 m tile: 10980 × 10980 pixels. */
export const FULL_SIZE = 10980;
const FULL_SIZE_BANDS = ['B02', 'B03', 'B04', 'B08'];

const COMMON: Record<string, Record<string, string>> = {
  'sentinel-2': {
    B01: 'coastal',
    B02: 'blue',
    B03: 'green',
    B04: 'red',
    B05: 'rededge',
    B06: 'rededge',
    B07: 'rededge',
    B08: 'nir',
    B8A: 'nir08',
    B09: 'nir09',
    B11: 'swir16',
    B12: 'swir22',
  },
  'landsat-8-9': {
    B1: 'coastal',
    B2: 'blue',
    B3: 'green',
    B4: 'red',
    B5: 'nir08',
    B6: 'swir16',
    B7: 'swir22',
    B8: 'pan',
    B9: 'cirrus',
    B10: 'lwir11',
    B11: 'lwir12',
  },
  'pleiades-neo': { PAN: 'pan', DEEP_BLUE: 'coastal', BLUE: 'blue', GREEN: 'green', RED: 'red', RED_EDGE: 'rededge', NIR: 'nir' },
  enmap: {},
};

interface Product {
  satellite: string;
  /** Pixel size of the served data asset (coarser than the sensor where noted, to stay cheap). */
  pixelSize: number;
  tileSize: number;
  /** Bands of the archive product; all the satellite's bands when absent. */
  bands?: string[];
  /** As the real products encode reflectance (S2 L2A baseline 04.00, Landsat C2 L2): the satellite record's. */
  scale: number;
  offset: number;
}

/** Scale and offset as the satellite's record states them (every band of a product alike). */
function encoding(satellite: string): { scale: number; offset: number } {
  const b = satelliteById(satellite)?.bands[0];
  return { scale: b?.scale ?? 0.0001, offset: b?.offset ?? 0 };
}

const PRODUCTS: Record<string, Product> = {
  // Sentinel-2's 60 m product (R60m) carries every band; the full-size item is the 10 m one.
  'sentinel-2-l2a': { satellite: 'sentinel-2', pixelSize: 60, tileSize: 256, ...encoding('sentinel-2') },
  'landsat-c2-l2': {
    satellite: 'landsat-8-9',
    pixelSize: 120,
    tileSize: 256,
    bands: ['B1', 'B2', 'B3', 'B4', 'B5', 'B6', 'B7'],
    ...encoding('landsat-8-9'),
  },
  'pleiades-neo': { satellite: 'pleiades-neo', pixelSize: 6, tileSize: 256, ...encoding('pleiades-neo') },
  // 224 bands: a small grid and small tiles keep it cheap (a tile holds every band of a pixel).
  'enmap-l2a': { satellite: 'enmap', pixelSize: 120, tileSize: 64, ...encoding('enmap') },
};

function sceneBands(satellite: string, names?: string[]): SceneBand[] {
  const sat = satelliteById(satellite);
  if (!sat) throw new Error(`no satellite ${satellite}`);
  const chosen = names ? names.map((n) => sat.bands.find((b) => b.name === n)).filter((b) => b !== undefined) : sat.bands;
  return chosen.map((b) => ({ name: b.name, wavelength: b.wavelength, ...(COMMON[satellite]?.[b.name] ? { common_name: COMMON[satellite][b.name] } : {}) }));
}

/** The item served at Sentinel-2's full 10 m size: the first Sentinel-2 item of the archive. */
export function isFullSizeItem(row: ArchiveRow): boolean {
  return COLLECTION_DEFS[row.c].id === 'sentinel-2-l2a' && row.id.endsWith('_00001');
}

function rings(g: Geometry): number[][][] {
  if (g.type === 'Polygon') return g.coordinates;
  if (g.type === 'MultiPolygon') return g.coordinates.flat();
  throw new Error(`no footprint rings in a ${g.type}`);
}

/** A small memo: scenes are cheap to build but asked for on every range request. */
const memo = new Map<string, Scene>();
function remember(key: string, make: () => Scene): Scene {
  let s = memo.get(key);
  if (!s) {
    s = make();
    if (memo.size >= 256) memo.delete(memo.keys().next().value as string);
    memo.set(key, s);
  }
  return s;
}

export function itemScene(row: ArchiveRow): Scene {
  const def = COLLECTION_DEFS[row.c];
  return remember(`item:${def.id}/${row.id}`, () => {
    const p = PRODUCTS[def.id];
    const full = isFullSizeItem(row);
    return buildScene({
      key: `item:${def.id}/${row.id}`,
      bands: sceneBands(p.satellite, full ? FULL_SIZE_BANDS : p.bands),
      scale: p.scale,
      offset: p.offset,
      rings: rings(row.geometry),
      zone: zoneOf(row.lon, row.lat),
      pixelSize: full ? 10 : p.pixelSize,
      tileSize: full ? 512 : p.tileSize,
      size: full ? FULL_SIZE : undefined,
      time: row.t,
      cloudCover: row.cloud,
      cloudSeed: hashString(row.id),
    });
  });
}

export interface MosaicOwner {
  aoi_id: string;
  satellite_id: string;
  geometry: Geometry;
  centroid: [number, number];
  /** A season's record (src/sandbox/world/seasonal.ts): cloudy dates, a reservoir's level, the SCL band. */
  seasonal?: SeasonalStyle;
}

/** Largest side of a mosaic in pixels: the pixel size grows past the sensor's to stay under it. */
const MOSAIC_MAX = 4096;

export function mosaicScene(aoi: MosaicOwner, date: string): Scene {
  return remember(`mosaic:${aoi.aoi_id}/${date}`, () => {
    const sat = satelliteById(aoi.satellite_id);
    if (!sat) throw new Error(`no satellite ${aoi.satellite_id}`);
    const product = PRODUCTS[collectionOf(sat)];
    const [lon, lat] = aoi.centroid;
    const r = rings(aoi.geometry);
    const zone = zoneOf(lon, lat);
    // First pass at the sensor's resolution to learn the extent, then coarsen if too big.
    const gsd = gsdOf(sat);
    const probe = buildScene({ key: '', bands: [], scale: 1, offset: 0, rings: r, zone, pixelSize: gsd, tileSize: 256, time: 0, cloudCover: 0, cloudSeed: 0 });
    const side = Math.max(probe.width, probe.height);
    const pixelSize = side > MOSAIC_MAX ? Math.ceil((gsd * side) / MOSAIC_MAX) : gsd;
    const bands = sceneBands(sat.id);
    const seasonal = aoi.seasonal;
    return buildScene({
      key: `mosaic:${aoi.aoi_id}/${date}`,
      bands,
      scale: product?.scale ?? 0.0001,
      offset: product?.offset ?? 0,
      rings: r,
      zone,
      pixelSize,
      tileSize: bands.length > 32 ? 64 : 256,
      time: Date.parse(`${date}T10:30:00Z`),
      cloudCover: seasonal?.cloudy[date] ?? 0,
      cloudSeed: hashString(`${aoi.aoi_id}/${date}`),
      lakeScale: seasonal?.kind === 'reservoir' ? reservoirLevel(date) : 1,
      scl: !!seasonal && sat.id === 'sentinel-2',
    });
  });
}

const COG = 'image/tiff; application=geotiff; profile=cloud-optimized';
const r9 = (x: number): number => Math.round(x * 1e9) / 1e9;

export function projFields(s: Scene): Record<string, unknown> {
  return {
    'proj:code': `EPSG:${s.epsg}`,
    'proj:epsg': s.epsg,
    'proj:shape': [s.height, s.width],
    'proj:transform': [s.pixelSize, 0, s.originX, 0, -s.pixelSize, s.originY],
  };
}

export function eoBands(s: Scene): Record<string, unknown>[] {
  return s.bands.map((b) => ({ name: b.name, ...(b.common_name ? { common_name: b.common_name } : {}), center_wavelength: r9(b.wavelength / 1000) }));
}

export function rasterBands(s: Scene): Record<string, unknown>[] {
  return s.bands.map(() => ({ data_type: 'uint16', nodata: 0, scale: s.scale, offset: s.offset, spatial_resolution: s.pixelSize }));
}

/** The imagery assets of an archive item and the item-level projection fields (the data grid). */
export function itemImagery(row: ArchiveRow, base: string): { assets: Record<string, StacAsset>; proj: Record<string, unknown> } {
  const def = COLLECTION_DEFS[row.c];
  const s = itemScene(row);
  const files = `${base}/assets/${def.id}/${encodeURIComponent(row.id)}`;
  const proj = projFields(s);
  const sat = satelliteByCollection(def.id);
  return {
    proj,
    assets: {
      data: {
        href: `${files}/data.tif`,
        type: COG,
        title: `${sat?.name ?? def.title} reflectance, ${s.bands.length} bands at ${s.pixelSize} m`,
        roles: ['data', 'reflectance'],
        gsd: s.pixelSize,
        'eo:bands': eoBands(s),
        'raster:bands': rasterBands(s),
        ...proj,
      },
      visual: {
        href: `${files}/visual.tif`,
        type: COG,
        title: 'True colour image',
        roles: ['visual'],
        gsd: s.pixelSize,
        'eo:bands': ['red', 'green', 'blue'].map((c) => ({ name: c, common_name: c })),
        'raster:bands': [0, 1, 2].map(() => ({ data_type: 'uint8', nodata: 0 })),
        ...proj,
      },
    },
  };
}

export { type Scene };

/** What an archive item's data COG holds at a lon/lat (full resolution); undefined outside the grid. */
export function itemTruthAt(row: ArchiveRow, lon: number, lat: number): (PixelTruth & { col: number; row: number }) | undefined {
  const s = itemScene(row);
  const [c, r] = pixelOf(s, lon, lat).map(Math.floor);
  if (c < 0 || r < 0 || c >= s.width || r >= s.height) return undefined;
  return { ...pixelTruth(s, c, r), col: c, row: r };
}
