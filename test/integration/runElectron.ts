// `npm run test:electron`: the same integration suites (./index.ts) in a desktop VS Code that
// @vscode/test-electron downloads. For machines with internet access; here the suites run in
// code-server instead (scripts/test-all.mjs). Set VSCODE_VERSION to pick a release (default:
// the engines minimum, 1.100.3).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';
import type { TestRunResult } from './index';

async function main(): Promise<void> {
  const repo = path.resolve(__dirname, '..', '..', '..');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-electron-'));
  const workspace = path.join(tmp, 'workspace');
  fs.mkdirSync(workspace);
  const resultFile = path.join(tmp, 'result.json');
  let exitCode = 1;
  try {
    await runTests({
      version: process.env.VSCODE_VERSION ?? '1.100.3',
      extensionDevelopmentPath: repo,
      extensionTestsPath: path.join(__dirname, 'index'),
      extensionTestsEnv: { EO_TEST_RESULT_FILE: resultFile },
      launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust', '--user-data-dir', path.join(tmp, 'user-data')],
    }).catch((err: unknown) => {
      // A failing suite rejects here too; the result file says which, so only report a
      // launch problem when there is no result at all.
      if (!fs.existsSync(resultFile)) throw err;
    });
    if (!fs.existsSync(resultFile)) throw new Error('VS Code exited without writing a test result');
    const result = JSON.parse(fs.readFileSync(resultFile, 'utf8')) as TestRunResult;
    for (const t of result.tests) console.log(`  ${t.state === 'passed' ? '✔' : '✖'} ${t.title} (${t.durationMs} ms)`);
    for (const f of result.failures) console.log(`\n  FAILED: ${f.title}\n    ${f.error.split('\n').join('\n    ')}`);
    console.log(`${result.passed} passed, ${result.failed} failed`);
    exitCode = result.failed === 0 && result.total > 0 ? 0 : 1;
  } catch (err) {
    console.error(`Could not run the integration tests in VS Code: ${err instanceof Error ? err.message : String(err)}`);
    console.log('0 passed, 0 failed');
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  process.exit(exitCode);
}

void main();
