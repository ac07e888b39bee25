// The preflight's decision, pure: given what the machine has (scripts/preflight/probe.mjs
// finds out) and who runs it, what to do: nothing, install these Debian packages, or stop
// with one message that names each missing piece and the command that installs them all.
import { REQUIREMENTS } from './requirements.mjs';

/**
 * @typedef {import('./requirements.mjs').Requirement} Requirement
 * @typedef {{ ok: boolean, detail?: string }} Found  what the probe saw; `detail` says what is wrong
 * @typedef {{
 *   purposes: string[],
 *   asker: string,
 *   found: Record<string, Found>,
 *   root: boolean,
 *   debian: boolean,
 *   sudo?: boolean,
 *   requirements?: Requirement[],
 * }} PlanInput
 *   `asker`: what the person ran, e.g. "npm test"; `debian`: /etc/debian_version and apt-get
 *   exist; `sudo`: not root, but allowed to install through `sudo -n` (.ci/run asks for it),
 *   and that works without a password.
 * @typedef {{ action: 'none', checked: string[] }
 *   | { action: 'install', missing: Requirement[], packages: string[], steps: string[][], say: string }
 *   | { action: 'stop', missing: Requirement[], packages: string[], command?: string, message: string }} Plan
 */

/** The requirements these purposes need, in the table's order. */
export function requirementsFor(purposes, requirements = REQUIREMENTS) {
  return requirements.filter((r) => r.for.some((p) => purposes.includes(p)));
}

/** Debian packages of these requirements, each once, in the table's order. */
export function packagesOf(requirements) {
  return [...new Set(requirements.flatMap((r) => r.packages))];
}

/** The command a person runs to install `packages` (root needs no sudo). */
export function installCommand(packages, root) {
  return `${root ? '' : 'sudo '}apt-get install -y ${packages.join(' ')}`;
}

/** What the preflight runs to install `packages`: the package lists first, then the packages. */
export function installSteps(packages, root) {
  const prefix = root ? [] : ['sudo', '-n'];
  // Another apt (unattended upgrades, a parallel job) may hold the lock: wait for it.
  const lock = ['-o', 'DPkg::Lock::Timeout=300'];
  return [
    [...prefix, 'apt-get', 'update', '-q', ...lock],
    [...prefix, 'apt-get', 'install', '-y', '-q', '--no-install-recommends', ...lock, ...packages],
  ];
}

/** Two lines per missing piece: what and what is wrong; why, and its package or what to do. */
export function describeMissing(missing, found) {
  return missing.flatMap((r) => {
    const detail = found[r.id]?.detail;
    const fix = r.packages.length ? `Debian package ${r.packages.join(', ')}` : r.howTo;
    return [`  - ${r.what}${detail ? `: ${detail}` : ''}`, `    why: ${r.why}; ${fix}`];
  });
}

/** @param {PlanInput} input @returns {Plan} */
export function planPreflight({ purposes, asker, found, root, debian, sudo = false, requirements = REQUIREMENTS }) {
  const needed = requirementsFor(purposes, requirements);
  const missing = needed.filter((r) => found[r.id]?.ok !== true);
  if (missing.length === 0) return { action: 'none', checked: needed.map((r) => r.id) };

  const packages = packagesOf(missing);
  const byHand = missing.filter((r) => r.packages.length === 0);
  const canInstall = debian && (root || sudo);
  if (canInstall && byHand.length === 0) {
    return {
      action: 'install',
      missing,
      packages,
      steps: installSteps(packages, root),
      say: `${asker} needs ${missing.map((r) => r.what).join('; ')}. Installing ${packages.join(' ')} with apt-get${root ? '' : ' (sudo)'}.`,
    };
  }

  const command = packages.length ? installCommand(packages, root) : undefined;
  const lines = [`${asker} cannot run yet: this machine is missing ${missing.length === 1 ? 'one thing' : `${missing.length} things`}.`];
  lines.push(...describeMissing(missing, found));
  if (command) {
    const what = byHand.length ? 'the packages' : missing.length === 1 ? 'it' : 'them all';
    if (debian) lines.push('', `Install ${what} with:`, '', `  ${command}`, '');
    else lines.push('', 'There is no apt-get here (not Debian, or not on PATH): install the equivalent of these Debian packages:', '', `  ${command}`, '');
  } else {
    lines.push('');
  }
  lines.push(`then run ${asker} again.`);
  return { action: 'stop', missing, packages, command, message: lines.join('\n') };
}

/**
 * After an install: what is still missing is a failure, said loudly (apt said it installed the
 * packages, yet the probe does not find what they should provide).
 */
export function stillMissingMessage(asker, plan, found) {
  if (plan.action === 'none') return undefined;
  return [
    `${asker}: apt-get installed the packages, but this is still missing:`,
    ...describeMissing(plan.missing, found),
    '',
    'Nothing more was changed. Check the packages above (dpkg -L <package>) and run again.',
  ].join('\n');
}
