/**
 * Colour maps as small lookup tables: a few anchor colours of each matplotlib map, spread
 * evenly, expanded to 256 entries by linear interpolation. `_r` reverses any of them. Pure:
 * the map webview colours index layers with them and the sandbox its visualization PNGs.
 */
const ANCHORS: Record<string, string[]> = {
  viridis: ['#440154', '#482878', '#3e4989', '#31688e', '#26828e', '#1f9e89', '#35b779', '#6ece58', '#b5de2b', '#fde725'],
  magma: ['#000004', '#180f3d', '#440f76', '#721f81', '#9e2f7f', '#cd4071', '#f1605d', '#fd9668', '#feca8d', '#fcfdbf'],
  inferno: ['#000004', '#1b0c41', '#4a0c6b', '#781c6d', '#a52c60', '#cf4446', '#ed6925', '#fb9b06', '#f7d13d', '#fcffa4'],
  plasma: ['#0d0887', '#46039f', '#7201a8', '#9c179e', '#bd3786', '#d8576b', '#ed7953', '#fb9f3a', '#fdca26', '#f0f921'],
  cividis: ['#00224e', '#123570', '#3b496c', '#575d6d', '#707173', '#8a8678', '#a59c74', '#c3b369', '#e1cc55', '#fee838'],
  greys: ['#ffffff', '#f0f0f0', '#d9d9d9', '#bdbdbd', '#969696', '#737373', '#525252', '#252525', '#000000'],
  gray: ['#000000', '#ffffff'],
  rdylgn: ['#a50026', '#d73027', '#f46d43', '#fdae61', '#fee08b', '#ffffbf', '#d9ef8b', '#a6d96a', '#66bd63', '#1a9850', '#006837'],
  spectral: ['#9e0142', '#d53e4f', '#f46d43', '#fdae61', '#fee08b', '#ffffbf', '#e6f598', '#abdda4', '#66c2a5', '#3288bd', '#5e4fa2'],
  rdbu: ['#67001f', '#b2182b', '#d6604d', '#f4a582', '#fddbc7', '#f7f7f7', '#d1e5f0', '#92c5de', '#4393c3', '#2166ac', '#053061'],
  brbg: ['#543005', '#8c510a', '#bf812d', '#dfc27d', '#f6e8c3', '#f5f5f5', '#c7eae5', '#80cdc1', '#35978f', '#01665e', '#003c30'],
  ylgn: ['#ffffe5', '#f7fcb9', '#d9f0a3', '#addd8e', '#78c679', '#41ab5d', '#238443', '#006837', '#004529'],
  blues: ['#f7fbff', '#deebf7', '#c6dbef', '#9ecae1', '#6baed6', '#4292c6', '#2171b5', '#08519c', '#08306b'],
  terrain: ['#333399', '#0294fa', '#00cc66', '#ccee88', '#d4c47e', '#806050', '#b09c98', '#ffffff'],
};

export const COLORMAP_NAMES = Object.keys(ANCHORS);

function hex(c: string): [number, number, number] {
  return [parseInt(c.slice(1, 3), 16), parseInt(c.slice(3, 5), 16), parseInt(c.slice(5, 7), 16)];
}

const cache = new Map<string, Uint8ClampedArray>();

/** 256 RGB entries (768 bytes), or undefined for a name we do not know. */
export function colormapLut(name: string): Uint8ClampedArray | undefined {
  const key = name.trim().toLowerCase();
  const hit = cache.get(key);
  if (hit) return hit;
  const reversed = key.endsWith('_r');
  const base = reversed ? key.slice(0, -2) : key;
  const anchors = ANCHORS[base === 'grey' ? 'greys' : base];
  if (!anchors) return undefined;
  const stops = (reversed ? [...anchors].reverse() : anchors).map(hex);
  const lut = new Uint8ClampedArray(256 * 3);
  for (let i = 0; i < 256; i++) {
    const t = (i / 255) * (stops.length - 1);
    const k = Math.min(stops.length - 2, Math.floor(t));
    const f = t - k;
    for (let c = 0; c < 3; c++) lut[i * 3 + c] = Math.round(stops[k][c] * (1 - f) + stops[k + 1][c] * f);
  }
  cache.set(key, lut);
  return lut;
}

/** A CSS gradient of the map, for the legend's colour bar. */
export function colormapGradient(name: string): string {
  const lut = colormapLut(name) ?? (colormapLut('viridis') as Uint8ClampedArray);
  const stops: string[] = [];
  for (let i = 0; i <= 10; i++) {
    const k = Math.round((i / 10) * 255) * 3;
    stops.push(`rgb(${lut[k]}, ${lut[k + 1]}, ${lut[k + 2]}) ${i * 10}%`);
  }
  return `linear-gradient(to right, ${stops.join(', ')})`;
}
