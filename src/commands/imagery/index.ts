/**
 * "Show Imagery": an archive item (sidebar row, search result on the map, STAC page), an AOI
 * asset or a visualization drawn on the map from its GeoTIFF. `showImageryLayer` is the one
 * entry point for any COG (an insight's raster output, for one), given its layer description.
 */
import vscode = require('vscode');
import { l10n } from 'vscode';
import type { SpecOrNote } from '../../panels/imagery/specs';
import type { CommandServices } from '../services';
import { resolveImagery } from './resolve';
import { offerImagery } from './offer';
import type { Row } from '../args';
import type { CommandTable } from '../register';
import { chartIndexOverTime } from './chartIndex';
import { exportSeriesCsv, saveChartPng } from './seriesExport';
import { compareImagery } from './compare';
import { saveView } from './saveView';
import { stepThroughTime } from './timeSlider';
import { exportTimelapse } from './timelapse';
import { withProgress } from '../../ui/progress';

/**
 * Any Cloud-Optimized GeoTIFF on the map (built by `src/panels/imagery/specs.ts`): its
 * `render` says how (three bands stretched, an expression through a colour map, or classes
 * with their colours), each with its legend; a note instead says why it cannot be drawn.
 */
export function showImageryLayer(services: CommandServices, layer: SpecOrNote): void {
  const panel = services.panels.showMap();
  if ('note' in layer) panel.imageryNote(layer.note.id, layer.note.title, layer.note.text);
  else panel.showImagery(layer.spec, { previewUrl: layer.previewUrl });
}

/** Draws the row's imagery (an archive item, an AOI asset, a visualization) on the map; without a row, offers some. */
async function showImagery(services: CommandServices, given: Row | undefined): Promise<void> {
  const client = await services.connection.getClient();
  // from the palette, no row says what to show: offer what can be
  const row = given ?? (await offerImagery(services, client));
  if (!row) return;
  if ('reason' in row) {
    void services.ui.message('info', row.reason, {});
    return;
  }
  const r = await withProgress({ location: vscode.ProgressLocation.Window, title: l10n.t('Finding the imagery…') }, () => resolveImagery(client, row));
  if ('reason' in r) {
    void services.ui.message('warning', r.reason, {});
    return;
  }
  showImageryLayer(services, r);
}

/** Imagery on the map: show, compare, step through time, save the view. Reads only: Retry is safe. */
export function imageryCommands(services: CommandServices): CommandTable {
  return {
    showImagery: { action: l10n.t('Show Imagery'), retry: 'transient', run: (row) => showImagery(services, row) },
    compareImagery: { action: l10n.t('Compare Imagery'), retry: 'transient', run: (row) => compareImagery(services, row) },
    stepThroughTime: { action: l10n.t('Step Through Time'), retry: 'transient', run: (row) => stepThroughTime(services, row) },
    chartIndexOverTime: { action: l10n.t('Chart Index Over Time'), retry: 'transient', run: (aoi) => chartIndexOverTime(services, aoi) },
    exportIndexSeriesCsv: { action: l10n.t('Export Series as CSV'), retry: 'never', run: () => exportSeriesCsv(services) },
    saveIndexChartPng: { action: l10n.t('Save Chart as PNG'), retry: 'never', run: () => saveChartPng(services) },
    // writes a file the person chose and reads only: a failed read may pass
    exportTimelapse: { action: l10n.t('Export Timelapse'), retry: 'transient', run: (aoi) => exportTimelapse(services, aoi) },
    saveViewGeoTiff: { action: l10n.t('Save View to GeoTIFF'), retry: 'transient', run: () => saveView(services, 'geotiff') },
    saveViewPng: { action: l10n.t('Save View to PNG'), retry: 'transient', run: () => saveView(services, 'png') },
  };
}
