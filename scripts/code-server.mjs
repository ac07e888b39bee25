// Installs code-server 4.100.3 (VS Code 1.100.3, web workbench + Node extension host) from the
// npm registry without its postinstall, which downloads binaries this machine cannot reach.
// The recipe is ../shared/notes/real-vscode-offline.md. The install is cached outside git and
// skipped when a marker file says a previous run completed.
//
//   node scripts/code-server.mjs            install (or confirm the cached install)
//   import { ensureCodeServer, startCodeServer } from './code-server.mjs'
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync, rmSync, copyFileSync, symlinkSync, lstatSync, chmodSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { pathToFileURL } from 'node:url';
import { runPreflight } from './preflight.mjs';

export const CODE_SERVER_VERSION = '4.100.3';
const MARKER = '.eo-install-complete';
// Native modules of VS Code's server that need a build for this Node (the npm tarball has none).
const NATIVE_MODULES = ['kerberos', 'node-pty', '@parcel/watcher', '@vscode/spdlog', 'native-watchdog', '@vscode/deviceid'];

export function cacheDir() {
  return join(process.env.EO_CACHE_DIR || join(homedir(), '.cache', 'eo-imagery'), `code-server-${CODE_SERVER_VERSION}`);
}

export function codeServerEntry() {
  return join(cacheDir(), 'node_modules', 'code-server', 'out', 'node', 'entry.js');
}

function log(msg) {
  console.log(`[code-server] ${msg}`);
}

