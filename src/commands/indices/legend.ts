/** What a visualization's legend says, and what the legend rules say it should carry (no vscode). */
import { legacyLegendOf, legendsOf } from '../../api/legend';
import type { Index, Legend, LegendItem, Visualization } from '../../api/records';

export type LegendKinds = { dynamic: boolean; theoretical: boolean };

/**
 * The legend rules of docs/service-interface.md: preset → dynamic and theoretical; custom `index` →
 * dynamic only; custom `composite`/`grayscale` → none.
 */
export function expectedLegend(type: string, expressionType: string): LegendKinds {
  if (type === 'preset') return { dynamic: true, theoretical: true };
  if (expressionType === 'index') return { dynamic: true, theoretical: false };
  return { dynamic: false, theoretical: false };
}

const fmt = (n: number): string => (Number.isInteger(n) ? String(n) : n.toPrecision(4));

/** One legend mode as a line: each class with its range, colour and share of the area. */
function classLine(mode: string, date: string | undefined, list: readonly LegendItem[]): string {
  const classes = list.map((c) => {
    const share = typeof c.area_percentage === 'number' ? `, ${fmt(c.area_percentage)} % of the area` : '';
    return `${c.label || 'class'} ${fmt(c.min)} … ${fmt(c.max)} (${c.color}${share})`;
  });
  return `${mode} legend${date ? ` for ${date}` : ''}: ${classes.length ? classes.join('; ') : 'no classes'}`;
}

/**
 * A few lines a person can read: what the legends hold (the service's classes per date and
 * mode, or the first version's summary) and why there are none when there are none.
 */
export function describeLegend(v: Pick<Visualization, 'type' | 'expression_type' | 'index_name' | 'metadata'> & { legend?: Legend }): string[] {
  const want = expectedLegend(v.type, v.expression_type);
  const lines: string[] = [];
  for (const l of legendsOf(v)) {
    if (l.dynamic) lines.push(classLine('Dynamic', l.date, l.dynamic));
    if (l.theoretical) lines.push(classLine('Theoretical', l.date, l.theoretical));
  }
  const legend = legacyLegendOf(v);
  if (legend?.theoretical) lines.push(`Theoretical range: ${fmt(legend.theoretical.min)} … ${fmt(legend.theoretical.max)}`);
  if (legend?.dynamic) {
    const d = legend.dynamic;
    lines.push(`Dynamic range: ${fmt(d.min)} … ${fmt(d.max)} (mean ${fmt(d.mean)}, std dev ${fmt(d.stddev)})`);
    if (Array.isArray(d.histogram) && d.histogram.length > 0) lines.push(`Histogram: ${sparkline(d.histogram)} (${d.histogram.length} bins)`);
  }
  if (lines.length === 0) {
    lines.push(
      want.dynamic || want.theoretical
        ? `No legend metadata was returned, although a ${v.type} ${v.expression_type} index should have one.`
        : `No legend: a custom ${v.expression_type} index has no legend metadata.`,
    );
  }
  return lines;
}

const BARS = '▁▂▃▄▅▆▇█';

export function sparkline(values: readonly number[]): string {
  const max = Math.max(...values, 0);
  if (max <= 0) return BARS[0].repeat(values.length);
  return values.map((x) => BARS[Math.min(BARS.length - 1, Math.floor((Math.max(0, x) / max) * (BARS.length - 1)))]).join('');
}

/** Labels for listing an index in a quick pick. */
export function indexSummary(i: Index): string {
  const rescale = Array.isArray(i.rescale) && i.rescale.length === 2 ? ` · rescale ${i.rescale[0]}…${i.rescale[1]}` : '';
  return `${i.type} · ${i.expression_type} · ${i.satellite_id}${i.colormap ? ` · ${i.colormap}` : ''}${rescale}`;
}
