// Runs the test tiers in order: unit (node:test, plus webview tests), integration (Mocha suites
// inside code-server's extension host), e2e (the workbench UI in Chromium). Prints a line per
// tier and a final `N passed, N failed`. Skipped tests (node:test skip/todo, Mocha
// pending) are counted and printed per tier and in total, so a skip cannot hide. Exits
// non-zero when any test failed, a tier could not start, or a tier ran zero tests: a skipped
// tier is a failed tier. Before anything builds, the preflight (scripts/preflight.mjs) checks
// what the selected tiers need from the machine, and installs it as root on Debian.
//
//   node scripts/test-all.mjs [--tier unit|integration|e2e] [--no-build]
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runPreflight } from './preflight.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TIERS = ['unit', 'integration', 'e2e'];

const argv = process.argv.slice(2);
const tierArg = argv.includes('--tier') ? argv[argv.indexOf('--tier') + 1] : undefined;
if (tierArg !== undefined && !TIERS.includes(tierArg)) {
  console.error(`unknown tier "${tierArg}"; expected one of ${TIERS.join(', ')}`);
  process.exit(2);
}
const selected = tierArg ? [tierArg] : TIERS;
const skipBuild = argv.includes('--no-build');

function findFiles(dir, suffix) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...findFiles(full, suffix));
    else if (entry.name.endsWith(suffix)) out.push(full);
  }
  return out.sort();
}

/**
 * Runs a command; resolves with its exit code and captured stdout. Its output is passed through
 * as it comes, or, with `buffered`, in one piece when it ends (runs side by side stay readable).
 * `signal` aborts it.
 */
function run(cmd, args, { timeoutMs, env, buffered = false, signal } = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', buffered ? 'pipe' : 'inherit'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d.toString();
      if (!buffered) process.stdout.write(d);
    });
    child.stderr?.on('data', (d) => (stderr += d.toString()));
    let timedOut = false;
    const stop = () => {
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 5000).unref();
    };
    const timer = timeoutMs
      ? setTimeout(() => {
          timedOut = true;
          stop();
        }, timeoutMs)
      : undefined;
    signal?.addEventListener('abort', stop, { once: true });
    child.on('error', (err) => resolve({ code: -1, stdout, error: err.message }));
    child.on('close', (code, sig) => {
      if (timer) clearTimeout(timer);
      signal?.removeEventListener('abort', stop);
      if (buffered) {
        process.stdout.write(stdout);
        process.stderr.write(stderr);
      }
      resolve({ code: code ?? -1, stdout, timedOut, signal: sig });
    });
  });
}

/** Counts from node:test's spec reporter summary (`ℹ pass N` ...). */
function parseNodeTestSummary(stdout) {
  const num = (name) => {
    const matches = [...stdout.matchAll(new RegExp(`^ℹ ${name} (\\d+)\\s*$`, 'gm'))];
    return matches.length ? Number(matches[matches.length - 1][1]) : undefined;
  };
  const pass = num('pass');
  const fail = num('fail');
  if (pass === undefined || fail === undefined) return undefined;
  // Cancelled tests (a file that crashed or timed out) did not pass.
  return { passed: pass, failed: fail + (num('cancelled') ?? 0), skipped: (num('skipped') ?? 0) + (num('todo') ?? 0) };
}

/**
 * The spec reporter's closing `✖ failing tests:` section (names, assertion, stack), cut to a
 * few dozen lines: the summary repeats it, so the end of a long CI log says what failed and why.
 */
function failingTestsSection(file, stdout) {
  const at = stdout.lastIndexOf('✖ failing tests:');
  if (at < 0) return `${relative(ROOT, file)}: a test failed (no failing-tests section printed)`;
  const lines = stdout.slice(at).split('\n').slice(1, 61);
  return [`${relative(ROOT, file)}:`, ...lines.map((l) => `  ${l}`)].join('\n');
}

/**
 * Runs each file in a `node --test` of its own, `concurrency` at a time, in the order given
 * (node --test would sort them by name), and adds up their counts. A file that prints no
 * summary (it crashed, or the tier timed out) fails the tier.
 */
