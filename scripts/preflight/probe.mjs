// The preflight's look at the machine: which of the requirements (scripts/preflight/
// requirements.mjs) are present, whether this is root on Debian, whether sudo works without a
// password. Only reads; the decision is scripts/preflight/plan.mjs.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Whether `name` is an executable file in one of PATH's directories. */
export function onPath(name, env = process.env) {
  return (env.PATH ?? '')
    .split(delimiter)
    .filter(Boolean)
    .some((dir) => isExecutable(join(dir, name)));
}

function isExecutable(file) {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The major version named in a node_version.h, or undefined. */
export function headerMajor(text) {
  const m = /#define\s+NODE_MAJOR_VERSION\s+(\d+)/.exec(text);
  return m ? Number(m[1]) : undefined;
}

/** Which modules `python` imports: one interpreter start for all of them. */
function pythonImports(python, modules) {
  if (!existsSync(python)) return { missingPython: true, ok: {} };
  const script = [
    'import importlib, json, sys',
    'ok = {}',
    'for m in sys.argv[1:]:',
    '    try:',
    '        importlib.import_module(m)',
    '        ok[m] = True',
    '    except Exception:',
    '        ok[m] = False',
    'print(json.dumps(ok))',
  ].join('\n');
  const res = spawnSync(python, ['-c', script, ...modules], { encoding: 'utf8', timeout: 60_000 });
  try {
    return { ok: JSON.parse(res.stdout) };
  } catch {
    return { ok: {} };
  }
}

/**
 * What the machine has of each requirement: `{ [id]: { ok, detail } }`, `detail` saying what
 * is wrong. Python modules of one interpreter are probed in a single run.
 * @param {import('./requirements.mjs').Requirement[]} requirements
 */
export function probeRequirements(requirements, { env = process.env, nodeVersion = process.versions.node } = {}) {
  const nodeMajor = Number(nodeVersion.split('.')[0]);
  const modulesBy = new Map();
  for (const r of requirements) {
    if ('python' in r.probe) modulesBy.set(r.probe.python, [...(modulesBy.get(r.probe.python) ?? []), ...r.probe.modules]);
  }
  const imports = new Map([...modulesBy].map(([python, modules]) => [python, pythonImports(python, modules)]));

  /** @type {Record<string, import('./plan.mjs').Found>} */
  const found = {};
  for (const r of requirements) {
    const p = r.probe;
    if ('node' in p) {
      found[r.id] = nodeMajor === p.node ? { ok: true } : { ok: false, detail: `this is Node ${nodeVersion}` };
    } else if ('nodeHeaders' in p) {
      let major;
      try {
        major = headerMajor(readFileSync(p.nodeHeaders, 'utf8'));
      } catch {
        major = undefined;
      }
      if (major === nodeMajor) found[r.id] = { ok: true };
      else found[r.id] = { ok: false, detail: major === undefined ? `no ${p.nodeHeaders}` : `they are Node ${major}'s, this is Node ${nodeVersion}` };
    } else if ('files' in p) {
      const absent = p.files.filter((f) => !existsSync(f));
      found[r.id] = absent.length ? { ok: false, detail: `no ${absent.join(', ')}` } : { ok: true };
    } else if ('commands' in p) {
      const absent = p.commands.filter((c) => !onPath(c, env));
      found[r.id] = absent.length ? { ok: false, detail: `${absent.join(', ')} not on PATH` } : { ok: true };
    } else if ('envFile' in p) {
      const file = env[p.envFile] || p.fallback;
      found[r.id] = existsSync(file) ? { ok: true } : { ok: false, detail: env[p.envFile] ? `${p.envFile}=${file} does not exist` : `no ${file}` };
    } else if ('python' in p) {
      const seen = imports.get(p.python);
      if (seen.missingPython) found[r.id] = { ok: false, detail: `no ${p.python}` };
      else {
        const absent = p.modules.filter((m) => seen.ok[m] !== true);
        found[r.id] = absent.length ? { ok: false, detail: `${p.python} cannot import ${absent.join(', ')}` } : { ok: true };
      }
    } else {
      throw new Error(`requirement ${r.id} has no probe this module knows`);
    }
  }
  return found;
}

/** Who runs the preflight and where: root, Debian with apt-get, passwordless sudo (asked only when wanted). */
export function probeHost({ wantSudo = false, env = process.env } = {}) {
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const debian = existsSync('/etc/debian_version') && onPath('apt-get', env);
  const sudo = !root && wantSudo && onPath('sudo', env) && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore', timeout: 10_000 }).status === 0;
  return { root, debian, sudo };
}
