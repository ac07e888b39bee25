// Entry point the extension host calls (`extensionTestsPath`): runs every Mocha TDD suite under
// ./suite inside the real VS Code API, and writes the outcome as JSON to a result file, since
// neither code-server's web page nor a headless host reports test results by itself.
// Used by both drivers: scripts/test-all.mjs (code-server) and runElectron.ts (@vscode/test-electron).
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';
import { printedFigures } from './support/figures';
import { installWebviewTap } from './support/webviewTap';

export interface TestFailure {
  title: string;
  error: string;
}

export interface TestRunResult {
  passed: number;
  failed: number;
  /** Pending tests (`test.skip`, `this.skip()`, or a test without a body). */
  skipped: number;
  total: number;
  durationMs: number;
  tests: { title: string; state: 'passed' | 'failed' | 'skipped'; durationMs: number }[];
  failures: TestFailure[];
  /** Figures the suites measured (`printFigure`), printed by the driver. */
  figures?: string[];
}

/** Env var naming the JSON result file; the driver sets it on the server / extension host. */
export const RESULT_FILE_ENV = 'EO_TEST_RESULT_FILE';
/** Optional Mocha --grep for a narrower run. */
export const GREP_ENV = 'EO_TEST_GREP';
/** Optional: a single compiled suite file (or a comma-separated list) instead of all of them. */
export const FILES_ENV = 'EO_TEST_FILES';

function findTests(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  const found: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...findTests(full));
    else if (entry.name.endsWith('.test.js')) found.push(full);
  }
  return found.sort();
}

/** The smoke suite checks the window before any other suite has activated the extension. */
function smokeApart(files: string[]): [string[], string[]] {
  const isSmoke = (f: string): boolean => path.basename(f) === 'smoke.test.js';
  return [files.filter(isSmoke), files.filter((f) => !isSmoke(f))];
}

function writeResult(file: string | undefined, result: TestRunResult): void {
  if (!file) return;
  // Write then rename so the driver never reads half a file.
  const tmp = `${file}.tmp`;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(tmp, JSON.stringify(result, null, 2));
  fs.renameSync(tmp, file);
}

function errorText(err: unknown): string {
  if (err instanceof Error) return err.stack ?? `${err.name}: ${err.message}`;
  return String(err);
}

/** Runs `files` in one Mocha instance, adding what happened to `result`. */
async function runFiles(files: string[], result: TestRunResult): Promise<void> {
  const mocha = new Mocha({ ui: 'tdd', color: false, timeout: 20_000, reporter: 'spec' });
  const grep = process.env[GREP_ENV];
  if (grep) mocha.grep(grep);
  for (const f of files) mocha.addFile(f);
  await new Promise<void>((resolve, reject) => {
    try {
      const runner = mocha.run(() => resolve());
      runner.on('pass', (t) => {
        result.passed++;
        result.tests.push({ title: t.fullTitle(), state: 'passed', durationMs: t.duration ?? 0 });
      });
      runner.on('pending', (t) => {
        result.skipped++;
        result.tests.push({ title: t.fullTitle(), state: 'skipped', durationMs: 0 });
      });
      runner.on('fail', (t, err: unknown) => {
        result.failed++;
        result.tests.push({ title: t.fullTitle(), state: 'failed', durationMs: t.duration ?? 0 });
        result.failures.push({ title: t.fullTitle(), error: errorText(err) });
      });
    } catch (err) {
      reject(err);
    }
  });
}

export async function run(): Promise<void> {
  const resultFile = process.env[RESULT_FILE_ENV];
  const started = Date.now();
  const result: TestRunResult = { passed: 0, failed: 0, skipped: 0, total: 0, durationMs: 0, tests: [], failures: [] };
  // before any panel opens: the suites see the webviews through it (support/webviewTap.ts)
  installWebviewTap();
  try {
    const only = process.env[FILES_ENV];
    const files = only ? only.split(',').map((f) => path.resolve(__dirname, f.trim())) : findTests(path.join(__dirname, 'suite'));
    if (files.length === 0) throw new Error(`no compiled suites (*.test.js) under ${path.join(__dirname, 'suite')}`);
    // The smoke suite runs alone, before the other suites are even loaded: the extension also
    // activates on onStartupFinished, a few seconds into the window, and loading every suite
    // first could take longer than that on a slow machine, leaving "activates when one of its
    // commands runs" nothing to prove.
    const [smoke, rest] = smokeApart(files);
    if (smoke.length) await runFiles(smoke, result);
    if (rest.length) await runFiles(rest, result);
  } catch (err) {
    // A suite that cannot even load is a failure, not an empty run.
    result.failed++;
    result.failures.push({ title: 'loading the integration suites', error: errorText(err) });
  }
  result.figures = printedFigures();
  result.total = result.passed + result.failed + result.skipped;
  result.durationMs = Date.now() - started;
  writeResult(resultFile, result);
  if (result.failed > 0) {
    // test-electron reads the exit status from a rejected run().
    throw new Error(`${result.failed} integration test(s) failed`);
  }
}
