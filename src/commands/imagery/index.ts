/**
 * "Show Imagery": an archive item (sidebar row, search result on the map, STAC page), an AOI
 * asset or a visualization drawn on the map from its GeoTIFF. `showImageryLayer` is the one
 * entry point for any COG (an insight's raster output, for one), given a URL and a look.
 */
import vscode = require('vscode');
import { l10n } from 'vscode';
import { COMMANDS } from '../../commandIds';
import { describeError } from '../../ui/showError';
import type { ImageryBand, ImageryLayerSpec, ImageryRender } from '../../panels/imagery/protocol';
import type { CommandServices } from '../services';
import { resolveImagery } from './resolve';
import { registerCompareCommands } from './compare';
import { registerTimeSliderCommands } from './timeSlider';


/**
 * Any Cloud-Optimized GeoTIFF on the map: `render` says how (three bands stretched, or an
 * expression through a colour map with its legend), `clip` keeps pixels inside a polygon.
 */
export function showImageryLayer(
  services: CommandServices,
  layer: { id: string; title: string; url: string; bands?: ImageryBand[]; render: ImageryRender; clip?: unknown; bbox?: [number, number, number, number] },
): void {
  const spec: ImageryLayerSpec = { ...layer, bands: layer.bands ?? [], source: { kind: 'url', url: layer.url } };
  services.panels.showMap().showImagery(spec);
}

export function registerImageryCommands(services: CommandServices): vscode.Disposable[] {
  const showImagery = async (arg?: unknown) => {
    try {
      const client = await services.connection.getClient();
      const r = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Window, title: l10n.t('Finding the imagery…') },
        () => resolveImagery(client, arg),
      );
      if ('reason' in r) {
        void services.ui.message('warning', r.reason, {});
        return;
      }
      const panel = services.panels.showMap();
      if ('note' in r) panel.imageryNote(r.note.id, r.note.title, r.note.text);
      else panel.showImagery(r.spec, { previewUrl: r.previewUrl });
    } catch (e) {
      void services.ui.message('error', l10n.t('Show Imagery: {0}', describeError(e)), {});
    }
  };
  return [vscode.commands.registerCommand(COMMANDS.showImagery, showImagery), ...registerCompareCommands(services), ...registerTimeSliderCommands(services)];
}
