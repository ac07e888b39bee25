import vscode = require('vscode');
import { l10n } from 'vscode';
import type { LoggedRequest } from '../../auth/connection';
import { fetchRecord } from '../../explorer/fetchRecord';
import { parentIdOf } from '../../explorer/recordDocuments';
import type { RecordNode } from '../../explorer/tree';
import { safeText } from '../../safeText';
import type { CommandServices } from '../services';
import { reproducible, toCurl, toPython } from './requestText';

export type CopyFormat = 'curl' | 'python';

const FORMAT_NAME: Record<CopyFormat, string> = { curl: 'curl', python: 'Python' };

export function render(format: CopyFormat, e: LoggedRequest): string {
  const r = reproducible(e);
  return format === 'curl' ? toCurl(r) : toPython(r);
}

async function copy(format: CopyFormat, e: LoggedRequest): Promise<string> {
  const text = render(format, e);
  await vscode.env.clipboard.writeText(text);
  vscode.window.setStatusBarMessage(
    safeText(l10n.t('Copied {0} {1} as {2} (the token is read from $EO_API_TOKEN)', e.method, e.path, FORMAT_NAME[format]), 'notification'),
    4000,
  );
  return text;
}

/**
 * Copy as curl / Python on a record row: the read of that record by id, as the client sends
 * it (the request is made once through a client of its own and written out as sent).
 */
export async function copyRecordAs(services: CommandServices, format: CopyFormat, node: RecordNode | undefined): Promise<string | undefined> {
  const target = node ?? services.explorer.selected()[0];
  if (!target) {
    await services.ui.message('info', l10n.t('Select a record in the EO Imagery sidebar to copy its request.'), {});
    return undefined;
  }
  const sent = await services.connection.captureRequests((client) => fetchRecord(client, target.kind, target.recordId, parentIdOf(target)));
  const read = sent[sent.length - 1];
  if (!read) {
    await services.ui.message('info', l10n.t('The service has no request that reads this kind of record on its own.'), {});
    return undefined;
  }
  return copy(format, read);
}

/** Remembers the last requests of the log, newest last, for "Copy Logged Request as …". */
export class RequestHistory {
  private readonly items: LoggedRequest[] = [];

  constructor(private readonly size = 100) {}

  add(e: LoggedRequest): void {
    this.items.push(e);
    if (this.items.length > this.size) this.items.shift();
  }

  newestFirst(): LoggedRequest[] {
    return [...this.items].reverse();
  }
}

interface RequestItem extends vscode.QuickPickItem {
  request: LoggedRequest;
}

/** Copy as curl / Python from the log: pick one of the request lines the log shows. */
export async function copyLoggedRequestAs(services: CommandServices, history: RequestHistory, format: CopyFormat): Promise<string | undefined> {
  const requests = history.newestFirst();
  if (requests.length === 0) {
    await services.ui.message('info', l10n.t('No request has been logged yet in this window.'), {});
    return undefined;
  }
  const items: RequestItem[] = requests.map((request) => ({
    label: request.line,
    description: new URL(request.baseUrl).host,
    request,
  }));
  const picked = await services.ui.pick(items, {
    title: l10n.t('Copy Logged Request as {0}', FORMAT_NAME[format]),
    placeHolder: l10n.t('Pick a request line of the log (newest first); the token stays out of the copy'),
    matchOnDescription: true,
  });
  return picked ? copy(format, picked.request) : undefined;
}
