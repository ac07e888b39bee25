/**
 * Opens a shared view on the map: only when signed in to the service the view is of (a link
 * never changes the service or a setting); each layer's records are read with the opener's own
 * token, each distinct record once and within the view's request budget (./viewReads.ts), and
 * what the opener cannot see, or what the budget left out, is named while the rest is shown.
 */
import { l10n } from 'vscode';
import { ApiError } from '../../api';
import type { Asset } from '../../api/records';
import { hostOf } from '../../auth/connection';
import { aoiAssetSpec, archiveItemSpec, visualizationSpec, type SpecOrNote } from '../../panels/imagery/specs';
import type { ImageryLayerSpec, TimeFrame } from '../../panels/imagery/protocol';
import { aoiFeature, archiveItemFeature, assetFeature, type MapTarget } from '../../panels/mapData';
import { fetchSource, MAX_ASSETS_WALKED } from '../../panels/mapSources';
import type { MapSource } from '../../panels/protocol';
import { describeError } from '../../ui/showError';
import type { CommandServices } from '../services';
import type { SharedImagery, SharedTimeline, SharedView } from './view';
import { inOrder, OverBudget, ViewReads } from './viewReads';

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

/** A layer that was read but cannot be shown, and why, in words. */
class NotShown extends Error {}

/** Why a record is not shown, in words: not there or not the opener's, or what went wrong. */
function why(err: unknown): string {
  if (err instanceof NotShown) return err.message;
  if (err instanceof ApiError && (err.status === 403 || err.status === 404)) return l10n.t('not found, or not visible to you');
  return describeError(err);
}

export interface Opened {
  shown: number;
  /** One sentence per layer not shown, naming its kind. */
  missing: string[];
  /** The layers and dates not read because the view's request budget was spent, by name. */
  leftOut: string[];
}

/** Reads in flight at once while a view opens (the client's connections). */
const READS_AT_ONCE = 6;
/** How many left-out layers the notification names (the rest are counted). */
const NAMED = 10;

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
  const reads = new ViewReads(await services.connection.getClient());
  const map = services.panels.showMap();
  map.setView([view.center.lat, view.center.lon], view.zoom);
  // Everything is read first, every request counted (viewReads.ts); then it is drawn.
  const read = await reads.run(() => readView(reads, view));
  services.log.info(`Opened a shared view: ${reads.requests} requests to the service (at most ${reads.budget})`);
  let shown = 0;
  for (const t of read.targets) {
    if (!t) continue;
    map.showTarget(t, { fit: false, mode: 'append' });
    shown++;
  }
  // the compared pair goes on the map with the compare itself, the other layers as they are
  const pair = view.compare ? [view.compare.left, view.compare.right] : [];
  for (const [i, spec] of read.specs.entries()) {
    if (!spec) continue;
    if (!pair.includes(i)) map.showImagery(spec, { fit: false });
    shown++;
  }
  const { missing, leftOut } = read;
  if (view.compare) {
    const { left, right, position, mode } = view.compare;
    const [a, b] = [read.specs[left], read.specs[right]];
    if (a && b) map.showCompare(a, b, { position, mode, fit: false });
    else {
      // the side that could be read is shown on its own
      for (const s of [a, b]) if (s) map.showImagery(s, { fit: false });
      missing.push(l10n.t('the compare: one of its two layers is not shown'));
    }
  }
  if (view.timeline && read.frames.length) map.showTimeline(view.timeline.title, read.frames, { date: view.timeline.date, fit: false });
  // setView again: a layer added with fit may have moved the map while it was being read.
  map.setView([view.center.lat, view.center.lon], view.zoom);
  const notes: string[] = [];
  if (missing.length)
    notes.push(
      missing.length === 1
        ? l10n.t('The view is open; 1 layer is not shown: {0}.', missing[0])
        : l10n.t('The view is open; {0} layers are not shown: {1}.', missing.length, missing.join('; ')),
    );
  if (leftOut.length) {
    const named = leftOut.length > NAMED ? l10n.t('{0}; and {1} more', leftOut.slice(0, NAMED).join('; '), leftOut.length - NAMED) : leftOut.join('; ');
    if (!missing.length) notes.push(l10n.t('The view is open.'));
    notes.push(
      l10n.t('Left out, as the view needs more than {0} requests to the service, the most a view may make with your account: {1}.', reads.budget, named),
    );
  }
  if (notes.length) void services.ui.message('warning', notes.join(' '), {});
  return { shown, missing, leftOut };
}

interface ViewRead {
  /** Per layer of the view (undefined: not shown, or the same layer again). */
  targets: (MapTarget | undefined)[];
  /** Per imagery layer. */
  specs: (ImageryLayerSpec | undefined)[];
  /** The time slider's dates that could be read. */
  frames: TimeFrame[];
  missing: string[];
  leftOut: string[];
}

/** Reads every layer, imagery layer and date of the view, in its order; names what cannot be shown. */
async function readView(reads: ViewReads, view: SharedView): Promise<ViewRead> {
  const missing: string[] = [];
  const leftOut: string[] = [];
  // A layer named twice is read (and drawn) once.
  const first = new Map<string, number>();
  view.layers.forEach((s, i) => first.set(JSON.stringify(s), first.get(JSON.stringify(s)) ?? i));
  const layerResults = await inOrder(view.layers, READS_AT_ONCE, (s, i) =>
    first.get(JSON.stringify(s)) === i ? settle(() => recordTarget(reads, s)) : Promise.resolve(undefined),
  );
  const targets = layerResults.map((r, i) => {
    const s = view.layers[i];
    if (r && 'over' in r) leftOut.push(l10n.t('layer {0} ({1})', i + 1, layerNoun(s.kind)));
    else if (r && 'error' in r) missing.push(l10n.t('{0}: {1}', layerNoun(s.kind), why(r.error)));
    return r && 'ok' in r ? r.ok : undefined;
  });
  const imageryResults = await inOrder(view.imagery, READS_AT_ONCE, (layer) => settle(() => imagerySpec(reads, layer)));
  const specs = imageryResults.map((r, i) => {
    const layer = view.imagery[i];
    const what = l10n.t('{0} ({1})', layer.title, layerNoun(layer.source.kind));
    if ('over' in r) leftOut.push(what);
    else if ('error' in r) missing.push(l10n.t('{0}: {1}', what, why(r.error)));
    return 'ok' in r ? r.ok : undefined;
  });
  const frames = view.timeline ? await readTimeline(reads, view.timeline, missing, leftOut) : [];
  return { targets, specs, frames, missing, leftOut };
}

