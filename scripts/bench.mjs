// `npm run bench`: builds (production bundles, as shipped) and compiles, prints the size of
// every bundle in dist/ as one JSON line each, then what each surface loads when a person
// first uses it (against its budget), then runs every out/test/bench/*.bench.js (each prints
// its own JSON lines). Benchmarks report; they do not assert. Exits non-zero only when a
// benchmark could not run. KB are 1,024 bytes, as printed.
//
//   node scripts/bench.mjs [--no-build] [name-filter]
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const argv = process.argv.slice(2);
const filter = argv.find((a) => !a.startsWith('--'));

// Size budgets per surface, counting what loads (minified, as packaged).
const BUDGET_KB = { extensionHostAtFirstRequest: 800, mapPanelAtFirstPaint: 350 };

function runSync(cmd, args) {
  const res = spawnSync(cmd, args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  if (res.status !== 0) {
    console.error(`bench: ${cmd} ${args.join(' ')} failed`);
    process.exit(1);
  }
}

function listFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? listFiles(join(dir, e.name)) : [join(dir, e.name)]));
}

function bundleSizes() {
  const files = listFiles(join(ROOT, 'dist'))
    .filter((f) => !f.endsWith('.map'))
    .sort();
  if (files.length === 0) throw new Error('dist/ is empty: the build produced no bundles');
  for (const file of files) {
    const name = relative(ROOT, file).split('\\').join('/');
    console.log(JSON.stringify({ bench: 'bundle-size', figure: name, value: kbOf(name), unit: 'KB' }));
  }
}

const kbOf = (file) => Math.round((statSync(join(ROOT, file)).size / 1024) * 10) / 10;

/** The dist/vendor file esbuild.mjs writes for a lazily required package. */
const vendorFile = (pkg) => `dist/vendor/${pkg.replace(/^@/, '').replace(/\//g, '-')}.js`;

function surface(figure, files, budget, note) {
  const parts = Object.fromEntries(files.map((f) => [f, kbOf(f)]));
  const total = Math.round(Object.values(parts).reduce((a, b) => a + b, 0) * 10) / 10;
  console.log(JSON.stringify({ bench: 'surface-size', figure, value: total, unit: 'KB', parts, budget_kb: budget, within_budget: total < budget, note }));
}

/**
 * What a person's first use loads. Extension host: dist/extension.js at activation; the first
 * request is made by a view or a command, which load dist/features.js, and it requires the
 * chunks found by making that request (test/bench/firstRequest.probe.ts): the client
 * (dist/client.js) and dist/vendor files. Map panel: the files its HTML links (src/panels/host.ts):
 * outlines.js, map.js and map.css.
 */
function surfaceSizes() {
  const probe = spawnSync(process.execPath, [join(ROOT, 'out', 'test', 'bench', 'firstRequest.probe.js')], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (probe.status !== 0) throw new Error('the first-request probe failed');
  const { required, chunks } = JSON.parse(probe.stdout.trim().split('\n').pop());
  const vendor = required.map(vendorFile).filter((f) => existsSync(join(ROOT, f)));
  surface('extension_host_at_activation_kb', ['dist/extension.js'], BUDGET_KB.extensionHostAtFirstRequest, 'activation loads extension.js');
  surface(
    'extension_host_at_first_request_kb',
    [...new Set(['dist/extension.js', 'dist/features.js', ...chunks, ...vendor])],
    BUDGET_KB.extensionHostAtFirstRequest,
    `the first request (the sign-in check) loads ${[...chunks, ...required].join(', ') || 'nothing more'}`,
  );
  surface(
    'map_panel_at_first_paint_kb',
    ['dist/media/outlines.js', 'dist/media/map.js', 'dist/media/map.css'],
    BUDGET_KB.mapPanelAtFirstPaint,
    'the files the map panel HTML links',
  );
}

function runBench(file) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [file], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('close', (code) => resolve(code ?? 1));
    child.on('error', () => resolve(1));
  });
}

async function main() {
  // What the benchmarks and their baselines need from the machine (GDAL, Chromium, code-server,
  // ImageMagick): checked first, installed as root on Debian, as npm test does.
  runSync(process.execPath, ['scripts/preflight.mjs', '--for', 'bench', '--as', 'npm run bench']);
  if (!argv.includes('--no-build')) {
    console.error('> node esbuild.mjs --production && tsc -p .');
    runSync(process.execPath, ['esbuild.mjs', '--production']);
    runSync(join(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', '.']);
  }
  if (!filter || 'bundle-size'.includes(filter)) bundleSizes();
  if (!filter || 'surface-size'.includes(filter)) surfaceSizes();

  const benches = listFiles(join(ROOT, 'out', 'test', 'bench'))
    .filter((f) => f.endsWith('.bench.js'))
    // by the path inside out/test/bench: the checkout's own path may hold the filter's word
    .filter((f) => !filter || relative(join(ROOT, 'out', 'test', 'bench'), f).includes(filter))
    .sort();
  const failed = [];
  for (const file of benches) {
    console.error(`> ${relative(ROOT, file)}`);
    const code = await runBench(file);
    if (code !== 0) failed.push(relative(ROOT, file));
  }
  if (failed.length) {
    console.error(`bench: ${failed.length} benchmark(s) could not run: ${failed.join(', ')}`);
    process.exit(1);
  }
}

main().catch((err) => {
  console.error(`bench: ${err.message}`);
  process.exit(1);
});
