import vscode = require('vscode');
import type { QuickFix, TextEdit } from '../validate/types';
import { DIAGNOSTIC_SOURCE, type InsightDiagnostics } from './diagnostics';
import { rangeAt } from '../../ui/liveDiagnostics';
import { COMMANDS } from '../../commandIds';

/**
 * Most quick fixes offered in one answer. A selection over a file with thousands of problems
 * would otherwise list thousands of actions (and VS Code shows only the first few anyway).
 */
export const MAX_ACTIONS_PER_REQUEST = 50;

/** A quick fix whose edit is computed only when it is resolved (applied or previewed). */
class InsightFixAction extends vscode.CodeAction {
  constructor(
    title: string,
    readonly doc: vscode.TextDocument,
    readonly version: number,
    readonly edits: () => TextEdit[],
  ) {
    super(title, vscode.CodeActionKind.QuickFix);
  }
}

/**
 * Turns the validator's fixes into quick fixes on the matching diagnostics. Diagnostics are
 * found through the index built when they were published, and the edits (some re-parse the
 * whole file) are computed in `resolveCodeAction`, for the one fix the person picks: the
 * light bulb of a 1 MB file with thousands of problems answers at once.
 */
export class InsightCodeActions implements vscode.CodeActionProvider<vscode.CodeAction> {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  constructor(private readonly diagnostics: InsightDiagnostics) {}

  provideCodeActions(doc: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const actions: vscode.CodeAction[] = [];
    for (const diag of context.diagnostics) {
      if (actions.length >= MAX_ACTIONS_PER_REQUEST) break;
      if (diag.source !== DIAGNOSTIC_SOURCE) continue;
      const item = this.diagnostics.find(doc, diag);
      if (!item) continue;
      for (const fix of item.fixes.slice(0, MAX_ACTIONS_PER_REQUEST - actions.length)) actions.push(this.actionFor(doc, diag, fix));
    }
    return actions;
  }

  resolveCodeAction(action: vscode.CodeAction): vscode.CodeAction {
    // A fix of an older text would edit the wrong place: it stays without an edit.
    if (!(action instanceof InsightFixAction) || action.doc.isClosed || action.doc.version !== action.version) return action;
    const { doc } = action;
    const edits = action.edits();
    const edit = new vscode.WorkspaceEdit();
    for (const e of edits) edit.replace(doc.uri, rangeAt(doc, e.offset, e.length), e.content);
    action.edit = edit;
    // Inserted lines may land below the screen (a missing input goes at the end of the
    // array, far from the diagnostic on "input"): scroll them into view once applied.
    const line = insertedLine(doc, edits);
    if (line !== undefined) action.command = { command: 'revealLine', title: action.title, arguments: [{ lineNumber: line, at: 'center' }] };
    return action;
  }

  private actionFor(doc: vscode.TextDocument, diag: vscode.Diagnostic, fix: QuickFix): vscode.CodeAction {
    if (fix.kind === 'pick-asset-source') {
      const action = new vscode.CodeAction(fix.title, vscode.CodeActionKind.QuickFix);
      action.diagnostics = [diag];
      action.command = { command: COMMANDS.addAssetSource, title: fix.title, arguments: [doc.uri, fix.inputIndex] };
      return action;
    }
    const action = new InsightFixAction(fix.title, doc, doc.version, fix.edits);
    action.diagnostics = [diag];
    action.isPreferred = fix.preferred === true;
    return action;
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
