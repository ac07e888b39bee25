/**
 * Validating an insight input file (parse + every check + quick fixes) against JSON.parse of
 * the same text, for generated files of about 10 KB, 100 KB and 1 MB. JSON.parse is what an
 * editor must at least do to read the file; the ratio says what our checks add on top. The
 * files mix complete inputs, inputs without "type" (each gets a quick fix), lineage inputs
 * with and without asset_source, and names the spec does not know. Median of several runs,
 * both measured side by side in the same process.
 * Targets: 1 MB takes at most 12× the 100 KB time (linear growth), and under 200 ms.
 */
import { performance } from 'node:perf_hooks';
import { validateInsightText, type SpecLookup } from '../../src/insights/validate';
import { SPEC, generatedInsight } from '../unit/insights/fixtures';

const RUNS = Number(process.env.BENCH_ROUNDS ?? 9);
const SIZES: Array<[string, number]> = [
  ['10KB', 10_000],
  ['100KB', 100_000],
  ['1MB', 1_000_000],
];
const found: SpecLookup = { status: 'found', spec: SPEC };

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

const round = (n: number): number => Math.round(n * 100) / 100;

function main(): void {
  const ms: Record<string, number> = {};
  for (const [label, bytes] of SIZES) {
    const text = generatedInsight(bytes);
    const ours: number[] = [];
    const base: number[] = [];
    let diagnostics = 0;
    validateInsightText(text, found); // warm-up (loads jsonc-parser, JIT)
    for (let r = 0; r < RUNS; r++) {
      let t0 = performance.now();
      JSON.parse(text);
      base.push(performance.now() - t0);
      t0 = performance.now();
      diagnostics = validateInsightText(text, found).length;
      ours.push(performance.now() - t0);
    }
    ms[label] = median(ours);
    console.log(
      JSON.stringify({
        bench: 'insight-validation',
        figure: `validate_${label}_ms`,
        value: round(median(ours)),
        baseline: 'JSON.parse of the same text',
        baseline_value: round(median(base)),
        ratio: round(median(ours) / Math.max(median(base), 0.001)),
        bytes: text.length,
        diagnostics,
        runs: RUNS,
      }),
    );
  }
  const growth = ms['1MB'] / ms['100KB'];
  console.log(
    JSON.stringify({
      bench: 'insight-validation',
      figure: 'growth_1MB_over_100KB',
      value: round(growth),
      target: '<= 12 (linear: about 10)',
      meets_target: growth <= 12,
    }),
  );
  console.log(
    JSON.stringify({
      bench: 'insight-validation',
      figure: 'validate_1MB_ms',
      value: round(ms['1MB']),
      target: '< 200',
      meets_target: ms['1MB'] < 200,
    }),
  );
}

main();
