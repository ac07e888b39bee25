/**
 * "Chart Index Over Time…" on an AOI (its row, or its outline on the map), on the area drawn on
 * the map, or on the pixel the inspector read (a single-pixel series). Asks only what it cannot
 * infer: where the dates come from when there is a choice (chartDates.ts), the index (the
 * satellite's indices, or an expression), the dates, and whether to add to a chart already
 * open. The map webview reads each date's tiles and charts the statistics as they arrive;
 * progress n of N with Cancel here and on the chart.
 */
import vscode = require('vscode');
import { l10n } from 'vscode';
import { collect, type Aoi, type EoClient, type Geometry, type Index } from '../../api';
import { km2 } from '../../format';
import { ringToGeoJson } from '../../geo/antimeridian';
import { geodesicArea } from '../../geo/area';
import type { ChartAreaFromMap } from '../../panels/imagery/protocol';
import { aoiFeature } from '../../panels/mapData';
import { SeriesCancelled, type SeriesState } from '../../panels/imagery/seriesChannel';
import { inStep } from '../../ui/showError';
import type { CommandServices } from '../services';
import { pickAoi } from '../insights/pickers';
import { checkExpression } from '../indices/expression';
import { aoisOver, pickDates, type ChartArea } from './chartDates';
import type { SeriesRequest } from '../../panels/imagery/seriesMessages';
import { withProgress } from '../../ui/progress';

type IndexChoice = { name: string; expression: string };

/** The indices that can be computed from `bands`: the satellite's, else any whose bands the files have. */
async function indicesFor(client: EoClient, satelliteId: string | undefined, bands: string[]): Promise<Index[]> {
  const fits = (i: Index) => i.expression_type !== 'composite' && checkExpression(i.expression, 'index', bands).ok;
  const own = satelliteId ? (await collect(client.indices.iterate({ satellite_id: satelliteId }, { pageSize: 100, cap: 2000 }))).filter(fits) : [];
  if (own.length) return own;
  return (await collect(client.indices.iterate({}, { pageSize: 100, cap: 2000 }))).filter(fits);
}

async function pickIndex(
  services: CommandServices,
  client: EoClient,
  satelliteId: string | undefined,
  bands: string[],
  title: string,
): Promise<IndexChoice | undefined> {
  const indices = await withProgress({ location: vscode.ProgressLocation.Window, title: l10n.t('Loading indices…') }, () =>
    indicesFor(client, satelliteId, bands),
  );
  type Item = vscode.QuickPickItem & { index?: Index };
  const seen = new Set<string>();
  const items: Item[] = [
    ...indices
      .sort((a, b) => (a.type === b.type ? a.name.localeCompare(b.name) : a.type === 'preset' ? -1 : 1))
      .filter((i) => !seen.has(`${i.name} ${i.expression}`) && !!seen.add(`${i.name} ${i.expression}`))
      .map((i) => ({ label: i.name, description: i.expression, detail: i.description || undefined, index: i })),
    { label: l10n.t('Enter an expression…'), iconPath: new vscode.ThemeIcon('edit'), description: l10n.t('band arithmetic, e.g. (B08-B04)/(B08+B04)') },
  ];
  const picked = await services.ui.pick(items, { title, placeHolder: l10n.t('The index to chart'), matchOnDescription: true, ignoreFocusOut: true });
  if (!picked) return undefined;
  if (picked.index) return { name: picked.index.name, expression: picked.index.expression };
  const expression = await services.ui.input({
    title,
    prompt: l10n.t('An expression over the bands of the files: {0}', bands.join(', ')),
    placeHolder: l10n.t('e.g. {0}', '(B08-B04)/(B08+B04)'),
    ignoreFocusOut: true,
    validateInput: (v) => {
      const c = checkExpression(v.trim(), 'index', bands);
      return c.ok ? undefined : c.reason;
    },
  });
  return expression?.trim() ? { name: expression.trim(), expression: expression.trim() } : undefined;
}

/** What the command was handed: an AOI record (a row, the palette), or what the map handed it. */
export type ChartInput = { kind: 'aoiRecord'; aoi: Aoi } | ChartAreaFromMap;

/** The place to chart, named, with the AOIs whose mosaics may give its dates. */
async function areaOf(services: CommandServices, client: EoClient, input: ChartInput | undefined): Promise<ChartArea | undefined> {
  if (!input || input.kind === 'aoiRecord' || input.kind === 'aoi') {
    const aoi =
      input?.kind === 'aoiRecord'
        ? input.aoi
        : input?.kind === 'aoi'
          ? await client.aois.get(input.aoiId)
          : await pickAoi(services, client, l10n.t('Chart Index Over Time: AOI'));
    return aoi && { name: aoi.name || aoi.aoi_id, geometry: aoi.geometry as Geometry, aois: [aoi] };
  }
  if (input.kind === 'polygon') {
    const geometry = ringToGeoJson(input.ring) as Geometry;
    const lon = input.ring.slice(0, -1).reduce((s, p) => s + p[0], 0) / (input.ring.length - 1);
    const lat = input.ring.slice(0, -1).reduce((s, p) => s + p[1], 0) / (input.ring.length - 1);
    const name = l10n.t('Area of {0} at {1}, {2}', km2(geodesicArea(geometry as never)), lat.toFixed(4), (((lon + 540) % 360) - 180).toFixed(4));
    return { name, geometry, aois: await aoisOver(client, geometry) };
  }
  const geometry: Geometry = { type: 'Point', coordinates: [input.lon, input.lat] };
  const aois = input.aoiId ? [await client.aois.get(input.aoiId)] : input.collection ? [] : await aoisOver(client, geometry);
  return { name: l10n.t('Pixel at {0}, {1}', input.lat.toFixed(5), input.lon.toFixed(5)), geometry, aois };
}

