/**
 * "Export Series as CSV…" and "Save Chart as PNG…": what the map's chart shows (one series,
 * or several overlaid), written through the save dialog.
 */
import vscode = require('vscode');
import { l10n } from 'vscode';
import type { SeriesState } from '../../panels/imagery/seriesChannel';
import type { CommandServices } from '../services';
import { writeAtomically } from './saveView';
import { safeFileName } from '../../fileNames';
import { seriesCsv } from './seriesCsv';

/** A file name from what the chart shows: its one series, or the first and how many more. */
function seriesFileName(chart: readonly SeriesState[], ext: string): string {
  const first = chart[0].request;
  const stem =
    chart.length === 1
      ? l10n.t('{0} {1} over time', first.title, first.index.name)
      : l10n.t('{0} {1} and {2} more over time', first.title, first.index.name, chart.length - 1);
  return safeFileName(stem, `.${ext}`);
}

async function saveTarget(services: CommandServices, title: string, name: string, filters: Record<string, string[]>): Promise<vscode.Uri | undefined> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const ask = services.ui.saveDialog?.bind(services.ui) ?? vscode.window.showSaveDialog;
  return ask({ title, saveLabel: l10n.t('Save'), defaultUri: folder ? vscode.Uri.joinPath(folder, name) : undefined, filters });
}

/** The series on the map's chart (several when overlaid), or a word on how to get one. */
function chartSeries(services: CommandServices, title: string): SeriesState[] | undefined {
  const chart = services.panels.currentMap()?.series.chart ?? [];
  if (!chart.length) void services.ui.message('info', l10n.t('{0}: chart an index over time first (right-click an AOI).', title), {});
  return chart.length ? chart : undefined;
}

/** "Export Series as CSV…": every series on the chart, one row per date and series. */
export async function exportSeriesCsv(services: CommandServices): Promise<vscode.Uri | undefined> {
  const title = l10n.t('Export Series as CSV');
  const chart = chartSeries(services, title);
  if (!chart) return undefined;
  const target = await saveTarget(services, title, seriesFileName(chart, 'csv'), { [l10n.t('CSV')]: ['csv'] });
  if (!target) return undefined;
  await writeAtomically(target, new TextEncoder().encode(seriesCsv(chart)));
  void services.ui.message('info', l10n.t('Saved {0}.', vscode.workspace.asRelativePath(target)), {});
  return target;
}

/** "Save Chart as PNG…": the chart as the map draws it. */
export async function saveChartPng(services: CommandServices): Promise<vscode.Uri | undefined> {
  const title = l10n.t('Save Chart as PNG');
  const chart = chartSeries(services, title);
  const map = services.panels.currentMap();
  if (!chart || !map) return undefined;
  const target = await saveTarget(services, title, seriesFileName(chart, 'png'), { [l10n.t('PNG image')]: ['png'] });
  if (!target) return undefined;
  await writeAtomically(target, await map.series.png());
  void services.ui.message('info', l10n.t('Saved {0}.', vscode.workspace.asRelativePath(target)), {});
  return target;
}
