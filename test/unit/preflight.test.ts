// The preflight of npm test, npm start and .ci/run (scripts/preflight.mjs): its decision as a
// pure function of who runs it and what the machine has (root or not, Debian or not, each
// requirement present or absent), the message and command it prints, its run loop with the
// machine stood in for (install, look again, fail loudly), and its probes on files this test
// makes.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { before, test } from 'node:test';

const ROOT = path.join(__dirname, '../../..');
const importEsm = new Function('specifier', 'return import(specifier)') as (s: string) => Promise<unknown>;
const load = <T>(file: string): Promise<T> => importEsm(pathToFileURL(path.join(ROOT, file)).href) as Promise<T>;

type Probe = Record<string, unknown>;
interface Requirement {
  id: string;
  what: string;
  why: string;
  packages: string[];
  howTo?: string;
  probe: Probe;
  for: string[];
}
interface Found {
  ok: boolean;
  detail?: string;
}
type Plan =
  | { action: 'none'; checked: string[] }
  | { action: 'install'; missing: Requirement[]; packages: string[]; steps: string[][]; say: string }
  | { action: 'stop'; missing: Requirement[]; packages: string[]; command?: string; message: string };
interface PlanInput {
  purposes: string[];
  asker: string;
  found: Record<string, Found>;
  root: boolean;
  debian: boolean;
  sudo?: boolean;
  requirements?: Requirement[];
}
interface RunOptions {
  purposes?: string[];
  asker?: string;
  requirements?: Requirement[];
  probe?: (reqs: Requirement[]) => Record<string, Found> | Promise<Record<string, Found>>;
  host?: () => { root: boolean; debian: boolean; sudo: boolean };
  run?: (argv: string[]) => number;
  log?: (line: string) => void;
  error?: (text: string) => void;
}

let REQUIREMENTS: Requirement[];
let PURPOSES: string[];
let TEST: string[];
let ALL_PACKAGES: string[];
let planPreflight: (input: PlanInput) => Plan;
let requirementsFor: (purposes: string[]) => Requirement[];
let runPreflight: (options: RunOptions) => Promise<{ ok: boolean; installed: string[] }>;
let purposesOf: (values: string[]) => string[];
let probeRequirements: (reqs: Requirement[], options?: { env?: Record<string, string | undefined>; nodeVersion?: string }) => Record<string, Found>;
let onPath: (name: string, env?: Record<string, string | undefined>) => boolean;
let headerMajor: (text: string) => number | undefined;

before(async () => {
  ({ REQUIREMENTS, PURPOSES, TEST, ALL_PACKAGES } = await load<{
    REQUIREMENTS: typeof REQUIREMENTS;
    PURPOSES: string[];
    TEST: string[];
    ALL_PACKAGES: string[];
  }>('scripts/preflight/requirements.mjs'));
  ({ planPreflight, requirementsFor } = await load<{ planPreflight: typeof planPreflight; requirementsFor: typeof requirementsFor }>(
    'scripts/preflight/plan.mjs',
  ));
  ({ runPreflight, purposesOf } = await load<{ runPreflight: typeof runPreflight; purposesOf: typeof purposesOf }>('scripts/preflight.mjs'));
  ({ probeRequirements, onPath, headerMajor } = await load<{
    probeRequirements: typeof probeRequirements;
    onPath: typeof onPath;
    headerMajor: typeof headerMajor;
  }>('scripts/preflight/probe.mjs'));
});

const allPresent = (): Record<string, Found> => Object.fromEntries(REQUIREMENTS.map((r) => [r.id, { ok: true }]));
const without = (...ids: string[]): Record<string, Found> => ({
  ...allPresent(),
  ...Object.fromEntries(ids.map((id) => [id, { ok: false, detail: `${id} gone` }])),
});
const byId = (id: string): Requirement => REQUIREMENTS.find((r) => r.id === id)!;
const APT_FIXED = (): Requirement[] => REQUIREMENTS.filter((r) => r.packages.length > 0);

