/**
 * "Save Colour Range to Service": the colour range a visualization layer is drawn with on the
 * map (its histogram's handles) saved as the visualization's legend on the service (`PUT
 * …/metadata`): five equal classes over the range, coloured by the layer's colour map, for the
 * layer's date (or every date of the visualization) and one legend mode. From a visualization
 * row the range is asked, starting from the index's own.
 */
import { l10n } from 'vscode';
import { LEGEND_CLASSES, legendFromRange, type LegendItemUpdate, type Visualization } from '../../api';
import { busy } from '../insights/pickers';
import type { CommandServices } from '../services';
import { visualizationArg, type ColourRangeFromMap } from '../args/shapes';
import { modeWords, pickDates, pickMode, serviceDate, styleTarget } from './styleTarget';

/** "0.1 … 0.6" → [0.1, 0.6]; undefined when it is not two numbers, low before high. */
export function parseRange(text: string): [number, number] | undefined {
  const m = /^\s*(-?\d+(?:\.\d+)?)\s*(?:…|\.\.\.?|,|;|\s)\s*(-?\d+(?:\.\d+)?)\s*$/.exec(text);
  if (!m) return undefined;
  const lo = Number(m[1]);
  const hi = Number(m[2]);
  return lo < hi ? [lo, hi] : undefined;
}

export interface SavedColourRange {
  mode: 'dynamic' | 'theoretical';
  dates: string[];
  legend: LegendItemUpdate[];
}

/**
 * `given`: a visualization (row or record), or a layer's range from the map; neither means the
 * visualization selected in the Projects view.
 */
export async function saveColourRange(services: CommandServices, given: Visualization | ColourRangeFromMap | undefined): Promise<SavedColourRange | undefined> {
  const map = given && 'visualization' in given && 'rescale' in given ? (given as ColourRangeFromMap) : undefined;
  let vis: Visualization | undefined = given && !map ? (given as Visualization) : undefined;
  if (!vis && !map) vis = visualizationArg(services.explorer?.selected('projects')[0]);
  if (!vis && map) {
    const client = await services.connection.getClient();
    const page = await busy(l10n.t('Reading the visualization…'), () =>
      client.visualizations.listPage(map.visualization.aoiId, { visualization_id: map.visualization.id, limit: 1 }),
    );
    vis = page.items.find((v) => v.id === map.visualization.id);
  }
  if (!vis) {
    await services.ui.message('info', l10n.t('Open a visualization as imagery on the map, or select one in the Projects view, to save its colour range.'), {});
    return undefined;
  }
  const t = await styleTarget(services, vis, l10n.t('save'));
  if (!t) return undefined;
  const title = l10n.t('{0}: Save Colour Range to Service', t.name);
  let range = map?.rescale;
  if (!range) {
    const own = t.index.rescale?.length >= 2 ? `${t.index.rescale[0]} … ${t.index.rescale[1]}` : '';
    const text = await services.ui.input({
      title,
      prompt: l10n.t('The values at the two ends of the colour map, low … high (the map’s histogram handles set them by dragging)'),
      value: own,
      ignoreFocusOut: true,
      validateInput: (s) => (parseRange(s) ? undefined : l10n.t('Two numbers, the lower first, e.g. 0.1 … 0.6')),
    });
    range = text === undefined ? undefined : parseRange(text);
    if (!range) return undefined;
  }
  const mode = await pickMode(services, t, title);
  if (!mode) return undefined;
  const first = map?.date && t.dates.includes(map.date) ? map.date : undefined;
  const dates = await pickDates(services, t, title, first);
  if (!dates) return undefined;
  const legend = legendFromRange(range, map?.colormap || t.index.colormap || 'viridis');
  const saved = range;
  await busy(l10n.t('Saving the colour range of {0}…', t.name), () =>
    t.client.visualizationStyles.saveLegend(t.vis.aoi_id, t.vis.id, {
      visualization_mode: mode,
      legend: Object.fromEntries(dates.map((d) => [serviceDate(d), legend])),
      ...(mode === 'dynamic' ? { dynamic_bins: LEGEND_CLASSES } : {}),
    }),
  );
  services.log.info(`Saved colour range ${saved[0]} … ${saved[1]} of visualization ${t.vis.id} (${mode}) for ${dates.join(', ')}`);
  void services.ui.message(
    'info',
    dates.length === 1
      ? l10n.t('Saved the colour range {0} … {1} of {2} on {3} ({4}) to the service.', saved[0], saved[1], t.name, dates[0], modeWords(mode))
      : l10n.t('Saved the colour range {0} … {1} of {2} on {3} dates ({4}) to the service.', saved[0], saved[1], t.name, dates.length, modeWords(mode)),
    {},
  );
  return { mode, dates, legend };
}
