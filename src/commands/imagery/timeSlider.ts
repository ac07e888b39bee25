/**
 * "Step Through Time": a time slider on the map over one place's dates. From an AOI (or one of
 * its mosaics): the AOI's mosaics by date. From an archive item: the items over its footprint
 * (the map's search results, then its collection). From the palette: the map's search results.
 */
import vscode = require('vscode');
import { l10n } from 'vscode';
import type { Asset } from '../../api/records';
import { archiveRefArg, type Row } from '../args/shapes';
import type { CommandServices } from '../services';
import { aoiFrames, aoiName, itemFrames, itemsOver, type Dated } from './dated';
import { withProgress } from '../../ui/progress';

/** "Step Through Time" on what it was run on (see the top of this file). */
export async function stepThroughTime(services: CommandServices, row: Row | undefined): Promise<void> {
  const client = await services.connection.getClient();
  const record = row?.record;
  const ref = archiveRefArg(row);
  let title: string;
  let dated: Dated;
  if ((row?.kind === 'aoi' || row?.kind === 'asset') && record) {
    const aoiId = String(row.kind === 'aoi' ? record.aoi_id : (record as unknown as Asset).aoi_id);
    title = row.kind === 'aoi' ? aoiName(record) : l10n.t('AOI mosaics');
    dated = await withProgress({ location: vscode.ProgressLocation.Window, title: l10n.t('Listing the dates…') }, () => aoiFrames(client, aoiId));
  } else if (ref) {
    const item = ref.item ?? (await client.archives.item(ref.collection, ref.id));
    title = l10n.t('Scenes over {0}', typeof item.properties?.title === 'string' && item.properties.title ? item.properties.title : item.id);
    dated = itemFrames(
      await withProgress({ location: vscode.ProgressLocation.Window, title: l10n.t('Finding scenes over this place…') }, () =>
        itemsOver(client, item, services.panels.currentMap()?.searchResults ?? []),
      ),
    );
  } else {
    title = l10n.t('Search results');
    dated = itemFrames(services.panels.currentMap()?.searchResults ?? []);
    if (dated.frames.length < 2) {
      void services.ui.message(
        'info',
        l10n.t('Right-click an AOI or an archive item and choose Step Through Time, or search the archive on the map first and step through its results.'),
        {},
      );
      return;
    }
  }
  if (dated.frames.length < 2) {
    const why = l10n.t('{0}: {1} date(s) can be drawn; the time slider needs two.', title, dated.frames.length);
    void services.ui.message('warning', dated.skipped ? `${why} ${dated.skipped}` : why, {});
    return;
  }
  services.panels.showMap().showTimeline(title, dated.frames);
}
