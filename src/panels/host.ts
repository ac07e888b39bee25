/**
 * What both webview hosts share: panel options (scripts on, resources limited to the bundles,
 * no retained context), the HTML with its CSP, basemap settings, error texts, and the checked
 * way out to the browser.
 */
import { existsSync } from 'node:fs';
import vscode = require('vscode');
import { l10n } from 'vscode';
import { ApiError } from '../api/errors';
import { declaredSetting, userSetting } from '../auth/settings';
import { clampToDeclared } from '../auth/settingRange';
import type { Aoi, Polygon } from '../api/records';
import type { ExtensionServices } from '../services';
import { describeError } from '../ui/showError';
import { isWebUrl, type Basemap, type DetailRef, type SearchParams } from './protocol';
import { tileOrigins, webviewHtml } from './webviewHtml';

/** A record with a row in the sidebar (an archive item has its STAC page instead). */
export type SidebarRef = Exclude<DetailRef, { kind: 'archiveItem' }>;

/** What a panel needs from around it, handed in by `Panels` (src/panels/index.ts). */
export interface PanelContext {
  readonly services: ExtensionServices;
  /** Reveals the record's row in the sidebar; false when it is not in the loaded pages. */
  revealInSidebar(ref: SidebarRef, options: { focus: boolean; expand?: boolean }): Promise<boolean>;
  /** A footprint's detail: its STAC page, or its sidebar row. `preview`: beside the map, which keeps the focus. */
  openDetail(ref: DetailRef, preview: boolean): Promise<void>;
  /** The Create AOI flow (commands/aois/createAoi.ts) for a shape drawn on the map; undefined when cancelled. */
  createAoi(draft: { polygon: Polygon; source: string; name: string; description?: string; projectId: string; satelliteId: string }): Promise<Aoi | undefined>;
  /** The Save Search flow (commands/searchFiles) for the map's "Save Search…": writes a `*.eosearch.json`. */
  saveSearch(params: SearchParams): Promise<void>;
}

/** The pages' bundles as they ship. */
const PAGES = ['dist', 'media'];
/**
 * The same pages built with what tests and benchmarks read of them (esbuild.mjs, from
 * test/pages): the extension serves them when VS Code runs it for its tests or its development
 * (the e2e workbenches run it so) and they were built; never to a user.
 */
const TEST_PAGES = ['out', 'testMedia'];

/** Where the pages' scripts and styles come from. */
function pagesFolder(context: vscode.ExtensionContext): vscode.Uri {
  const test = vscode.Uri.joinPath(context.extensionUri, ...TEST_PAGES);
  const useTestPages = context.extensionMode !== vscode.ExtensionMode.Production && existsSync(vscode.Uri.joinPath(test, 'map.js').fsPath);
  return useTestPages ? test : vscode.Uri.joinPath(context.extensionUri, ...PAGES);
}

export function panelOptions(context: vscode.ExtensionContext): vscode.WebviewPanelOptions & vscode.WebviewOptions {
  return {
    enableScripts: true,
    localResourceRoots: [pagesFolder(context), vscode.Uri.joinPath(context.extensionUri, 'media')],
    // Both panels restore from getState/setState and re-send their data on 'ready'; keeping
    // hidden webviews alive would cost memory for no gain we could measure.
    retainContextWhenHidden: false,
    enableFindWidget: true,
  };
}

/** A page's bundle: dist/media/<name>.js and .css. */
export type PageName = 'map' | 'stacItem' | 'jobGraph';

export function renderPanelHtml(webview: vscode.Webview, context: vscode.ExtensionContext, name: PageName, title: string, imgSources: string[] = []): string {
  const pages = pagesFolder(context);
  const media = (f: string) => webview.asWebviewUri(vscode.Uri.joinPath(pages, f)).toString();
  return webviewHtml({
    title,
    cspSource: webview.cspSource,
    scriptUri: media(`${name}.js`),
    // the offline outlines are for the two panels with a map
    preScriptUris: name === 'jobGraph' ? [] : [media('outlines.js')],
    styleUri: media(`${name}.css`),
    imgSources,
    // The webview's strings are translated from the same bundle as the extension's.
    l10nBundle: vscode.l10n.bundle,
    lang: vscode.env.language,
    imagery: name === 'map',
  });
}

export const DEFAULT_BASEMAPS: Basemap[] = [
  { name: 'OpenStreetMap', url: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png', attribution: '© OpenStreetMap contributors', maxZoom: 19 },
];

const BASEMAPS_SETTING = 'eoImagery.map.basemaps';

/**
 * `eoImagery.map.basemaps`, with entries that are not http(s) XYZ templates dropped (and logged).
 * In Restricted Mode only the user's own value counts (the manifest lists the setting in
 * `restrictedConfigurations`; this holds even where an editor does not): the tile servers of
 * an untrusted repository would see where you look. `maxZoom` stays within its declared range.
 */
export function configuredBasemaps(log?: vscode.LogOutputChannel): Basemap[] {
  const raw = vscode.workspace.isTrusted
    ? vscode.workspace.getConfiguration().get<unknown>(BASEMAPS_SETTING)
    : userSetting<unknown>(BASEMAPS_SETTING, DEFAULT_BASEMAPS);
  if (!Array.isArray(raw)) return DEFAULT_BASEMAPS;
  const zoomRange = declaredSetting(BASEMAPS_SETTING).items?.properties?.maxZoom ?? {};
  const out: Basemap[] = [];
  for (const b of raw) {
    const o = (b ?? {}) as Partial<Basemap>;
    const ok =
      typeof o.name === 'string' &&
      typeof o.url === 'string' &&
      /^https?:\/\//i.test(o.url) &&
      o.url.includes('{z}') &&
      o.url.includes('{x}') &&
      o.url.includes('{y}');
    if (!ok) {
      log?.warn(`eoImagery.map.basemaps: ignoring an entry that is not {name, url: "http(s)://…{z}/{x}/{y}…", attribution}`);
      continue;
    }
    out.push({
      name: o.name as string,
      url: o.url as string,
      attribution: typeof o.attribution === 'string' ? o.attribution : '',
      maxZoom: typeof o.maxZoom === 'number' ? clampToDeclared(o.maxZoom, zoomRange, o.maxZoom) : undefined,
      subdomains: typeof o.subdomains === 'string' ? o.subdomains : undefined,
    });
  }
  return out;
}

export function basemapImgSources(basemaps: readonly Basemap[]): string[] {
  return tileOrigins(basemaps.map((b) => b.url));
}

/** A failed request's answer to the webview: the sentence the person reads, and the HTTP status when there is one. */
export function responseError(e: unknown): { message: string; status?: number } {
  return { message: describeError(e), status: e instanceof ApiError ? e.status : undefined };
}

/** Opens an http(s) URL in the browser; anything else is refused (and said so). */
export async function openExternalChecked(url: unknown): Promise<boolean> {
  if (!isWebUrl(url)) {
    void vscode.window.showWarningMessage(l10n.t('Only http and https links can be opened.'));
    return false;
  }
  return vscode.env.openExternal(vscode.Uri.parse(url, true));
}
