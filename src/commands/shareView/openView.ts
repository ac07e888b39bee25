/**
 * Opens a shared view on the map: only when signed in to the service the view is of (a link
 * never changes the service or a setting); each layer's records are read with the opener's own
 * token, and what the opener cannot see is named per layer while the rest is shown.
 */
import { l10n } from 'vscode';
import { ApiError, type EoClient } from '../../api';
import { hostOf } from '../../auth/connection';
import { aoiAssetSpec, archiveItemSpec, visualizationSpec, type SpecOrNote } from '../../panels/imagery/specs';
import type { ImageryLayerSpec, TimeFrame } from '../../panels/imagery/protocol';
import type { MapView } from '../../panels/mapView';
import type { Asset, Satellite } from '../../api/records';
import { fetchSource } from '../../panels/mapSources';
import type { MapSource } from '../../panels/protocol';
import { describeError, orReason } from '../../ui/showError';
import { aoiAssets, aoiSatellite, visualizationOf } from '../imagery/resolve';
import type { CommandServices } from '../services';
import type { SharedImagery, SharedTimeline, SharedView } from './view';

/** What the layers of a view are called, for "not shown" sentences. */
function layerNoun(kind: MapSource['kind'] | SharedImagery['source']['kind']): string {
  switch (kind) {
    case 'aoi':
      return l10n.t('AOI');
    case 'aoiAssets':
      return l10n.t("AOI's assets");
    case 'asset':
      return l10n.t('AOI asset');
    case 'orderItem':
      return l10n.t('order item');
    case 'catalog':
      return l10n.t('catalog entry');
    case 'archiveItem':
      return l10n.t('archive item');
    case 'insightOutput':
      return l10n.t('insight output');
    case 'visualization':
      return l10n.t('visualization');
  }
}

/** Why a record is not shown, in words: not there or not the opener's, or what went wrong. */
function why(err: unknown): string {
  if (err instanceof ApiError && (err.status === 403 || err.status === 404)) return l10n.t('not found, or not visible to you');
  return describeError(err);
}

export interface Opened {
  shown: number;
  /** One sentence per layer not shown, naming its kind. */
  missing: string[];
}

export async function openSharedView(services: CommandServices, view: SharedView): Promise<Opened | undefined> {
  const here = hostOf(services.connection.baseUrl).toLowerCase();
  if (here !== view.host) {
    await services.ui.message(
      'error',
      here
        ? l10n.t(
            'This view is of {0}, but you are connected to {1}. A shared view never changes the service you use: switch with Switch Base URL… if you trust {0}, then open it again.',
            view.host,
            here,
          )
        : l10n.t('This view is of {0}. Sign in to that service first (a shared view never changes the service you use), then open it again.', view.host),
      {},
    );
    return undefined;
  }
  const client = await services.connection.getClient();
  const map = services.panels.showMap();
  map.setView([view.center.lat, view.center.lon], view.zoom);
  const missing: string[] = [];
  let shown = 0;
  await Promise.all(
    view.layers.map(async (s) => {
      // the view opens without a layer that cannot be read, and says why
      const got = await orReason(() => fetchSource(client, s), why);
      if ('reason' in got) missing.push(l10n.t('{0}: {1}', layerNoun(s.kind), got.reason));
      else if (got.value) {
        map.showTarget(got.value, { fit: false, mode: 'append' });
        shown++;
      }
    }),
  );
  // the compared pair goes on the map with the compare itself, the other layers as they are
  const pair = view.compare ? [view.compare.left, view.compare.right] : [];
  const specs: (ImageryLayerSpec | undefined)[] = [];
  for (const [i, layer] of view.imagery.entries()) {
    const got = await orReason(() => imagerySpec(client, layer), why);
    const spec = 'reason' in got ? got : got.value;
    if ('reason' in spec) missing.push(l10n.t('{0} ({1}): {2}', layer.title, layerNoun(layer.source.kind), spec.reason));
    else {
      specs[i] = spec;
      if (!pair.includes(i)) map.showImagery(spec, { fit: false });
      shown++;
    }
  }
  if (view.compare) {
    const { left, right, position, mode } = view.compare;
    const [a, b] = [specs[left], specs[right]];
    if (a && b) map.showCompare(a, b, { position, mode, fit: false });
    else {
      // the side that could be read is shown on its own
      for (const s of [a, b]) if (s) map.showImagery(s, { fit: false });
      missing.push(l10n.t('the compare: one of its two layers is not shown'));
    }
  }
  if (view.timeline) missing.push(...(await showTimeline(client, map, view.timeline)));
  // setView again: a layer added with fit may have moved the map while it was being read.
  map.setView([view.center.lat, view.center.lon], view.zoom);
  if (missing.length)
    void services.ui.message(
      'warning',
      missing.length === 1
        ? l10n.t('The view is open; 1 layer is not shown: {0}.', missing[0])
        : l10n.t('The view is open; {0} layers are not shown: {1}.', missing.length, missing.join('; ')),
      {},
    );
  return { shown, missing };
}

