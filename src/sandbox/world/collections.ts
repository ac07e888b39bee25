/**
 * The archive's collections and the compact row an archive item is kept as: what both the
 * item generator (archive.ts) and the imagery scenes (imagery/scenes.ts) read.
 */
import type { Geometry } from '../../api/records';
import type { BBox } from '../../geo/bbox';

export interface CollectionDef {
  id: string;
  title: string;
  description: string;
  license: string;
  perScale: number;
  footprintKm: number;
  rotateDeg: number;
  gsd: number;
  altitude: number;
  platforms: string[];
  instruments: string[];
  constellation: string;
  productLevel: string;
  idPrefix: string;
  shape: number;
  doi: string;
  provider: { name: string; description: string; roles: string[]; url: string };
}

export const COLLECTION_DEFS: readonly CollectionDef[] = [
  {
    id: 'sentinel-2-l2a',
    title: 'Sentinel-2 Level-2A',
    description: 'Bottom-of-atmosphere reflectance from the Sentinel-2 MultiSpectral Instrument, 100 km tiles.',
    license: 'CC-BY-SA-3.0-IGO',
    perScale: 500,
    footprintKm: 110,
    rotateDeg: 0,
    gsd: 10,
    altitude: 786000,
    platforms: ['sentinel-2a', 'sentinel-2b'],
    instruments: ['msi'],
    constellation: 'sentinel-2',
    productLevel: 'L2A',
    idPrefix: 'S2',
    shape: 10980,
    doi: '10.5270/S2_-znk9xsj',
    provider: { name: 'ESA', description: 'European Space Agency, Copernicus programme', roles: ['producer', 'licensor'], url: 'https://sentinel.esa.int' },
  },
  {
    id: 'landsat-c2-l2',
    title: 'Landsat Collection 2 Level-2',
    description: 'Surface reflectance and temperature from Landsat 8 and 9 OLI/TIRS scenes.',
    license: 'CC0-1.0',
    perScale: 500,
    footprintKm: 180,
    rotateDeg: 12,
    gsd: 30,
    altitude: 705000,
    platforms: ['landsat-8', 'landsat-9'],
    instruments: ['oli', 'tirs'],
    constellation: 'landsat',
    productLevel: 'L2SP',
    idPrefix: 'LC',
    shape: 7801,
    doi: '10.5066/P9OGBGM6',
    provider: {
      name: 'USGS',
      description: 'United States Geological Survey',
      roles: ['producer', 'licensor', 'host'],
      url: 'https://www.usgs.gov/landsat-missions',
    },
  },
  {
    id: 'pleiades-neo',
    title: 'Pléiades Neo archive',
    description: 'Very high resolution 30 cm panchromatic and 1.2 m multispectral strips.',
    license: 'proprietary',
    perScale: 150,
    footprintKm: 14,
    rotateDeg: 4,
    gsd: 1.2,
    altitude: 620000,
    platforms: ['pneo-3', 'pneo-4'],
    instruments: ['pneo-imager'],
    constellation: 'pleiades-neo',
    productLevel: 'ORTHO',
    idPrefix: 'PNEO',
    shape: 46667,
    doi: '10.5069/pneo-archive',
    provider: {
      name: 'Airbus Defence and Space',
      description: 'Operator of the Pléiades Neo constellation',
      roles: ['producer', 'licensor'],
      url: 'https://www.intelligence-airbusds.com',
    },
  },
  {
    id: 'enmap-l2a',
    title: 'EnMAP HSI Level-2A',
    description: 'Hyperspectral surface reflectance in 224 bands from 420 to 2450 nm, 30 km swaths.',
    license: 'CC-BY-4.0',
    perScale: 100,
    footprintKm: 30,
    rotateDeg: 8,
    gsd: 30,
    altitude: 653000,
    platforms: ['enmap'],
    instruments: ['hsi'],
    constellation: 'enmap',
    productLevel: 'L2A',
    idPrefix: 'ENMAP01',
    shape: 1000,
    doi: '10.15489/enmap-l2a',
    provider: { name: 'DLR', description: 'German Aerospace Center', roles: ['producer', 'licensor', 'host'], url: 'https://www.enmap.org' },
  },
];

export interface ArchiveRow {
  id: string;
  c: number;
  t: number;
  cloud: number;
  offNadir: number;
  sunAz: number;
  sunEl: number;
  platform: number;
  lon: number;
  lat: number;
  anomalous: number;
  geometry: Geometry;
  bbox: BBox;
}
