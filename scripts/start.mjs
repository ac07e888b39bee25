// `npm start`: builds the extension, starts the service sandbox on a free loopback port, starts
// code-server (installed on first use) with the extension installed and pointed at the sandbox
// with a sandbox token, and prints the URL to open. Ctrl-C stops both.
//
//   node scripts/start.mjs [--port N] [--folder DIR] [--user alice|bob] [--no-build]
//   node scripts/start.mjs --check    start, verify in headless Chromium that the Projects
//                                     view shows the sandbox's projects, screenshot, stop
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, symlinkSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheDir, ensureCodeServer, startCodeServer } from './code-server.mjs';
import { runPreflight } from './preflight.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const argv = process.argv.slice(2);
const opt = (name) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const port = opt('--port') ? Number(opt('--port')) : Number(process.env.EO_PORT || 0);
const user = opt('--user') ?? 'alice';
const check = argv.includes('--check');
if (!['alice', 'bob'].includes(user)) fail(`--user must be alice or bob, not "${user}"`);
if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be a port number, not "${opt('--port')}"`);

function fail(message) {
  console.error(`npm start: ${message}`);
  process.exit(1);
}

function say(message) {
  console.log(`[start] ${message}`);
}

function build() {
  say('building the extension and the sandbox (node esbuild.mjs)');
  const res = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, stdio: 'inherit' });
  if (res.status !== 0) fail('the build failed (see above)');
  for (const f of ['dist/extension.js', 'dist/sandbox-cli.js']) {
    if (!existsSync(join(ROOT, f))) fail(`${f} is missing after the build`);
  }
}

/** Starts the sandbox CLI and resolves with its URL once it prints its "listening" line. */
function startSandbox() {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'dist', 'sandbox-cli.js'), '--port', '0'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the sandbox printed no "listening" line within 20 s:\n${out}`));
    }, 20_000);
    child.stdout.on('data', (d) => {
      out += d.toString();
      const m = /EO Imagery sandbox listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1], process: child });
      }
    });
    child.stderr.on('data', (d) => (out += d.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the sandbox exited with ${code} before listening:\n${out}`));
    });
  });
}

/**
 * Installs the extension by linking this repository into a fresh extensions dir, so a rebuild
 * (npm run watch) shows up on a window reload.
 */
function linkExtension(extensionsDir) {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  rmSync(extensionsDir, { recursive: true, force: true });
  mkdirSync(extensionsDir, { recursive: true });
  symlinkSync(ROOT, join(extensionsDir, `${pkg.publisher}.${pkg.name}-${pkg.version}`));
  return `${pkg.publisher}.${pkg.name}`;
}

async function verifyInBrowser(url, sandboxUrl, token) {
  const { chromium } = await import('playwright-core');
  const res = await fetch(`${sandboxUrl}/v0/projects?page_num=1&page_size=1`, { headers: { Authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`the sandbox answered ${res.status} to GET /v0/projects`);
  const first = (await res.json()).projects?.[0]?.name;
  if (!first) throw new Error('the sandbox has no projects for this user');
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(url);
    const item = page
      .locator('.part.activitybar .action-item')
      .filter({ has: page.locator('[aria-label^="EO Imagery"]') })
      .first();
    await item.waitFor({ timeout: 60_000 });
    await item.click();
    await page.locator('.part.sidebar [role="treeitem"]').filter({ hasText: first }).first().waitFor({ timeout: 60_000 });
    const shot = join(ROOT, 'test-results', 'screenshots', 'npm-start.png');
    mkdirSync(join(ROOT, 'test-results', 'screenshots'), { recursive: true });
    await page.mouse.move(1380, 450);
    await page.waitForTimeout(800);
    await page.screenshot({ path: shot });
    say(`check passed: the Projects view shows "${first}" (screenshot ${shot})`);
  } finally {
    await browser.close();
  }
}

async function main() {
  // What code-server needs from the machine (and Chromium for --check), before anything starts.
  const preflight = await runPreflight({ purposes: [check ? 'check' : 'start'], asker: check ? 'npm start -- --check' : 'npm start' });
  if (!preflight.ok) process.exit(1);
  if (!argv.includes('--no-build')) build();
  await ensureCodeServer();

  const home = join(cacheDir(), '..', 'start');
  const folder = opt('--folder') ?? join(home, 'workspace');
  mkdirSync(folder, { recursive: true });
  const extensionsDir = join(home, 'extensions');
  const id = linkExtension(extensionsDir);

  const sandbox = await startSandbox();
  say(`sandbox running at ${sandbox.url} (signed in as ${user})`);
  const token = `sandbox-${user}`;
  let server;
  try {
    server = await startCodeServer({
      port,
      userDataDir: join(home, 'user-data'),
      extensionsDir,
      folder,
      env: { EO_API_TOKEN: token },
      // the sandbox's prices are made up: "credits" (the setting shows where the unit comes from)
      settings: { 'eoImagery.baseUrl': sandbox.url, 'eoImagery.amounts.unit': 'credits' },
    });
  } catch (err) {
    sandbox.process.kill('SIGTERM');
    throw err;
  }

  let stopping = false;
  const stop = async (code) => {
    if (stopping) return;
    stopping = true;
    say('stopping code-server and the sandbox');
    sandbox.process.kill('SIGTERM');
    await server.close();
    process.exit(code);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));
  sandbox.process.on('exit', (code) => {
    if (!stopping) {
      console.error(`[start] the sandbox exited unexpectedly (${code})`);
      void stop(1);
    }
  });
  server.process.on('exit', (code) => {
    if (!stopping) {
      console.error(`[start] code-server exited unexpectedly (${code}):\n${server.output().slice(-2000)}`);
      sandbox.process.kill('SIGTERM');
      process.exit(1);
    }
  });

  const url = `${server.url}/?folder=${encodeURIComponent(folder)}`;
  if (check) {
    try {
      await verifyInBrowser(url, sandbox.url, token);
    } catch (err) {
      console.error(`[start] check FAILED: ${err.message}`);
      return stop(1);
    }
    return stop(0);
  }
  console.log('');
  console.log(`  EO Imagery (${id}) is running in VS Code (code-server), connected to the sandbox.`);
  console.log(`  Open:  ${url}`);
  console.log('  Then click the EO Imagery icon in the activity bar. Ctrl-C stops everything.');
  console.log('');
}

main().catch((err) => fail(err.message));
