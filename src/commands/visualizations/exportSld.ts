/**
 * "Export SLD Style…": the service writes a Styled Layer Descriptor for one date and legend
 * mode of a visualization (`POST …/sld`), which is saved as a `.sld` file for QGIS or
 * GeoServer, written beside the target and renamed when complete. An answer that is not an
 * SLD document is refused with the reason, and nothing is written.
 */
import vscode = require('vscode');
import { l10n } from 'vscode';
import { looksLikeSld, sldFor, type Visualization } from '../../api';
import { documentName } from '../../explorer/labels';
import { writeAtomically } from '../imagery/saveView';
import { busy } from '../insights/pickers';
import type { CommandServices } from '../services';
import { visualizationArg } from '../args/shapes';
import { modeWords, pickDate, pickMode, serviceDate, styleTarget } from './styleTarget';

export async function exportSld(services: CommandServices, given: Visualization | undefined): Promise<vscode.Uri | undefined> {
  const vis = given ?? visualizationArg(services.explorer?.selected('projects')[0]);
  if (!vis) {
    await services.ui.message('info', l10n.t('Select a visualization in the Projects view to export its SLD style.'), {});
    return undefined;
  }
  const t = await styleTarget(services, vis, l10n.t('export'));
  if (!t) return undefined;
  const title = l10n.t('{0}: Export SLD Style', t.name);
  const date = await pickDate(services, t, title);
  if (!date) return undefined;
  const mode = await pickMode(services, t, title);
  if (!mode) return undefined;
  const [res, aoi] = await busy(l10n.t('The service is writing the SLD of {0}…', t.name), () =>
    Promise.all([
      t.client.visualizationStyles.sld(t.vis.aoi_id, t.vis.id, { dates: [serviceDate(date)], visualization_modes: [mode] }),
      t.client.aois.get(t.vis.aoi_id).catch(() => undefined),
    ]),
  );
  const xml = sldFor(res, mode, date);
  if (!xml || !looksLikeSld(xml)) {
    await services.ui.message(
      'error',
      xml
        ? l10n.t(
            'The service’s answer for {0} on {1} is not an SLD document (it does not start with a StyledLayerDescriptor). Nothing was saved.',
            t.name,
            date,
          )
        : l10n.t('The service sent no SLD for {0} on {1} ({2}). Nothing was saved.', t.name, date, modeWords(mode)),
      {},
    );
    return undefined;
  }
  const base = documentName(
    [aoi?.name, t.name, date, mode === 'theoretical' ? l10n.t('theoretical') : l10n.t('dynamic')].filter(Boolean).join(' - '),
    t.vis.id,
  );
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const target = await services.ui.saveDialog?.({
    title,
    saveLabel: l10n.t('Save SLD'),
    defaultUri: folder ? vscode.Uri.joinPath(folder, `${base}.sld`) : vscode.Uri.file(`${base}.sld`),
    filters: { [l10n.t('SLD style')]: ['sld'], [l10n.t('XML')]: ['xml'] },
  });
  if (!target) return undefined;
  await writeAtomically(target, new TextEncoder().encode(xml));
  services.log.info(`Saved the SLD of visualization ${t.vis.id} (${date}, ${mode}) to ${target.fsPath}`);
  void services.ui.message('info', l10n.t('Saved the SLD style of {0} on {1} to {2}.', t.name, date, target.fsPath), {});
  return target;
}
