/**
 * Processing blocks. Their `spec.inputs` cover every input format (raster, vector, date,
 * number, string, boolean) with bands, visualisation and discretization properties, so the
 * extension's input builder meets each rule of docs/service-interface.md.
 */
import type { Block, BlockRecord, InputDefinition } from '../../api/records';

const LAND_COVER_CLASSES = [
  { name: 'water', value: 1, color: '#1f78b4' },
  { name: 'cropland', value: 2, color: '#ffd92f' },
  { name: 'forest', value: 3, color: '#1b9e77' },
  { name: 'built-up', value: 4, color: '#e41a1c' },
  { name: 'bare soil', value: 5, color: '#a6761d' },
];

const discrete = (classes: { value: number; color: string }[]): Record<string, string> => Object.fromEntries(classes.map((c) => [String(c.value), c.color]));

const landCoverOutput: InputDefinition = {
  format: 'raster',
  name: 'land_cover',
  type: 'url',
  description: 'Classified land cover',
  properties: {
    dtype: 'uint8',
    bands: ['class'],
    visualisation: { type: 'discrete', discrete: discrete(LAND_COVER_CLASSES) },
    discretization: { type: 'classes', classes: LAND_COVER_CLASSES },
  },
};

const CHANGE_CLASSES = [
  { name: 'no change', value: 0, color: '#00000000' },
  { name: 'loss', value: 1, color: '#d7191c' },
  { name: 'gain', value: 2, color: '#1a9641' },
];

export const BLOCKS: readonly Block[] = [
  {
    id: 'blk-land-cover',
    name: 'land-cover-classification',
    display_name: 'Land cover classification',
    description: 'Classifies a mosaic into five land cover classes inside the given fields.',
    mode: 'insight',
    version: '1.2.0',
    spec: {
      name: 'land-cover-classification',
      version: '1.2.0',
      inputs: [
        {
          format: 'raster',
          name: 'image',
          type: 'url',
          description: 'Multispectral mosaic',
          required: true,
          properties: { bands: ['B02', 'B03', 'B04', 'B08'], dtype: 'uint16', source: 'sentinel-2-l2a' },
        },
        {
          format: 'vector',
          name: 'fields',
          type: 'url',
          description: 'Field boundaries to classify within',
          required: false,
          properties: { source: 'upload' },
        },
        {
          format: 'date',
          name: 'season_start',
          type: 'string',
          description: 'First day of the growing season',
          required: true,
          properties: { date: 'YYYY-MM-DD' },
        },
        { format: 'number', name: 'min_patch_ha', type: 'number', description: 'Smallest patch kept, in hectares', required: true },
        { format: 'boolean', name: 'smooth', type: 'boolean', description: 'Apply a majority filter to the result', required: false },
      ],
      outputs: [landCoverOutput],
    },
  },
  {
    id: 'blk-water-extent',
    name: 'water-extent',
    display_name: 'Water extent',
    description: 'Maps open water with an NDWI threshold; optionally includes wetlands.',
    mode: 'insight',
    version: '0.9.1',
    spec: {
      name: 'water-extent',
      version: '0.9.1',
      inputs: [
        {
          format: 'raster',
          name: 'image',
          type: 'url',
          description: 'Mosaic with green and NIR bands',
          required: true,
          properties: { bands: ['B03', 'B08', 'B11'], dtype: 'uint16', source: 'sentinel-2-l2a' },
        },
        { format: 'number', name: 'threshold', type: 'number', description: 'NDWI threshold above which a pixel is water', required: true },
        { format: 'boolean', name: 'include_wetlands', type: 'boolean', description: 'Count vegetated wetlands as water', required: true },
        { format: 'string', name: 'label', type: 'string', description: 'A label stored with the result', required: false },
      ],
      outputs: [
        {
          format: 'raster',
          name: 'water_mask',
          type: 'url',
          description: 'Water mask',
          properties: {
            dtype: 'uint8',
            bands: ['water'],
            visualisation: { type: 'discrete', discrete: { '0': '#00000000', '1': '#1f78b4' } },
            discretization: {
              type: 'classes',
              classes: [
                { name: 'land', value: 0, color: '#00000000' },
                { name: 'water', value: 1, color: '#1f78b4' },
              ],
            },
          },
        },
        {
          format: 'vector',
          name: 'water_bodies',
          type: 'url',
          description: 'Water bodies as polygons (GeoJSON)',
          properties: {
            discretization: {
              type: 'classes',
              classes: [
                { name: 'open water', value: 1, color: '#1f78b4' },
                { name: 'wetland', value: 2, color: '#33a02c' },
              ],
            },
          },
        },
      ],
    },
  },
  {
    id: 'blk-change',
    name: 'change-detection',
    display_name: 'Change detection',
    description: 'Compares a land-cover result with a later mosaic and marks loss and gain.',
    mode: 'insight',
    version: '2.0.0',
    spec: {
      name: 'change-detection',
      version: '2.0.0',
      inputs: [
        {
          format: 'raster',
          name: 'baseline',
          type: 'url',
          description: 'Earlier land cover (an insight output)',
          required: true,
          properties: { bands: ['class'], dtype: 'uint8' },
        },
        {
          format: 'raster',
          name: 'image',
          type: 'url',
          description: 'Later mosaic',
          required: true,
          properties: { bands: ['B04', 'B08'], dtype: 'uint16', source: 'sentinel-2-l2a' },
        },
        { format: 'date', name: 'as_of', type: 'string', description: 'Date the change is reported for', required: true, properties: { date: 'YYYY-MM-DD' } },
        { format: 'string', name: 'sensitivity', type: 'string', description: 'low, medium or high', required: true },
        { format: 'vector', name: 'mask', type: 'url', description: 'Area to ignore', required: false },
      ],
      outputs: [
        {
          format: 'raster',
          name: 'change',
          type: 'url',
          description: 'Loss and gain',
          properties: {
            dtype: 'uint8',
            bands: ['change'],
            visualisation: { type: 'discrete', discrete: discrete(CHANGE_CLASSES) },
            discretization: { type: 'classes', classes: CHANGE_CLASSES },
          },
        },
        {
          format: 'vector',
          name: 'change_areas',
          type: 'url',
          description: 'Areas of loss and gain (GeoJSON)',
          properties: { discretization: { type: 'classes', classes: CHANGE_CLASSES.filter((c) => c.value !== 0) } },
        },
      ],
    },
  },
  {
    id: 'blk-ndvi-series',
    name: 'ndvi-time-series',
    display_name: 'NDVI time series',
    description: 'Runs NDVI over every mosaic of an AOI and aggregates per date.',
    mode: 'workflow',
    version: '1.0.0',
    spec: {
      name: 'ndvi-time-series',
      version: '1.0.0',
      inputs: [
        { format: 'date', name: 'from', type: 'string', description: 'Start date', required: true },
        { format: 'date', name: 'to', type: 'string', description: 'End date', required: true },
      ],
      outputs: [{ format: 'vector', name: 'series', type: 'url', description: 'Per-date statistics', properties: {} }],
    },
  },
  // Workflow steps: what the seeded workflows chain (src/sandbox/world/workflows.ts).
  workflowBlock(
    'blk-mosaic',
    'mosaic-builder',
    'Mosaic builder',
    'Builds a cloud-free mosaic of an AOI from its images in a date range.',
    '1.4.0',
    [
      { format: 'string', name: 'aoi', type: 'string', description: 'The AOI to build the mosaic of', required: true },
      { format: 'date', name: 'from', type: 'string', description: 'First date', required: true },
      { format: 'date', name: 'to', type: 'string', description: 'Last date', required: true },
    ],
    [{ format: 'raster', name: 'mosaic', type: 'url', description: 'The mosaic', properties: { dtype: 'uint16' } }],
  ),
  workflowBlock(
    'blk-cloud-mask',
    'cloud-mask',
    'Cloud mask',
    'Masks clouds and their shadows out of a mosaic.',
    '2.1.0',
    [
      { format: 'raster', name: 'mosaic', type: 'url', description: 'The mosaic to mask', required: true },
      { format: 'number', name: 'max_cloud_probability', type: 'number', description: 'Pixels above this cloud probability are masked', required: false },
    ],
    [{ format: 'raster', name: 'masked', type: 'url', description: 'The mosaic without clouds', properties: { dtype: 'uint16' } }],
  ),
  workflowBlock(
    'blk-zonal-stats',
    'zonal-statistics',
    'Zonal statistics',
    'Summarises a raster per field or zone: mean, minimum, maximum, area.',
    '1.0.3',
    [
      { format: 'raster', name: 'raster', type: 'url', description: 'The raster to summarise', required: true },
      { format: 'vector', name: 'zones', type: 'url', description: 'The zones (the AOI when none)', required: false },
    ],
    [{ format: 'vector', name: 'statistics', type: 'url', description: 'One row per zone (GeoJSON)', properties: {} }],
  ),
  workflowBlock(
    'blk-report',
    'report-builder',
    'Report builder',
    'Writes the results of the steps before it into one report.',
    '0.3.0',
    [{ format: 'vector', name: 'results', type: 'url', description: 'Results to report on', required: true }],
    [{ format: 'string', name: 'report', type: 'url', description: 'The report (JSON)', properties: {} }],
  ),
];

