// A hostile shared view (issue 39, item 5): the requests its opening makes with the opener's
// token, against the distinct records it names and the budget of a view, beside main's
// reading of the same view run side by side (test/bench/viewBudget.probe.ts).
import * as os from 'node:os';
import * as path from 'node:path';
import { REPO_ROOT, runInExtensionHost } from '../integration/harness/codeServer';
import type { ViewBudgetSample } from './viewBudget.probe';

async function main(): Promise<void> {
  const s = await runInExtensionHost<ViewBudgetSample>({
    extensionTestsPath: path.join(REPO_ROOT, 'out', 'test', 'bench', 'viewBudget.probe'),
    timeoutMs: 600_000,
  });
  if (s.error) throw new Error(`view budget probe failed: ${s.error}`);
  const r2 = (n: number): number => Math.round(n * 100) / 100;
  console.log(
    JSON.stringify({
      bench: 'share-view',
      figure: 'hostile_view_requests',
      value: s.ours,
      distinct_records_named: s.distinctRecords,
      per_distinct_record: r2(s.ours / s.distinctRecords),
      budget: s.budget,
      within_budget: s.ours <= s.budget,
      baseline: 'main’s reading of the same view: a listing walk per asset layer, 500 assets and the AOI per slider date',
      baseline_value: s.baseline,
      ratio: r2(s.ours / Math.max(1, s.baseline)),
      link_kb: r2(s.linkChars / 1024),
      layers_shown: s.shown,
      left_out: s.leftOut,
    }),
  );
  console.log(
    JSON.stringify({
      bench: 'share-view',
      figure: 'hostile_view_open_ms',
      value: Math.round(s.oursMs),
      unit: 'ms',
      baseline_value: Math.round(s.baselineMs),
      note: 'ours: read and drawn through the command; baseline: the reads alone, nothing drawn',
      load_average: r2(os.loadavg()[0]),
    }),
  );
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.stack : String(err));
  process.exit(1);
});
