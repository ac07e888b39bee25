/**
 * What both webview hosts share: panel options (scripts on, resources limited to the bundles,
 * no retained context), the HTML with its CSP, basemap settings, error texts, and the checked
 * way out to the browser.
 */
import vscode = require('vscode');
import { ApiError } from '../api/errors';
import { isWebUrl, type Basemap } from './protocol';
import { tileOrigins, webviewHtml } from './webviewHtml';

export function panelOptions(context: vscode.ExtensionContext): vscode.WebviewPanelOptions & vscode.WebviewOptions {
  return {
    enableScripts: true,
    localResourceRoots: [vscode.Uri.joinPath(context.extensionUri, 'dist', 'media'), vscode.Uri.joinPath(context.extensionUri, 'media')],
    // Both panels restore from getState/setState and re-send their data on 'ready'; keeping
    // hidden webviews alive would cost memory for no gain we could measure.
    retainContextWhenHidden: false,
    enableFindWidget: true,
  };
}

export function renderPanelHtml(
  webview: vscode.Webview, context: vscode.ExtensionContext, name: 'map' | 'stacItem', title: string, imgSources: string[] = [],
): string {
  const media = (f: string) => webview.asWebviewUri(vscode.Uri.joinPath(context.extensionUri, 'dist', 'media', f)).toString();
  return webviewHtml({
    title,
    cspSource: webview.cspSource,
    scriptUri: media(`${name}.js`),
    preScriptUris: [media('outlines.js')],
    styleUri: media(`${name}.css`),
    imgSources,
    blobWorkers: name === 'map',
  });
}

export const DEFAULT_BASEMAPS: Basemap[] = [
  { name: 'OpenStreetMap', url: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png', attribution: '© OpenStreetMap contributors', maxZoom: 19 },
];

/** `eoImagery.map.basemaps`, with entries that are not http(s) XYZ templates dropped (and logged). */
export function configuredBasemaps(log?: vscode.LogOutputChannel): Basemap[] {
  const raw = vscode.workspace.getConfiguration('eoImagery.map').get<unknown>('basemaps');
  if (!Array.isArray(raw)) return DEFAULT_BASEMAPS;
  const out: Basemap[] = [];
  for (const b of raw) {
    const o = (b ?? {}) as Partial<Basemap>;
    const ok = typeof o.name === 'string' && typeof o.url === 'string' && /^https?:\/\//i.test(o.url) &&
      o.url.includes('{z}') && o.url.includes('{x}') && o.url.includes('{y}');
    if (!ok) {
      log?.warn(`eoImagery.map.basemaps: ignoring an entry that is not {name, url: "http(s)://…{z}/{x}/{y}…", attribution}`);
      continue;
    }
    out.push({
      name: o.name as string, url: o.url as string, attribution: typeof o.attribution === 'string' ? o.attribution : '',
      maxZoom: typeof o.maxZoom === 'number' ? o.maxZoom : undefined, subdomains: typeof o.subdomains === 'string' ? o.subdomains : undefined,
    });
  }
  return out;
}

export function basemapImgSources(basemaps: readonly Basemap[]): string[] {
  return tileOrigins(basemaps.map((b) => b.url));
}

/** A message for the person: the client's `userMessage` (no token, no headers), else the error text. */
export function describeError(e: unknown): { message: string; status?: number } {
  if (e instanceof ApiError) return { message: e.userMessage, status: e.status };
  return { message: e instanceof Error ? e.message : String(e) };
}

/** Opens an http(s) URL in the browser; anything else is refused (and said so). */
export async function openExternalChecked(url: unknown): Promise<boolean> {
  if (!isWebUrl(url)) {
    void vscode.window.showWarningMessage('Only http and https links can be opened.');
    return false;
  }
  return vscode.env.openExternal(vscode.Uri.parse(url, true));
}

/** Runs a command that another part of the extension may not have registered yet. */
export async function runOptionalCommand(command: string, what: string, ...args: unknown[]): Promise<string | undefined> {
  const all = await vscode.commands.getCommands(true);
  if (!all.includes(command)) return `${what} is not available in this version of the extension (command ${command} is not registered).`;
  await vscode.commands.executeCommand(command, ...args);
  return undefined;
}
