import vscode = require('vscode');
import { COMMANDS } from '../../commandIds';

/** "Validate against block spec", "Estimate" and "Run" above the file's first line. */
export class InsightCodeLenses implements vscode.CodeLensProvider {
  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const first = doc.getText().search(/\S/);
    const at = doc.positionAt(Math.max(0, first));
    const range = new vscode.Range(at, at);
    const lens = (title: string, command: string, tooltip: string): vscode.CodeLens =>
      new vscode.CodeLens(range, { title, command, tooltip, arguments: [doc.uri] });
    return [
      lens('Validate against block spec', COMMANDS.validateInsight, 'Fetch the block spec and check every input against it'),
      lens('Estimate', COMMANDS.estimateInsight, 'Ask the service what running this insight would cost'),
      lens('Run', COMMANDS.runInsight, 'Run this insight on its AOI'),
    ];
  }
}