/** Runs a command, streaming nothing unless it fails; then throws with its output tail. */
function run(cmd, args, cwd, env = {}, label = `${cmd} ${args.join(' ')}`) {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(cmd, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const keep = (d) => {
      out += d.toString();
      if (out.length > 200_000) out = out.slice(-100_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', (err) => reject(new Error(`could not run ${cmd}: ${err.message}`)));
    child.on('close', (code) => {
      if (code === 0) {
        log(`  ok (${((Date.now() - started) / 1000).toFixed(0)} s): ${label}`);
        resolve();
      } else {
        reject(new Error(`${cmd} ${args.join(' ')} (in ${cwd}) exited with ${code}:\n${out.slice(-4000)}`));
      }
    });
  });
}

function npmNodeGyp() {
  const prefix = execFileSync('npm', ['prefix', '-g'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  const candidates = [
    join(prefix, 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
    join(prefix, 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
  ];
  const found = candidates.find((c) => existsSync(c));
  if (!found) throw new Error(`npm's node-gyp not found (looked in ${candidates.join(', ')})`);
  return found;
}

function symlink(target, path) {
  try {
    lstatSync(path);
    return; // already there
  } catch {
    symlinkSync(target, path);
  }
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

/**
 * One installer at a time per cache dir (two test runs on a fresh machine would otherwise
 * delete each other's half-built install). A lock left by a dead process is taken over.
 */
async function withInstallLock(dir, fn) {
  const lock = `${dir}.lock`;
  mkdirSync(join(dir, '..'), { recursive: true });
  let announced = false;
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      let pid = NaN;
      try {
        pid = Number(readFileSync(join(lock, 'pid'), 'utf8'));
      } catch {
        // the holder has not written its pid yet
      }
      if (Number.isInteger(pid) && !isAlive(pid)) {
        rmSync(lock, { recursive: true, force: true });
        continue;
      }
      if (!announced) log(`waiting for another install (pid ${pid}) to finish`);
      announced = true;
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function isInstalled(dir) {
  return existsSync(join(dir, MARKER)) && existsSync(codeServerEntry());
}

/** Installs code-server into the cache unless a previous run completed. Returns the cache dir. */
export async function ensureCodeServer() {
  const dir = cacheDir();
  if (isInstalled(dir)) return dir;
  return withInstallLock(dir, async () => {
    // Another process may have finished the install while this one waited.
    if (isInstalled(dir)) return dir;
    await install(dir);
    return dir;
  });
}

async function install(dir) {
  const marker = join(dir, MARKER);
  const started = Date.now();
  log(`installing code-server ${CODE_SERVER_VERSION} into ${dir} (first run only; takes several minutes)`);
  // Normally done already by npm start or npm test; a test file run on its own gets here first.
  const preflight = await runPreflight({ purposes: ['start'], asker: 'the code-server install' });
  if (!preflight.ok) throw new Error("cannot build code-server's native modules: this machine is missing what the message above names");
  // A half-finished install can leave broken native builds; start clean.
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'eo-code-server-cache', private: true }, null, 2));

  const npmEnv = { npm_config_nodedir: '/usr', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
  log('1/6 npm install --ignore-scripts code-server');
  await run('npm', ['install', '--ignore-scripts', '--no-save', '--no-package-lock', `code-server@${CODE_SERVER_VERSION}`], dir, npmEnv);

  const cs = join(dir, 'node_modules', 'code-server');
  const vscodeDir = join(cs, 'lib', 'vscode');
  log('2/6 npm install in lib/vscode (server dependencies)');
  await run('npm', ['install', '--omit=dev', '--ignore-scripts', '--no-package-lock'], vscodeDir, npmEnv);

  log('3/6 building native modules against /usr headers');
  const gyp = npmNodeGyp();
  for (const mod of NATIVE_MODULES) {
    const modDir = join(vscodeDir, 'node_modules', mod);
    if (!existsSync(modDir)) throw new Error(`expected native module ${mod} at ${modDir}; the code-server package layout changed`);
    await run(process.execPath, [gyp, 'rebuild', '--nodedir=/usr'], modDir, npmEnv, `node-gyp rebuild ${mod}`);
  }

  log('4/6 building argon2 (code-server password hashing)');
  const argon2 = join(dir, 'node_modules', 'argon2');
  const argon2Root = existsSync(argon2) ? argon2 : join(cs, 'node_modules', 'argon2');
  if (!existsSync(argon2Root)) throw new Error('argon2 not found next to code-server');
  const preGyp = [
    join(argon2Root, '..', '@mapbox', 'node-pre-gyp', 'bin', 'node-pre-gyp'),
    join(dir, 'node_modules', '@mapbox', 'node-pre-gyp', 'bin', 'node-pre-gyp'),
  ].find((p) => existsSync(p));
  if (!preGyp) throw new Error('@mapbox/node-pre-gyp not found; cannot build argon2');
  await run(process.execPath, [preGyp, 'rebuild', '--build-from-source', '--nodedir=/usr'], argon2Root, npmEnv, 'node-pre-gyp rebuild argon2');

  log('5/6 ripgrep and symlinks');
  const rgDir = join(vscodeDir, 'node_modules', '@vscode', 'ripgrep', 'bin');
  mkdirSync(rgDir, { recursive: true });
  copyFileSync('/usr/bin/rg', join(rgDir, 'rg'));
  chmodSync(join(rgDir, 'rg'), 0o755);
  symlink('node_modules', join(vscodeDir, 'node_modules.asar'));
  symlink('code-linux.sh', join(vscodeDir, 'bin', 'remote-cli', 'code-server'));
  symlink('browser-linux.sh', join(vscodeDir, 'bin', 'helpers', 'browser.sh'));

  log('6/6 npm install in lib/vscode/extensions (built-in extensions)');
  await run('npm', ['install', '--omit=dev', '--ignore-scripts', '--no-package-lock'], join(vscodeDir, 'extensions'), npmEnv);

  if (!existsSync(codeServerEntry())) throw new Error(`install finished but ${codeServerEntry()} is missing`);
  const seconds = (Date.now() - started) / 1000;
  writeFileSync(marker, JSON.stringify({ version: CODE_SERVER_VERSION, node: process.versions.node, installedAt: new Date().toISOString(), seconds }, null, 2));
  log(`installed in ${seconds.toFixed(0)} s`);
}

/** A free TCP port on the loopback interface. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

async function waitUntilAnswering(url, child, timeoutMs, output) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`code-server exited with ${child.exitCode} before answering:\n${output().slice(-4000)}`);
    }
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`code-server did not answer at ${url} within ${timeoutMs / 1000} s:\n${output().slice(-4000)}`);
}

/**
 * Starts code-server on 127.0.0.1 with its own user-data and extensions dirs. Writes
 * User/settings.json first (workspace trust off, or the folder opens in Restricted Mode; pass
 * `restricted: true` for exactly that).
 * `env` reaches the server and, through it, the remote extension host.
 * Resolves once /healthz answers; `close()` stops the server and waits for it to exit.
 *
 * code-server's launcher gives the server process it forks 10 s to say it started (its
 * wrapper's handshake timeout), then exits with "timed out". A machine busy enough can take
 * longer: that start is tried again, twice at most.
 */
export async function startCodeServer(options = {}) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startCodeServerOnce(options);
    } catch (err) {
      if (attempt === 3 || !/exited with 1 before answering:[\s\S]*\btimed out\b/.test(err.message)) throw err;
      log(`the server's launcher timed out waiting for it (a busy machine); starting it again`);
    }
  }
}

async function startCodeServerOnce({
  port,
  userDataDir,
  extensionsDir,
  folder,
  env = {},
  settings = {},
  timeoutMs = 60_000,
  quiet = true,
  restricted = false,
} = {}) {
  await ensureCodeServer();
  if (!userDataDir || !extensionsDir) throw new Error('startCodeServer needs userDataDir and extensionsDir');
  const listenPort = port || (await freePort());
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  const userSettings = {
    // `restricted`: workspace trust on and the folder never trusted (Restricted Mode tests).
    'security.workspace.trust.enabled': restricted,
    'security.workspace.trust.startupPrompt': 'never',
    'workbench.startupEditor': 'none',
    'workbench.tips.enabled': false,
    'telemetry.telemetryLevel': 'off',
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'update.mode': 'none',
    ...settings,
  };
  writeFileSync(join(userDataDir, 'User', 'settings.json'), JSON.stringify(userSettings, null, 2));

  const args = [
    codeServerEntry(),
    '--auth',
    'none',
    '--bind-addr',
    `127.0.0.1:${listenPort}`,
    '--user-data-dir',
    userDataDir,
    '--extensions-dir',
    extensionsDir,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-getting-started-override',
  ];
  if (!restricted) args.push('--disable-workspace-trust');
  if (folder) args.push(folder);
  let output = '';
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const collect = (d) => {
    output += d.toString();
    if (output.length > 400_000) output = output.slice(-200_000);
    if (!quiet) process.stderr.write(d);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const url = `http://127.0.0.1:${listenPort}`;
  try {
    await waitUntilAnswering(url, child, timeoutMs, () => output);
  } catch (err) {
    child.kill('SIGTERM');
    throw err;
  }
  return {
    url,
    port: listenPort,
    process: child,
    output: () => output,
    close: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        child.once('close', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

export function readInstallInfo() {
  try {
    return JSON.parse(readFileSync(join(cacheDir(), MARKER), 'utf8'));
  } catch {
    return undefined;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  ensureCodeServer()
    .then((dir) => {
      const info = readInstallInfo();
      log(`ready: ${dir}${info ? ` (installed ${info.installedAt} in ${Math.round(info.seconds)} s)` : ''}`);
    })
    .catch((err) => {
      console.error(`[code-server] INSTALL FAILED: ${err.message}`);
      process.exit(1);
    });
}
