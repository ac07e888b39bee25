/** The colour maps live beside the index grammar (src/api/colormaps.ts): the sandbox's PNG renderer uses the same tables. */
export { COLORMAP_NAMES, colormapGradient, colormapLut } from '../../../src/api/colormaps';

/**
 * A CSS hex colour as services write class colours (`#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`)
 * → [r, g, b, a] bytes; anything else → undefined (the class then gets a colour of its own).
 */
export function parseHexColor(text: string): [number, number, number, number] | undefined {
  const m = /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i.exec(text.trim());
  if (!m) return undefined;
  let h = m[1];
  if (h.length <= 4) h = [...h].map((c) => c + c).join('');
  if (h.length === 6) h += 'ff';
  return [0, 2, 4, 6].map((i) => parseInt(h.slice(i, i + 2), 16)) as [number, number, number, number];
}

/** A distinct colour for the k-th class that has none we can read (golden-angle hues). */
export function fallbackClassColor(k: number): [number, number, number, number] {
  const h = (k * 137.508) % 360;
  const f = (n: number) => {
    const x = (n + h / 30) % 12;
    return Math.round(255 * (0.5 - 0.4 * Math.max(-1, Math.min(x - 3, 9 - x, 1))));
  };
  return [f(0), f(8), f(4), 255];
}

/** Class value → RGBA for a classified layer (colours we cannot read get one of their own). */
export function classColors(classes: readonly { value: number; color: string }[]): Map<number, [number, number, number, number]> {
  const out = new Map<number, [number, number, number, number]>();
  let k = 0;
  for (const c of classes) {
    if (typeof c.value !== 'number' || !Number.isFinite(c.value) || out.has(c.value)) continue;
    out.set(c.value, (typeof c.color === 'string' ? parseHexColor(c.color) : undefined) ?? fallbackClassColor(k++));
  }
  return out;
}

/** A colour map's name as its authors write it ("rdylgn" → "RdYlGn"). */
export function colormapName(name: string): string {
  const known: Record<string, string> = {
    rdylgn: 'RdYlGn',
    rdbu: 'RdBu',
    ylgn: 'YlGn',
    brbg: 'BrBG',
    spectral: 'Spectral',
    greys: 'Greys',
    blues: 'Blues',
    greens: 'Greens',
  };
  const key = name.trim().toLowerCase();
  const reversed = key.endsWith('_r') ? '_r' : '';
  const base = reversed ? key.slice(0, -2) : key;
  return (known[base] ?? base) + reversed;
}
