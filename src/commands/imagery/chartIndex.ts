/**
 * "Chart Index Over Time…" on an AOI: asks the index (the satellite's indices, or an
 * expression) and the dates (the AOI's mosaics, all picked), then the map webview reads each
 * date's tiles inside the AOI and charts the statistics as they arrive; progress n of N with
 * Cancel here. "Export Series as CSV…" and "Save Chart as PNG…" write the map's last series.
 */
import vscode = require('vscode');
import { l10n } from 'vscode';
import { collect, type Aoi, type EoClient, type Index } from '../../api';
import type { SeriesDate, SeriesRequest } from '../../panels/imagery/protocol';
import { aoiFeature } from '../../panels/mapData';
import { SeriesCancelled, type SeriesState } from '../../panels/imagery/seriesChannel';
import { inStep } from '../../ui/showError';
import type { CommandServices } from '../services';
import { pickAoi } from '../insights/pickers';
import { checkExpression } from '../indices/expression';
import { aoiFrames } from './dated';
import { writeAtomically } from './saveView';
import { seriesCsv } from './seriesCsv';

type IndexChoice = { name: string; expression: string };

async function pickIndex(services: CommandServices, client: EoClient, aoi: Aoi, title: string): Promise<IndexChoice | undefined> {
  const indices = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: l10n.t('Loading indices…') }, () =>
    collect(client.indices.iterate({ satellite_id: aoi.satellite_id }, { pageSize: 100, cap: 2000 })),
  );
  type Item = vscode.QuickPickItem & { index?: Index };
  const items: Item[] = [
    ...indices
      .filter((i) => i.expression_type !== 'composite')
      .sort((a, b) => (a.type === b.type ? a.name.localeCompare(b.name) : a.type === 'preset' ? -1 : 1))
      .map((i) => ({ label: i.name, description: i.expression, detail: i.description || undefined, index: i })),
    { label: l10n.t('$(edit) Enter an expression…'), description: l10n.t('band arithmetic, e.g. (B08-B04)/(B08+B04)') },
  ];
  const picked = await services.ui.pick(items, { title, placeHolder: l10n.t('The index to chart'), matchOnDescription: true, ignoreFocusOut: true });
  if (!picked) return undefined;
  if (picked.index) return { name: picked.index.name, expression: picked.index.expression };
  const bands = aoi.eo_bands ?? [];
  const expression = await services.ui.input({
    title,
    prompt: l10n.t('An expression over the bands of {0}: {1}', aoi.satellite_id, bands.join(', ')),
    placeHolder: l10n.t('e.g. {0}', '(B08-B04)/(B08+B04)'),
    ignoreFocusOut: true,
    validateInput: (v) => {
      const c = checkExpression(v.trim(), 'index', bands);
      return c.ok ? undefined : c.reason;
    },
  });
  return expression?.trim() ? { name: expression.trim(), expression: expression.trim() } : undefined;
}

/** The AOI's mosaics as series dates; all picked, the person may leave some out. */
async function pickDates(services: CommandServices, client: EoClient, aoi: Aoi, title: string): Promise<SeriesDate[] | undefined> {
  const dated = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: l10n.t('Listing the dates…') }, () =>
    aoiFrames(client, aoi.aoi_id),
  );
  if (!dated.frames.length) {
    const why = l10n.t('{0} has no mosaic that can be read here.', aoi.name || aoi.aoi_id);
    void services.ui.message('warning', dated.skipped ? `${why} ${dated.skipped}` : why, {});
    return undefined;
  }
  const items = dated.frames.map((f) => ({ label: f.date, description: f.spec.title, picked: true, frame: f }));
  const picked = await services.ui.pickMany(items, { title, placeHolder: l10n.t('The dates to chart (all are picked)'), ignoreFocusOut: true });
  if (!picked?.length) return undefined;
  return picked.map(({ frame: f }) => ({
    date: f.date,
    spec: f.spec,
    source: f.spec.source.kind === 'asset' || f.spec.source.kind === 'archiveItem' ? f.spec.source.id : f.spec.url,
    ...(f.cloudCover !== undefined ? { cloudCover: f.cloudCover } : {}),
  }));
}

