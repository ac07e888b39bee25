// dist/main.js as VS Code runs it (each start in a fresh Node process), beside a stand-in for
// dist/extension.js that records when it runs: the bundle is not run inside the require (the
// extension host's request for the context goes out first, src/boot/loadSoon.ts), it runs
// a moment later, or at activate() when that comes first, and only once.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';

const MAIN = path.join(__dirname, '..', '..', '..', '..', 'dist', 'main.js');

const BUNDLE = [
  'globalThis.bundleRuns = (globalThis.bundleRuns || 0) + 1;',
  'exports.activate = (context) => ({ context, runs: globalThis.bundleRuns });',
  'exports.deactivate = () => { globalThis.deactivated = true; };',
].join('\n');

interface Report {
  runsAfterRequire: number;
  api: { context: string; runs: number };
  runsAtEnd: number;
}

/** Requires main.js, waits `waitMs` (the host waiting for the context), activates, and reports. */
function start(dir: string, waitMs: number): Report {
  const script = `
    const main = require(${JSON.stringify(path.join(dir, 'main.js'))});
    const runsAfterRequire = globalThis.bundleRuns || 0;
    setTimeout(() => {
      const api = main.activate('the context');
      setTimeout(() => {
        console.log(JSON.stringify({ runsAfterRequire, api, runsAtEnd: globalThis.bundleRuns }));
        process.exit(0);
      }, 30);
    }, ${waitMs});
  `;
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as Report;
}

describe('dist/main.js runs dist/extension.js after VS Code has required it (src/boot/main.ts)', () => {
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-main-'));
    fs.chmodSync(dir, 0o755);
    fs.copyFileSync(MAIN, path.join(dir, 'main.js'));
    fs.writeFileSync(path.join(dir, 'extension.js'), BUNDLE);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('does not run the bundle inside the require, and runs it while the host waits for the context', () => {
    const report = start(dir, 50);
    assert.equal(report.runsAfterRequire, 0, 'the bundle ran inside the require: the host sends its request for the context only after it');
    assert.deepEqual(report.api, { context: 'the context', runs: 1 }, 'the bundle had run before activate()');
    assert.equal(report.runsAtEnd, 1);
  });

  it('runs the bundle at activate() when the context comes first, and once', () => {
    const report = start(dir, 0);
    assert.equal(report.runsAfterRequire, 0);
    assert.equal(report.api.context, 'the context');
    assert.equal(report.runsAtEnd, 1);
  });
});