async function nodeTestTier(name, files, timeoutMs, concurrency = 1) {
  if (files.length === 0) return { error: `no compiled test files found` };
  const aborted = new AbortController();
  const timer = setTimeout(() => aborted.abort(), timeoutMs);
  const totals = { passed: 0, failed: 0, skipped: 0 };
  const problems = [];
  const failures = [];
  const queue = [...files];
  const took = [];
  const worker = async () => {
    for (let file = queue.shift(); file; file = queue.shift()) {
      const started = Date.now();
      const res = await run(process.execPath, ['--test', '--test-reporter=spec', relative(ROOT, file)], { buffered: true, signal: aborted.signal });
      took.push([relative(ROOT, file), (Date.now() - started) / 1000]);
      const counts = parseNodeTestSummary(res.stdout);
      if (res.error) problems.push(`${relative(ROOT, file)}: could not start node --test: ${res.error}`);
      else if (!counts) problems.push(`${relative(ROOT, file)}: node --test exited with ${res.code} and printed no summary`);
      else {
        for (const k of Object.keys(totals)) totals[k] += counts[k];
        if (counts.failed > 0) failures.push(failingTestsSection(file, res.stdout));
        if (res.code !== 0 && counts.failed === 0) problems.push(`${relative(ROOT, file)}: node --test exited with ${res.code}`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
  clearTimeout(timer);
  // where the tier's time goes: its longest files, for whoever makes it shorter
  const longest = took.sort((a, b) => b[1] - a[1]).slice(0, 12);
  console.log(`\n${name}: longest files (wall s, ${concurrency} at a time)\n${longest.map(([f, s]) => `  ${s.toFixed(1).padStart(6)}  ${f}`).join('\n')}`);
  if (aborted.signal.aborted) problems.unshift(`timed out after ${timeoutMs / 60000} min`);
  return { ...totals, failures, ...(problems.length ? { error: problems.join('\n') } : {}) };
}

/**
 * The unit tier's longest files (Chromium drawing, GDAL reading, the sandbox making imagery),
 * longest first: started before the many short ones, so that none of them starts last and
 * keeps one core busy alone while the other idles. Ordered by their times in a full run.
 */
const UNIT_LONGEST = [
  'webview/series.test.js',
  'webview/compare.test.js',
  'webview/map.test.js',
  'webview/imagery.test.js',
  'webview/imageryAnalysis.test.js',
  'webview/jobGraph.test.js',
  'webview/seriesStretch.test.js',
  'webview/a11y.test.js',
  'webview/hostClip.test.js',
  'unit/imagery/hostClip.test.js',
  'unit/sandbox/routeFuzz.test.js',
  'webview/imageryHostile.test.js',
  'unit/contract/aoiAssets.test.js',
];

/**
 * The integration suites the second window runs (the first runs the rest, the smoke suite
 * first): about half the tier's time each, by their times in a full run. The log check runs
 * last in both windows: each has its own log, and no secret may reach either.
 */
const INTEGRATION_SECOND_WINDOW = [
  'aoiAssets.test.js',
  'chartIndex.test.js',
  'compare.test.js',
  'insightRuns.test.js',
  'insights.test.js',
  'storm.test.js',
  'timelapse.test.js',
  'watcher.test.js',
  'workflows.test.js',
];
const INTEGRATION_EVERY_WINDOW = 'zz-log-secrets.test.js';

/**
 * e2e files whose tests share a workbench window, by group (test/e2e/workbench.ts,
 * `withSandboxWorkbench`): starting a window costs about 25 CPU s, most of what a test costs.
 * Each group runs in one process, its files one after another; a file in no group runs in a
 * process of its own, and so do its tests that need a fresh profile (`ownWindow`, or the
 * harness's `withWorkbench`: first start, signed out, sign-in from nothing, Restricted Mode).
 * The groups are about even in time, so the two cores finish together.
 */
const E2E_SHARED_WINDOWS = {
  'shared-window-1': [
    'catalog.e2e.test.js',
    'compare.e2e.test.js',
    'explorer.e2e.test.js',
    'insightRuns.e2e.test.js',
    'order.e2e.test.js',
    'orderPlan.e2e.test.js',
    'projects.e2e.test.js',
    'series.e2e.test.js',
    'tasking.e2e.test.js',
    'walkthrough.e2e.test.js',
  ],
  'shared-window-2': [
    'chartFromMap.e2e.test.js',
    'copyLogRequest.e2e.test.js',
    'imagery.e2e.test.js',
    'insights.e2e.test.js',
    'map.e2e.test.js',
    'pending.e2e.test.js',
    'saveView.e2e.test.js',
    'searchFilters.e2e.test.js',
    'spectral.e2e.test.js',
    'timelapse.e2e.test.js',
    'workflows.e2e.test.js',
  ],
};

const tiers = {
  async unit() {
    const out = join(ROOT, 'out', 'test');
    const all = [...findFiles(join(out, 'unit'), '.test.js'), ...findFiles(join(out, 'webview'), '.test.js')];
    const first = UNIT_LONGEST.map((f) => join(out, f));
    const missing = first.filter((f) => !all.includes(f));
    if (missing.length) return { error: `UNIT_LONGEST names files that are not there: ${missing.map((f) => relative(out, f)).join(', ')}` };
    const files = [...first, ...all.filter((f) => !first.includes(f))];
    // Three files at a time: most of the tier waits (on Chromium, GDAL's Python, a sandbox
    // socket, timers): two at a time kept 0.8 of the two cores busy (238 CPU s in 310 s).
    // Each file has its own browser, sandbox and port.
    return nodeTestTier('unit', files, 20 * 60_000, Number(process.env.EO_UNIT_CONCURRENCY ?? 3));
  },

  async integration() {
    const dir = join(ROOT, 'out', 'test', 'integration');
    const harness = join(dir, 'harness', 'codeServer.js');
    const index = join(dir, 'index.js');
    if (!existsSync(harness) || !existsSync(index)) return { error: `compiled harness missing (${relative(ROOT, harness)})` };
    const { runInExtensionHost } = await import(pathToFileURL(harness).href);
    // Two windows side by side, one per core (the extension host runs the suites, the
    // extension and their sandboxes on one thread); EO_TEST_FILES, when set, is one window.
    const suites = findFiles(join(dir, 'suite'), '.test.js').map((f) => relative(dir, f));
    const second = INTEGRATION_SECOND_WINDOW.map((f) => `suite/${f}`);
    const missing = [...second, `suite/${INTEGRATION_EVERY_WINDOW}`].filter((f) => !suites.includes(f));
    if (missing.length) return { error: `INTEGRATION_SECOND_WINDOW names suites that are not there: ${missing.join(', ')}` };
    const windows = process.env.EO_TEST_FILES
      ? [process.env.EO_TEST_FILES]
      : [suites.filter((f) => !second.includes(f)), [...second, `suite/${INTEGRATION_EVERY_WINDOW}`]].map((files) => files.join(','));
    const settled = await Promise.allSettled(
      windows.map((files) => runInExtensionHost({ extensionTestsPath: index.replace(/\.js$/, ''), env: { EO_TEST_FILES: files }, timeoutMs: 10 * 60_000 })),
    );
    const runs = settled.filter((s) => s.status === 'fulfilled').map((s) => s.value);
    const problems = settled.flatMap((s, i) => (s.status === 'rejected' ? [`the window running ${windows[i]}: ${s.reason?.message ?? s.reason}`] : []));
    const result = {
      passed: runs.reduce((n, r) => n + r.passed, 0),
      failed: runs.reduce((n, r) => n + r.failed, 0),
      skipped: runs.reduce((n, r) => n + (r.skipped ?? 0), 0),
      tests: runs.flatMap((r) => r.tests),
      figures: runs.flatMap((r) => r.figures ?? []),
      failures: runs.flatMap((r) => r.failures),
    };
    for (const t of result.tests) {
      const mark = t.state === 'passed' ? '✔' : t.state === 'skipped' ? '﹣ SKIPPED' : '✖';
      console.log(`  ${mark} ${t.title} (${t.durationMs} ms)`);
    }
    for (const figure of result.figures ?? []) console.log(`  ◦ ${figure}`);
    for (const f of result.failures) {
      console.log(
        `\n  FAILED: ${f.title}\n${f.error
          .split('\n')
          .map((l) => `    ${l}`)
          .join('\n')}`,
      );
    }
    return {
      passed: result.passed,
      failed: result.failed,
      skipped: result.skipped,
      failures: result.failures.map(
        (f) =>
          `${f.title}\n${f.error
            .split('\n')
            .slice(0, 40)
            .map((l) => `  ${l}`)
            .join('\n')}`,
      ),
      ...(problems.length ? { error: problems.join('\n') } : {}),
    };
  },

  async e2e() {
    const dir = join(ROOT, 'out', 'test', 'e2e');
    const files = findFiles(dir, '.e2e.test.js');
    const grouped = Object.values(E2E_SHARED_WINDOWS).flat();
    const missing = grouped.filter((f) => !files.includes(join(dir, f)));
    if (missing.length) return { error: `E2E_SHARED_WINDOWS names files that are not there: ${missing.join(', ')}` };
    // One entry per group, requiring its files: node --test runs each entry in a process of its
    // own, so the group's tests run one after another in the window they share.
    const entries = join(dir, 'windows');
    rmSync(entries, { recursive: true, force: true });
    mkdirSync(entries, { recursive: true });
    const groups = Object.entries(E2E_SHARED_WINDOWS).map(([name, members]) => {
      const entry = join(entries, `${name}.js`);
      writeFileSync(
        entry,
        [`// Written by scripts/test-all.mjs: these files' tests share one workbench window.`, ...members.map((f) => `require('../${f}');`), ''].join('\n'),
      );
      return entry;
    });
    // Two processes at a time (one per core), the groups first: each holds one window at a time.
    const alone = files.filter((f) => !grouped.includes(relative(dir, f)));
    return nodeTestTier('e2e', [...groups, ...alone], 30 * 60_000, Number(process.env.EO_E2E_CONCURRENCY ?? 2));
  },
};

async function main() {
  const started = Date.now();
  const asker = tierArg ? `npm run test:${tierArg}` : 'npm test';
  if (!(await runPreflight({ purposes: selected, asker })).ok) {
    console.log('0 passed, 0 failed');
    process.exit(1);
  }
  if (!skipBuild) {
    console.log('> npm run build && npm run compile');
    // The same steps as `npm run build`: the bundles, then the l10n string bundle. tsc does
    // not read the l10n bundle, and the exporter (~30 CPU s of tree-sitter queries) and tsc
    // are each single-threaded: they run side by side, one per core.
    const l10n = async () => {
      const exported = await run(join(ROOT, 'node_modules', '.bin', 'vscode-l10n-dev'), ['export', '--outDir', './l10n', './src', './media']);
      return exported.code === 0 ? run('node', [join(ROOT, 'scripts', 'l10n-complete.mjs')]) : exported;
    };
    const bundles = await run('node', ['esbuild.mjs']);
    const [build, compile] = bundles.code === 0 ? await Promise.all([l10n(), run(join(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', '.'])]) : [bundles, bundles];
    if (build.code !== 0) {
      console.error('build failed: every tier needs the bundles');
      console.log('0 passed, 0 failed');
      process.exit(1);
    }
    if (compile.code !== 0) {
      console.error('tsc failed: the tiers run compiled tests from out/');
      console.log('0 passed, 0 failed');
      process.exit(1);
    }
  }

  const summary = [];
  for (const name of selected) {
    console.log(`\n=== ${name} tier ===`);
    const t0 = Date.now();
    let r;
    try {
      r = await tiers[name]();
    } catch (err) {
      r = { error: err instanceof Error ? err.stack : String(err) };
    }
    const seconds = (Date.now() - t0) / 1000;
    const passed = r.passed ?? 0;
    const failed = r.failed ?? 0;
    let problem = r.error;
    if (!problem && passed + failed === 0) problem = 'ran zero tests';
    summary.push({ name, passed, failed, skipped: r.skipped ?? 0, seconds, problem, failures: r.failures ?? [] });
  }

  // what failed, again, where a long log's reader looks: its end
  const failures = summary.flatMap((s) => s.failures.map((f) => `[${s.name}] ${f}`));
  if (failures.length) console.log(`\n=== failing tests ===\n${failures.join('\n\n')}`);

  console.log('\n=== summary ===');
  for (const s of summary) {
    const status = s.problem ? `  TIER FAILED: ${s.problem.split('\n')[0]}` : '';
    console.log(`${s.name.padEnd(12)} ${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped (${s.seconds.toFixed(1)} s)${status}`);
    if (s.problem && s.problem.includes('\n')) console.log(s.problem);
  }
  const passed = summary.reduce((n, s) => n + s.passed, 0);
  const failed = summary.reduce((n, s) => n + s.failed, 0);
  const skipped = summary.reduce((n, s) => n + s.skipped, 0);
  console.log(`total time ${((Date.now() - started) / 1000).toFixed(1)} s`);
  console.log(`${skipped} skipped in total`);
  // The closing line keeps its `N passed, N failed` form: CI and people read it last.
  console.log(`${passed} passed, ${failed} failed`);
  const ok = failed === 0 && summary.every((s) => !s.problem);
  process.exit(ok ? 0 : 1);
}

main().catch((err) => {
  console.error(err);
  console.log('0 passed, 0 failed');
  process.exit(1);
});
