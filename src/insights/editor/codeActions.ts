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
        const edits = fix.edits();
        for (const e of edits) edit.replace(doc.uri, toRange(doc, e.offset, e.length), e.content);
        action.edit = edit;
        action.isPreferred = fix.preferred === true;
        // Inserted lines may land below the screen (a missing input goes at the end of the
        // array, far from the diagnostic on "input"): scroll them into view once applied.
        const line = insertedLine(doc, edits);
        if (line !== undefined) action.command = { command: 'revealLine', title: fix.title, arguments: [{ lineNumber: line, at: 'center' }] };
      } else {
        action.command = { command: COMMANDS.addAssetSource, title: fix.title, arguments: [doc.uri, fix.inputIndex] };
      }
      return action;
    });
  }
}

/**
 * The first line an edit adds, as it will be numbered once the edits are applied (zero-based,
 * as `revealLine` takes it), or undefined when no edit adds a line.
 */
export function insertedLine(
  doc: { positionAt(offset: number): vscode.Position },
  edits: readonly { offset: number; length: number; content: string }[],
): number | undefined {
  let shift = 0;
  for (const e of [...edits].sort((a, b) => a.offset - b.offset)) {
    const removed = doc.positionAt(e.offset + e.length).line - doc.positionAt(e.offset).line;
    if (e.content.includes('\n')) {
      const start = e.content.search(/[^\s,]/);
      const before = start < 0 ? e.content : e.content.slice(0, start);
      return doc.positionAt(e.offset).line + shift + (before.match(/\n/g)?.length ?? 0);
    }
    shift -= removed;
  }
  return undefined;
}
