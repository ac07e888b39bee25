/**
 * Finding what a model names: an AOI or a project by its name (or id), answered with the
 * closest names when there is no such one, so the model can ask again or ask the person.
 */
import { l10n } from 'vscode';
import { collect, type Aoi, type Bandset, type EoClient, type Project, type Satellite } from '../api';
import { loadProjects } from '../commands/orders/common';
import { closestNames, nameMatcher } from '../nameMatch';
import { quoted } from './text';

export type Found<T> = { ok: true; value: T } | { ok: false; reason: string };

/** Every AOI of the account (the first 1,000), for names. */
export function allAois(client: EoClient): Promise<Aoi[]> {
  return collect(client.aois.iterate({}, { pageSize: 100, cap: 1000 }));
}

/** The AOI named `wanted` (accents and case ignored) or with that id. */
export async function findAoi(client: EoClient, wanted: string): Promise<Found<Aoi>> {
  const aois = await allAois(client);
  return pick(
    aois,
    wanted,
    (a) => [a.name],
    (a) => a.aoi_id,
    (names) => l10n.t('No AOI is named {0}. The closest names: {1}. Call again with one of them.', quoted(wanted), names),
    () => l10n.t('No AOI is named {0}, and the account has no AOIs.', quoted(wanted)),
  );
}

/** The project named `wanted` (its title or its name) or with that id. */
export async function findProject(client: EoClient, wanted: string): Promise<Found<Project>> {
  const projects = await loadProjects(client);
  return pick(
    projects,
    wanted,
    (p) => [p.title, p.name].filter(Boolean),
    (p) => p.id,
    (names) => l10n.t('No project is named {0}. The closest names: {1}. Call again with one of them.', quoted(wanted), names),
    () => l10n.t('No project is named {0}, and the account has no projects.', quoted(wanted)),
  );
}

/** The satellites named (by name or id) among those the service lists; every unknown one is named. */
export function findSatellites(list: readonly Satellite[], wanted: readonly string[]): Found<Satellite[]> {
  const found: Satellite[] = [];
  const problems: string[] = [];
  for (const w of wanted) {
    const one = pick(
      list,
      w,
      (s) => [s.name],
      (s) => s.id,
      (names) => l10n.t('No satellite is named {0}. The closest names: {1}.', quoted(w), names),
      () => l10n.t('No satellite is named {0}: the service lists none.', quoted(w)),
    );
    if (one.ok) {
      if (!found.includes(one.value)) found.push(one.value);
    } else problems.push(one.reason);
  }
  return problems.length ? { ok: false, reason: [...problems, l10n.t('Call again with names from that list.')].join(' ') } : { ok: true, value: found };
}

/** The bandset named `wanted` (or with that id) among `list`. */
export function findBandset(list: readonly Bandset[], wanted: string): Found<Bandset> {
  return pick(
    list,
    wanted,
    (b) => [b.name],
    (b) => b.id,
    (names) => l10n.t('No bandset is named {0}. The closest names: {1}. Call again with one of them.', quoted(wanted), names),
    () => l10n.t('No bandset is named {0}: the service lists none.', quoted(wanted)),
  );
}

function pick<T>(
  list: readonly T[],
  wanted: string,
  names: (t: T) => string[],
  id: (t: T) => string,
  unknown: (closest: string) => string,
  none: () => string,
): Found<T> {
  const byId = list.find((t) => id(t) === wanted.trim());
  if (byId) return { ok: true, value: byId };
  const named = nameMatcher(wanted);
  const byName = list.find((t) => names(t).some(named));
  if (byName) return { ok: true, value: byName };
  if (!list.length) return { ok: false, reason: none() };
  const closest = closestNames(
    wanted,
    list.flatMap((t) => names(t)),
  );
  return { ok: false, reason: unknown(closest.map((n) => quoted(n)).join(', ')) };
}
