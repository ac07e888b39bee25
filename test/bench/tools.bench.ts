// The chat tools against the sandbox, in code-server: for each read-only tool, its answer on
// the sandbox's largest inputs (bytes and rows, beside the raw JSON it summarises) and the
// time of a call as chat makes it (vscode.lm.invokeTool) next to the direct client calls it
// wraps, interleaved, medians; the tool's own answer computed in the extension host without
// invokeTool's round trip through the workbench (handler_ms); and, in the same rounds, an empty
// tool of another extension through invokeTool (empty_tool_ms: VS Code's round trip alone),
// to tell the costs apart. Goal: tool ≤ 1.2 × direct.
import * as os from 'node:os';
import * as path from 'node:path';
import { REPO_ROOT, runInExtensionHost } from '../integration/harness/codeServer';
import type { ToolsSample } from './tools.probe';

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}
const r2 = (n: number): number => Math.round(n * 100) / 100;

async function main(): Promise<void> {
  const sample = await runInExtensionHost<ToolsSample>({
    extensionTestsPath: path.join(REPO_ROOT, 'out', 'test', 'bench', 'tools.probe'),
    // The baseline's extension is installed: the payload takes one development path (ours).
    installedExtensionPaths: [path.join(REPO_ROOT, 'test', 'fixtures', 'empty-tool-extension')],
    timeoutMs: 400_000,
  });
  if (sample.error || !sample.figures.length) throw new Error(`chat tools probe failed: ${sample.error ?? 'no figures'}`);
  const load = os.loadavg()[0];
  const ours = median(sample.roundTrip.oursMs);
  const empty = median(sample.roundTrip.emptyMs);
  console.log(
    JSON.stringify({
      bench: 'chat-tools',
      // One of ours through invokeTool with input it refuses (no service call): the deferred
      // stand-in, prepareInvocation, reading the input and a one-line answer.
      figure: 'invoke_round_trip_ms',
      value: r2(ours),
      unit: 'ms',
      baseline: 'an empty tool of another extension through invokeTool (VS Code alone)',
      baseline_value: r2(empty),
      ratio: r2(ours / empty),
      ours_ms: r2(ours - empty),
      rounds: sample.roundTrip.oursMs.length,
      settle_ms: sample.settleMs,
      load_avg_1m: r2(load),
    }),
  );
  for (const f of sample.figures) {
    console.log(
      JSON.stringify({ bench: 'chat-tools', figure: `${f.tool}_answer`, value: f.answerBytes, unit: 'bytes', rows: f.answerRows, raw_json_bytes: f.rawBytes }),
    );
    const tool = median(f.toolMs);
    const handler = median(f.handlerMs);
    const direct = median(f.directMs);
    const roundTrip = median(f.emptyMs);
    console.log(
      JSON.stringify({
        bench: 'chat-tools',
        figure: `${f.tool}_call_ms`,
        value: r2(tool),
        unit: 'ms',
        baseline: `direct client: ${f.direct}`,
        baseline_value: r2(direct),
        ratio: r2(tool / direct),
        goal_ratio: 1.2,
        // The tool's own work (lookups, formatting) without VS Code's invokeTool round trip
        handler_ms: r2(handler),
        handler_ratio: r2(handler / direct),
        // VS Code's round trip in the same rounds, and what is left of the call beside it and the handler
        empty_tool_ms: r2(roundTrip),
        rest_ms: r2(tool - handler - roundTrip),
        rounds: sample.rounds,
        settle_ms: sample.settleMs,
        load_avg_1m: r2(load),
      }),
    );
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.stack : String(err));
  process.exit(1);
});
