/**
 * Satellites with their real band names and centre wavelengths (nm): Sentinel-2 MSI,
 * Landsat 8/9 OLI-TIRS, Pléiades Neo and the EnMAP hyperspectral imager (224 bands).
 */
import type { Band, Bandset, Satellite, SatelliteBand } from '../../api/records';

const S2_BANDS: Band[] = [
  ['B01', 442.7],
  ['B02', 492.4],
  ['B03', 559.8],
  ['B04', 664.6],
  ['B05', 704.1],
  ['B06', 740.5],
  ['B07', 782.8],
  ['B08', 832.8],
  ['B8A', 864.7],
  ['B09', 945.1],
  ['B11', 1613.7],
  ['B12', 2202.4],
].map(([name, wavelength]) => ({ name: name as string, wavelength: wavelength as number }));

const LANDSAT_BANDS: Band[] = [
  ['B1', 443],
  ['B2', 482],
  ['B3', 561.5],
  ['B4', 654.5],
  ['B5', 865],
  ['B6', 1608.5],
  ['B7', 2200.5],
  ['B8', 589.5],
  ['B9', 1373.5],
  ['B10', 10895],
  ['B11', 12005],
].map(([name, wavelength]) => ({ name: name as string, wavelength: wavelength as number }));

const PNEO_BANDS: Band[] = [
  ['PAN', 625],
  ['DEEP_BLUE', 425],
  ['BLUE', 490],
  ['GREEN', 560],
  ['RED', 655],
  ['RED_EDGE', 725],
  ['NIR', 825],
].map(([name, wavelength]) => ({ name: name as string, wavelength: wavelength as number }));

/** EnMAP HSI: 91 VNIR bands (418-993 nm) and 133 SWIR bands (902-2445 nm). */
function enmapBands(): Band[] {
  const bands: Band[] = [];
  for (let i = 0; i < 91; i++) bands.push({ name: `B${String(i + 1).padStart(3, '0')}`, wavelength: round1(418.2 + (i * (993.0 - 418.2)) / 90) });
  for (let i = 0; i < 133; i++) bands.push({ name: `B${String(i + 92).padStart(3, '0')}`, wavelength: round1(902.0 + (i * (2445.5 - 902.0)) / 132) });
  return bands;
}

function round1(x: number): number {
  return Math.round(x * 10) / 10;
}

/**
 * Bands with the OpenAPI's extra fields: reflectance = stored × scale + offset, the encoding of
 * the sandbox's files for that satellite (archive items and AOI mosaics alike, src/sandbox/imagery/scenes.ts):
 * the real products' (Sentinel-2 L2A from baseline 04.00: 0.0001, −0.1; Landsat C2 L2:
 * 0.0000275, −0.2), 0.0001 and 0 for the others.
 */
const withScale = (bands: Band[], res: number, scale = 0.0001, offset = 0): SatelliteBand[] =>
  bands.map((b) => ({ ...b, scale, offset, spatial_resolution: res }));

/**
 * The satellites in the OpenAPI document's shape. `provider` per collection is `planetary`
 * for open data (Sentinel-2, Landsat) and `pixxel` for the commercial satellites, which
 * stand in for the service's own (docs/service-interface.md, "Satellites").
 */
