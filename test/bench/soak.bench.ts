// The soak: the extension used for EO_SOAK_MINUTES (default 30) through the fault proxy with
// 5 % resets and 1 % 503s (soak.probe.ts, inside code-server's extension host). Prints the
// counts the issue asks for: data lost, duplicate spends, hangs, and the host's heap early and
// late (after a collection each time); and what was done and injected, with the seed to replay.
import * as path from 'node:path';
import { REPO_ROOT, runInExtensionHost } from '../integration/harness/codeServer';
import type { SoakSample } from './soak.probe';

async function main(): Promise<void> {
  const minutes = Number(process.env.EO_SOAK_MINUTES) || 30;
  const s = await runInExtensionHost<SoakSample>({
    extensionTestsPath: path.join(REPO_ROOT, 'out', 'test', 'bench', 'soak.probe'),
    env: { EO_SOAK_MINUTES: String(minutes) },
    timeoutMs: (minutes + 10) * 60_000,
  });
  if (s.error) throw new Error(`soak probe failed: ${s.error}`);
  const { error: _error, hangs: _hangs, dataLost: _lost, ...counts } = s;
  console.log(
    JSON.stringify({
      bench: 'soak',
      figure: 'faults_survived',
      data_lost: s.dataLost,
      duplicate_spends: s.spends.duplicates,
      hangs: s.hangs,
      heap_growth_mb: Math.round((s.heapMb.late - s.heapMb.early) * 10) / 10,
      goal: 'data_lost 0, duplicate_spends 0, hangs 0, heap flat',
      ...counts,
    }),
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
