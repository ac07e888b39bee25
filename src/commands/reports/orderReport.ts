/**
 * The order report: CSV for this machine's time zone (or one the person picks), opened in an
 * editor tab. An error body, CSV or JSON, is shown as the message it carries.
 */
import vscode = require('vscode');
import type { ExtensionServices } from '../../services';
import { describeError } from '../../ui/showError';
import { submitUntilAccepted } from '../../ui/submit';
import { clientFor } from '../orders/common';

export function machineTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

const PICK_OTHER = 'Pick another time zone…';

/**
 * Argument: a time zone name (`"Europe/Paris"`) skips the question; otherwise the person
 * chooses between this machine's zone and any other. Resolves with the opened document.
 */
export async function downloadReport(services: ExtensionServices, tzArg?: unknown): Promise<vscode.TextDocument | undefined> {
  const action = 'Download order report';
  const client = await clientFor(services, action);
  if (!client) return undefined;
  const first = typeof tzArg === 'string' && tzArg ? tzArg : await askTimeZone(services);
  if (!first) return undefined;
  let zone = first;
  const report = await submitUntilAccepted(services, {
    action,
    send: () => vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Downloading the order report (${zone})…` },
      () => client.reports.get({ tz: zone }),
    ),
    refused: (err) => `The order report was refused: ${describeError(err)}`,
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
  const doc = await vscode.workspace.openTextDocument({ content: report.text, language: 'csv' }).then(undefined, () =>
    vscode.workspace.openTextDocument({ content: report.text, language: 'plaintext' }),
  );
  await vscode.window.showTextDocument(doc, { preview: false });
  services.log.info(`Order report: ${report.rows.length} row(s), times in ${zone}`);
  return doc;
}

async function askTimeZone(services: ExtensionServices): Promise<string | undefined> {
  const here = machineTimeZone();
  const choice = await services.ui.pick([{ label: here, description: 'this machine' }, { label: PICK_OTHER }], {
    title: 'Order Report',
    placeHolder: 'Time zone for the report’s times',
  });
  if (!choice) return undefined;
  return choice.label === PICK_OTHER ? pickTimeZone(services, here) : choice.label;
}

async function pickTimeZone(services: ExtensionServices, current: string): Promise<string | undefined> {
  const zones = supportedZones();
  const items = zones.map((z) => ({ label: z, description: z === current ? 'current' : undefined }));
  const chosen = await services.ui.pick(items, { title: 'Order Report', placeHolder: 'Time zone (type to filter, e.g. Paris)', matchOnDescription: true });
  return chosen?.label;
}

function supportedZones(): string[] {
  const intl = Intl as unknown as { supportedValuesOf?: (k: string) => string[] };
  const zones = intl.supportedValuesOf?.('timeZone') ?? [];
  return zones.includes('UTC') ? zones : ['UTC', ...zones];
}
