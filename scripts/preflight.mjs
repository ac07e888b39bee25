// The preflight of `npm test`, `npm start` and `.ci/run`: before any tier or server starts,
// checks every system requirement (scripts/preflight/requirements.mjs). As root on Debian it
// installs what is missing with apt-get and says so; otherwise it stops with one message that
// names each missing piece and the command that installs them all. After an install it looks
// again, and fails loudly if something is still missing. apt-get either installs the
// packages or leaves them as they were, and each run starts from what the machine has, so a
// run that stopped is simply run again.
//
//   node scripts/preflight.mjs [--for test|start|check|unit|integration|e2e ...] [--sudo] [--as NAME]
//
// `--for` (repeatable; default test, which is every tier): what the run is for. `--sudo`: when
// not root, install through `sudo -n` if it works without a password (.ci/run, on CI runners
// that are not root). `--as`: what the messages call the run. Exit 0 when everything is
// present (after installing), 1 otherwise.
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { planPreflight, requirementsFor, stillMissingMessage } from './preflight/plan.mjs';
import { probeHost, probeRequirements } from './preflight/probe.mjs';
import { PURPOSES, REQUIREMENTS, TEST } from './preflight/requirements.mjs';

/** Runs one install step with apt-get's questions off; resolves with its exit code. */
function runStep(argv) {
  const res = spawnSync(argv[0], argv.slice(1), { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  return res.error ? -1 : (res.status ?? -1);
}

/**
 * Checks, installs where it may, checks again. Resolves with `{ ok, installed }`; when `ok` is
 * false it has printed why. The probes and the runner are parameters so a test can stand in
 * for the machine.
 */
export async function runPreflight({
  purposes = TEST,
  asker = 'npm test',
  allowSudo = false,
  requirements = REQUIREMENTS,
  probe = (reqs) => probeRequirements(reqs),
  host = () => probeHost({ wantSudo: allowSudo }),
  run = runStep,
  log = (line) => console.log(`[preflight] ${line}`),
  error = (text) => console.error(text),
} = {}) {
  const needed = requirementsFor(purposes, requirements);
  const who = host();
  const found = await probe(needed);
  const plan = planPreflight({ purposes, asker, found, requirements, ...who });
  if (plan.action === 'none') {
    log(`${asker}: all ${plan.checked.length} system requirements are present; nothing to install.`);
    return { ok: true, installed: [] };
  }
  if (plan.action === 'stop') {
    error(plan.message);
    return { ok: false, installed: [] };
  }

  log(plan.say);
  for (const step of plan.steps) {
    log(`$ ${step.join(' ')}`);
    const code = run(step);
    if (code !== 0) {
      error(
        [
          `${asker}: "${step.join(' ')}" failed (exit ${code}). apt-get fetches every package before it installs`,
          'any, so a package it cannot find or fetch leaves the machine as it was. Fix the cause above and run again',
          '(what is present is not installed twice), or install them by hand:',
          '',
          `  ${who.root ? '' : 'sudo '}apt-get install -y ${plan.packages.join(' ')}`,
        ].join('\n'),
      );
      return { ok: false, installed: [] };
    }
  }

  const after = await probe(needed);
  const again = planPreflight({ purposes, asker, found: after, requirements, ...who });
  const still = stillMissingMessage(asker, again, after);
  if (still) {
    error(still);
    return { ok: false, installed: plan.packages };
  }
  log(`installed ${plan.packages.join(' ')}; all ${again.checked.length} system requirements are present.`);
  return { ok: true, installed: plan.packages };
}

/** `--for` values: a tier, `start`, `check`, or `test` (every tier). */
export function purposesOf(values) {
  const out = values.flatMap((v) => (v === 'test' ? TEST : [v]));
  const unknown = out.filter((p) => !PURPOSES.includes(p));
  if (unknown.length) throw new Error(`unknown purpose ${unknown.join(', ')}; expected test or one of ${PURPOSES.join(', ')}`);
  return [...new Set(out)];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const argv = process.argv.slice(2);
  const values = argv.flatMap((a, i) => (a === '--for' ? [argv[i + 1]] : []));
  let purposes;
  try {
    purposes = purposesOf(values.length ? values : ['test']);
  } catch (err) {
    console.error(`preflight: ${err.message}`);
    process.exit(2);
  }
  const asker = argv.includes('--as') ? argv[argv.indexOf('--as') + 1] : 'node scripts/preflight.mjs';
  const { ok } = await runPreflight({ purposes, asker, allowSudo: argv.includes('--sudo') });
  process.exit(ok ? 0 : 1);
}
