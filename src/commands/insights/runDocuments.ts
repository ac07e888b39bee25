import vscode = require('vscode');

export const RUN_SCHEME = 'eo-imagery-run';

/**
 * Read-only documents of insight runs: a run's input (JSON), a vector output (GeoJSON), an
 * output's value and properties. The text is fixed when opened; the run list is the source.
 */
export class RunDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.emitter.event;

  /** `scheme`: the URI scheme the provider is registered under (a job's task logs have their own). */
  constructor(
    readonly scheme = RUN_SCHEME,
    private readonly missing = vscode.l10n.t('// This insight run document is not loaded in this window. Open it again from the Projects view.\n'),
  ) {}

  /** `segments` name the document (AOI, run, what); the last one carries the extension. */
  put(segments: string[], text: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: this.scheme, path: `/${segments.map((s) => encodeURIComponent(s)).join('/')}` });
    this.texts.set(uri.toString(), text);
    this.emitter.fire(uri);
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? this.missing;
  }

  dispose(): void {
    this.emitter.dispose();
    this.texts.clear();
  }
}

/** Opens `uri` with `languageId` in a preview editor. */
export async function showDocument(uri: vscode.Uri, languageId: string): Promise<vscode.TextEditor> {
  let doc = await vscode.workspace.openTextDocument(uri);
  if (doc.languageId !== languageId) doc = await vscode.languages.setTextDocumentLanguage(doc, languageId);
  return vscode.window.showTextDocument(doc, { preview: true });
}
