import * as path from 'node:path';
import vscode = require('vscode');
import { dateTime } from '../../format';
import { l10n } from 'vscode';
import { jsonc } from '../../insights/jsonc';
import type { SearchParams } from '../../panels/protocol';
import { safeText } from '../../safeText';
import type { CommandServices } from '../services';
import { COMMANDS } from '../../commandIds';
import type { CommandTable } from '../register';
import { runCommand } from '../../ui/runCommand';
import { isSearchFile, saveSearch } from './saveSearch';
import { fromSearchFile, SEARCH_FILE_SUFFIX, sinceLastRun } from './searchFile';

const RUNS_KEY = 'eoImagery.searchFileRuns';
const SELECTOR: vscode.DocumentSelector = { pattern: `**/*${SEARCH_FILE_SUFFIX}` };

/**
 * Searches as files: "Save Search…" on the map writes `*.eosearch.json`; CodeLenses "Run on
 * Map" and "What's New" run it (the last run is remembered per file in the workspace); opening
 * such a file offers the same. The file's schema gives completion, hover and validation.
 */
export function searchFileCommands(services: CommandServices): { commands: CommandTable; disposables: vscode.Disposable[] } {
  const { context } = services;
  const lensesChanged = new vscode.EventEmitter<void>();
  const offered = new Set<string>();
  const runs = (): Record<string, string> => context.workspaceState.get<Record<string, string>>(RUNS_KEY, {});

  const run = async (given: vscode.Uri | undefined, mode: 'all' | 'new'): Promise<SearchParams | undefined> => {
    const uri = given ?? vscode.window.activeTextEditor?.document.uri;
    if (!uri || !isSearchFile(uri)) {
      await services.ui.message('info', l10n.t('Open a saved search ({0} file) to run it.', SEARCH_FILE_SUFFIX), {});
      return undefined;
    }
    const doc = await vscode.workspace.openTextDocument(uri);
    const errors: import('jsonc-parser').ParseError[] = [];
    const parsed = jsonc().parse(doc.getText(), errors, { allowTrailingComma: true });
    const read = errors.length ? { errors: [l10n.t('The file is not valid JSON.')] } : fromSearchFile(parsed);
    if ('errors' in read) {
      await services.ui.message('error', l10n.t('{0} cannot be run: {1}', path.basename(uri.fsPath), read.errors.join(' ')), {});
      return undefined;
    }
    const last = runs()[uri.toString()];
    const params = mode === 'new' ? sinceLastRun(read.params, last) : read.params;
    services.panels.showMap().runSearch(params);
    await context.workspaceState.update(RUNS_KEY, { ...runs(), [uri.toString()]: new Date().toISOString() });
    lensesChanged.fire();
    if (mode === 'new') {
      vscode.window.setStatusBarMessage(
        safeText(
          last ? l10n.t('Showing what was acquired since {0}', last.slice(0, 10)) : l10n.t('First run of this search: showing all of it'),
          'notification',
        ),
        5000,
      );
    }
    return params;
  };

  const save = (params: SearchParams | undefined) => saveSearch(services, params);

  const lenses: vscode.CodeLensProvider = {
    onDidChangeCodeLenses: lensesChanged.event,
    provideCodeLenses(doc) {
      const at = doc.positionAt(Math.max(0, doc.getText().search(/\S/)));
      const range = new vscode.Range(at, at);
      const last = runs()[doc.uri.toString()];
      return [
        new vscode.CodeLens(range, {
          title: l10n.t('$(globe) Run on Map'),
          tooltip: l10n.t('Run this search on the EO Imagery map'),
          command: COMMANDS.runSearchFile,
          arguments: [doc.uri],
        }),
        new vscode.CodeLens(range, {
          title: last ? l10n.t("$(sparkle) What's New since {0}", last.slice(0, 10)) : l10n.t("$(sparkle) What's New"),
          tooltip: last
            ? l10n.t('Run this search for what was acquired since its last run ({0})', dateTime(last))
            : l10n.t('Not run yet from this workspace: shows every result and remembers the run'),
          command: COMMANDS.searchFileWhatsNew,
          arguments: [doc.uri],
        }),
      ];
    },
  };

  // A saved search opened (from the Explorer or anywhere): offer to run it, once per file.
  const offer = async (editor: vscode.TextEditor | undefined): Promise<void> => {
    const uri = editor?.document.uri;
    if (!uri || uri.scheme !== 'file' || !isSearchFile(uri) || offered.has(uri.toString())) return;
    offered.add(uri.toString());
    const runLabel = l10n.t('Run on Map');
    const newLabel = l10n.t("What's New");
    const choice = await services.ui.message('info', l10n.t('{0} is a saved EO Imagery search.', path.basename(uri.fsPath)), {}, runLabel, newLabel);
    // Through the commands, so a failure is shown like any other.
    if (choice === runLabel) await runCommand('runSearchFile', uri);
    else if (choice === newLabel) await runCommand('searchFileWhatsNew', uri);
  };

  const commands: CommandTable = {
    runSearchFile: { action: l10n.t('Run saved search'), retry: 'transient', run: (uri) => run(uri, 'all') },
    searchFileWhatsNew: { action: l10n.t('Run saved search'), retry: 'transient', run: (uri) => run(uri, 'new') },
    saveSearch: { action: l10n.t('Save Search'), retry: 'never', run: (params) => save(params) },
  };
  const disposables = [
    lensesChanged,
    vscode.languages.registerCodeLensProvider(SELECTOR, lenses),
    vscode.window.onDidChangeActiveTextEditor((e) => void offer(e)),
  ];
  return { commands, disposables };
}
