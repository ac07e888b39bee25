/**
 * "Revert Colour Range": the service computes a visualization's legend again for the dates
 * picked and one mode (`PATCH …/metadata`), dropping a range saved earlier; the other mode is
 * kept. Asked in a modal first: what was saved is gone afterwards.
 */
import { l10n } from 'vscode';
import type { Visualization } from '../../api';
import { busy } from '../insights/pickers';
import type { CommandServices } from '../services';
import { visualizationArg } from '../args/shapes';
import { modeWords, pickDates, pickMode, serviceDate, styleTarget } from './styleTarget';

export async function revertColourRange(services: CommandServices, given: Visualization | undefined): Promise<{ mode: string; dates: string[] } | undefined> {
  const vis = given ?? visualizationArg(services.explorer?.selected('projects')[0]);
  if (!vis) {
    await services.ui.message('info', l10n.t('Select a visualization in the Projects view to revert its colour range.'), {});
    return undefined;
  }
  const t = await styleTarget(services, vis, l10n.t('revert'));
  if (!t) return undefined;
  const title = l10n.t('{0}: Revert Colour Range', t.name);
  const mode = await pickMode(services, t, title);
  if (!mode) return undefined;
  const dates = await pickDates(services, t, title);
  if (!dates) return undefined;
  const revert = l10n.t('Revert');
  const answer = await services.ui.message(
    'warning',
    dates.length === 1
      ? l10n.t('Revert the {0} of {1} on {2} to the one the service computes?', modeWords(mode), t.name, dates[0])
      : l10n.t('Revert the {0} of {1} on {2} dates to the one the service computes?', modeWords(mode), t.name, dates.length),
    { modal: true, detail: l10n.t('A colour range saved to the service for these dates is dropped.') },
    revert,
  );
  if (answer !== revert) return undefined;
  await busy(l10n.t('Reverting the colour range of {0}…', t.name), () =>
    t.client.visualizationStyles.rollbackLegend(t.vis.aoi_id, t.vis.id, {
      index_id: t.vis.index_id,
      dates: dates.map(serviceDate),
      visualization_mode: mode,
    }),
  );
  services.log.info(`Reverted the ${mode} legend of visualization ${t.vis.id} for ${dates.join(', ')}`);
  void services.ui.message('info', l10n.t('The {0} of {1} is the service’s own again.', modeWords(mode), t.name), {});
  return { mode, dates };
}
