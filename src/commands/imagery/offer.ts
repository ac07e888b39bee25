/**
 * "Show Imagery" from the command palette, where no row says what to show: the person picks
 * it. Offered first, the map's search results (their scenes); then each AOI, whose mosaics
 * and visualizations are offered by date once it is picked. Undefined when the person
 * cancels; a reason when there is nothing to offer.
 */
import vscode = require('vscode');
import { l10n } from 'vscode';
import type { EoClient } from '../../api/client';
import type { Aoi, ArchiveItem, Asset } from '../../api/records';
import { day } from '../../format';
import type { Row } from '../args';
import type { CommandServices } from '../services';
import { aoiAssets } from './resolve';
import { firstAois } from '../map/firstAois';

type Offer = vscode.QuickPickItem & { item?: ArchiveItem; aoi?: Aoi; asset?: Asset };

function sceneOffer(item: ArchiveItem): Offer {
  const p = item.properties ?? {};
  const title = typeof p.title === 'string' && p.title ? p.title : item.id;
  const cloud = typeof p['eo:cloud_cover'] === 'number' ? l10n.t('{0} % cloud', Math.round(p['eo:cloud_cover'])) : undefined;
  return {
    label: title,
    iconPath: new vscode.ThemeIcon('globe'),
    description: [day(typeof p.datetime === 'string' ? p.datetime : ''), cloud, item.collection].filter(Boolean).join(' · '),
    item,
  };
}

/** What to show, as the row "Show Imagery" takes (an archive item's, or an AOI asset's). */
export async function offerImagery(services: CommandServices, client: EoClient): Promise<Row | { reason: string } | undefined> {
  const offers: Offer[] = [];
  const results = services.panels.currentMap()?.searchResults ?? [];
  if (results.length) {
    offers.push({ label: l10n.t('Search results on the map'), kind: vscode.QuickPickItemKind.Separator });
    offers.push(...results.slice(0, 200).map(sceneOffer));
  }
  // the scenes are still offered; the picker says why the AOIs are missing
  const listed = await firstAois(services);
  const listError = 'reason' in listed ? listed.reason : undefined;
  const aois = 'aois' in listed ? listed.aois : [];
  if (aois.length) offers.push({ label: l10n.t('AOIs: their mosaics and visualizations'), kind: vscode.QuickPickItemKind.Separator });
  for (const aoi of aois) offers.push({ label: aoi.name, iconPath: new vscode.ThemeIcon('location'), description: l10n.t('pick a date next'), aoi });
  if (!offers.some((o) => o.item || o.aoi)) {
    return {
      reason: listError
        ? l10n.t('Nothing to show: your AOIs could not be listed ({0}), and the map has no search results.', listError)
        : l10n.t('Nothing to show yet: search the archive on the map, or create an AOI.'),
    };
  }
  const picked = await services.ui.pick(offers, {
    title: l10n.t('Show Imagery'),
    placeHolder: listError
      ? l10n.t('Which scene? (your AOIs could not be listed: {0})', listError)
      : l10n.t('Which scene, or which AOI? Type to filter by name, date or collection'),
    matchOnDescription: true,
  });
  if (!picked) return undefined;
  if (picked.item) return { kind: 'archiveItem', record: picked.item as unknown as Record<string, unknown> };
  if (!picked.aoi) return undefined;
  const aoi = picked.aoi;
  const assets = (await aoiAssets(client, aoi.aoi_id)).filter((a) => a.path);
  if (!assets.length) return { reason: l10n.t('{0} has no mosaic or visualization yet.', aoi.name) };
  const dated = [...assets].sort((x, y) => (y.date ?? '').localeCompare(x.date ?? ''));
  const chosen = await services.ui.pick(
    dated.map((asset) => ({
      label: asset.name || asset.id,
      description: [asset.visualization_id ? l10n.t('visualization') : l10n.t('mosaic'), asset.name?.includes(asset.date) ? '' : day(asset.date)]
        .filter(Boolean)
        .join(' · '),
      asset,
    })),
    { title: l10n.t('Show Imagery: {0}', aoi.name), placeHolder: l10n.t('Which date? Newest first') },
  );
  return chosen ? { kind: 'asset', record: chosen.asset as unknown as Record<string, unknown> } : undefined;
}
