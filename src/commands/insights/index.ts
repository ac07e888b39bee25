import vscode = require('vscode');
import { InsightCodeActions } from '../../insights/editor/codeActions';
import { InsightCodeLenses } from '../../insights/editor/codeLens';
import { COMMANDS } from '../../commandIds';
import { InsightDiagnostics } from '../../insights/editor/diagnostics';
import { INSIGHT_SELECTOR } from '../../insights/editor/documents';
import { SpecSource } from '../../insights/specSource';
import type { CommandServices } from '../services';
import { newInsightInput } from './newInsightInput';
import { openOutput, showOutputOnMap, useOutputAsInput } from './outputs';
import { RUN_SCHEME, RunDocuments } from './runDocuments';
import { deleteRun, downloadRun, openInput, openInputAsNewFile, showOutputs } from './runs';
import { addAssetSourceCommand, estimateInsightCommand, runInsightCommand, validateInsightCommand } from './runInsight';

/**
 * Insight input files: diagnostics as they are edited, quick fixes, CodeLens and the commands.
 * Nothing here touches the network until a `*.insight.json` file is open or a command runs.
 */
export function registerInsights(services: CommandServices): vscode.Disposable[] {
  const specs = new SpecSource(() => services.connection.getClient());
  const diagnostics = new InsightDiagnostics(specs);
  const runDocs = new RunDocuments();
  // Only a sign-in, sign-out or another service changes what the specs say; the state's
  // other moves (a call succeeded, a call failed) must not start another round of lookups.
  const keyOf = (): string => `${services.connection.state === 'signedOut'}|${services.connection.baseUrl}`;
  let key = keyOf();
  return [
    diagnostics,
    services.connection.onDidChange(() => {
      if (keyOf() === key) return;
      key = keyOf();
      specs.clear();
      diagnostics.refreshAll();
    }),
    vscode.languages.registerCodeActionsProvider(INSIGHT_SELECTOR, new InsightCodeActions(diagnostics), {
      providedCodeActionKinds: InsightCodeActions.kinds,
    }),
    vscode.languages.registerCodeLensProvider(INSIGHT_SELECTOR, new InsightCodeLenses()),
    vscode.commands.registerCommand(COMMANDS.newInsightInput, (from?: unknown) => newInsightInput(services, from)),
    vscode.commands.registerCommand(COMMANDS.validateInsight, (uri?: vscode.Uri) => validateInsightCommand(services, diagnostics, uri)),
    vscode.commands.registerCommand(COMMANDS.estimateInsight, (uri?: vscode.Uri) => estimateInsightCommand(services, diagnostics, uri)),
    vscode.commands.registerCommand(COMMANDS.runInsight, (uri?: vscode.Uri) => runInsightCommand(services, diagnostics, uri)),
    vscode.commands.registerCommand(COMMANDS.addAssetSource, (uri: vscode.Uri, index: number) => addAssetSourceCommand(services, uri, index)),
    runDocs,
    vscode.workspace.registerTextDocumentContentProvider(RUN_SCHEME, runDocs),
    vscode.commands.registerCommand(COMMANDS.showInsightOutputs, (arg?: unknown) => showOutputs(services, arg)),
    vscode.commands.registerCommand(COMMANDS.openInsightInput, (arg?: unknown) => openInput(services, runDocs, arg)),
    vscode.commands.registerCommand(COMMANDS.openInsightInputAsNewFile, (arg?: unknown) => openInputAsNewFile(services, arg)),
    vscode.commands.registerCommand(COMMANDS.deleteInsightRun, (arg?: unknown) => deleteRun(services, arg)),
    vscode.commands.registerCommand(COMMANDS.downloadInsightRun, (arg?: unknown) => downloadRun(services, arg)),
    vscode.commands.registerCommand(COMMANDS.openInsightOutput, (arg?: unknown) => openOutput(services, runDocs, arg)),
    vscode.commands.registerCommand(COMMANDS.showInsightOutputOnMap, (arg?: unknown) => showOutputOnMap(services, arg)),
    vscode.commands.registerCommand(COMMANDS.useInsightOutputAsInput, (arg?: unknown) => useOutputAsInput(services, specs, arg)),
  ];
}
