// The quick fixes VS Code offers, asked for as the light bulb asks: shared by the insights
// suite and the quick-fix benchmark's probe.
import * as vscode from 'vscode';

/**
 * The quick fixes VS Code offers for `range`, the first `resolve` of them resolved as the light
 * bulb resolves the one a person picks (edits are computed then, not when the list is asked for).
 */
export async function quickFixes(uri: vscode.Uri, range: vscode.Range, resolve = 50): Promise<vscode.CodeAction[]> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await vscode.commands.executeCommand<vscode.CodeAction[]>(
        'vscode.executeCodeActionProvider',
        uri,
        range,
        vscode.CodeActionKind.QuickFix.value,
        resolve,
      );
    } catch (e) {
      // The workbench cancels a request when the set of providers changes (JSON language
      // features starting for the file, an extension starting) and asks again, as the light bulb does.
      if (!(e instanceof Error && e.message === 'Canceled') || attempt >= 5) throw e;
    }
  }
}
