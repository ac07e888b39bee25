// The code cache loader (src/boot/codeCache.ts), each start in a fresh Node process as VS Code
// starts its extension host: the first start compiles and saves the cache, the next one takes
// it, a damaged or foreign cache is rejected and made again, and the bundle still behaves as
// Node's require() would run it (its module in require's cache, its lines in stack traces).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { cacheFileName, staleCaches } from '../../../src/boot/codeCache';

const LOADER = path.join(__dirname, '..', '..', '..', 'src', 'boot', 'codeCache.js');
const HASH = '0123456789abcdef';

/**
 * A bundle as esbuild writes one: CommonJS, a relative require, and (on the first line, where
 * a minified bundle has most of its code) a function that throws.
 */
const BUNDLE = [
  'exports.fail = () => { throw new Error("from the bundle"); };',
  'const other = require("./other.js");',
  'exports.where = () => ({ filename: __filename, dirname: __dirname, same: require(__filename) === module.exports });',
  'exports.other = other.value;',
].join('\n');

interface Start {
  accepted: boolean;
  where: { filename: string; dirname: string; same: boolean };
  other: number;
  stack: string;
}

/** Loads `bundle.js` in a new Node process, saves the cache, and reports. */
function start(dir: string): Start {
  const script = `
    const { loadWithCodeCache } = require(${JSON.stringify(LOADER)});
    const b = loadWithCodeCache(${JSON.stringify(path.join(dir, 'bundle.js'))}, ${JSON.stringify(HASH)}, module);
    let stack = '';
    try { b.exports.fail(); } catch (e) { stack = e.stack; }
    b.saveCache().then(() => console.log(JSON.stringify({ accepted: b.cacheAccepted, where: b.exports.where(), other: b.exports.other, stack })));
  `;
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as Start;
}

const cacheFiles = (dir: string): string[] => fs.readdirSync(dir).filter((n) => n.endsWith('.cache'));

describe('the V8 code cache of dist/extension.js (src/boot/codeCache.ts)', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-code-cache-'));
    fs.chmodSync(dir, 0o755);
    fs.writeFileSync(path.join(dir, 'bundle.js'), BUNDLE);
    fs.writeFileSync(path.join(dir, 'other.js'), 'exports.value = 42;');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('compiles the first start from source, saves the cache, and takes it on the next start', () => {
    const first = start(dir);
    assert.equal(first.accepted, false);
    const [file] = cacheFiles(dir);
    assert.ok(file?.startsWith(`bundle.js.${HASH}.`), `the cache is named by the bundle's hash: ${cacheFiles(dir).join(', ')}`);
    if (process.platform !== 'win32') assert.equal(fs.statSync(path.join(dir, file)).mode & 0o777, 0o600);
    assert.equal(start(dir).accepted, true);
  });

  it('runs the bundle as require() would: its file, its folder, its relative requires, one module instance', () => {
    for (const run of [start(dir), start(dir)]) {
      assert.deepEqual(run.where, { filename: path.join(dir, 'bundle.js'), dirname: dir, same: true });
      assert.equal(run.other, 42);
    }
  });

  it("keeps the bundle's lines and columns in stack traces, with and without the cache", () => {
    // V8 places an Error where it is constructed.
    const column = BUNDLE.indexOf('new Error') + 1;
    for (const run of [start(dir), start(dir)]) {
      assert.match(run.stack, new RegExp(`bundle\\.js:1:${column}\\b`), run.stack);
    }
  });

  it('falls back to the source when the cache is damaged, and saves a good one again', () => {
    start(dir);
    const file = path.join(dir, cacheFiles(dir)[0]);
    fs.writeFileSync(file, Buffer.alloc(fs.statSync(file).size, 7));
    const damaged = start(dir);
    assert.equal(damaged.accepted, false);
    assert.equal(damaged.other, 42);
    assert.equal(start(dir).accepted, true);
  });

  it("removes an older build's cache when it saves its own", () => {
    const runtime = { v8: process.versions.v8, arch: process.arch };
    fs.writeFileSync(path.join(dir, cacheFileName(path.join(dir, 'bundle.js'), 'fedcba9876543210', runtime)), 'old');
    start(dir);
    assert.deepEqual(cacheFiles(dir), [cacheFileName(path.join(dir, 'bundle.js'), HASH, runtime)]);
  });

  it('neither reads nor writes a cache in a folder others can write', { skip: process.platform === 'win32' }, () => {
    fs.chmodSync(dir, 0o777);
    assert.equal(start(dir).accepted, false);
    assert.deepEqual(cacheFiles(dir), []);
  });

  it('names a cache per bundle hash and per runtime, and finds only other builds as stale', () => {
    const node = cacheFileName('/x/extension.js', HASH, { v8: '11.3.244.8-node.38', arch: 'x64' });
    const electron = cacheFileName('/x/extension.js', HASH, { v8: '13.2.152.41-electron.0', arch: 'x64' });
    assert.notEqual(node, electron);
    assert.deepEqual(staleCaches([node, electron, 'extension.js.aaaa.11-x64.cache', 'extension.js', 'features.js'], '/x/extension.js', HASH), [
      'extension.js.aaaa.11-x64.cache',
    ]);
  });
});
