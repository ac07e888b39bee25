/**
 * Download: request a link for catalog entries or order items, follow its status in a
 * cancellable notification, then open the signed URL or save the file into a folder the
 * person picks (progress bar; temp name + rename, see downloadFile.ts).
 */
import vscode = require('vscode');
import { l10n } from 'vscode';
import { isRequestError, type Download } from '../../api';
import type { CommandServices } from '../services';
import { isWebUrl } from '../../panels/protocol';
import { failedText, inStep } from '../../ui/showError';
import { dateTime, enumLabel } from '../../format';
import { downloadFileName } from '../../explorer/labels';
import { resolveTargets } from './askTargets';
import { FOLLOW } from './deliver';
import { downloadToFolder, freshLink } from './downloadFile';
import { downloadWithResume } from './downloadProgress';
import { linkExpiry, minutesLeft } from './linkExpiry';
import { describeTargets, idsOf, targetBody, type GivenTargets, type Targets } from './targets';
import { withProgress } from '../../ui/progress';

export const OPEN_LINK = l10n.t('Open Link');
export const SAVE_TO_FOLDER = l10n.t('Save to Folder…');

export interface DownloadOutcome {
  download: Download;
  /** The saved file, when the person chose a folder. */
  file?: string;
}

/** `given`: what it was run on (`targetsOf`: rows, a selection, ids); none from the palette. */
export async function download(services: CommandServices, given: GivenTargets): Promise<DownloadOutcome | undefined> {
  const action = l10n.t('Download');
  const client = await services.connection.getClient();
  const targets = await resolveTargets(services, client, l10n.t('Download'), given);
  if (!targets) return undefined;
  const what = describeTargets(l10n, targets);
  const created = await inStep(
    (reason, err) => (isRequestError(err) ? l10n.t('The service refused the download of {0}: {1}', what, reason) : failedText(action, reason)),
    () => client.downloads.create(targetBody(targets)),
  );
  services.connection.reportSuccess();
  services.log.info(`Requested download ${created.id} for ${what}`);

  // The watcher takes over when the person stops waiting (or the window reloads): it says
  // when the link is ready, with Download….
  services.watcher.follow('download', created.id, { held: true, hint: { where: what }, record: created });
  let ready: Download | undefined;
  try {
    ready = await inStep(l10n.t('Preparing the download'), () =>
      withProgress(
        { location: vscode.ProgressLocation.Notification, title: l10n.t('Preparing the download of {0}', what), cancellable: true },
        (progress, token) => {
          const ac = new AbortController();
          token.onCancellationRequested(() => ac.abort());
          progress.report({ message: enumLabel(created.status) });
          if (created.status === 'success' || created.status === 'failed') return Promise.resolve(created);
          return client.downloads.waitUntilDone(created.id, {
            ...FOLLOW,
            signal: ac.signal,
            onProgress: (d) => progress.report({ message: enumLabel(d.status) }),
          });
        },
      ),
    );
  } finally {
    // Told: the outcome is shown below. Not told (cancelled, or the wait failed): the watcher
    // goes on following the download and announces it when it is ready.
    services.watcher.release('download', created.id, ready !== undefined);
  }
  return offerReady(services, ready, what, baseNameOf(targets));
}

/**
 * A download the service prepared: say why when it failed, else offer Save to Folder… and
 * Open Link (only an http(s) link). `base`: the name the saved file is given.
 */
export async function offerReady(services: CommandServices, ready: Download, what: string, base: string): Promise<DownloadOutcome> {
  if (ready.status !== 'success' || !ready.signed_url) {
    await services.ui.message(
      'error',
      l10n.t(
        'The service could not prepare the download of {0} (status: {1}). Request it again, or check the entry in the Catalog view.',
        what,
        enumLabel(ready.status),
      ),
      {},
    );
    return { download: ready };
  }
  // The link comes from the server: only a web link may reach the browser or the file writer.
  if (!isWebUrl(ready.signed_url)) {
    services.log.warn(`Download ${ready.id}: the service sent a link that is not http(s); it was not opened.`);
    await services.ui.message(
      'error',
      l10n.t(
        'The download of {0} is ready, but the service sent a link that is not an http(s) address, so it was not opened. Request the download again, or report this to the service.',
        what,
      ),
      {},
    );
    return { download: ready };
  }

  const choice = await services.ui.message(
    'info',
    l10n.t('The download of {0} is ready. {1}', what, validity(ready.signed_url)),
    {},
    SAVE_TO_FOLDER,
    OPEN_LINK,
  );
  if (choice === OPEN_LINK) {
    await vscode.env.openExternal(vscode.Uri.parse(ready.signed_url, true));
    return { download: ready };
  }
  if (choice !== SAVE_TO_FOLDER) return { download: ready };
  const folder = await services.ui.openDialog({
    canSelectFolders: true,
    canSelectFiles: false,
    canSelectMany: false,
    openLabel: l10n.t('Save Here'),
    title: l10n.t('Folder to save the download of {0} in', what),
  });
  if (!folder?.[0]) return { download: ready };
  const signedUrl = ready.signed_url;
  const file = await downloadWithResume(services, l10n.t('the download of {0}', what), (signal, onProgress, resume) =>
    downloadToFolder(signedUrl, folder[0].fsPath, {
      signal,
      resume,
      otherHosts: services.connection.otherHosts,
      fallbackName: 'eo-imagery-download.zip',
      preferredBase: base,
      onProgress,
      // The download record gives a fresh link when its link expired (a long download, a slow pick).
      renewLink: freshLink(async () => (await (await services.connection.getClient()).downloads.get(ready.id)).signed_url),
    }),
  );
  return file === undefined ? { download: ready } : { download: ready, file };
}

/**
 * The file's name from what was bought (place, date, bandset), or from the picked names;
 * the server's name gives only the extension.
 */
function baseNameOf(t: Targets): string {
  if (t.fileParts?.length) return downloadFileName(t.fileParts, '');
  const names = t.names ?? [];
  if (names.length === 1) return downloadFileName([names[0]], '');
  if (names.length > 1) return downloadFileName([names[0], l10n.t('and {0} more', idsOf(t).length - 1)], '');
  // Typed ids: the date, never the server's id-based name.
  return downloadFileName(['EO Imagery', new Date().toISOString().slice(0, 10)], '');
}

/** "The link is valid until … (about N minutes)." from the link's signature, or that it is limited. */
function validity(url: string): string {
  const until = linkExpiry(url);
  if (!until) return l10n.t('The link is valid for a limited time (the service does not say how long): save or open it now.');
  return l10n.t('The link is valid until {0} (about {1} minutes from now).', dateTime(until.toISOString()), minutesLeft(until, new Date()));
}

/** The watcher's "Download…" on a link it saw ready: the link is read again now (never kept). */
export async function saveReadyDownload(
  services: CommandServices,
  ready: { downloadId: string; what: string } | undefined,
): Promise<DownloadOutcome | undefined> {
  if (!ready) return undefined;
  const client = await services.connection.getClient();
  const d = await inStep(l10n.t('Reading the download link'), () => client.downloads.get(ready.downloadId));
  const base = downloadFileName([ready.what === '' ? 'EO Imagery' : ready.what, new Date().toISOString().slice(0, 10)], '');
  return offerReady(services, d, ready.what, base);
}