type Settled<T> = { ok: T } | { error: unknown } | { over: true };

/** A read's outcome: its value, its failure, or left out for the budget. */
async function settle<T>(read: () => Promise<T>): Promise<Settled<T>> {
  try {
    return { ok: await read() };
  } catch (error) {
    // Recovers from a read that failed or was over budget: the view opens without it, and says which.
    return error instanceof OverBudget ? { over: true } : { error };
  }
}

/** One record layer: AOIs, assets and archive items through the shared reads, the rest one request each. */
async function recordTarget(reads: ViewReads, s: MapSource): Promise<MapTarget | undefined> {
  switch (s.kind) {
    case 'aoi':
      return { layer: 'aois', features: [aoiFeature(await reads.aoi(s.id))], sources: [s] };
    case 'asset':
      return { layer: 'assets', features: [assetFeature(await assetOf(reads, s.aoiId, s.id))], sources: [s] };
    case 'archiveItem':
      return { layer: 'archiveItems', features: [archiveItemFeature(await reads.archiveItem(s.collection, s.id))], sources: [s] };
    default:
      return fetchSource(reads.client, s);
  }
}

/** An asset the view names, or why it cannot be shown. */
async function assetOf(reads: ViewReads, aoiId: string, id: string): Promise<Asset> {
  const { asset, beyondCap } = await reads.asset(aoiId, id);
  if (asset) return asset;
  throw new NotShown(beyondCap ? l10n.t('not among the first {0} assets of its AOI', MAX_ASSETS_WALKED) : l10n.t('not found, or not visible to you'));
}

/**
 * The time slider's dates read from their records (an AOI's assets walked once for all its
 * dates); what cannot be read is counted in one sentence, what the budget left out in another.
 */
async function readTimeline(reads: ViewReads, t: SharedTimeline, missing: string[], leftOut: string[]): Promise<TimeFrame[]> {
  const results = await inOrder(t.frames, READS_AT_ONCE, (f) =>
    settle(async (): Promise<TimeFrame | { reason: string }> => {
      let got: SpecOrNote;
      if (f.source.kind === 'asset') {
        const [a, sat] = await Promise.all([assetOf(reads, f.source.aoiId, f.source.id), reads.satellite(f.source.aoiId)]);
        got = aoiAssetSpec(a, sat);
      } else got = archiveItemSpec(await reads.archiveItem(f.source.collection, f.source.id));
      if ('note' in got) return { reason: got.note.text };
      return { spec: got.spec, date: f.date, ...(f.cloudCover !== undefined ? { cloudCover: f.cloudCover } : {}) };
    }),
  );
  const frames: TimeFrame[] = [];
  let lost = 0;
  let over = 0;
  let firstReason: string | undefined;
  for (const r of results) {
    if ('over' in r) over++;
    else if ('error' in r) {
      lost++;
      firstReason ??= why(r.error);
    } else if ('reason' in r.ok) {
      lost++;
      firstReason ??= r.ok.reason;
    } else frames.push(r.ok);
  }
  if (lost) missing.push(l10n.t('time slider "{0}": {1} of {2} dates ({3})', t.title, lost, t.frames.length, firstReason ?? ''));
  if (over) leftOut.push(l10n.t('{0} of the {1} dates of the time slider "{2}"', over, t.frames.length, t.title));
  return frames;
}

/** The imagery layer again from its record (its file URL found again, never carried), with the shared title and look. */
async function imagerySpec(reads: ViewReads, layer: SharedImagery): Promise<ImageryLayerSpec> {
  const s = layer.source;
  let got: SpecOrNote;
  switch (s.kind) {
    case 'archiveItem':
      got = archiveItemSpec(await reads.archiveItem(s.collection, s.id));
      break;
    case 'asset': {
      // its satellite names the mosaic's bands and their scale, as when it was first shown
      const [a, sat] = await Promise.all([assetOf(reads, s.aoiId, s.id), reads.satellite(s.aoiId)]);
      got = aoiAssetSpec(a, sat);
      break;
    }
    case 'visualization': {
      const vis = await reads.visualization(s.aoiId, s.id);
      if (!vis) throw new NotShown(l10n.t('not found, or not visible to you'));
      got = visualizationSpec(vis, ...(await Promise.all([reads.assets(s.aoiId), undefined, reads.satellite(s.aoiId)])));
      break;
    }
    case 'insightOutput':
      throw new NotShown(l10n.t('insight outputs are shared as shapes only in this version'));
  }
  if ('note' in got) throw new NotShown(got.note.text);
  return {
    ...got.spec,
    // the title as it was shared (the map's own title names the date and place; the record's may not)
    title: layer.title,
    ...(layer.render ? { render: layer.render } : {}),
    ...(layer.opacity !== undefined ? { opacity: layer.opacity } : {}),
    ...(layer.visible !== undefined ? { visible: layer.visible } : {}),
  };
}
