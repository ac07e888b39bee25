import vscode = require('vscode');
import { l10n } from 'vscode';
import { InsightCodeActions } from '../../insights/editor/codeActions';
import { InsightCodeLenses } from '../../insights/editor/codeLens';
import { InsightDiagnostics } from '../../insights/editor/diagnostics';
import { INSIGHT_SELECTOR } from '../../insights/editor/documents';
import { SpecSource } from '../../insights/specSource';
import type { CommandTable } from '../register';
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
export function insightCommands(services: CommandServices): { commands: CommandTable; disposables: vscode.Disposable[]; diagnostics: InsightDiagnostics } {
  const specs = new SpecSource(() => services.connection.getClient());
  const diagnostics = new InsightDiagnostics(specs);
  const runDocs = new RunDocuments();
  // Only a sign-in, sign-out or another service changes what the specs say; the state's
  // other moves (a call succeeded, a call failed) must not start another round of lookups.
  const keyOf = (): string => `${services.connection.state === 'signedOut'}|${services.connection.baseUrl}`;
  let key = keyOf();
  const disposables = [
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
    runDocs,
    vscode.workspace.registerTextDocumentContentProvider(RUN_SCHEME, runDocs),
  ];
  const commands: CommandTable = {
    newInsightInput: { action: l10n.t('New Insight Input'), retry: 'transient', run: (from) => newInsightInput(services, from) },
    validateInsight: { action: l10n.t('Validate insight'), retry: 'transient', run: (uri) => validateInsightCommand(services, diagnostics, uri) },
    // An estimate costs nothing; a run spends tokens and is sent once, after its priced confirmation.
    estimateInsight: { action: l10n.t('Estimate insight'), retry: 'transient', run: (uri) => estimateInsightCommand(services, diagnostics, uri) },
    runInsight: { action: l10n.t('Run insight'), retry: 'never', run: (uri) => runInsightCommand(services, diagnostics, uri) },
    addAssetSource: { action: l10n.t('Add asset_source'), retry: 'transient', run: (at) => addAssetSourceCommand(services, at) },
    showInsightOutputs: { action: l10n.t('Show insight outputs'), retry: 'transient', run: (run) => showOutputs(services, run) },
    openInsightInput: { action: l10n.t('Open insight input'), retry: 'never', run: (node) => openInput(services, runDocs, node) },
    openInsightInputAsNewFile: {
      action: l10n.t('Open input as a new file'),
      retry: 'transient',
      run: (node) => openInputAsNewFile(services, node),
    },
    deleteInsightRun: { action: l10n.t('Delete insight run'), retry: 'transient', run: (node) => deleteRun(services, node) },
    // The package is made by a POST the service may bill or keep: asked for again by the person only.
    downloadInsightRun: { action: l10n.t('Download insight run'), retry: 'never', run: (node) => downloadRun(services, node) },
    openInsightOutput: { action: l10n.t('Open insight output'), retry: 'transient', run: (node) => openOutput(services, runDocs, node) },
    showInsightOutputOnMap: { action: l10n.t('Show insight output on the map'), retry: 'transient', run: (node) => showOutputOnMap(services, node) },
    useInsightOutputAsInput: { action: l10n.t('Use output as input'), retry: 'transient', run: (node) => useOutputAsInput(services, specs, node) },
  };
  return { commands, disposables, diagnostics };
}
