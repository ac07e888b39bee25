/**
 * `vscode.window.withProgress` with its title and every message it reports as safe text
 * (`safeText`): a progress notification parses links like any notification, and a window
 * progress is drawn in the status bar, which draws icons. The extension shows progress only
 * through here (ESLint's `eo/untrusted-text`).
 */
import vscode = require('vscode');
import { safeText } from '../safeText';

export type ProgressStep = { message?: string; increment?: number };

export function withProgress<R>(
  options: vscode.ProgressOptions,
  task: (progress: vscode.Progress<ProgressStep>, token: vscode.CancellationToken) => Thenable<R>,
): Thenable<R> {
  const title = options.title === undefined ? {} : { title: safeText(options.title, 'notification') };
  // eslint-disable-next-line eo/untrusted-text -- the one place that calls it, with safe text
  return vscode.window.withProgress({ ...options, ...title }, (progress, token) =>
    task({ report: (step) => progress.report(step.message === undefined ? step : { ...step, message: safeText(step.message, 'notification') }) }, token),
  );
}
