/** Preset indices per satellite, and the band-arithmetic parser custom indices are checked with. */
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
    name: 'NDVI', description: 'Normalized Difference Vegetation Index', expression_type: 'index', colormap: 'rdylgn', rescale: [-1, 1],
    by: { 'sentinel-2': '(B08-B04)/(B08+B04)', 'landsat-8-9': '(B5-B4)/(B5+B4)', 'pleiades-neo': '(NIR-RED)/(NIR+RED)', enmap: '(B072-B047)/(B072+B047)' },
  },
  {
    name: 'NDWI', description: 'Normalized Difference Water Index (McFeeters)', expression_type: 'index', colormap: 'blues', rescale: [-1, 1],
    by: { 'sentinel-2': '(B03-B08)/(B03+B08)', 'landsat-8-9': '(B3-B5)/(B3+B5)', 'pleiades-neo': '(GREEN-NIR)/(GREEN+NIR)' },
  },
  {
    name: 'EVI', description: 'Enhanced Vegetation Index', expression_type: 'index', colormap: 'viridis', rescale: [-1, 1],
    by: { 'sentinel-2': '2.5*(B08-B04)/(B08+6*B04-7.5*B02+1)', 'landsat-8-9': '2.5*(B5-B4)/(B5+6*B4-7.5*B2+1)' },
  },
  {
    name: 'SAVI', description: 'Soil Adjusted Vegetation Index (L = 0.5)', expression_type: 'index', colormap: 'ylgn', rescale: [-1, 1],
    by: { 'sentinel-2': '1.5*(B08-B04)/(B08+B04+0.5)', 'landsat-8-9': '1.5*(B5-B4)/(B5+B4+0.5)' },
  },
  {
    name: 'NDRE', description: 'Normalized Difference Red Edge', expression_type: 'index', colormap: 'rdylgn', rescale: [-1, 1],
    by: { 'sentinel-2': '(B8A-B05)/(B8A+B05)', 'pleiades-neo': '(NIR-RED_EDGE)/(NIR+RED_EDGE)' },
  },
  {
    name: 'True colour', description: 'Natural colour composite (red, green, blue)', expression_type: 'composite', colormap: '', rescale: [0, 3000],
    by: { 'sentinel-2': 'B04,B03,B02', 'landsat-8-9': 'B4,B3,B2', 'pleiades-neo': 'RED,GREEN,BLUE', enmap: 'B047,B030,B014' },
  },
  {
    name: 'False colour', description: 'Colour infrared composite (NIR, red, green)', expression_type: 'composite', colormap: '', rescale: [0, 5000],
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
        bands: parseExpression(expression, p.expression_type).bands,
        colormap: p.colormap,
        rescale: p.rescale,
        created_at: created,
        updated_at: created,
      });
    }
  }
  return out;
}

/**
 * Parses band arithmetic (`(B08-B04)/(B08+B04)`), or a comma list of 3 bands for a composite.
 * Returns the band names used, in order of first use, or an error message.
 */
export function parseExpression(expr: string, type: ExpressionType): { bands: string[]; error?: string } {
  if (type === 'composite') {
    const parts = expr.split(',').map((s) => s.trim());
    if (parts.length !== 3 || parts.some((p) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(p))) {
      return { bands: [], error: 'a composite expression is three band names separated by commas, e.g. "B04,B03,B02"' };
    }
    return { bands: [...new Set(parts)] };
  }
  const tokens = expr.match(/\s*([A-Za-z_][A-Za-z0-9_]*|\d+(?:\.\d+)?|[-+*/()]|\S)/g)?.map((t) => t.trim()) ?? [];
  const bands: string[] = [];
  let i = 0;
  const fail = (msg: string): never => {
    throw new Error(msg);
  };
  const primary = (): void => {
    const t = tokens[i];
    if (t === undefined) fail('unexpected end of expression');
    if (t === '(') {
      i++;
      sum();
      if (tokens[i] !== ')') fail(`expected ")" at token ${i + 1}`);
      i++;
    } else if (t === '-' || t === '+') {
      i++;
      primary();
    } else if (/^\d/.test(t)) {
      i++;
    } else if (/^[A-Za-z_]/.test(t)) {
      if (!bands.includes(t)) bands.push(t);
      i++;
    } else fail(`unexpected ${JSON.stringify(t)} at token ${i + 1}`);
  };
  const product = (): void => {
    primary();
    while (tokens[i] === '*' || tokens[i] === '/') {
      i++;
      primary();
    }
  };
  const sum = (): void => {
    product();
    while (tokens[i] === '+' || tokens[i] === '-') {
      i++;
      product();
    }
  };
  try {
    if (tokens.length === 0) fail('expression is empty');
    sum();
    if (i !== tokens.length) fail(`unexpected ${JSON.stringify(tokens[i])} at token ${i + 1}`);
  } catch (e) {
    return { bands, error: (e as Error).message };
  }
  if (bands.length === 0) return { bands, error: 'expression uses no band' };
  return { bands };
}
