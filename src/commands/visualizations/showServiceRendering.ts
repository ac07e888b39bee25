/**
 * "Show Service Rendering on Map…" for a visualization: asks for one of its dates (newest
 * first) and, when the index has both, the legend mode; asks the service for its PNG of that
 * date and mode (`POST …/visualizations/{id}/png`), and lays it over the AOI's box as a layer
 * of the map's imagery list, with the legend. "Show Imagery" computes the same index here
 * from the source GeoTIFFs instead (src/commands/imagery): it follows the zoom down to full
 * resolution and can be restyled, but it is our rendering, not the service's.
 */
import vscode = require('vscode');
import { isRequestError, type Asset, type EoClient, type Index, type Visualization, type VisualizationMode } from '../../api';
import { legendsOf } from '../../api/legend';
import { unwrapPolygon } from '../../geo/antimeridian';
import type { ImageryLayerSpec, PngLegend } from '../../panels/imagery/protocol';
import { failedText, inStep } from '../../ui/showError';
import type { CommandTable } from '../register';
import type { CommandServices } from '../services';
import { isObj } from '../../api/shape';
import { withProgress } from '../../ui/progress';

/** What the command returns (tests read it): the layer sent to the map and the PNG's size. */
export interface ServiceRendering {
  spec: ImageryLayerSpec;
  width: number;
  height: number;
}

/** Which legends an index has (the interface's rules): preset both, custom `index` dynamic only, others none. */
export function modesOf(index: Pick<Index, 'type' | 'expression_type'>): VisualizationMode[] {
  if (index.type === 'preset') return ['theoretical', 'dynamic'];
  return index.expression_type === 'index' ? ['dynamic'] : [];
}

function modeWord(mode: VisualizationMode): string {
  return mode === 'theoretical' ? vscode.l10n.t('theoretical range') : vscode.l10n.t('dynamic range');
}

export async function findIndex(client: EoClient, id: string): Promise<Index | undefined> {
  for await (const ix of client.indices.iterate({ index_id: id }, { pageSize: 50 })) if (ix.id === id) return ix;
  return undefined;
}

export async function assetsOf(client: EoClient, aoiId: string): Promise<Asset[]> {
  const out: Asset[] = [];
  for await (const a of client.aois.iterateAssets(aoiId, { pageSize: 100 })) {
    out.push(a);
    if (out.length >= 1000) break;
  }
  return out;
}

/** The outline's box, longitudes continuous across the antimeridian (east may pass 180, as the map takes it). */
function bboxOf(g: unknown): [number, number, number, number] | undefined {
  let w = Infinity,
    s = Infinity,
    e = -Infinity,
    n = -Infinity;
  if (isObj(g) && g.type === 'Polygon' && Array.isArray(g.coordinates)) g = { coordinates: unwrapPolygon(g.coordinates as number[][][]) };
  const walk = (c: unknown): void => {
    if (Array.isArray(c) && typeof c[0] === 'number' && typeof c[1] === 'number') {
      w = Math.min(w, c[0]);
      e = Math.max(e, c[0]);
      s = Math.min(s, c[1]);
      n = Math.max(n, c[1]);
    } else if (Array.isArray(c)) c.forEach(walk);
  };
  walk(isObj(g) ? g.coordinates : undefined);
  return Number.isFinite(w) && w < e && s < n ? [w, s, e, n] : undefined;
}

/** The legend for the date and mode: the service's classes when the record carries them, else the colour map over the known range. */
function legendFor(vis: Visualization, index: Index, date: string, mode: VisualizationMode, title: string): PngLegend {
  const dated = legendsOf(vis).find((l) => l.date === date) ?? legendsOf(vis).find((l) => l.date === undefined);
  const classes = dated?.[mode];
  if (classes?.length) return { title, classes: classes.map(({ min, max, color, label }) => ({ min, max, color, label })) };
  const rescale = index.rescale?.length >= 2 ? ([index.rescale[0], index.rescale[1]] as [number, number]) : undefined;
  // the dynamic range is measured by the service on that date; only its legend would tell it
  return { title, colormap: index.colormap || 'viridis', range: mode === 'theoretical' ? rescale : undefined };
}

/** The date to render (newest first; asked only when there are several) and, when the index has both, the legend. */
async function askDateAndMode(
  services: CommandServices,
  name: string,
  index: Index,
  dates: string[],
): Promise<{ date: string; mode: VisualizationMode } | undefined> {
  const modes = modesOf(index);
  const date =
    dates.length === 1
      ? dates[0]
      : (
          await services.ui.pick(
            dates.map((d, i) => ({ label: d, description: i === 0 ? vscode.l10n.t('newest') : undefined, date: d })),
            { title: vscode.l10n.t('{0}: Show Service Rendering on Map', name), placeHolder: vscode.l10n.t('Date of the imagery to render') },
          )
        )?.date;
  if (!date) return undefined;
  let mode: VisualizationMode | undefined = modes[0];
  if (modes.length > 1) {
    const rescale = index.rescale?.length >= 2 ? `${index.rescale[0]} … ${index.rescale[1]}` : '';
    mode = (
      await services.ui.pick(
        modes.map((m) =>
          m === 'theoretical'
            ? { label: vscode.l10n.t('Theoretical range'), detail: vscode.l10n.t('Colours span the index’s full scale ({0})', rescale), mode: m }
            : { label: vscode.l10n.t('Dynamic range'), detail: vscode.l10n.t('Colours stretched to the values measured on {0}', date), mode: m },
        ),
        { title: vscode.l10n.t('{0}, {1}: Show Service Rendering on Map', name, date), placeHolder: vscode.l10n.t('Which legend to colour by') },
      )
    )?.mode;
    if (!mode) return undefined;
  }
  return mode ? { date, mode } : undefined;
}

