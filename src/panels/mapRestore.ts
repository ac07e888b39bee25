/**
 * A map revived by the serializer after a window reload, with the state its webview saved:
 * the shapes its layers showed are fetched again (they are not in the state, only where they
 * came from), and of its saved imagery layers only the files the extension itself had put on
 * the map become readable again (the state is the page's to write; see imagery/allowedFiles.ts).
 */
import { l10n } from 'vscode';
import type { EoClient } from '../api/client';
import { isObj } from '../api/shape';
import { describeError } from '../ui/showError';
import type { MapImagery } from './imagery/mapImagery';
import type { MapTarget } from './mapData';
import { fetchAssets, fetchSource } from './mapSources';
import type { LayerKind, MapSource, MapState } from './protocol';

/** What a restore puts things back on. */
export interface RestoreTarget {
  client(): Promise<EoClient>;
  readonly imagery: MapImagery;
  /** Shows fetched shapes without moving the view or the focus. */
  show(t: MapTarget): void;
  notice(text: string, level: 'info' | 'error'): void;
}

export async function restoreMap(map: RestoreTarget, state: MapState | undefined): Promise<void> {
  const imagery: unknown[] = Array.isArray(state?.imagery) ? state.imagery : [];
  map.imagery.reallow(imagery.map((spec) => (isObj(spec) ? spec.url : undefined)));
  await restoreShapes(map, isObj(state?.sources) ? state.sources : {});
}

/** Fetches what the layers showed, again; failures are counted in one notice. */
async function restoreShapes(map: RestoreTarget, sources: Partial<Record<LayerKind, MapSource[]>>): Promise<void> {
  const all = Object.values(sources)
    .flatMap((list) => (Array.isArray(list) ? list : []))
    .filter((s): s is MapSource => isObj(s));
  if (!all.length) return;
  let client: EoClient;
  try {
    client = await map.client();
  } catch (e) {
    map.notice(l10n.t("Sign in to show the map's shapes again ({0}).", describeError(e)), 'error');
    return;
  }
  const failures: string[] = [];
  // single assets are found by listing their AOI's assets once per AOI (the service has no
  // GET for one asset)
  const assets = new Map<string, Set<string>>();
  for (const s of all) if (s.kind === 'asset') assets.set(s.aoiId, (assets.get(s.aoiId) ?? new Set()).add(s.id));
  const jobs: Promise<MapTarget | undefined>[] = all.filter((s) => s.kind !== 'asset').map((s) => fetchSource(client, s));
  for (const [aoiId, ids] of assets) jobs.push(fetchAssets(client, aoiId, ids));
  await Promise.all(
    jobs.map(async (job) => {
      try {
        const t = await job;
        if (t) map.show(t);
      } catch (e) {
        failures.push(describeError(e));
      }
    }),
  );
  if (failures.length) map.notice(l10n.t('{0} shape(s) could not be loaded again: {1}', failures.length, failures[0]), 'error');
}
