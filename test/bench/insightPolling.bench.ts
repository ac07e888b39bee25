// Polling cost of "Insight runs": 20 AOIs expanded, 3 runs pending on 3 of them, requests to
// the service per minute, counted at a proxy in front of the sandbox, against a fixed 2 s
// poll of each AOI with a pending run run side by side. Goal: one list request per AOI with
// a pending run per poll interval, none for AOIs whose runs are all final.
import * as path from 'node:path';
import { REPO_ROOT, runInExtensionHost } from '../integration/harness/codeServer';
import type { PollingSample, WindowCounts } from './insightPolling.probe';

const LIST = /^GET \/v0\/aoi\/([^/]+)\/insights$/;

function summarise(name: string, w: WindowCounts, pendingAois: string[]): void {
  const perMin = (n: number): number => Math.round((n * 60 * 10) / w.seconds) / 10;
  const lists = (counts: Record<string, number>): Map<string, number> => {
    const m = new Map<string, number>();
    for (const [k, v] of Object.entries(counts)) {
      const hit = LIST.exec(k);
      if (hit) m.set(hit[1], (m.get(hit[1]) ?? 0) + v);
    }
    return m;
  };
  const ourLists = lists(w.ours);
  const total = Object.values(w.ours).reduce((a, b) => a + b, 0);
  const base = Object.values(w.baseline).reduce((a, b) => a + b, 0);
  const finalAoisPolled = [...ourLists.keys()].filter((id) => !pendingAois.includes(id)).length;
  console.log(
    JSON.stringify({
      bench: 'insight-run-polling',
      figure: `${name}_requests_per_min`,
      value: perMin(total),
      baseline: 'fixed 2 s poll of each AOI with a pending run (no backoff)',
      baseline_value: perMin(base),
      ratio: Math.round((total / Math.max(base, 1)) * 100) / 100,
      list_requests_per_pending_aoi_per_min: pendingAois.map((id) => perMin(ourLists.get(id) ?? 0)),
      requests_for_final_aois: finalAoisPolled,
      other_requests: Object.fromEntries(Object.entries(w.ours).filter(([k]) => !LIST.test(k))),
      window_s: w.seconds,
    }),
  );
}

async function main(): Promise<void> {
  const sample = await runInExtensionHost<PollingSample>({
    extensionTestsPath: path.join(REPO_ROOT, 'out', 'test', 'bench', 'insightPolling.probe'),
    timeoutMs: 400_000,
  });
  if (sample.error || !sample.still || !sample.rising) throw new Error(`insight polling probe failed: ${sample.error ?? 'no figures'}`);
  console.log(JSON.stringify({ bench: 'insight-run-polling', figure: 'aois_expanded', value: sample.aoisExpanded, pending_runs: sample.pendingAois.length }));
  summarise('progress_still', sample.still, sample.pendingAois);
  summarise('progress_rising', sample.rising, sample.pendingAois);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.stack : String(err));
  process.exit(1);
});
