import vscode = require('vscode');
import type { InsightDiagnostic } from '../validate/types';
import { DIAGNOSTIC_SOURCE, type InsightDiagnostics } from './diagnostics';
import { toRange } from './documents';
import { COMMANDS } from '../../commandIds';

/** Turns the validator's fixes into quick fixes on the matching diagnostics. */
export class InsightCodeActions implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  constructor(private readonly diagnostics: InsightDiagnostics) {}

  provideCodeActions(doc: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const items = this.diagnostics.current(doc);
    if (!items) return [];
    const actions: vscode.CodeAction[] = [];
    for (const diag of context.diagnostics) {
      if (diag.source !== DIAGNOSTIC_SOURCE) continue;
      const item = items.find((d) => d.code === diag.code && toRange(doc, d.offset, d.length).isEqual(diag.range));
      if (item) actions.push(...this.actionsFor(doc, diag, item));
    }
    return actions;
  }

  private actionsFor(doc: vscode.TextDocument, diag: vscode.Diagnostic, item: InsightDiagnostic): vscode.CodeAction[] {
    return item.fixes.map((fix) => {
      const action = new vscode.CodeAction(fix.title, vscode.CodeActionKind.QuickFix);
      action.diagnostics = [diag];
      if (fix.kind === 'edit') {
        const edit = new vscode.WorkspaceEdit();
        for (const e of fix.edits()) edit.replace(doc.uri, toRange(doc, e.offset, e.length), e.content);
        action.edit = edit;
        action.isPreferred = fix.preferred === true;
      } else {
        action.command = { command: COMMANDS.addAssetSource, title: fix.title, arguments: [doc.uri, fix.inputIndex] };
      }
      return action;
    });
  }
}
