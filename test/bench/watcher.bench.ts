// The watcher's request budget: requests per minute while following 20 pending things, against
// a fixed 5 s poll of each run side by side, and how long each takes to see all 20 final after
// the sandbox clock jumps (what the budget costs in latency); and two windows sharing the
// budget through a 503 storm, beside two windows with a budget each.
import * as path from 'node:path';
import { REPO_ROOT, runInExtensionHost } from '../integration/harness/codeServer';
import type { WatcherSample } from './watcher.probe';

async function main(): Promise<void> {
  const s = await runInExtensionHost<WatcherSample>({
    extensionTestsPath: path.join(REPO_ROOT, 'out', 'test', 'bench', 'watcher.probe'),
    timeoutMs: 600_000,
  });
  if (s.error) throw new Error(`watcher probe failed: ${s.error}`);
  const perMin = (n: number): number => Math.round((n * 60 * 10) / s.window_s) / 10;
  console.log(
    JSON.stringify({
      bench: 'watcher',
      figure: 'requests_per_min_20_pending',
      value: perMin(s.ours),
      baseline: 'fixed 5 s poll of each of the 20 (no backoff, no budget)',
      baseline_value: perMin(s.baseline),
      ratio: Math.round((s.ours / Math.max(s.baseline, 1)) * 1000) / 1000,
      window_s: s.window_s,
    }),
  );
  console.log(
    JSON.stringify({
      bench: 'watcher',
      figure: 'seconds_until_all_20_seen_final',
      value: s.oursNoticedAllS ?? null,
      baseline_value: s.baselineNoticedAllS ?? null,
      unit: 's',
    }),
  );
  if (s.storm) {
    console.log(
      JSON.stringify({
        bench: 'watcher',
        figure: 'requests_per_min_2_windows_503_storm',
        pending: s.storm.pending,
        value: Math.round((s.storm.shared * 60) / s.storm.seconds),
        budget: 20,
        baseline: 'the same two windows with a budget each (not shared)',
        baseline_value: Math.round((s.storm.apart * 60) / s.storm.seconds),
        ratio: Math.round((s.storm.shared / Math.max(s.storm.apart, 1)) * 100) / 100,
        window_s: s.storm.seconds,
        note: 'every read answered 503 with Retry-After: 0; retries count',
      }),
    );
  }
  if (s.runs) {
    for (const [name, w] of [
      ['progress_still', s.runs.still],
      ['progress_rising', s.runs.rising],
    ] as const) {
      const m = (n: number): number => Math.round((n * 60 * 10) / w.seconds) / 10;
      console.log(
        JSON.stringify({
          bench: 'watcher',
          figure: `insight_runs_${name}_requests_per_min`,
          pending_runs: s.runs.aois,
          value: m(w.ours),
          baseline: 'fixed 2 s poll of the run list of each AOI with a pending run (no backoff)',
          baseline_value: m(w.baseline),
          ratio: Math.round((w.ours / Math.max(w.baseline, 1)) * 100) / 100,
          window_s: w.seconds,
        }),
      );
    }
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.stack : String(err));
  process.exit(1);
});
