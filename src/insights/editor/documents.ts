import vscode = require('vscode');
import { INSIGHT_FILE_SUFFIX } from '../build/document';

/** Which documents are insight input files: `*.insight.json`, on disk or untitled. */
export const INSIGHT_SELECTOR: vscode.DocumentSelector = [
  { language: 'json', pattern: `**/*${INSIGHT_FILE_SUFFIX}` },
  { language: 'jsonc', pattern: `**/*${INSIGHT_FILE_SUFFIX}` },
];

export function isInsightDocument(doc: vscode.TextDocument): boolean {
  return doc.uri.path.endsWith(INSIGHT_FILE_SUFFIX);
}

/** The editor's indentation for `doc`, so inserted JSON matches the file. */
export function layoutFor(doc: vscode.TextDocument): { tabSize: number; insertSpaces: boolean; eol: string } {
  const editor = vscode.window.visibleTextEditors.find((e) => e.document === doc);
  const tabSize = typeof editor?.options.tabSize === 'number' ? editor.options.tabSize : 2;
  const insertSpaces = typeof editor?.options.insertSpaces === 'boolean' ? editor.options.insertSpaces : true;
  return { tabSize, insertSpaces, eol: doc.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n' };
}

/** The AOI an insight file was built for, remembered per file (Estimate and Run need it). */
const AOI_KEY = 'eoImagery.insightAoi:';

export function rememberAoi(state: vscode.Memento, uri: vscode.Uri, aoiId: string): Thenable<void> {
  return state.update(AOI_KEY + uri.toString(), aoiId);
}

export function rememberedAoi(state: vscode.Memento, uri: vscode.Uri): string | undefined {
  return state.get<string>(AOI_KEY + uri.toString());
}
