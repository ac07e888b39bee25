// Runs inside code-server's extension host as the `extensionTestsPath` module of one fresh
// window: activates the empty baseline extension and EO Imagery (in the order the driver asks,
// to share out any first-activation warm-up) and times each `activate()` with
// performance.now(). That time covers loading the extension's bundle and running its
// activate(), which is what a person waits for. Writes the figures to EO_TEST_RESULT_FILE.
import * as fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';

export const EO_ID = 'eo-imagery.eo-imagery';
export const EMPTY_ID = 'eo-imagery-bench.empty-extension';

export interface ActivationSample {
  order: string[];
  ms: Record<string, number>;
  /** Our activate()'s own breakdown (bundle load and each registration step). */
  profile?: Record<string, number>;
  /** An extension already active before the probe ran cannot be timed. */
  alreadyActive: string[];
  error?: string;
}

async function time(id: string): Promise<number> {
  const ext = vscode.extensions.getExtension(id);
  if (!ext) throw new Error(`extension ${id} is not loaded in this window`);
  const t0 = performance.now();
  await ext.activate();
  return performance.now() - t0;
}

/**
 * The tests module runs while the window is still starting (built-in extensions activating,
 * the workbench connecting), and whichever activation came first absorbed that noise. Wait
 * until the host's event loop has been quiet for a while before timing anything.
 */
async function settle(): Promise<void> {
  const deadline = performance.now() + 15_000;
  let quietTicks = 0;
  await new Promise((r) => setTimeout(r, 1000));
  while (quietTicks < 20 && performance.now() < deadline) {
    const t0 = performance.now();
    await new Promise((r) => setTimeout(r, 25));
    quietTicks = performance.now() - t0 < 30 ? quietTicks + 1 : 0;
  }
}

export async function run(): Promise<void> {
  const file = process.env.EO_TEST_RESULT_FILE;
  await settle();
  const order = process.env.EO_BENCH_ORDER === 'eo-first' ? [EO_ID, EMPTY_ID] : [EMPTY_ID, EO_ID];
  const sample: ActivationSample = { order, ms: {}, alreadyActive: [] };
  try {
    for (const id of order) {
      if (vscode.extensions.getExtension(id)?.isActive) sample.alreadyActive.push(id);
    }
    for (const [i, id] of order.entries()) {
      // The second activation waits for the host to be quiet again. Activated right after EO
      // Imagery, the empty extension's context (its storage, a round trip to the workbench)
      // waited behind what EO Imagery's registrations left the host and the workbench to do:
      // about 30 ms instead of 8, in exactly the windows where EO Imagery went first, which
      // took that much off EO Imagery's difference there.
      if (i > 0) await settle();
      sample.ms[id] = await time(id);
    }
    const api = vscode.extensions.getExtension<{ testing?: { activationProfile?: Record<string, number> } }>(EO_ID)?.exports;
    sample.profile = api?.testing?.activationProfile;
  } catch (err) {
    sample.error = err instanceof Error ? err.message : String(err);
  }
  if (file) fs.writeFileSync(file, JSON.stringify(sample));
}
