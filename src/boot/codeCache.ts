/**
 * Runs a CommonJS bundle as Node's require() would, but compiled with a V8 code cache: the
 * bytecode of the bundle and of every function it ran at activation, saved after the first
 * start. With it, V8 neither parses the bundle nor compiles those functions again.
 *
 * A code cache is code: it is read and written only in a folder that the person alone can
 * write (the extension's own, as installed). V8 checks a cache against the source's length,
 * not its content, so the file name carries a hash of the bundle (esbuild.mjs computes it when
 * it builds); V8 itself rejects a cache made by another V8 version or other flags, and then
 * the bundle compiles as without a cache and the cache is made again.
 */
import * as fs from 'node:fs';
import Module = require('node:module');
import * as path from 'node:path';
import * as vm from 'node:vm';

/** Node's CommonJS wrapper, on a line of its own so the bundle keeps its lines and columns (source maps). */
const HEAD = '(function (exports, require, module, __filename, __dirname) {\n';
const TAIL = '\n})';
type Wrapper = (this: unknown, exports: unknown, require: NodeJS.Require, module: NodeJS.Module, filename: string, dirname: string) => void;

export interface LoadedBundle {
  readonly exports: unknown;
  /** Whether V8 took the code cache: false when there was none, it was rejected, or caching is off here. */
  readonly cacheAccepted: boolean;
  /** Milliseconds spent compiling (with the cache: deserialising it). */
  readonly compileMs: number;
  /**
   * Saves the code cache unless V8 took the one there (or caching is off here); call it once
   * the start-up code has run. Never fails: without a cache the next start compiles as now.
   */
  saveCache(): Promise<void>;
}

/**
 * The cache's file: beside the bundle, named by the bundle's hash and by the runtime (VS Code
 * desktop's Electron and a Node-based host such as code-server can share an extension folder,
 * and each rejects the other's cache).
 */
export function cacheFileName(bundleFile: string, bundleHash: string, runtime: { v8: string; arch: string }): string {
  const key = `${runtime.v8}-${runtime.arch}`.replace(/[^\w.-]/g, '_');
  return `${path.basename(bundleFile)}.${bundleHash}.${key}.cache`;
}

/** Caches of this bundle from other builds: `extension.js.<other hash>.*.cache`. */
export function staleCaches(names: readonly string[], bundleFile: string, bundleHash: string): string[] {
  const prefix = `${path.basename(bundleFile)}.`;
  return names.filter((n) => n.startsWith(prefix) && n.endsWith('.cache') && !n.startsWith(`${prefix}${bundleHash}.`));
}

/** Whether a folder is this user's alone to write: theirs, and not writable by others. */
function ownedByUser(dir: string): boolean {
  try {
    const stat = fs.statSync(dir);
    // Windows has no uids: the extension folder is under the person's profile.
    if (typeof process.getuid !== 'function') return true;
    return stat.uid === process.getuid() && (stat.mode & 0o002) === 0;
  } catch {
    return false;
  }
}

function readCache(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file);
  } catch {
    // None yet (the first start after an install or a build): the bundle compiles from source.
    return undefined;
  }
}

/** Loads `bundleFile` as the module Node's require() would make (`parent` requires it), with its code cache. */
export function loadWithCodeCache(bundleFile: string, bundleHash: string, parent: NodeJS.Module): LoadedBundle {
  const dir = path.dirname(bundleFile);
  const cacheOn = ownedByUser(dir);
  const cacheFile = path.join(dir, cacheFileName(bundleFile, bundleHash, { v8: process.versions.v8, arch: process.arch }));
  const cachedData = cacheOn ? readCache(cacheFile) : undefined;
  const source = fs.readFileSync(bundleFile, 'utf8');
  const t0 = performance.now();
  const script = new vm.Script(HEAD + source + TAIL, { filename: bundleFile, lineOffset: -1, cachedData });
  const compileMs = performance.now() - t0;
  const cacheAccepted = cachedData !== undefined && !script.cachedDataRejected;

  // The module as Node makes it, in require's cache: the bundles loaded later require this
  // file (`require('./extension.js')`) and must get this instance, not a second copy. Its
  // require() is the file's own, so `require('vscode')` reaches VS Code's interceptor with
  // this file as the requiring module, which is how VS Code knows the extension asking.
  const mod = new Module(bundleFile, parent) as NodeJS.Module;
  mod.filename = bundleFile;
  mod.paths = parent.paths;
  const requireFn = Module.createRequire(bundleFile);
  requireFn.cache[bundleFile] = mod;
  try {
    (script.runInThisContext() as Wrapper).call(mod.exports, mod.exports, requireFn, mod, bundleFile, dir);
  } catch (err) {
    delete requireFn.cache[bundleFile];
    throw err;
  }
  mod.loaded = true;

  let saved = cacheAccepted || !cacheOn;
  return {
    exports: mod.exports,
    cacheAccepted,
    compileMs,
    saveCache: async () => {
      if (saved) return;
      saved = true;
      await writeCache(dir, cacheFile, script.createCachedData(), staleCaches(safeReaddir(dir), bundleFile, bundleHash));
    },
  };
}

function safeReaddir(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

/** Writes beside and renames, so another window never reads half a cache; removes older builds' caches. */
async function writeCache(dir: string, file: string, data: Buffer, stale: readonly string[]): Promise<void> {
  const partial = `${file}.${process.pid}.partial`;
  try {
    await fs.promises.writeFile(partial, data, { mode: 0o600 });
    await fs.promises.rename(partial, file);
    await Promise.all(stale.map((n) => fs.promises.rm(path.join(dir, n), { force: true })));
  } catch {
    // A cache is an optimisation: without it the next start compiles from source, as now.
    await fs.promises.rm(partial, { force: true }).catch(() => undefined);
  }
}