function workflowBlock(
  id: string,
  name: string,
  title: string,
  description: string,
  version: string,
  inputs: InputDefinition[],
  outputs: InputDefinition[],
): Block {
  return { id, name, display_name: title, description, mode: 'workflow', version, spec: { name, version, inputs, outputs } };
}

/** Tokens per km² for an estimate, by block. */
export const BLOCK_RATES: Record<string, number> = {
  'land-cover-classification': 0.8,
  'water-extent': 0.3,
  'change-detection': 1.1,
  'ndvi-time-series': 0.2,
  'mosaic-builder': 0.4,
  'cloud-mask': 0.2,
  'zonal-statistics': 0.1,
  'report-builder': 0.05,
};

/** When the sandbox's blocks were registered (they predate every user). */
const BLOCKS_CREATED = '2025-06-01T00:00:00Z';

/**
 * A block as the OpenAPI document sends it (`dexter.BlockSpecItem`): the name, title,
 * description and execution mode live in `spec`, not beside it.
 */
export function toBlockRecord(b: Block): BlockRecord {
  return {
    id: b.id,
    block_status: 'active',
    spec: {
      ...b.spec,
      id: b.id,
      version_id: `${b.id}@${b.spec.version}`,
      title: b.display_name ?? b.name,
      description: b.description,
      kind: b.mode,
      type: 'model',
      supported_collections_id: ['sentinel-2-l2a'],
    },
    created_at: BLOCKS_CREATED,
    err: '',
  };
}
