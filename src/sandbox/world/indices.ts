/** Preset indices per satellite. */
import { parseIndexExpression } from '../../api/indexExpression';
import type { ExpressionType, Index } from '../../api/records';

interface PresetDef {
  name: string;
  description: string;
  expression_type: ExpressionType;
  colormap: string;
  rescale: [number, number];
  /** Expression per satellite id; a satellite without one has no such preset. */
  by: Record<string, string>;
}

const PRESETS: PresetDef[] = [
  {
    name: 'NDVI',
    description: 'Normalized Difference Vegetation Index',
    expression_type: 'index',
    colormap: 'rdylgn',
    rescale: [-1, 1],
    by: { 'sentinel-2': '(B08-B04)/(B08+B04)', 'landsat-8-9': '(B5-B4)/(B5+B4)', 'pleiades-neo': '(NIR-RED)/(NIR+RED)', enmap: '(B072-B047)/(B072+B047)' },
  },
  {
    name: 'NDWI',
    description: 'Normalized Difference Water Index (McFeeters)',
    expression_type: 'index',
    colormap: 'blues',
    rescale: [-1, 1],
    by: { 'sentinel-2': '(B03-B08)/(B03+B08)', 'landsat-8-9': '(B3-B5)/(B3+B5)', 'pleiades-neo': '(GREEN-NIR)/(GREEN+NIR)' },
  },
  {
    name: 'EVI',
    description: 'Enhanced Vegetation Index',
    expression_type: 'index',
    colormap: 'viridis',
    rescale: [-1, 1],
    by: { 'sentinel-2': '2.5*(B08-B04)/(B08+6*B04-7.5*B02+1)', 'landsat-8-9': '2.5*(B5-B4)/(B5+6*B4-7.5*B2+1)' },
  },
  {
    name: 'SAVI',
    description: 'Soil Adjusted Vegetation Index (L = 0.5)',
    expression_type: 'index',
    colormap: 'ylgn',
    rescale: [-1, 1],
    by: { 'sentinel-2': '1.5*(B08-B04)/(B08+B04+0.5)', 'landsat-8-9': '1.5*(B5-B4)/(B5+B4+0.5)' },
  },
  {
    name: 'NDRE',
    description: 'Normalized Difference Red Edge',
    expression_type: 'index',
    colormap: 'rdylgn',
    rescale: [-1, 1],
    by: { 'sentinel-2': '(B8A-B05)/(B8A+B05)', 'pleiades-neo': '(NIR-RED_EDGE)/(NIR+RED_EDGE)' },
  },
  {
    name: 'True colour',
    description: 'Natural colour composite (red, green, blue)',
    expression_type: 'composite',
    colormap: '',
    rescale: [0, 3000],
    by: { 'sentinel-2': 'B04,B03,B02', 'landsat-8-9': 'B4,B3,B2', 'pleiades-neo': 'RED,GREEN,BLUE', enmap: 'B047,B030,B014' },
  },
  {
    name: 'False colour',
    description: 'Colour infrared composite (NIR, red, green)',
    expression_type: 'composite',
    colormap: '',
    rescale: [0, 5000],
    by: { 'sentinel-2': 'B08,B04,B03', 'landsat-8-9': 'B5,B4,B3', 'pleiades-neo': 'NIR,RED,GREEN', enmap: 'B072,B047,B030' },
  },
];

export function presetIndices(created: string): Index[] {
  const out: Index[] = [];
  for (const p of PRESETS) {
    for (const [sat, expression] of Object.entries(p.by)) {
      out.push({
        id: `preset-${p.name.toLowerCase().replace(/\s+/g, '-')}-${sat}`,
        name: p.name,
        description: p.description,
        org_id: '',
        user_id: '',
        satellite_id: sat,
        type: 'preset',
        expression,
        expression_type: p.expression_type,
        bands: presetBands(expression, p.expression_type),
        colormap: p.colormap,
        rescale: p.rescale,
        created_at: created,
        updated_at: created,
      });
    }
  }
  return out;
}

function presetBands(expression: string, type: ExpressionType): string[] {
  const parsed = parseIndexExpression(expression, type);
  // A preset that does not parse is a bug in the seed data, not a request error.
  if ('error' in parsed) throw new Error(`preset expression ${JSON.stringify(expression)}: ${parsed.error}`);
  return parsed.bands;
}
