/** How a download's bytes read in a progress notification, and Resume when it stops: one wording for every download. */
import vscode = require('vscode');
import { l10n } from 'vscode';
import type { CommandServices } from '../services';
import { withProgress } from '../../ui/progress';
import { DownloadError, type DownloadProgress } from './downloadFile';
import { dropPart } from './partFile';

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

/** What a download needs of the services: the prompts, the log, and the list of stopped downloads. */
export type DownloadServices = Pick<CommandServices, 'ui' | 'log' | 'watcher'>;

/**
 * How a download runs: told where to stop (Cancel), what it has received so far, and, on a
 * Resume, the `.part` file the stopped try left (`DownloadOptions.resume`).
 */
export type StartDownload = (signal: AbortSignal, onProgress: (p: DownloadProgress) => void, resume?: string) => Promise<string>;

/**
 * Saves `what` ("the job of Crop health") in a progress notification with Cancel, and says how
 * it ended: "Saved …" with Reveal. When it stops with bytes kept in its `.part` file (a dropped
 * connection past its retries, a timeout, Cancel), the person is told how far it got and
 * offered Resume, which goes on from the last byte; it is listed with what is pending too
 * (Show Pending…: Resume or Discard), so that Resume stays within reach once the notification
 * is gone, and the same download started again later (after a reload) goes on from there.
 * Any other failure is said with the way forward (a fresh link). The signed link is never said
 * or logged: only the reason. Resolves with the saved file, or undefined (said).
 */
export async function downloadWithResume(services: DownloadServices, what: string, start: StartDownload, resume?: string): Promise<string | undefined> {
  for (;;) {
    try {
      const file = await withProgress(
        { location: vscode.ProgressLocation.Notification, title: l10n.t('Saving {0}', what), cancellable: true },
        (progress, token) => {
          const ac = new AbortController();
          token.onCancellationRequested(() => ac.abort());
          return start(ac.signal, reportDownload(progress), resume);
        },
      );
      services.log.info(`Saved ${what} to ${file}`);
      const reveal = l10n.t('Reveal in File Explorer');
      void services.ui.message('info', l10n.t('Saved {0}.', file), {}, reveal).then((c) => {
        if (c === reveal) void vscode.commands.executeCommand('revealFileInOS', vscode.Uri.file(file));
      });
      return file;
    } catch (err) {
      // Recovers the way forward: Resume from the bytes kept, or a fresh download, said in words.
      const reason = (err instanceof Error ? err.message : String(err)).replace(/\.+$/, '');
      const stopped = err instanceof DownloadError && err.kept > 0 ? err : undefined;
      const kept = stopped?.kept ?? 0;
      services.log.error(`Saving ${what} failed after ${kept} bytes kept: ${reason}`);
      if (!stopped) {
        void services.ui.message('error', l10n.t('Saving {0} failed: {1}. Download it again for a fresh link.', what, reason), {});
        return undefined;
      }
      const listed = services.watcher.stopped.add({
        what,
        kept,
        reason,
        at: Date.now(),
        resume: () => downloadWithResume(services, what, start, stopped.part),
        discard: async () => {
          if (stopped.part) await dropPart(stopped.part);
        },
      });
      const resumeButton = l10n.t('Resume');
      const text = l10n.t('Saving {0} stopped after {1}: {2}. Resume goes on from there.', what, megabytes(kept), reason);
      if ((await services.ui.message('warning', text, {}, resumeButton)) !== resumeButton) return undefined;
      // Resumed or discarded from the pending list meanwhile: that one goes on, not a second.
      if (!services.watcher.stopped.take(listed)) return undefined;
      resume = stopped.part;
    }
  }
}