export const SATELLITES: readonly Satellite[] = [
  {
    id: 'sentinel-2',
    name: 'Sentinel-2 MSI',
    bands: withScale(S2_BANDS, 10, 0.0001, -0.1),
    collections: [
      {
        id: 'sentinel-2-l2a',
        name: 'Sentinel-2 Level-2A',
        provider: 'planetary',
        queryables: ['eo:cloud_cover', 'view:sun_elevation', 'gsd'],
        rescale: [0, 3000],
      },
    ],
    rgb_composite: { red: 'B04', green: 'B03', blue: 'B02' },
  },
  {
    id: 'landsat-8-9',
    name: 'Landsat 8/9 OLI-TIRS',
    bands: withScale(LANDSAT_BANDS, 30, 0.0000275, -0.2),
    collections: [
      {
        id: 'landsat-c2-l2',
        name: 'Landsat Collection 2 Level-2',
        provider: 'planetary',
        queryables: ['eo:cloud_cover', 'view:off_nadir', 'view:sun_elevation', 'gsd'],
        rescale: [0, 3000],
      },
    ],
    rgb_composite: { red: 'B4', green: 'B3', blue: 'B2' },
  },
  {
    id: 'pleiades-neo',
    name: 'Pléiades Neo',
    bands: withScale(PNEO_BANDS, 1.2),
    collections: [
      {
        id: 'pleiades-neo',
        name: 'Pléiades Neo',
        provider: 'pixxel',
        queryables: ['eo:cloud_cover', 'view:off_nadir', 'view:sun_elevation', 'gsd'],
        rescale: [0, 3000],
      },
    ],
    rgb_composite: { red: 'RED', green: 'GREEN', blue: 'BLUE' },
  },
  {
    id: 'enmap',
    name: 'EnMAP HSI',
    bands: withScale(enmapBands(), 30),
    collections: [
      {
        id: 'enmap-l2a',
        name: 'EnMAP Level-2A',
        provider: 'pixxel',
        queryables: ['eo:cloud_cover', 'view:off_nadir', 'view:sun_elevation', 'gsd'],
        rescale: [0, 3000],
      },
    ],
    rgb_composite: { red: 'B037', green: 'B023', blue: 'B011' },
  },
];

/** The collection a satellite's archive items live in (each sandbox satellite has one). */
export function collectionOf(sat: Satellite): string {
  return sat.collections[0].id;
}

/** Ground sample distance in metres: the finest band's resolution. */
export function gsdOf(sat: Satellite): number {
  return Math.min(...sat.bands.map((b) => b.spatial_resolution ?? Infinity));
}

export function satelliteById(id: string): Satellite | undefined {
  return SATELLITES.find((s) => s.id === id);
}

export function satelliteByCollection(cid: string): Satellite | undefined {
  return SATELLITES.find((s) => s.collections.some((c) => c.id === cid));
}

const pick = (sat: string, names: string[]): Band[] =>
  names.map((n) => {
    const b = satelliteById(sat)?.bands.find((x) => x.name === n);
    if (!b) throw new Error(`no band ${n} on ${sat}`);
    return b;
  });

export const BANDSETS: readonly Bandset[] = [
  {
    id: 'bs-pneo-rgb',
    name: 'RGB',
    description: 'Pléiades Neo natural colour (blue, green, red)',
    captures: 1,
    bands: pick('pleiades-neo', ['BLUE', 'GREEN', 'RED']),
  },
  {
    id: 'bs-pneo-vnir',
    name: 'VNIR 4-band',
    description: 'Blue, green, red and near infrared',
    captures: 1,
    bands: pick('pleiades-neo', ['BLUE', 'GREEN', 'RED', 'NIR']),
  },
  {
    id: 'bs-pneo-full',
    name: 'Full 6-band + PAN',
    description: 'All multispectral bands and panchromatic',
    captures: 2,
    bands: pick('pleiades-neo', ['PAN', 'DEEP_BLUE', 'BLUE', 'GREEN', 'RED', 'RED_EDGE', 'NIR']),
  },
  {
    id: 'bs-s2-rededge',
    name: 'Red edge',
    description: 'Sentinel-2 red-edge bands for vegetation stress',
    captures: 1,
    bands: pick('sentinel-2', ['B05', 'B06', 'B07', 'B8A']),
  },
  { id: 'bs-s2-swir', name: 'SWIR', description: 'Short-wave infrared for moisture and burn scars', captures: 1, bands: pick('sentinel-2', ['B11', 'B12']) },
  { id: 'bs-enmap-vnir', name: 'Hyperspectral VNIR', description: 'EnMAP VNIR detector, 91 bands', captures: 1, bands: enmapBands().slice(0, 91) },
];
