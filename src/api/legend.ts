/**
 * A visualization's legends, read tolerantly (docs/service-interface.md, "Visualizations"):
 * the OpenAPI keys `metadata.legend` by date (`{"2024_05_06": {dynamic: [...], theoretical: [...]}}`),
 * our first reading of the OpenAPI took `metadata.legend` as `{dynamic, theoretical}` without the date, and the
 * first version read a top-level `legend` summary. Pure.
 */
import type { Legend, LegendItem, VisualizationLegends, VisualizationMetadata } from './records';
import { isObj } from './shape';

export interface DatedLegends extends VisualizationLegends {
  /** `YYYY-MM-DD` when the service keyed the legends by date. */
  date?: string;
}

function items(v: unknown): LegendItem[] | undefined {
  if (!Array.isArray(v)) return undefined;
  return v.filter((x): x is LegendItem => isObj(x) && typeof x.min === 'number' && typeof x.max === 'number');
}

function modes(v: Record<string, unknown>): VisualizationLegends {
  const out: VisualizationLegends = {};
  const d = items(v.dynamic);
  const t = items(v.theoretical);
  if (d) out.dynamic = d;
  if (t) out.theoretical = t;
  return out;
}

/** `2024_05_06` → `2024-05-06`; anything else as sent. */
export function legendDate(key: string): string {
  return /^\d{4}_\d{2}_\d{2}$/.test(key) ? key.replace(/_/g, '-') : key;
}

/** `2024-05-06` → `2024_05_06`, the form the PNG endpoint takes. */
export function pngDate(date: string): string {
  return date.slice(0, 10).replace(/-/g, '_');
}

/** Every dated legend of a visualization, oldest first; empty when it has none. */
export function legendsOf(v: { metadata?: VisualizationMetadata | null }): DatedLegends[] {
  const legend = v.metadata?.legend;
  if (!isObj(legend)) return [];
  if ('dynamic' in legend || 'theoretical' in legend) {
    const m = modes(legend);
    return m.dynamic || m.theoretical ? [m] : [];
  }
  return Object.keys(legend)
    .sort()
    .flatMap((k) => {
      const entry = legend[k];
      if (!isObj(entry)) return [];
      const m = modes(entry);
      return m.dynamic || m.theoretical ? [{ date: legendDate(k), ...m }] : [];
    });
}

/** The first version's summary, when a service still sends one. */
export function legacyLegendOf(v: { legend?: Legend | null }): Legend | undefined {
  return isObj(v.legend) ? v.legend : undefined;
}
