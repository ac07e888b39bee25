/**
 * What the three styling commands (Save Colour Range to Service, Revert Colour Range, Export
 * SLD Style…) share: the visualization's index, its legend modes and dates, and the pickers
 * for a mode and dates, in words.
 */
import { l10n } from 'vscode';
import type { EoClient, Index, Visualization, VisualizationMode } from '../../api';
import { busy } from '../insights/pickers';
import type { CommandServices } from '../services';
import { assetsOf, findIndex, modesOf } from './showServiceRendering';

export interface StyleTarget {
  client: EoClient;
  vis: Visualization;
  index: Index;
  /** "NDVI" */
  name: string;
  /** The modes its index has a legend in (theoretical first). */
  modes: VisualizationMode[];
  /** The dates it has an image on, `YYYY-MM-DD`, newest first. */
  dates: string[];
}

/** The visualization's index, modes and dates; undefined (said) when it has no legend or no date. */
export async function styleTarget(services: CommandServices, vis: Visualization, what: string): Promise<StyleTarget | undefined> {
  const client = await services.connection.getClient();
  const [assets, index] = await busy(l10n.t('Reading the visualization’s dates…'), () =>
    Promise.all([assetsOf(client, vis.aoi_id), findIndex(client, vis.index_id)]),
  );
  const name = vis.index_name || index?.name || l10n.t('Visualization');
  if (!index) {
    await services.ui.message('error', l10n.t('The index of {0} ({1}) is not among your indices, so its legend is unknown.', name, vis.index_id), {});
    return undefined;
  }
  const modes = modesOf(index);
  if (!modes.length) {
    await services.ui.message(
      'info',
      l10n.t('{0} is a {1} index: it has no legend, so there is no colour range to {2}.', name, index.expression_type, what),
      {},
    );
    return undefined;
  }
  const dates = [
    ...new Set(
      assets
        .filter((a) => a.visualization_id === vis.id)
        .map((a) => (a.date ?? '').slice(0, 10))
        .filter((d) => /^\d{4}-\d{2}-\d{2}$/.test(d)),
    ),
  ]
    .sort()
    .reverse();
  if (!dates.length) {
    await services.ui.message('warning', l10n.t('{0} has no images yet, so there is no date to {1}.', name, what), {});
    return undefined;
  }
  return { client, vis, index, name, modes, dates };
}

export function modeWords(mode: VisualizationMode): string {
  return mode === 'theoretical' ? l10n.t('theoretical legend') : l10n.t('dynamic legend');
}

/** The legend mode, asked only when the index has both. */
export async function pickMode(services: CommandServices, t: StyleTarget, title: string): Promise<VisualizationMode | undefined> {
  if (t.modes.length === 1) return t.modes[0];
  const rescale = t.index.rescale?.length >= 2 ? `${t.index.rescale[0]} … ${t.index.rescale[1]}` : '';
  return (
    await services.ui.pick(
      t.modes.map((m) =>
        m === 'theoretical'
          ? { label: l10n.t('Theoretical legend'), detail: l10n.t('The index’s full scale ({0})', rescale), mode: m }
          : { label: l10n.t('Dynamic legend'), detail: l10n.t('Stretched to the values measured on each date'), mode: m },
      ),
      { title, placeHolder: l10n.t('Which legend?'), ignoreFocusOut: true },
    )
  )?.mode;
}

/** One date (newest first), asked only when there are several. */
export async function pickDate(services: CommandServices, t: StyleTarget, title: string): Promise<string | undefined> {
  if (t.dates.length === 1) return t.dates[0];
  return (
    await services.ui.pick(
      t.dates.map((d, i) => ({ label: d, description: i === 0 ? l10n.t('newest') : undefined, date: d })),
      { title, placeHolder: l10n.t('Date of the imagery'), ignoreFocusOut: true },
    )
  )?.date;
}

/** Several dates (all picked to begin with); undefined when cancelled or none is left picked. */
export async function pickDates(services: CommandServices, t: StyleTarget, title: string, first?: string): Promise<string[] | undefined> {
  if (t.dates.length === 1) return t.dates;
  const picked = await services.ui.pickMany(
    t.dates.map((d, i) => ({ label: d, description: i === 0 ? l10n.t('newest') : undefined, picked: first ? d === first : true, date: d })),
    { title, placeHolder: l10n.t('Dates to apply it to'), ignoreFocusOut: true },
  );
  return picked?.length ? picked.map((p) => p.date) : undefined;
}

/** `YYYY-MM-DD` → the service's `YYYY_MM_DD`. */
export const serviceDate = (d: string): string => d.replace(/-/g, '_');
