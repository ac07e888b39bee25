/**
 * Download: request a link for catalog entries or order items, follow its status in a
 * cancellable notification, then open the signed URL or save the file into a folder the
 * person picks (progress bar; temp name + rename, see downloadFile.ts).
 */
import vscode = require('vscode');
import { isCancellation, isRequestError, type Download } from '../../api';
import type { ExtensionServices } from '../../services';
import { isWebUrl } from '../../panels/protocol';
import { describeError, showError } from '../../ui/showError';
import { clientFor } from '../orders/common';
import { resolveTargets } from './askTargets';
import { FOLLOW } from './deliver';
import { downloadToFolder } from './downloadFile';
import { describeTargets, targetBody } from './targets';

export const OPEN_LINK = 'Open Link';
export const SAVE_TO_FOLDER = 'Save to Folder…';

export interface DownloadOutcome {
  download: Download;
  /** The saved file, when the person chose a folder. */
  file?: string;
}

export async function download(services: ExtensionServices, ...args: unknown[]): Promise<DownloadOutcome | undefined> {
  const action = 'Download';
  const client = await clientFor(services, action);
  if (!client) return undefined;
  const targets = await resolveTargets(services, 'Download', args);
  if (!targets) return undefined;
  let created: Download;
  try {
    created = await client.downloads.create(targetBody(targets));
  } catch (err) {
    if (isRequestError(err)) await services.ui.message('error', `The service refused the download of ${describeTargets(targets)}: ${describeError(err)}`, {});
    else await showError(services, action, err);
    return undefined;
  }
  services.connection.reportSuccess();
  services.log.info(`Requested download ${created.id} for ${describeTargets(targets)}`);

  let ready: Download;
  try {
    ready = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Preparing the download of ${describeTargets(targets)}`, cancellable: true },
      (progress, token) => {
        const ac = new AbortController();
        token.onCancellationRequested(() => ac.abort());
        progress.report({ message: created.status });
        if (created.status === 'success' || created.status === 'failed') return Promise.resolve(created);
        return client.downloads.waitUntilDone(created.id, { ...FOLLOW, signal: ac.signal, onProgress: (d) => progress.report({ message: d.status.replace('_', ' ') }) });
      },
    );
  } catch (err) {
    if (isCancellation(err)) return undefined;
    await showError(services, 'Preparing the download', err);
    return undefined;
  }
  if (ready.status !== 'success' || !ready.signed_url) {
    await services.ui.message('error', `The service could not prepare download ${ready.id} (status ${ready.status}).`, {});
    return { download: ready };
  }
  // The link comes from the server: only a web link may reach the browser or the file writer.
  if (!isWebUrl(ready.signed_url)) {
    services.log.warn(`Download ${ready.id}: the service sent a link that is not http(s); it was not opened.`);
    await services.ui.message('error', `Download ${ready.id} is ready, but the service sent a link that is not an http(s) address, so it was not opened. Request the download again, or report this to the service.`, {});
    return { download: ready };
  }

  const choice = await services.ui.message('info', `Download ${ready.id} is ready. The link is valid for a limited time.`, {}, SAVE_TO_FOLDER, OPEN_LINK);
  if (choice === OPEN_LINK) {
    await vscode.env.openExternal(vscode.Uri.parse(ready.signed_url, true));
    return { download: ready };
  }
  if (choice !== SAVE_TO_FOLDER) return { download: ready };
  const folder = await services.ui.openDialog({ canSelectFolders: true, canSelectFiles: false, canSelectMany: false, openLabel: 'Save Here', title: 'Folder to save the download in' });
  if (!folder?.[0]) return { download: ready };
  const signedUrl = ready.signed_url;
  try {
    const file = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Saving download ${ready.id}`, cancellable: true },
      (progress, token) => {
        const ac = new AbortController();
        token.onCancellationRequested(() => ac.abort());
        let lastPct = 0;
        return downloadToFolder(signedUrl, folder[0].fsPath, {
          signal: ac.signal,
          fallbackName: `eo-download-${ready.id}.zip`,
          onProgress: ({ received, total }) => {
            if (total) {
              const pct = Math.floor((received / total) * 100);
              if (pct > lastPct) {
                progress.report({ increment: pct - lastPct, message: `${mb(received)} of ${mb(total)}` });
                lastPct = pct;
              }
            } else progress.report({ message: mb(received) });
          },
        });
      },
    );
    services.log.info(`Saved download ${ready.id} to ${file}`);
    const open = await services.ui.message('info', `Saved ${file}.`, {}, 'Reveal in File Explorer');
    if (open) await vscode.commands.executeCommand('revealFileInOS', vscode.Uri.file(file));
    return { download: ready, file };
  } catch (err) {
    // The signed URL carries a signature: never log or show it.
    const text = err instanceof Error ? err.message : String(err);
    services.log.error(`Saving download ${ready.id} failed: ${text}`);
    await services.ui.message('error', `Saving download ${ready.id} failed: ${text}`, {});
    return { download: ready };
  }
}

function mb(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}