export async function showServiceRendering(services: CommandServices, vis: Visualization | undefined): Promise<ServiceRendering | undefined> {
  const title = vscode.l10n.t('Show Service Rendering on Map');
  if (!vis) {
    await services.ui.message('warning', vscode.l10n.t('Pick a visualization in the Projects view to show the service’s rendering of it.'), {});
    return undefined;
  }
  const client = await services.connection.getClient();
  const [assets, index] = await withProgress({ location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Reading the visualization’s dates…') }, () =>
    Promise.all([assetsOf(client, vis.aoi_id), findIndex(client, vis.index_id)]),
  );
  const name = vis.index_name || index?.name || vscode.l10n.t('Visualization');
  if (!index) {
    await services.ui.message(
      'error',
      vscode.l10n.t('The index of {0} ({1}) is not among your indices, so its colours and legend are unknown.', name, vis.index_id),
      {},
    );
    return undefined;
  }
  const modes = modesOf(index);
  if (!modes.length) {
    await services.ui.message(
      'info',
      vscode.l10n.t(
        '{0} is a {1} index: it has no legend, so the service renders no picture of it. Use Show Imagery to compute it on the map.',
        name,
        index.expression_type,
      ),
      {},
    );
    return undefined;
  }
  // the visualization's own outputs name its dates; the AOI's mosaics when the list carries none
  const own = assets.filter((a) => a.visualization_id === vis.id);
  const source = own.length ? own : assets.filter((a) => !a.visualization_id);
  const dates = [...new Set(source.map((a) => (a.date ?? '').slice(0, 10)).filter((d) => /^\d{4}-\d{2}-\d{2}$/.test(d)))].sort().reverse();
  if (!dates.length) {
    await services.ui.message('warning', vscode.l10n.t('The AOI of {0} has no dated assets yet, so there is no date to render.', name), {});
    return undefined;
  }
  const asked = await askDateAndMode(services, name, index, dates);
  if (!asked) return undefined;
  const { date, mode: chosen } = asked;
  // A refusal (4xx) names what was asked for: the date and the legend the service would not render.
  const png = await inStep(
    (reason, err) =>
      isRequestError(err)
        ? vscode.l10n.t('The service refused to render {0} for {1} ({2}): {3}', name, date, modeWord(chosen), reason)
        : failedText(title, reason),
    () =>
      withProgress(
        { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('The service is rendering {0} for {1}…', name, date), cancellable: true },
        (_p, token) => {
          const ac = new AbortController();
          token.onCancellationRequested(() => ac.abort());
          return client.visualizationPng.render(vis.aoi_id, vis.id, { index_id: vis.index_id, date, mode: chosen }, { signal: ac.signal, timeoutMs: 120_000 });
        },
      ),
  );
  services.connection.reportSuccess();
  let bbox = bboxOf(source[0]?.geometry);
  if (!bbox) {
    bbox = bboxOf((await client.aois.get(vis.aoi_id)).geometry);
  }
  if (!bbox) {
    await services.ui.message('error', vscode.l10n.t('The AOI of {0} has no outline to place the picture on.', name), {});
    return undefined;
  }
  const layerTitle = vscode.l10n.t('{0} {1}, {2} (service rendering)', name, date, modeWord(chosen));
  const spec: ImageryLayerSpec = {
    id: `png:${vis.aoi_id}/${vis.id}/${date}/${chosen}`,
    title: layerTitle,
    url: '',
    bands: [],
    bbox,
    render: {
      kind: 'png',
      dataUrl: `data:image/png;base64,${png.bytes.toString('base64')}`,
      legend: legendFor(vis, index, date, chosen, vscode.l10n.t('{0} {1}, {2}', name, date, modeWord(chosen))),
    },
    source: { kind: 'visualizationPng', aoiId: vis.aoi_id, id: vis.id, date, mode: chosen },
  };
  services.log.info(`Service rendering of visualization ${vis.id} on ${date} (${chosen}): ${png.width} × ${png.height} px, ${png.bytes.length} bytes`);
  services.panels.showMap().showImagery(spec);
  return { spec, width: png.width, height: png.height };
}

/** The service's rendering is asked for by a POST that makes a picture, not a record: a read, Retry is safe. */
export function visualizationCommands(services: CommandServices): CommandTable {
  return {
    showServiceRendering: {
      action: vscode.l10n.t('Show Service Rendering on Map'),
      retry: 'transient',
      run: (vis) => showServiceRendering(services, vis),
    },
  };
}
