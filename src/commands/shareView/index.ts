/**
 * Share a view: "Copy Link to This View" (a `vscode://` link, opened by the URI handler) and
 * "Save View As…" (a `*.eoview.json` file with a schema and a CodeLens "Open on Map"). Both
 * hold what ./view.ts allows: a place, records by kind and id, imagery by record and look.
 */
import * as path from 'node:path';
import vscode = require('vscode');
import { l10n } from 'vscode';
import { hostOf } from '../../auth/connection';
import { COMMANDS } from '../../commandIds';
import { documentName } from '../../explorer/labels';
import { askCompoundSaveTarget } from '../compoundSave';
import type { CommandTable } from '../register';
import type { CommandServices } from '../services';
import { openSharedView, type Opened } from './openView';
import { decodeLink, encodeLink, readViewFile, viewFileText, viewFromMap, type SharedView } from './view';
import { VIEW_FILE_SUFFIX } from '../../fileKinds';
export { VIEW_FILE_SUFFIX } from '../../fileKinds';

const SELECTOR: vscode.DocumentSelector = { pattern: `**/*${VIEW_FILE_SUFFIX}` };

export function shareViewCommands(services: CommandServices): { commands: CommandTable; disposables: vscode.Disposable[]; uriHandler: vscode.UriHandler } {
  const extensionId = services.context.extension.id;

  /** The map's view as it may be shared, or undefined after saying why not. */
  const current = async (): Promise<{ view: SharedView; left: string[] } | undefined> => {
    const state = services.panels.currentMap()?.viewState;
    if (!state) {
      await services.ui.message('info', l10n.t('Open the map and show something on it first: a view is what the map shows.'), {});
      return undefined;
    }
    const host = hostOf(services.connection.baseUrl);
    const got = viewFromMap(state, host);
    if ('error' in got) {
      await services.ui.message('error', l10n.t('This view cannot be shared: {0}', got.error), {});
      return undefined;
    }
    return got;
  };

  const leftOut = (left: string[]): string => (left.length ? ` ${l10n.t('Left out: {0}.', left.join('; '))}` : '');

  const copyLink = async (): Promise<string | undefined> => {
    const got = await current();
    if (!got) return undefined;
    const link = encodeLink(got.view, extensionId, vscode.env.uriScheme);
    await vscode.env.clipboard.writeText(link);
    const n = got.view.layers.length + got.view.imagery.length;
    void services.ui.message(
      'info',
      (n === 1 ? l10n.t('Link to this view copied (1 layer).') : l10n.t('Link to this view copied ({0} layers).', n)) +
        ` ${l10n.t('It holds no token: whoever opens it sees only what their own account may see.')}` +
        leftOut(got.left),
      {},
    );
    return link;
  };

  /** What the view shows, to name its file: the AOI on the map, else the slider's or first imagery layer's title, else the day. */
  const viewName = (view: SharedView): string =>
    services.panels.currentMap()?.shown('aois')[0]?.label ||
    view.timeline?.title ||
    view.imagery[0]?.title ||
    l10n.t('map view {0}', new Date().toISOString().slice(0, 10));

  const saveAs = async (): Promise<vscode.Uri | undefined> => {
    const got = await current();
    if (!got) return undefined;
    const uri = await askCompoundSaveTarget(services, {
      title: l10n.t('Save View As'),
      saveLabel: l10n.t('Save View'),
      name: `${documentName(viewName(got.view), 'map-view')}${VIEW_FILE_SUFFIX}`,
      kind: l10n.t('EO Imagery map view'),
      suffix: VIEW_FILE_SUFFIX,
    });
    if (!uri) return undefined;
    await vscode.workspace.fs.writeFile(uri, Buffer.from(viewFileText(got.view), 'utf8'));
    void services.ui.message('info', l10n.t('Saved the view as {0}.', path.basename(uri.fsPath)) + leftOut(got.left), {});
    return uri;
  };

  const uriHandler: vscode.UriHandler = {
    handleUri: async (uri) => {
      const read = decodeLink(uri, extensionId);
      if ('error' in read) {
        services.log.warn(`Refused a link: ${read.error}`);
        await services.ui.message('error', l10n.t('This link cannot be opened: {0}', read.error), {});
        return;
      }
      await vscode.commands.executeCommand(COMMANDS.openViewLink, uri.toString(true));
    },
  };

  return {
    commands: {
      copyViewLink: { action: l10n.t('Copy link to this view'), retry: 'never', run: copyLink },
      saveViewAs: { action: l10n.t('Save view'), retry: 'never', run: saveAs },
      openViewFile: { action: l10n.t('Open view on map'), retry: 'transient', run: (given) => openViewFile(services, given) },
      openViewLink: {
        action: l10n.t('Open a shared view'),
        retry: 'transient',
        run: async (link) => {
          if (!link) return undefined;
          const read = decodeLink(vscode.Uri.parse(link, true), extensionId);
          if ('error' in read) {
            await services.ui.message('error', l10n.t('This link cannot be opened: {0}', read.error), {});
            return undefined;
          }
          return openSharedView(services, read.ok);
        },
      },
    },
    // Activation registers the extension's one URI handler (src/deferred.ts) and hands it links.
    uriHandler,
    disposables: [vscode.languages.registerCodeLensProvider(SELECTOR, lenses)],
  };
}

/** Open on Map for a saved view: the editor's unsaved text when it has some, else the file on disk. */
async function openViewFile(services: CommandServices, given: vscode.Uri | undefined): Promise<Opened | undefined> {
  const uri = given ?? vscode.window.activeTextEditor?.document.uri;
  if (!uri || !uri.path.endsWith(VIEW_FILE_SUFFIX)) {
    await services.ui.message('info', l10n.t('Open a saved map view ({0} file) to show it on the map.', VIEW_FILE_SUFFIX), {});
    return undefined;
  }
  // An editor's unsaved edits are what the person sees; otherwise the file as it is on disk.
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  const text = open?.isDirty ? open.getText() : Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8');
  const read = readViewFile(text);
  if ('error' in read) {
    await services.ui.message('error', l10n.t('{0} cannot be opened: {1}', path.basename(uri.fsPath), read.error), {});
    return undefined;
  }
  return openSharedView(services, read.ok);
}

/** "Open on Map" above a saved view. */
const lenses: vscode.CodeLensProvider = {
  provideCodeLenses(doc) {
    const at = doc.positionAt(Math.max(0, doc.getText().search(/\S/)));
    return [
      new vscode.CodeLens(new vscode.Range(at, at), {
        title: l10n.t('$(globe) Open on Map'),
        tooltip: l10n.t('Show this view on the EO Imagery map'),
        command: COMMANDS.openViewFile,
        arguments: [doc.uri],
      }),
    ];
  },
};
