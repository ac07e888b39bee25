// Records shaped like the service's, for the builder and validator tests.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Aoi, Asset, BlockSpec, Insight, Polygon } from '../../../src/api/records';

/** `test/fixtures/insights`, from the compiled `out/test/unit/insights` or the sources. */
export const FIXTURES = path.resolve(
  __dirname,
  __dirname.includes(`${path.sep}out${path.sep}`) ? '../../../../test/fixtures/insights' : '../../fixtures/insights',
);

export function readFixture(rel: string): string {
  return readFileSync(path.join(FIXTURES, rel), 'utf8');
}

export const SPEC: BlockSpec = JSON.parse(readFixture('spec.json')) as BlockSpec;

export const square = (x: number, y: number, d = 0.1): Polygon => ({
  type: 'Polygon',
  coordinates: [
    [
      [x, y],
      [x + d, y],
      [x + d, y + d],
      [x, y + d],
      [x, y],
    ],
  ],
});

export function asset(over: Partial<Asset> = {}): Asset {
  return {
    id: 'asset-1',
    aoi_id: 'aoi-1',
    visualization_id: '',
    name: 'Mosaic 2024-05-01',
    description: '',
    asset_type: 'mosaic',
    band_list: ['B02', 'B03', 'B04', 'B08'],
    centroid: [77.15, 28.45],
    geometry: square(77.1, 28.4),
    area_in_sq_m: 1e8,
    date: '2024-05-01',
    path: 'https://data.example/aoi-1/mosaic-2024-05-01.tif',
    progress: 100,
    status: 'success',
    created_at: '2024-05-01 10:00:00.000000+00:00',
    updated_at: '2024-05-01 10:00:00.000000+00:00',
    ...over,
  };
}

export function aoi(over: Partial<Aoi> = {}): Aoi {
  return {
    aoi_id: 'aoi-1',
    name: 'North field',
    description: '',
    satellite_id: 'sentinel-2',
    project_id: 'proj-1',
    images: {},
    eo_bands: ['B02', 'B03', 'B04', 'B08'],
    geometry: square(77.1, 28.4),
    progress: 100,
    status: 'success',
    is_favourite: false,
    created_at: '2024-05-01T10:00:00Z',
    updated_at: '2024-05-01T10:00:00Z',
    user_id: 'alice',
    area_in_sq_m: 1e8,
    centroid: [77.15, 28.45],
    ...over,
  };
}

export function insight(over: Partial<Insight> = {}): Insight {
  return {
    id: 'ins-9',
    name: 'Classes 2024',
    block: { name: 'land-cover', version: '2.0.0' },
    status: 'success',
    created_at: '2024-05-02T10:00:00Z',
    aoi_id: 'aoi-1',
    input: [],
    output: [
      {
        name: 'classes',
        format: 'raster',
        type: 'url',
        value: 'https://data.example/insights/ins-9/classes.tif',
        properties: {
          dtype: 'uint8',
          visualisation: { type: 'discrete', discrete: { '1': '#00ff00', '2': '#ffff00' } },
          discretization: { type: 'classes', classes: [{ name: 'crop', value: 1, color: '#00ff00' }] },
        },
      },
      { name: 'report', format: 'vector', type: 'url', value: 'https://data.example/insights/ins-9/report.geojson', properties: {} },
    ],
    ...over,
  };
}

function entry(i: number): string {
  switch (i % 5) {
    case 0:
      return `    { "format": "number", "name": "threshold_${i}", "type": "number", "description": "Threshold ${i}", "value": "0.${i}" }`;
    case 1:
      // No "type": a diagnostic with an "Add type" quick fix.
      return `    { "format": "number", "name": "count_${i}", "description": "Count ${i}", "value": "${i}" }`;
    case 2:
      return `    { "format": "raster", "name": "image_${i}", "type": "url", "description": "Scene ${i}", "stac_url": "https://stac.example/items/${i}", "asset_source": { "id": "asset-${i}", "type": "raw_mosaic" } }`;
    case 3:
      // Same STAC item, no asset_source: the fix reuses the other input's lineage.
      return `    { "format": "raster", "name": "mask_${i}", "type": "url", "description": "Mask ${i}", "stac_url": "https://stac.example/items/${i - 1}" }`;
    default:
      return `    { "format": "date", "name": "date_${i}", "type": "string", "description": "Day ${i}", "value": "2024-05-${String((i % 28) + 1).padStart(2, '0')}" }`;
  }
}

/**
 * An insight file of about `bytes` characters (every input a different name) for the
 * water-extent block: the files mix complete inputs, inputs without "type" (each gets a quick
 * fix), lineage inputs with and without asset_source, and names the spec does not know.
 */
export function generatedInsight(bytes: number): string {
  const head = '{\n  "name": "generated",\n  "block": { "name": "water-extent", "version": "0.9.1" },\n  "input": [\n';
  const parts: string[] = [];
  let size = head.length + 8;
  for (let i = 0; size < bytes; i++) {
    const e = entry(i);
    parts.push(e);
    size += e.length + 2;
  }
  return `${head}${parts.join(',\n')}\n  ]\n}\n`;
}