/**
 * The time slider again, its dates read from their records (each AOI's mosaics listed once),
 * opened on the shared date; what cannot be read is counted in one sentence.
 */
async function showTimeline(client: EoClient, map: MapView, t: SharedTimeline): Promise<string[]> {
  const perAoi = new Map<string, Promise<{ assets: Asset[]; sat: Satellite | undefined }>>();
  const mosaicsOf = (aoiId: string) => {
    let got = perAoi.get(aoiId);
    if (!got) {
      got = Promise.all([aoiAssets(client, aoiId), aoiSatellite(client, aoiId)]).then(([assets, sat]) => ({ assets, sat }));
      perAoi.set(aoiId, got);
    }
    return got;
  };
  let firstReason: string | undefined;
  const read = await Promise.all(
    t.frames.map(async (f): Promise<TimeFrame | undefined> => {
      // the slider shows the dates that can be read, and says why one cannot
      const got = await orReason(async (): Promise<SpecOrNote | undefined> => {
        if (f.source.kind !== 'asset') return archiveItemSpec(await client.archives.item(f.source.collection, f.source.id));
        const { id } = f.source;
        const { assets, sat } = await mosaicsOf(f.source.aoiId);
        const a = assets.find((x) => x.id === id);
        return a ? aoiAssetSpec(a, sat) : undefined;
      }, why);
      const spec = 'reason' in got ? got : (got.value ?? { reason: l10n.t('not found, or not visible to you') });
      if ('reason' in spec) firstReason ??= spec.reason;
      else if ('note' in spec) firstReason ??= spec.note.text;
      else return { spec: spec.spec, date: f.date, ...(f.cloudCover !== undefined ? { cloudCover: f.cloudCover } : {}) };
      return undefined;
    }),
  );
  const frames = read.filter((f): f is TimeFrame => !!f);
  if (frames.length) map.showTimeline(t.title, frames, { date: t.date, fit: false });
  const lost = t.frames.length - frames.length;
  if (!lost) return [];
  return [l10n.t('time slider "{0}": {1} of {2} dates ({3})', t.title, lost, t.frames.length, firstReason ?? '')];
}

/** The imagery layer again from its record (its file URL found again, never carried), with the shared look. */
async function imagerySpec(client: EoClient, layer: SharedImagery): Promise<ImageryLayerSpec | { reason: string }> {
  const s = layer.source;
  let got: SpecOrNote;
  switch (s.kind) {
    case 'archiveItem':
      got = archiveItemSpec(await client.archives.item(s.collection, s.id));
      break;
    case 'asset': {
      const a = (await aoiAssets(client, s.aoiId)).find((x) => x.id === s.id);
      if (!a) return { reason: l10n.t('not found, or not visible to you') };
      got = aoiAssetSpec(a);
      break;
    }
    case 'visualization': {
      const vis = await visualizationOf(client, s.aoiId, s.id);
      if (!vis) return { reason: l10n.t('not found, or not visible to you') };
      got = visualizationSpec(vis, await aoiAssets(client, s.aoiId), undefined);
      break;
    }
    case 'insightOutput':
      return { reason: l10n.t('insight outputs are shared as shapes only in this version') };
  }
  if ('note' in got) return { reason: got.note.text };
  return {
    ...got.spec,
    ...(layer.render ? { render: layer.render } : {}),
    ...(layer.opacity !== undefined ? { opacity: layer.opacity } : {}),
    ...(layer.visible !== undefined ? { visible: layer.visible } : {}),
  };
}
