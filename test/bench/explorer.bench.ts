// The sidebar at scale: the sandbox CLI with --scale 400 (10,000 orders per user) in its own
// process, EO Imagery in code-server's extension host. Figures: time from expanding Orders to
// the first page rendered (median of 5; target < 300 ms), against the bare client call for the
// same page; and the host's heap after 20 pages of "Load more…" minus after activation
// (target < 60 MB).
import * as path from 'node:path';
import { REPO_ROOT, runInExtensionHost } from '../integration/harness/codeServer';
import { startSandboxCli } from '../e2e/sandboxCli';
import type { ExplorerSample } from './explorer.probe';

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

const round = (n: number): number => Math.round(n * 100) / 100;

async function main(): Promise<void> {
  const sandbox = await startSandboxCli(['--scale', '400'], 180_000);
  try {
    const sample = await runInExtensionHost<ExplorerSample>({
      extensionTestsPath: path.join(REPO_ROOT, 'out', 'test', 'bench', 'explorer.probe'),
      env: { EO_BENCH_URL: sandbox.url, EO_BENCH_TOKEN: sandbox.tokens.alice },
      timeoutMs: 300_000,
    });
    if (sample.error) throw new Error(`explorer probe failed: ${sample.error}`);
    const expand = median(sample.expandMs);
    const bare = median(sample.clientMs);
    console.log(
      JSON.stringify({
        bench: 'explorer-orders',
        figure: 'expand_to_first_page_median_ms',
        value: round(expand),
        baseline: 'client.orders.listPage (same page, no tree)',
        baseline_value: round(bare),
        ratio: round(expand / Math.max(bare, 0.01)),
        orders_total: sample.total,
        samples_ms: sample.expandMs.map(round),
        target: '< 300',
        meets_target: expand < 300,
      }),
    );
    const growth = sample.heapAfterPagesMb - sample.heapAfterActivationMb;
    console.log(
      JSON.stringify({
        bench: 'explorer-orders',
        figure: 'heap_growth_after_20_pages_mb',
        value: round(growth),
        heap_after_activation_mb: round(sample.heapAfterActivationMb),
        heap_after_pages_mb: round(sample.heapAfterPagesMb),
        pages_loaded: sample.pagesLoaded,
        rows_shown: sample.rowsShown,
        target: '< 60',
        meets_target: growth < 60,
      }),
    );
  } finally {
    await sandbox.close();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.stack : String(err));
  process.exit(1);
});
