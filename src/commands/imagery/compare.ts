/**
 * "Compare Imagery…": two layers side by side on the map with a swipe divider (and flicker).
 * From an AOI: two of its dates. From a mosaic: another date of its AOI. From a visualization:
 * its source mosaic against it. From an archive item: another item over the same place (the
 * map's search results, then its collection). From the palette: two of the map's search
 * results. The older of two dates goes on the left.
 */
import vscode = require('vscode');
import { l10n } from 'vscode';
import type { EoClient } from '../../api/client';
import type { ArchiveItem, Asset } from '../../api/records';
import type { ImageryLayerSpec, TimeFrame } from '../../panels/imagery/protocol';
import { aoiAssetSpec } from '../../panels/imagery/specs';
import { archiveRefArg, type Row } from '../args/shapes';
import type { CommandServices } from '../services';
import { aoiFrames, aoiName, frameDetail, itemFrame, itemFrames, itemsOver } from './dated';
import { aoiAssets, aoiSatellite, resolveImagery } from './resolve';

type Pair = [ImageryLayerSpec, ImageryLayerSpec];
type Outcome = Pair | { reason: string } | undefined;

function ordered(a: TimeFrame, b: TimeFrame): Pair {
  return a.date <= b.date ? [a.spec, b.spec] : [b.spec, a.spec];
}

interface FrameItem extends vscode.QuickPickItem {
  frame: TimeFrame;
}

const frameItem = (f: TimeFrame): FrameItem => ({ label: f.spec.title, description: frameDetail(f), frame: f });

async function pickTwo(services: CommandServices, frames: TimeFrame[], title: string): Promise<Outcome> {
  const picked = await services.ui.pickMany(frames.map(frameItem), { title, placeHolder: l10n.t('Pick two dates to compare') });
  if (!picked) return undefined;
  if (picked.length !== 2) return { reason: l10n.t('Pick exactly two to compare (you picked {0}).', picked.length) };
  return ordered(picked[0].frame, picked[1].frame);
}

async function pickOther(services: CommandServices, first: TimeFrame, others: TimeFrame[], title: string): Promise<Outcome> {
  const picked = await services.ui.pick(others.map(frameItem), { title, placeHolder: l10n.t('Compare {0} with…', first.spec.title) });
  return picked ? ordered(first, picked.frame) : undefined;
}

async function fromAoi(services: CommandServices, client: EoClient, aoi: Record<string, unknown>): Promise<Outcome> {
  const { frames, skipped } = await aoiFrames(client, String(aoi.aoi_id));
  if (frames.length < 2) {
    return { reason: l10n.t('{0} has {1} date(s) that can be drawn; compare needs two.', aoiName(aoi), frames.length) + (skipped ? ` ${skipped}` : '') };
  }
  return pickTwo(services, frames, l10n.t('Compare two dates of {0}', aoiName(aoi)));
}

async function fromAsset(services: CommandServices, client: EoClient, asset: Asset): Promise<Outcome> {
  const own = aoiAssetSpec(asset, await aoiSatellite(client, asset.aoi_id));
  if ('note' in own) return { reason: own.note.text };
  const { frames } = await aoiFrames(client, asset.aoi_id);
  const others = frames.filter((f) => f.spec.id !== own.spec.id);
  if (!others.length) return { reason: l10n.t('The AOI has no other date that can be drawn.') };
  return pickOther(services, { spec: own.spec, date: asset.date }, others, l10n.t('Compare {0} with another date', own.spec.title));
}

/** A visualization against the mosaic it is computed from (the scene on the left). */
async function fromVisualization(client: EoClient, row: Row): Promise<Outcome> {
  const vis = await resolveImagery(client, row);
  if ('reason' in vis) return vis;
  if ('note' in vis) return { reason: vis.note.text };
  const src = vis.spec.source;
  if (src.kind !== 'visualization') return { reason: l10n.t('This row is not a visualization.') };
  const assets = (await aoiAssets(client, src.aoiId)).filter((a) => !a.visualization_id);
  const own = assets.find((a) => a.id === src.assetId);
  const date = own?.date ?? /\d{4}-\d{2}-\d{2}/.exec(vis.spec.title)?.[0];
  const scene = own ?? assets.find((a) => a.date === date) ?? [...assets].sort((x, y) => y.date.localeCompare(x.date))[0];
  if (!scene) return { reason: l10n.t('The AOI has no mosaic to compare the visualization with.') };
  const left = aoiAssetSpec(scene, await aoiSatellite(client, src.aoiId));
  if ('note' in left) return { reason: left.note.text };
  return [left.spec, vis.spec];
}

async function fromItem(services: CommandServices, client: EoClient, item: ArchiveItem): Promise<Outcome> {
  const first = itemFrame(item);
  if ('note' in first) return { reason: first.note };
  const over = await itemsOver(client, item, services.panels.currentMap()?.searchResults ?? []);
  const others = itemFrames(over.filter((i) => !(i.collection === item.collection && i.id === item.id))).frames;
  if (!others.length)
    return {
      reason: l10n.t(
        "No other archive item over this place was found (in the map's search results or the first 100 items of the collection). Search the archive over it on the map first.",
      ),
    };
  return pickOther(services, first, others, l10n.t('Compare {0} with another scene', first.spec.title));
}

async function fromSearchResults(services: CommandServices): Promise<Outcome> {
  const { frames } = itemFrames(services.panels.currentMap()?.searchResults ?? []);
  if (frames.length < 2) {
    return {
      reason: l10n.t(
        'Right-click an AOI, a mosaic, a visualization or an archive item and choose Compare Imagery, or search the archive on the map first and compare two of its results.',
      ),
    };
  }
  return pickTwo(services, frames, l10n.t('Compare two search results'));
}

/**
 * "Compare Imagery…" on what it was run on (see the top of this file); two layers side by
 * side on the map, or a warning that says why not.
 */
export async function compareImagery(services: CommandServices, row: Row | undefined): Promise<void> {
  const client = await services.connection.getClient();
  const record = row?.record;
  const ref = archiveRefArg(row);
  let out: Outcome;
  if (row?.kind === 'aoi' && record) out = await fromAoi(services, client, record);
  else if (row?.kind === 'asset' && record) out = await fromAsset(services, client, record as unknown as Asset);
  else if (row?.kind === 'visualization') out = await fromVisualization(client, row);
  else if (ref) out = await fromItem(services, client, ref.item ?? (await client.archives.item(ref.collection, ref.id)));
  else out = await fromSearchResults(services);
  if (!out) return;
  if ('reason' in out) {
    void services.ui.message('warning', out.reason, {});
    return;
  }
  services.panels.showMap().showCompare(out[0], out[1]);
}