/** What the command returns (the tests read it): the series, or nothing when cancelled before it ran. */
export async function chartIndexOverTime(services: CommandServices, given: Aoi | undefined): Promise<SeriesState | undefined> {
  const client = await services.connection.getClient();
  const aoi = given ?? (await pickAoi(services, client, l10n.t('Chart Index Over Time: AOI')));
  if (!aoi) return undefined;
  const title = l10n.t('Chart Index Over Time: {0}', aoi.name || aoi.aoi_id);
  const index = await pickIndex(services, client, aoi, title);
  if (!index) return undefined;
  const dates = await pickDates(services, client, aoi, title);
  if (!dates) return undefined;
  const request: SeriesRequest = { title: aoi.name || aoi.aoi_id, index, polygon: aoi.geometry, dates, minValidShare: 0.5 };
  const map = services.panels.showMap();
  // the AOI's outline under the chart, so a picked date is seen in its place
  map.showTarget({ layer: 'aois', features: [aoiFeature(aoi)], sources: [{ kind: 'aoi', id: aoi.aoi_id }] }, { fit: true });
  const failed = l10n.t('Chart Index Over Time');
  let state: SeriesState;
  try {
    state = await inStep(failed, () =>
      vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: l10n.t('{0} over time · {1}', index.name, aoi.name || aoi.aoi_id), cancellable: true },
        async (progress, token) => {
          const abort = new AbortController();
          token.onCancellationRequested(() => abort.abort());
          let n = 0;
          return map.chartSeries(request, {
            signal: abort.signal,
            onPoint: () => {
              n++;
              progress.report({ increment: 100 / dates.length, message: l10n.t('{0} of {1} dates', n, dates.length) });
            },
          });
        },
      ),
    );
  } catch (e) {
    if (e instanceof SeriesCancelled) {
      services.log.info(`chartIndexOverTime: cancelled after ${map.series.last?.points.filter((p) => p).length ?? 0} of ${dates.length} dates`);
      return map.series.last;
    }
    throw e;
  }
  const errors = state.points.filter((p) => p?.error);
  services.log.info(
    `chartIndexOverTime: ${index.name} over ${dates.length} dates of ${aoi.aoi_id}, ${errors.length} without values, read ${state.points.reduce((s, p) => s + (p?.fetchedBytes ?? 0), 0)} bytes of tiles ${state.points.reduce((s, p) => s + (p?.tileBytes ?? 0), 0)}`,
  );
  if (errors.length === dates.length) {
    void services.ui.message('warning', l10n.t('No date of {0} could be charted: {1}', aoi.name || aoi.aoi_id, errors[0]?.error ?? ''), {});
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
  return state;
}

/** A file name from the AOI and the index, without characters file systems refuse. */
function seriesFileName(state: SeriesState, ext: string): string {
  const base = Array.from(`${state.request.title} ${state.request.index.name} over time`, (c) => (c.charCodeAt(0) < 32 || '\\/:*?"<>|'.includes(c) ? ' ' : c))
    .join('')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 120);
  return `${base || 'series'}.${ext}`;
}

async function saveTarget(services: CommandServices, title: string, name: string, filters: Record<string, string[]>): Promise<vscode.Uri | undefined> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const ask = services.ui.saveDialog?.bind(services.ui) ?? vscode.window.showSaveDialog;
  return ask({ title, saveLabel: l10n.t('Save'), defaultUri: folder ? vscode.Uri.joinPath(folder, name) : undefined, filters });
}

function lastSeries(services: CommandServices, title: string): SeriesState | undefined {
  const state = services.panels.currentMap()?.series.last;
  if (!state) void services.ui.message('info', l10n.t('{0}: chart an index over time first (right-click an AOI).', title), {});
  return state;
}

/** "Export Series as CSV…": the map's last series, one row per date. */
export async function exportSeriesCsv(services: CommandServices): Promise<vscode.Uri | undefined> {
  const title = l10n.t('Export Series as CSV');
  const state = lastSeries(services, title);
  if (!state) return undefined;
  const target = await saveTarget(services, title, seriesFileName(state, 'csv'), { [l10n.t('CSV')]: ['csv'] });
  if (!target) return undefined;
  await writeAtomically(target, new TextEncoder().encode(seriesCsv(state.request, state.points)));
  void services.ui.message('info', l10n.t('Saved {0}.', vscode.workspace.asRelativePath(target)), {});
  return target;
}

/** "Save Chart as PNG…": the chart as the map draws it. */
export async function saveChartPng(services: CommandServices): Promise<vscode.Uri | undefined> {
  const title = l10n.t('Save Chart as PNG');
  const state = lastSeries(services, title);
  const map = services.panels.currentMap();
  if (!state || !map) return undefined;
  const target = await saveTarget(services, title, seriesFileName(state, 'png'), { [l10n.t('PNG image')]: ['png'] });
  if (!target) return undefined;
  await writeAtomically(target, await map.series.png());
  void services.ui.message('info', l10n.t('Saved {0}.', vscode.workspace.asRelativePath(target)), {});
  return target;
}
