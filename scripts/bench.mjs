// `npm run bench`: builds (production bundles, as shipped) and compiles, prints the size of
// every bundle in dist/ as one JSON line each, then runs every out/test/bench/*.bench.js
// (each prints its own JSON lines). Benchmarks report; they do not assert. Exits non-zero
// only when a benchmark could not run.
//
//   node scripts/bench.mjs [--no-build] [name-filter]
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const argv = process.argv.slice(2);
const filter = argv.find((a) => !a.startsWith('--'));

// Size budgets from the issue: minified, as packaged.
const BUDGET_KB = { 'dist/extension.js': 400, 'dist/media/map.js': 250 };

function runSync(cmd, args) {
  const res = spawnSync(cmd, args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  if (res.status !== 0) {
    console.error(`bench: ${cmd} ${args.join(' ')} failed`);
    process.exit(1);
  }
}

function listFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? listFiles(join(dir, e.name)) : [join(dir, e.name)],
  );
}

function bundleSizes() {
  const files = listFiles(join(ROOT, 'dist')).filter((f) => !f.endsWith('.map')).sort();
  if (files.length === 0) throw new Error('dist/ is empty: the build produced no bundles');
  for (const file of files) {
    const name = relative(ROOT, file).split('\\').join('/');
    const kb = Math.round((statSync(file).size / 1024) * 10) / 10;
    const line = { bench: 'bundle-size', figure: name, value: kb, unit: 'KB' };
    if (BUDGET_KB[name] !== undefined) {
      line.budget_kb = BUDGET_KB[name];
      line.within_budget = kb < BUDGET_KB[name];
    }
    console.log(JSON.stringify(line));
  }
}

function runBench(file) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [file], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('close', (code) => resolve(code ?? 1));
    child.on('error', () => resolve(1));
  });
}

async function main() {
  if (!argv.includes('--no-build')) {
    console.error('> node esbuild.mjs --production && tsc -p .');
    runSync(process.execPath, ['esbuild.mjs', '--production']);
    runSync(join(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', '.']);
  }
  if (!filter || 'bundle-size'.includes(filter)) bundleSizes();

  const benches = listFiles(join(ROOT, 'out', 'test', 'bench'))
    .filter((f) => f.endsWith('.bench.js'))
    .filter((f) => !filter || f.includes(filter))
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
