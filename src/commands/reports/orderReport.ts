/**
 * The order report: CSV for this machine's time zone (or one the person picks), saved as a
 * `.csv` file where the person chooses, then opened if they ask. An error body, CSV or JSON,
 * is shown as the message it carries.
 */
import vscode = require('vscode');
import { l10n } from 'vscode';
import { homedir } from 'node:os';
import type { ExtensionServices } from '../../services';
import { describeError, inStep } from '../../ui/showError';
import { neutraliseCsv } from '../../csvCells';
import { reportFileName } from './reportFile';
import { submitUntilAccepted } from '../../ui/submit';
import { withProgress } from '../../ui/progress';

export function machineTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

const PICK_OTHER = l10n.t('Pick another time zone…');

const OPEN = l10n.t('Open');

export interface SavedReport {
  uri: vscode.Uri;
  /** The report opened in an editor, when the person chose Open. */
  document?: vscode.TextDocument;
}

/**
 * Argument: a time zone name (`"Europe/Paris"`) skips the question; otherwise the person
 * chooses between this machine's zone and any other. Resolves with the saved file (and its
 * document when opened); undefined when nothing was saved.
 */
export async function downloadReport(services: ExtensionServices, zoneGiven: string | undefined): Promise<SavedReport | undefined> {
  const action = l10n.t('Download order report');
  const client = await services.connection.getClient();
  const first = zoneGiven ?? (await askTimeZone(services));
  if (!first) return undefined;
  let zone = first;
  const report = await submitUntilAccepted(services, {
    action,
    send: () =>
      withProgress({ location: vscode.ProgressLocation.Notification, title: l10n.t('Downloading the order report ({0})…', zone) }, () =>
        client.reports.get({ tz: zone }),
      ),
    refused: (err) => l10n.t('The order report was refused: {0}', describeError(err)),
    editLabel: PICK_OTHER,
    edit: async () => {
      const other = await pickTimeZone(services, zone);
      if (other === undefined) return false;
      zone = other;
      return true;
    },
    retry: () => downloadReport(services, zone),
  });
  if (!report) return undefined;
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(homedir());
  const uri = await services.ui.saveDialog?.({
    title: l10n.t('Save the order report (times in {0})', zone),
    saveLabel: l10n.t('Save Report'),
    defaultUri: vscode.Uri.joinPath(folder, reportFileName(new Date(), zone)),
    filters: { [l10n.t('CSV (comma-separated values)')]: ['csv'] },
  });
  if (!uri) return undefined;
  // Cells a spreadsheet would run as formulas are saved as text (csvCells.ts).
  const safe = neutraliseCsv(report.text);
  if (safe.neutralised > 0) services.log.info(`Order report: ${safe.neutralised} cells that began like a formula (= + - @) were saved as text`);
  await inStep(l10n.t('Save the order report to {0}', uri.fsPath), () => vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(safe.text)));
  const rows = report.rows.length === 1 ? l10n.t('1 row') : l10n.t('{0} rows', report.rows.length);
  services.log.info(`Order report: ${report.rows.length} rows, times in ${zone}, saved to ${uri.fsPath}`);
  const name = uri.path.slice(uri.path.lastIndexOf('/') + 1);
  const choice = await services.ui.message('info', l10n.t('Saved the order report ({0}, times in {1}) as {2}.', rows, zone, name), {}, OPEN);
  if (choice !== OPEN) return { uri };
  return { uri, document: await openAsCsv(uri) };
}

/** Opens the saved file in the CSV language (contributed in package.json for `.csv`), whatever its extension. */
async function openAsCsv(uri: vscode.Uri): Promise<vscode.TextDocument> {
  let doc = await vscode.workspace.openTextDocument(uri);
  if (doc.languageId !== 'csv')
    doc = await vscode.languages.setTextDocumentLanguage(doc, 'csv').then(
      (d) => d,
      () => doc,
    );
  await vscode.window.showTextDocument(doc, { preview: false });
  return doc;
}

async function askTimeZone(services: ExtensionServices): Promise<string | undefined> {
  const here = machineTimeZone();
  const choice = await services.ui.pick([{ label: here, description: l10n.t('this machine') }, { label: PICK_OTHER }], {
    title: l10n.t('Order Report'),
    placeHolder: l10n.t('Time zone for the report’s times'),
  });
  if (!choice) return undefined;
  return choice.label === PICK_OTHER ? pickTimeZone(services, here) : choice.label;
}

async function pickTimeZone(services: ExtensionServices, current: string): Promise<string | undefined> {
  const zones = supportedZones();
  const items = zones.map((z) => ({ label: z, description: z === current ? l10n.t('current') : undefined }));
  const chosen = await services.ui.pick(items, {
    title: l10n.t('Order Report'),
    placeHolder: l10n.t('Time zone (type to filter, e.g. Paris)'),
    matchOnDescription: true,
  });
  return chosen?.label;
}

function supportedZones(): string[] {
  const intl = Intl as unknown as { supportedValuesOf?: (k: string) => string[] };
  const zones = intl.supportedValuesOf?.('timeZone') ?? [];
  return zones.includes('UTC') ? zones : ['UTC', ...zones];
}
