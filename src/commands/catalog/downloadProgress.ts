/** How a download's bytes read in a progress notification: one wording for every download. */
import vscode = require('vscode');
import { l10n } from 'vscode';
import type { DownloadProgress } from './downloadFile';

/** Bytes in MB (or KB under one MB), in binary units as file managers show sizes. */
export function megabytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? l10n.t('{0} MB', (bytes / (1024 * 1024)).toFixed(1)) : l10n.t('{0} KB', Math.ceil(bytes / 1024));
}

/** A download's `onProgress` for a notification: the bar's share when the size is known, the bytes so far when not. */
export function reportDownload(progress: vscode.Progress<{ message?: string; increment?: number }>): (p: DownloadProgress) => void {
  let lastPct = 0;
  return ({ received, total }) => {
    if (!total) return progress.report({ message: megabytes(received) });
    const pct = Math.floor((received / total) * 100);
    if (pct > lastPct) {
      progress.report({ increment: pct - lastPct, message: l10n.t('{0} of {1}', megabytes(received), megabytes(total)) });
      lastPct = pct;
    }
  };
}