test('the list covers what the brief names, each entry with a reason, a probe and a way to get it', () => {
  const ids = REQUIREMENTS.map((r) => r.id);
  for (const id of [
    'node',
    'node-headers',
    'build-tools',
    'python3',
    'kerberos-headers',
    'ripgrep',
    'chromium',
    'fonts-liberation',
    'fonts-dejavu',
    'gdal-tools',
    'gdal-python',
    'numpy',
    'python-requests',
  ]) {
    assert.ok(ids.includes(id), `no requirement ${id}`);
  }
  assert.equal(new Set(ids).size, ids.length, 'an id twice');
  for (const r of REQUIREMENTS) {
    assert.ok(r.what && r.why, `${r.id}: says neither what nor why`);
    assert.ok(r.packages.length > 0 || r.howTo, `${r.id}: neither a package nor a way to get it`);
    assert.ok(r.for.length > 0 && r.for.every((p) => PURPOSES.includes(p)), `${r.id}: purposes ${r.for.join(', ')}`);
  }
  // GDAL's Python bindings are Debian's, for Debian's Python, whatever python3 comes first on PATH.
  assert.equal(byId('gdal-python').probe.python, '/usr/bin/python3');
  assert.deepEqual(ALL_PACKAGES, [
    'build-essential',
    'python3',
    'libkrb5-dev',
    'ripgrep',
    'chromium',
    'fonts-liberation',
    'fonts-dejavu-core',
    'gdal-bin',
    'python3-gdal',
    'python3-numpy',
    'python3-requests',
  ]);
  // The README quotes the list; it must not drift from it.
  assert.ok(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8').includes(`\n${ALL_PACKAGES.join(' ')}\n`), 'README.md does not quote the package list');
});

test("npm start needs code-server's build, not GDAL nor Chromium; --check adds Chromium; npm test needs everything", () => {
  const ids = (purposes: string[]): string[] => requirementsFor(purposes).map((r) => r.id);
  assert.deepEqual(ids(['start']), ['node', 'node-headers', 'build-tools', 'python3', 'kerberos-headers', 'ripgrep']);
  assert.deepEqual(ids(['check']), [...ids(['start']), 'chromium', 'fonts-liberation', 'fonts-dejavu']);
  assert.deepEqual(
    ids(TEST),
    REQUIREMENTS.filter((r) => r.id !== 'imagemagick').map((r) => r.id),
  );
  // The benchmarks' baselines: everything the tiers need but requests, and ImageMagick.
  assert.deepEqual(
    ids(['bench']),
    REQUIREMENTS.filter((r) => r.id !== 'python-requests').map((r) => r.id),
  );
  assert.deepEqual(ids(['unit']), ['chromium', 'fonts-liberation', 'fonts-dejavu', 'gdal-tools', 'gdal-python', 'numpy']);
  // What a purpose does not need is not asked for, even when it is missing.
  const noGdal = without('gdal-tools', 'gdal-python', 'numpy', 'python-requests', 'chromium');
  assert.deepEqual(planPreflight({ purposes: ['start'], asker: 'npm start', found: noGdal, root: false, debian: true }), {
    action: 'none',
    checked: ids(['start']),
  });
  assert.equal(planPreflight({ purposes: ['check'], asker: 'npm start', found: noGdal, root: false, debian: true }).action, 'stop');
  assert.deepEqual(purposesOf(['test']), TEST);
  assert.deepEqual(purposesOf(['start', 'check', 'start']), ['start', 'check']);
  assert.throws(() => purposesOf(['lint']), /unknown purpose lint/);
});

test('everything present: nothing to do, for every user and system', () => {
  for (const root of [true, false]) {
    for (const debian of [true, false]) {
      const plan = planPreflight({ purposes: TEST, asker: 'npm test', found: allPresent(), root, debian });
      assert.deepEqual(plan, { action: 'none', checked: requirementsFor(TEST).map((r) => r.id) });
    }
  }
});

test('each requirement absent alone: root on Debian installs its packages; anyone else is told the exact command', () => {
  for (const r of requirementsFor(TEST)) {
    const found = without(r.id);
    const asRoot = planPreflight({ purposes: TEST, asker: 'npm test', found, root: true, debian: true });
    const asUser = planPreflight({ purposes: TEST, asker: 'npm test', found, root: false, debian: true });
    const elsewhere = planPreflight({ purposes: TEST, asker: 'npm test', found, root: true, debian: false });
    assert.equal(asUser.action, 'stop', r.id);
    assert.equal(elsewhere.action, 'stop', r.id);
    if (asUser.action !== 'stop' || elsewhere.action !== 'stop') continue;
    for (const plan of [asUser, elsewhere]) {
      assert.deepEqual(
        plan.missing.map((m) => m.id),
        [r.id],
      );
      const fix = r.packages.length ? `Debian package ${r.packages.join(', ')}` : r.howTo;
      assert.ok(plan.message.includes(`\n  - ${r.what}: ${r.id} gone\n    why: ${r.why}; ${fix}\n`), `${r.id}: ${plan.message}`);
      assert.ok(plan.message.endsWith('then run npm test again.'), plan.message);
    }
    if (r.packages.length) {
      assert.equal(asRoot.action, 'install', r.id);
      if (asRoot.action !== 'install') continue;
      assert.deepEqual(asRoot.packages, r.packages);
      assert.deepEqual(asRoot.steps, [
        ['apt-get', 'update', '-q', '-o', 'DPkg::Lock::Timeout=300'],
        ['apt-get', 'install', '-y', '-q', '--no-install-recommends', '-o', 'DPkg::Lock::Timeout=300', ...r.packages],
      ]);
      assert.equal(asRoot.say, `npm test needs ${r.what}. Installing ${r.packages.join(' ')} with apt-get.`);
      assert.equal(asUser.command, `sudo apt-get install -y ${r.packages.join(' ')}`);
      assert.ok(asUser.message.includes(`\n  sudo apt-get install -y ${r.packages.join(' ')}\n`), asUser.message);
      assert.ok(asUser.message.includes('\nInstall it with:\n'), asUser.message);
      assert.equal(elsewhere.command, `apt-get install -y ${r.packages.join(' ')}`);
      assert.match(elsewhere.message, /There is no apt-get here \(not Debian, or not on PATH\): install the equivalent of these Debian packages:/);
    } else {
      // Node and its headers: no one package is right for every machine, so even root is told.
      assert.equal(asRoot.action, 'stop', r.id);
      if (asRoot.action !== 'stop') continue;
      assert.equal(asRoot.command, undefined);
      assert.ok(asRoot.message.includes(`; ${r.howTo}\n`), asRoot.message);
      assert.ok(!asRoot.message.includes('apt-get install -y'), asRoot.message);
    }
  }
});

test('the message a user on Debian reads, word for word', () => {
  const found = {
    ...allPresent(),
    chromium: { ok: false, detail: 'no /usr/bin/chromium' },
    'gdal-tools': { ok: false, detail: 'gdalinfo, gdallocationinfo not on PATH' },
    'gdal-python': { ok: false, detail: '/usr/bin/python3 cannot import osgeo.gdal' },
  };
  const plan = planPreflight({ purposes: TEST, asker: 'npm test', found, root: false, debian: true });
  assert.equal(plan.action, 'stop');
  if (plan.action !== 'stop') return;
  assert.equal(plan.command, 'sudo apt-get install -y chromium gdal-bin python3-gdal');
  assert.equal(
    plan.message,
    [
      'npm test cannot run yet: this machine is missing 3 things.',
      '  - Chromium (/usr/bin/chromium, or CHROMIUM_PATH): no /usr/bin/chromium',
      '    why: the tests (and npm start --check) see the workbench and the webviews through it; Debian package chromium',
      "  - GDAL's tools (gdalinfo, gdallocationinfo): gdalinfo, gdallocationinfo not on PATH",
      "    why: an independent reader of the sandbox's GeoTIFFs; Debian package gdal-bin",
      "  - GDAL's Python bindings and COG validator for /usr/bin/python3: /usr/bin/python3 cannot import osgeo.gdal",
      '    why: the tests write scenes and validate Cloud-Optimized GeoTIFFs with them; Debian package python3-gdal',
      '',
      'Install them all with:',
      '',
      '  sudo apt-get install -y chromium gdal-bin python3-gdal',
      '',
      'then run npm test again.',
    ].join('\n'),
  );
});

test("everything missing: one message and one command with every package once, in the list's order", () => {
  const found: Record<string, Found> = {};
  const asUser = planPreflight({ purposes: TEST, asker: 'npm test', found, root: false, debian: true });
  assert.equal(asUser.action, 'stop');
  if (asUser.action !== 'stop') return;
  assert.equal(asUser.missing.length, requirementsFor(TEST).length, 'a requirement the probe did not report counts as missing');
  assert.equal(asUser.command, `sudo apt-get install -y ${ALL_PACKAGES.join(' ')}`);
  assert.match(asUser.message, /^npm test cannot run yet: this machine is missing 13 things\./);
  assert.ok(asUser.message.includes('Install the packages with:'), 'Node is not among them: the message must not say "them all"');
  for (const r of requirementsFor(TEST)) assert.ok(asUser.message.includes(`  - ${r.what}\n    why: ${r.why}; `), r.id);
  // Root on Debian still stops: installing the rest would not make Node 20 appear.
  const asRoot = planPreflight({ purposes: TEST, asker: 'npm test', found, root: true, debian: true });
  assert.equal(asRoot.action, 'stop');
  if (asRoot.action === 'stop') assert.equal(asRoot.command, `apt-get install -y ${ALL_PACKAGES.join(' ')}`);
  // Without Node's pieces, root on Debian installs everything else in one apt-get.
  const apt = planPreflight({ purposes: TEST, asker: 'npm test', found: { node: { ok: true }, 'node-headers': { ok: true } }, root: true, debian: true });
  assert.equal(apt.action, 'install');
  if (apt.action === 'install') assert.deepEqual(apt.steps[1].slice(-ALL_PACKAGES.length), ALL_PACKAGES);
  assert.equal(APT_FIXED().length, REQUIREMENTS.length - 2);
});

test('not root: installs through sudo -n only when the caller allows it and sudo needs no password', () => {
  const found = without('ripgrep', 'fonts-dejavu');
  const sudo = planPreflight({ purposes: TEST, asker: '.ci/run', found, root: false, debian: true, sudo: true });
  assert.equal(sudo.action, 'install');
  if (sudo.action !== 'install') return;
  assert.deepEqual(sudo.steps, [
    ['sudo', '-n', 'apt-get', 'update', '-q', '-o', 'DPkg::Lock::Timeout=300'],
    ['sudo', '-n', 'apt-get', 'install', '-y', '-q', '--no-install-recommends', '-o', 'DPkg::Lock::Timeout=300', 'ripgrep', 'fonts-dejavu-core'],
  ]);
  assert.equal(sudo.say, '.ci/run needs ripgrep (/usr/bin/rg); the DejaVu fonts. Installing ripgrep fonts-dejavu-core with apt-get (sudo).');
  // sudo does not help where apt-get is not.
  assert.equal(planPreflight({ purposes: TEST, asker: '.ci/run', found, root: false, debian: false, sudo: true }).action, 'stop');
});

/** A machine for runPreflight: what is present, and what an apt-get install would add. */
function fakeMachine(initiallyMissing: string[], { aptFails = false, aptForgets = [] as string[] } = {}) {
  const missing = new Set(initiallyMissing);
  const runs: string[][] = [];
  const logs: string[] = [];
  const errors: string[] = [];
  let probes = 0;
  const options: RunOptions = {
    purposes: TEST,
    asker: 'npm test',
    host: () => ({ root: true, debian: true, sudo: false }),
    probe: (reqs) => {
      probes++;
      return Object.fromEntries(reqs.map((r) => [r.id, missing.has(r.id) ? { ok: false, detail: 'absent' } : { ok: true }]));
    },
    run: (argv) => {
      runs.push(argv);
      if (aptFails && argv.includes('install')) return 100;
      if (argv.includes('install')) {
        for (const r of REQUIREMENTS) if (r.packages.some((p) => argv.includes(p)) && !aptForgets.includes(r.id)) missing.delete(r.id);
      }
      return 0;
    },
    log: (line) => logs.push(line),
    error: (text) => errors.push(text),
  };
  return { options, runs, logs, errors, probes: () => probes };
}

test('run: nothing missing runs nothing and says so', async () => {
  const m = fakeMachine([]);
  assert.deepEqual(await runPreflight(m.options), { ok: true, installed: [] });
  assert.deepEqual(m.runs, []);
  assert.deepEqual(m.logs, ['npm test: all 13 system requirements are present; nothing to install.']);
  assert.deepEqual(m.errors, []);
});

test('run: root on Debian installs what is missing, looks again, and a second run has nothing to do', async () => {
  const m = fakeMachine(['chromium', 'python-requests']);
  assert.deepEqual(await runPreflight(m.options), { ok: true, installed: ['chromium', 'python3-requests'] });
  assert.deepEqual(
    m.runs.map((a) => a.slice(0, 2).join(' ')),
    ['apt-get update', 'apt-get install'],
  );
  assert.deepEqual(m.runs[1].slice(-2), ['chromium', 'python3-requests']);
  assert.equal(m.probes(), 2, 'looked again after installing');
  assert.equal(m.logs[0], `npm test needs ${byId('chromium').what}; ${byId('python-requests').what}. Installing chromium python3-requests with apt-get.`);
  assert.equal(m.logs.at(-1), 'installed chromium python3-requests; all 13 system requirements are present.');
  assert.deepEqual(m.errors, []);
  const again = await runPreflight(m.options);
  assert.deepEqual(again, { ok: true, installed: [] });
  assert.equal(m.runs.length, 2, 'installed twice');
});

test('run: a failed apt-get stops there, says what to run by hand, and the next run starts from what is present', async () => {
  const m = fakeMachine(['gdal-tools'], { aptFails: true });
  assert.deepEqual(await runPreflight(m.options), { ok: false, installed: [] });
  assert.equal(m.probes(), 1, 'no second look after a failure');
  assert.equal(m.errors.length, 1);
  assert.match(m.errors[0], /"apt-get install -y -q --no-install-recommends -o DPkg::Lock::Timeout=300 gdal-bin" failed \(exit 100\)/);
  assert.ok(m.errors[0].endsWith('\n  apt-get install -y gdal-bin'), m.errors[0]);
  const fixed = fakeMachine(['gdal-tools']);
  assert.equal((await runPreflight(fixed.options)).ok, true);
  assert.deepEqual(fixed.runs[1].slice(-1), ['gdal-bin']);
});

test('run: still missing after apt-get says so loudly and fails', async () => {
  const m = fakeMachine(['ripgrep', 'fonts-liberation'], { aptForgets: ['ripgrep'] });
  assert.deepEqual(await runPreflight(m.options), { ok: false, installed: ['ripgrep', 'fonts-liberation'] });
  assert.equal(m.errors.length, 1);
  assert.match(m.errors[0], /^npm test: apt-get installed the packages, but this is still missing:\n {2}- ripgrep \(\/usr\/bin\/rg\): absent\n/);
  assert.ok(!m.errors[0].includes('Liberation'), 'what was installed is not listed as missing');
});

test('run: a user who is not root is told, and nothing runs', async () => {
  const m = fakeMachine(['kerberos-headers']);
  m.options.host = () => ({ root: false, debian: true, sudo: false });
  assert.deepEqual(await runPreflight(m.options), { ok: false, installed: [] });
  assert.deepEqual(m.runs, []);
  assert.match(m.errors[0], /\n {2}sudo apt-get install -y libkrb5-dev\n/);
});

test('probes: files, commands on PATH, an env-named file, Node and its headers, Python modules', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-preflight-'));
  try {
    const file = path.join(dir, 'present.h');
    fs.writeFileSync(file, '');
    const bin = path.join(dir, 'bin');
    fs.mkdirSync(bin);
    fs.writeFileSync(path.join(bin, 'tool'), '#!/bin/sh\n', { mode: 0o755 });
    fs.writeFileSync(path.join(bin, 'notexec'), '', { mode: 0o644 });
    const headers = path.join(dir, 'node_version.h');
    fs.writeFileSync(headers, '#define NODE_MAJOR_VERSION 20\n#define NODE_MINOR_VERSION 20\n');
    const req = (id: string, probe: Probe): Requirement => ({ id, what: id, why: id, packages: ['p'], probe, for: ['unit'] });
    const reqs = [
      req('file-ok', { files: [file] }),
      req('file-gone', { files: [file, path.join(dir, 'absent.h')] }),
      req('cmd-ok', { commands: ['tool'] }),
      req('cmd-gone', { commands: ['tool', 'notexec', 'absent'] }),
      req('env-set', { envFile: 'EO_TEST_BROWSER', fallback: file }),
      req('env-unset', { envFile: 'EO_TEST_UNSET', fallback: path.join(dir, 'nope') }),
      req('node-ok', { node: 20 }),
      req('headers-ok', { nodeHeaders: headers }),
      req('headers-gone', { nodeHeaders: path.join(dir, 'none.h') }),
      req('py-ok', { python: '/usr/bin/python3', modules: ['json', 'sqlite3'] }),
      req('py-gone', { python: '/usr/bin/python3', modules: ['json', 'eo_no_such_module'] }),
      req('py-absent', { python: path.join(dir, 'python3'), modules: ['json'] }),
    ];
    const env = { PATH: `${bin}:${path.join(dir, 'missing-dir')}`, EO_TEST_BROWSER: path.join(dir, 'chrome') };
    assert.deepEqual(probeRequirements(reqs, { env, nodeVersion: '20.20.2' }), {
      'file-ok': { ok: true },
      'file-gone': { ok: false, detail: `no ${path.join(dir, 'absent.h')}` },
      'cmd-ok': { ok: true },
      'cmd-gone': { ok: false, detail: 'notexec, absent not on PATH' },
      'env-set': { ok: false, detail: `EO_TEST_BROWSER=${path.join(dir, 'chrome')} does not exist` },
      'env-unset': { ok: false, detail: `no ${path.join(dir, 'nope')}` },
      'node-ok': { ok: true },
      'headers-ok': { ok: true },
      'headers-gone': { ok: false, detail: `no ${path.join(dir, 'none.h')}` },
      'py-ok': { ok: true },
      'py-gone': { ok: false, detail: '/usr/bin/python3 cannot import eo_no_such_module' },
      'py-absent': { ok: false, detail: `no ${path.join(dir, 'python3')}` },
    });
    // Another Node: neither it nor these headers fit.
    const other = probeRequirements([req('node', { node: 20 }), req('headers', { nodeHeaders: headers })], { env, nodeVersion: '22.1.0' });
    assert.deepEqual(other, {
      node: { ok: false, detail: 'this is Node 22.1.0' },
      headers: { ok: false, detail: "they are Node 20's, this is Node 22.1.0" },
    });
    assert.equal(onPath('tool', env), true);
    assert.equal(onPath('tool', { PATH: '' }), false);
    assert.equal(headerMajor('#define NODE_MAJOR_VERSION 18'), 18);
    assert.equal(headerMajor('nothing here'), undefined);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
