/**
 * The webview's translations: the extension puts `vscode.l10n.bundle` in the page (see
 * src/panels/webviewHtml.ts) and this hands it to @vscode/l10n, whose `l10n.t` the webview
 * code calls (and @vscode/l10n-dev exports). Call before any `l10n.t`; without a bundle
 * (English) `l10n.t` returns the source text.
 */
import * as l10n from '@vscode/l10n';

export function loadL10nBundle(doc: Document = document): void {
  const text = doc.getElementById('eo-l10n')?.textContent;
  if (!text) return;
  try {
    l10n.config({ contents: JSON.parse(text) as Record<string, string> });
  } catch {
    // A broken bundle leaves the source (English) strings.
  }
}
