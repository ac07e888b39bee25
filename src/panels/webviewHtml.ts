/**
 * The HTML shell of a webview: a strict CSP with a per-load nonce, the bundled script and
 * stylesheet, and an empty root the script fills. Pure (no `vscode`), so the webview tests
 * load exactly the page the extension serves.
 */
import { randomBytes } from 'node:crypto';

export interface WebviewHtmlOptions {
  title: string;
  /** `webview.cspSource` (or the test server's origin). */
  cspSource: string;
  scriptUri: string;
  /** Scripts loaded before `scriptUri` (e.g. the shared Natural Earth outlines). */
  preScriptUris?: string[];
  styleUri?: string;
  /** Extra `img-src` sources: the configured basemap hosts, e.g. `https://tile.openstreetmap.org`. */
  imgSources?: string[];
  /**
   * The map's imagery: decoded in workers started from blob URLs (`worker-src blob:`), its
   * tiles shown as images from blob URLs (`img-src blob:`).
   */
  imagery?: boolean;
  nonce?: string;
  /** The translations of the webview's strings (`vscode.l10n.bundle`); none for English. */
  l10nBundle?: Record<string, string>;
  /** The display language, e.g. `en` or `de` (`vscode.env.language`). */
  lang?: string;
}

export function makeNonce(): string {
  return randomBytes(18)
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, '');
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

/** A CSP source expression must not smuggle in other directives or keywords. */
function safeSource(s: string): string | undefined {
  return /^[a-z][a-z0-9+.-]*:\/\/[A-Za-z0-9*.-]+(:\d+)?$/.test(s) || /^[a-z]+:$/.test(s) ? s : undefined;
}

export function contentSecurityPolicy(o: { cspSource: string; nonce: string; imgSources?: string[]; imagery?: boolean }): string {
  const img = [o.cspSource, 'data:', ...(o.imagery ? ['blob:'] : []), ...(o.imgSources ?? []).map(safeSource).filter((s): s is string => !!s)];
  return [
    "default-src 'none'",
    `script-src 'nonce-${o.nonce}'`,
    `style-src ${o.cspSource} 'nonce-${o.nonce}'`,
    `img-src ${[...new Set(img)].join(' ')}`,
    `font-src ${o.cspSource}`,
    ...(o.imagery ? ['worker-src blob:'] : []),
  ].join('; ');
}

/** JSON inside a script element: `<` escaped so no string can close the element. */
function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

export function webviewHtml(o: WebviewHtmlOptions): string {
  const nonce = o.nonce ?? makeNonce();
  const csp = contentSecurityPolicy({ cspSource: o.cspSource, nonce, imgSources: o.imgSources, imagery: o.imagery });
  return `<!DOCTYPE html>
<html lang="${escapeHtml(o.lang ?? 'en')}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
${o.styleUri ? `<link rel="stylesheet" href="${escapeHtml(o.styleUri)}" nonce="${nonce}">` : ''}
<title>${escapeHtml(o.title)}</title>
</head>
<body>
<div id="root"></div>
${o.l10nBundle ? `<script type="application/json" id="eo-l10n">${jsonForScript(o.l10nBundle)}</script>\n` : ''}${(o.preScriptUris ?? []).map((u) => `<script nonce="${nonce}" src="${escapeHtml(u)}"></script>\n`).join('')}<script nonce="${nonce}" src="${escapeHtml(o.scriptUri)}"></script>
</body>
</html>`;
}

/**
 * The `img-src` origins for XYZ templates: `https://{s}.tile.example.org/{z}/{x}/{y}.png` gives
 * `https://*.tile.example.org`. Templates that are not http(s) are dropped (and not drawn).
 */
export function tileOrigins(templates: readonly string[]): string[] {
  const out = new Set<string>();
  for (const t of templates) {
    const m = /^(https?):\/\/([^/?#]+)/i.exec(t);
    if (!m) continue;
    const host = m[2].replace(/\{[a-z]+\}/gi, '*').toLowerCase();
    if (!/^[a-z0-9*.-]+(:\d+)?$/.test(host) || (host.startsWith('*') && !host.startsWith('*.'))) continue;
    out.add(`${m[1].toLowerCase()}://${host}`);
  }
  return [...out];
}
