// Runs inside code-server's extension host as the `extensionTestsPath` module of one fresh
// window: signs in to an in-process sandbox, opens a generated insight file of about 10 KB
// and one of about 1 MB (thousands of problems), and times what the light bulb asks for (the
// quick fixes of the diagnostics on one line, through the real workbench command) and the
// resolution of the fixes offered (where their edits are computed). Writes the figures to
// EO_TEST_RESULT_FILE.
import * as fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import { connectToSandbox, startSandbox } from '../integration/harness/sandbox';
import { quickFixes } from '../integration/support/quickFixes';
import { until } from '../integration/support/until';
import { generatedInsight } from '../unit/insights/fixtures';

export interface QuickFixFigures {
  bytes: number;
  problems: number;
  /** Every timed light-bulb request, in ms. */
  lightBulbMs: number[];
  /** The first request, which also waits for JSON language features to start on the file. */
  firstMs: number;
  /** Resolving every fix offered on the line (their edits computed), in ms. */
  resolveMs: number;
  offered: number;
}

export interface QuickFixSample {
  files: Record<string, QuickFixFigures>;
  error?: string;
}

const RUNS = Number(process.env.EO_BENCH_RUNS ?? 9);

async function measure(name: string, bytes: number): Promise<QuickFixFigures> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  if (!folder) throw new Error('the window has no folder');
  const uri = vscode.Uri.joinPath(folder, name);
  await vscode.workspace.fs.writeFile(uri, Buffer.from(generatedInsight(bytes), 'utf8'));
  await vscode.window.showTextDocument(uri, { preview: false });
  // The spec has arrived once unknown input names are reported.
  const diags = await until(
    `diagnostics from the spec for ${name}`,
    () => {
      const d = vscode.languages.getDiagnostics(uri);
      return d.some((x) => x.code === 'input-unknown') && d;
    },
    120_000,
  );
  const missing = diags.filter((d) => d.code === 'type-missing');
  const target = missing[Math.floor(missing.length / 2)];
  let t0 = performance.now();
  const offered = await quickFixes(uri, target.range, 0);
  const firstMs = performance.now() - t0;
  const lightBulbMs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    t0 = performance.now();
    await quickFixes(uri, target.range, 0);
    lightBulbMs.push(performance.now() - t0);
  }
  t0 = performance.now();
  const resolved = await quickFixes(uri, target.range, offered.length);
  const resolveMs = performance.now() - t0;
  if (!resolved.some((a) => a.edit)) throw new Error(`no fix of ${name} resolved to an edit`);
  await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  await vscode.workspace.fs.delete(uri);
  return { bytes, problems: diags.length, lightBulbMs, firstMs, resolveMs, offered: offered.length };
}

export async function run(): Promise<void> {
  const file = process.env.EO_TEST_RESULT_FILE;
  const sample: QuickFixSample = { files: {} };
  const sandbox = await startSandbox();
  try {
    await connectToSandbox(sandbox);
    sample.files['10KB'] = await measure('small.insight.json', 10_000);
    sample.files['1MB'] = await measure('large.insight.json', 1_000_000);
  } catch (err) {
    sample.error = err instanceof Error ? err.message : String(err);
  } finally {
    await sandbox.close();
  }
  if (file) fs.writeFileSync(file, JSON.stringify(sample));
}
