/**
 * Saves what a signed download link points to into a folder the person picks, with progress
 * and Cancel: the bytes go to a temporary name and are renamed when complete (downloadFile.ts),
 * so nothing half-written is left under the final name. The link carries a signature: it is
 * never logged or shown.
 */
import { l10n } from 'vscode';
import type { CommandServices } from '../services';
import { downloadToFolder, freshLink } from './downloadFile';
import { downloadWithResume } from './downloadProgress';

export interface SaveLink {
  /** What is downloaded, as people read it: "the job of Crop health (2026-11-25 14:57 UTC)". */
  what: string;
  /** The file's name when the server gives none. */
  fallbackName: string;
  /** The name to give the file (its extension comes from the server). */
  preferredBase?: string;
  /** Asks the service for the link again, when it expires before or during the download. */
  renew?: () => Promise<string | undefined>;
}

/** The saved file's path, or undefined when the person did not pick a folder or the download failed (said in a message). */
export async function saveLinkToFolder(services: CommandServices, url: string, s: SaveLink): Promise<string | undefined> {
  const folder = await services.ui.openDialog({
    canSelectFolders: true,
    canSelectFiles: false,
    canSelectMany: false,
    openLabel: l10n.t('Save Here'),
    title: l10n.t('Folder to save {0} in', s.what),
  });
  if (!folder?.[0]) return undefined;
  const file = await downloadWithResume(services, s.what, (signal, onProgress, resume) =>
    downloadToFolder(url, folder[0].fsPath, {
      signal,
      resume,
      otherHosts: services.connection.otherHosts,
      fallbackName: s.fallbackName,
      preferredBase: s.preferredBase,
      onProgress,
      renewLink: s.renew && freshLink(s.renew),
    }),
  );
  return file;
}
