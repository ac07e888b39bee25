/**
 * "Show Imagery": an archive item (sidebar row, search result on the map, STAC page), an AOI
 * asset or a visualization drawn on the map from its GeoTIFF. `showImageryLayer` is the one
 * entry point for any COG (an insight's raster output, for one), given its layer description.
 */
import vscode = require('vscode');
import { l10n } from 'vscode';
import { COMMANDS } from '../../commandIds';
import { describeError } from '../../ui/showError';
import type { SpecOrNote } from '../../panels/imagery/specs';
import type { CommandServices } from '../services';
import { resolveImagery } from './resolve';
import { offerImagery } from './offer';
import { registerCompareCommands } from './compare';
import { registerTimeSliderCommands } from './timeSlider';

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

export function registerImageryCommands(services: CommandServices): vscode.Disposable[] {
  const showImagery = async (arg?: unknown) => {
    try {
      const client = await services.connection.getClient();
      if (arg === undefined) {
        // from the palette: offer what can be shown
        const offered = await offerImagery(services, client);
        if (offered === undefined) return;
        if (typeof offered === 'object' && offered !== null && 'reason' in offered && typeof offered.reason === 'string') {
          void services.ui.message('info', offered.reason, {});
          return;
        }
        arg = offered;
      }
      const r = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: l10n.t('Finding the imagery…') }, () =>
        resolveImagery(client, arg),
      );
      if ('reason' in r) {
        void services.ui.message('warning', r.reason, {});
        return;
      }
      showImageryLayer(services, r);
    } catch (e) {
      void services.ui.message('error', l10n.t('Show Imagery: {0}', describeError(e)), {});
    }
  };
  return [vscode.commands.registerCommand(COMMANDS.showImagery, showImagery), ...registerCompareCommands(services), ...registerTimeSliderCommands(services)];
}