/** A chart is open on the map: add this series to it, or start a new chart. */
async function askOverlay(services: CommandServices, title: string): Promise<boolean | undefined> {
  const open = services.panels.currentMap()?.series.chart ?? [];
  if (!open.length) return false;
  const shown = open.map((s) => l10n.t('{0} · {1}', s.request.index.name, s.request.title)).join('; ');
  const rows = [
    { label: l10n.t('Add to the open chart'), description: shown, overlay: true },
    { label: l10n.t('New chart'), description: l10n.t('replaces what the chart shows'), overlay: false },
  ];
  const pick = await services.ui.pick(rows, { title, placeHolder: l10n.t('A chart is open on the map'), ignoreFocusOut: true });
  return pick?.overlay;
}

/** What the command returns (the tests read it): the series, or nothing when cancelled before it ran. */
export async function chartIndexOverTime(services: CommandServices, input: ChartInput | undefined): Promise<SeriesState | undefined> {
  const client = await services.connection.getClient();
  // a map already open loads its imagery code while the dates and the index are picked
  services.panels.currentMap()?.series.prepare();
  const area = await areaOf(services, client, input);
  if (!area) return undefined;
  const title = l10n.t('Chart Index Over Time: {0}', area.name);
  const chosen = await pickDates(services, client, area, title, { collection: input?.kind === 'pixel' ? input.collection : undefined });
  if (!chosen) return undefined;
  const bands = chosen.dates[0].spec.bands.map((b) => b.name);
  const index = await pickIndex(services, client, chosen.satelliteId, bands, title);
  if (!index) return undefined;
  const overlay = await askOverlay(services, title);
  if (overlay === undefined) return undefined;
  const { dates } = chosen;
  const request: SeriesRequest = {
    title: area.name,
    index,
    polygon: area.geometry,
    dates,
    minValidShare: 0.5,
    ...(chosen.maxCloud !== undefined ? { maxCloud: chosen.maxCloud } : {}),
  };
  const map = services.panels.showMap();
  // an AOI's outline under the chart, so a picked date is seen in its place
  if (input?.kind === 'aoiRecord' || input?.kind === 'aoi' || !input) {
    const aoi = area.aois[0];
    if (aoi) map.showTarget({ layer: 'aois', features: [aoiFeature(aoi)], sources: [{ kind: 'aoi', id: aoi.aoi_id }] }, { fit: true });
  }
  let state: SeriesState;
  try {
    state = await inStep(l10n.t('Chart Index Over Time'), () =>
      withProgress(
        { location: vscode.ProgressLocation.Notification, title: l10n.t('{0} over time · {1}', index.name, area.name), cancellable: true },
        async (progress, token) => {
          const abort = new AbortController();
          token.onCancellationRequested(() => abort.abort());
          let n = 0;
          return map.chartSeries(request, {
            signal: abort.signal,
            overlay,
            onPoint: () => {
              n++;
              progress.report({ increment: 100 / dates.length, message: l10n.t('{0} of {1} dates', n, dates.length) });
            },
          });
        },
      ),
    );
  } catch (e) {
    // Recovers from the person's Cancel: the dates read so far stay on the chart.
    if (e instanceof SeriesCancelled) {
      services.log.info(`chartIndexOverTime: cancelled after ${map.series.last?.points.filter((p) => p).length ?? 0} of ${dates.length} dates`);
      return map.series.last;
    }
    throw e;
  }
  report(services, state, area.name);
  return state;
}

/** One log line, and a warning naming the dates without values (they are marked on the chart). */
function report(services: CommandServices, state: SeriesState, name: string): void {
  const { dates, index } = state.request;
  const errors = state.points.filter((p) => p?.error);
  services.log.info(
    `chartIndexOverTime: ${index.name} over ${dates.length} dates, ${errors.length} without values, read ${state.points.reduce((s, p) => s + (p?.fetchedBytes ?? 0), 0)} bytes of tiles ${state.points.reduce((s, p) => s + (p?.tileBytes ?? 0), 0)}`,
  );
  if (errors.length === dates.length) {
    void services.ui.message('warning', l10n.t('No date of {0} could be charted: {1}', name, errors[0]?.error ?? ''), {});
  } else if (errors.length) {
    void services.ui.message(
      'warning',
      l10n.t(
        '{0} of {1} dates have no values (marked on the chart); the first: {2} {3}',
        errors.length,
        dates.length,
        errors[0]?.date ?? '',
        errors[0]?.error ?? '',
      ),
      {},
    );
  }
}
